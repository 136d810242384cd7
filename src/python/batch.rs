//! numpy arrays in, numpy arrays out: dtype dispatch, borrows, GIL release.
use numpy::{
    Element, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::IntoPyDict;

use super::convert::UInt;
use super::rules::PyRules;
use crate::batch;

/// The leading shape of a heap array (every axis but the last, which holds the heaps).
fn positions_shape(heaps: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    let array = heaps.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!(
            "heaps must be a numpy integer array, not {}",
            heaps
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    if !matches!(array.dtype().kind(), b'i' | b'u') {
        return Err(unsupported_dtype(heaps));
    }
    match array.shape().split_last() {
        Some((_, lead)) => Ok(lead.to_vec()),
        None => Err(crate::base::error::Error::NoHeapAxis.into()),
    }
}

/// `out` if given (checked for dtype; the core checks its shape), else a new array.
fn output<'py, O: Element>(
    py: Python<'py>,
    out: Option<&Bound<'py, PyAny>>,
    shape: &[usize],
    name: &str,
    heaps: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<O>>> {
    let Some(out) = out else {
        return Ok(PyArrayDyn::<O>::zeros(py, shape, false));
    };
    let out = out.cast::<PyArrayDyn<O>>().cloned().map_err(|_| {
        let wanted = numpy::dtype::<O>(py);
        let got = out
            .cast::<PyUntypedArray>()
            .map(|a| a.dtype().to_string())
            .unwrap_or_else(|_| "not an array".into());
        PyTypeError::new_err(format!(
            "{name} must be a numpy array of dtype {wanted}, got {got}"
        ))
    })?;
    if out.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "{name} has shape {:?}, but the positions have shape {shape:?}",
            out.shape()
        )));
    }
    overlap(py, heaps, &out, name)?;
    // Two positions would write the same element: the last would win, silently.
    if out
        .shape()
        .iter()
        .zip(out.strides())
        .any(|(&n, &s)| n > 1 && s == 0)
    {
        return Err(PyValueError::new_err(format!(
            "{name} has elements that share memory (a stride of 0): every position \
             needs its own"
        )));
    }
    Ok(out)
}

/// Refuse an output that shares memory with the heaps: numpy's borrow tracking sees
/// views of one base object, not two objects over the same memory (two
/// `np.frombuffer` of one buffer), and results written over heaps still to be read
/// would be wrong. numpy decides: a bounds test, then an exact one up to a bound.
fn overlap<O: Element>(
    py: Python<'_>,
    heaps: &Bound<'_, PyAny>,
    out: &Bound<'_, PyArrayDyn<O>>,
    name: &str,
) -> PyResult<()> {
    let numpy = py.import("numpy")?;
    if !numpy
        .call_method1("may_share_memory", (heaps, out))?
        .is_truthy()?
    {
        return Ok(());
    }
    let kwargs = [("max_work", 1_000_000u64)].into_py_dict(py)?;
    let shared = numpy
        .call_method("shares_memory", (heaps, out), Some(&kwargs))
        .map_or(Ok(true), |shared| shared.is_truthy())?;
    if shared {
        return Err(PyValueError::new_err(format!(
            "{name} overlaps the heaps in memory: results would overwrite heaps not yet read"
        )));
    }
    Ok(())
}

/// Whether there is no position, hence nothing to write (numpy gives empty arrays
/// strides of 0, which ndarray's mutable views refuse).
fn no_positions(shape: &[usize]) -> bool {
    shape.contains(&0)
}

/// The heap index and take arrays of `winning_move`.
type MoveArrays<'py> = (Bound<'py, PyArrayDyn<i64>>, Bound<'py, PyArrayDyn<u64>>);

fn borrow_error(name: &str, err: numpy::BorrowError) -> PyErr {
    PyValueError::new_err(format!(
        "{name} cannot be written: {err} (is it read-only, or does it overlap heaps?)"
    ))
}

/// Run `$body` with `$view` bound to a read-only ndarray view of `$heaps`, whatever
/// its integer dtype; any other dtype is a TypeError (never a silent cast).
macro_rules! with_heaps {
    ($heaps:expr, |$view:ident| $body:expr) => {{
        let heaps: &Bound<'_, PyAny> = $heaps;
        with_heaps!(@try heaps, $view, $body, u8, u16, u32, u64, i8, i16, i32, i64)
    }};
    (@try $heaps:ident, $view:ident, $body:expr, $t:ty $(, $rest:ty)*) => {
        if let Ok(array) = $heaps.cast::<PyArrayDyn<$t>>() {
            let borrowed = array.try_readonly().map_err(|e| PyValueError::new_err(e.to_string()))?;
            let $view = borrowed.as_array();
            $body
        } else {
            with_heaps!(@try $heaps, $view, $body $(, $rest)*)
        }
    };
    (@try $heaps:ident, $view:ident, $body:expr) => {
        Err(unsupported_dtype($heaps))
    };
}

fn unsupported_dtype(heaps: &Bound<'_, PyAny>) -> PyErr {
    let dtype = heaps.cast::<PyUntypedArray>().map(|a| a.dtype());
    match dtype {
        Ok(dtype) if dtype.is_native_byteorder() == Some(false) => PyTypeError::new_err(format!(
            "heaps has non-native byte order ({}); convert it with .astype(heaps.dtype.newbyteorder('='))",
            dtype.str().map_or_else(|_| "?".into(), |s| s.to_string())
        )),
        Ok(dtype) => PyTypeError::new_err(format!(
            "heaps must be an array of integers (int8..int64, uint8..uint64), not {dtype}"
        )),
        Err(_) => PyTypeError::new_err("heaps must be a numpy integer array"),
    }
}

/// A pyfunction with one output array of element type `$out`, filled by `$call`, which
/// sees the heaps as `view`, the rules, `max_positions` (the search limit where the
/// rules have no closed form) and the output array as `target`.
macro_rules! one_output {
    ($(#[$doc:meta])* $name:ident, $out:ty,
     |$view:ident, $rules:ident, $max_positions:ident, $target:ident| $call:expr) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = (heaps, rules, max_positions, out=None))]
        pub fn $name<'py>(
            py: Python<'py>,
            heaps: &Bound<'py, PyAny>,
            rules: &Bound<'py, PyRules>,
            max_positions: UInt,
            out: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyArrayDyn<$out>>> {
            let max_positions = max_positions.0;
            let rules = rules.get().rules();
            let shape = positions_shape(heaps)?;
            let result = output::<$out>(py, out, &shape, "out", heaps)?;
            with_heaps!(heaps, |view| {
                if no_positions(&shape) {
                    return Ok(result);
                }
                let mut written = result.try_readwrite().map_err(|e| borrow_error("out", e))?;
                let $target = written.as_array_mut();
                let ($view, $rules, $max_positions) = (view, &rules, max_positions);
                py.detach(|| $call)?;
                Ok::<_, PyErr>(())
            })?;
            Ok(result)
        }
    };
}

one_output!(
    /// Nim-sum of every position (no search is ever needed).
    batch_nim_sum, u64,
    |view, rules, _max_positions, target| batch::nim_sum(view, rules, target)
);
one_output!(
    /// Whether each position is a P-position.
    batch_is_p_position, bool,
    |view, rules, max_positions, target| batch::is_p_position(view, rules, max_positions, target)
);
one_output!(
    /// How many winning moves each position has.
    batch_count_winning_moves, i64,
    |view, rules, max_positions, target| {
        batch::count_winning_moves(view, rules, max_positions, target)
    }
);

/// The first winning move of each position: (heap index or -1, take or 0).
#[pyfunction]
#[pyo3(signature = (heaps, rules, max_positions, heap_out=None, take_out=None))]
pub fn batch_winning_move<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    max_positions: UInt,
    heap_out: Option<&Bound<'py, PyAny>>,
    take_out: Option<&Bound<'py, PyAny>>,
) -> PyResult<MoveArrays<'py>> {
    let max_positions = max_positions.0;
    let rules = rules.get().rules();
    let shape = positions_shape(heaps)?;
    let heap_result = output::<i64>(py, heap_out, &shape, "the heap output", heaps)?;
    let take_result = output::<u64>(py, take_out, &shape, "the take output", heaps)?;
    with_heaps!(heaps, |view| {
        if no_positions(&shape) {
            return Ok((heap_result, take_result));
        }
        let mut heap_written = heap_result
            .try_readwrite()
            .map_err(|e| borrow_error("the heap output", e))?;
        let mut take_written = take_result
            .try_readwrite()
            .map_err(|e| borrow_error("the take output", e))?;
        let (heap_target, take_target) = (heap_written.as_array_mut(), take_written.as_array_mut());
        py.detach(|| batch::winning_move(view, rules, max_positions, heap_target, take_target))?;
        Ok::<_, PyErr>(())
    })?;
    Ok((heap_result, take_result))
}

/// The first winning move of each position with the parts a split leaves:
/// (heap index or -1, take or 0, parts padded with zeros in a last axis of 3).
#[pyfunction]
#[pyo3(signature = (heaps, rules, max_positions))]
pub fn batch_winning_split<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    max_positions: UInt,
) -> PyResult<SplitArrays<'py>> {
    let max_positions = max_positions.0;
    let rules = rules.get().rules();
    let shape = positions_shape(heaps)?;
    let mut into_shape = shape.clone();
    into_shape.push(3);
    let heap_result = PyArrayDyn::<i64>::zeros(py, shape.as_slice(), false);
    let take_result = PyArrayDyn::<u64>::zeros(py, shape.as_slice(), false);
    let into_result = PyArrayDyn::<u64>::zeros(py, into_shape.as_slice(), false);
    with_heaps!(heaps, |view| {
        if no_positions(&shape) {
            return Ok((heap_result, take_result, into_result));
        }
        let mut heap_written = heap_result.readwrite();
        let mut take_written = take_result.readwrite();
        let mut into_written = into_result.readwrite();
        let targets = (
            heap_written.as_array_mut(),
            take_written.as_array_mut(),
            into_written.as_array_mut(),
        );
        py.detach(|| {
            batch::winning_split(view, rules, max_positions, targets.0, targets.1, targets.2)
        })?;
        Ok::<_, PyErr>(())
    })?;
    Ok((heap_result, take_result, into_result))
}

/// The heap index, take and parts arrays of `winning_split`.
type SplitArrays<'py> = (
    Bound<'py, PyArrayDyn<i64>>,
    Bound<'py, PyArrayDyn<u64>>,
    Bound<'py, PyArrayDyn<u64>>,
);
