//! Python values to core values, with errors that name the offending value: the
//! integers every binding takes. A native class converts itself (its `FromPyObject`
//! in its own file), so this file uses none of them.
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyInt, PyMapping, PyString};

use crate::base::outcome::Outcome;

/// A non-negative integer up to 2**64 - 1: ints and anything with `__index__`
/// (numpy integers), but never bool, float or str, and never a silent cast.
pub fn uint(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an integer, not bool ({})",
            obj.repr()?
        )));
    }
    let value: i128 = match obj.extract() {
        Ok(value) => value,
        Err(err) if err.is_instance_of::<PyOverflowError>(obj.py()) => {
            // Beyond i128: only the sign is left to tell.
            return Err(if obj.lt(0)? {
                negative(what, obj)
            } else {
                too_large(what, obj)
            });
        }
        Err(_) => {
            return Err(PyTypeError::new_err(format!(
                "{what} must be an integer, not {} ({})",
                obj.get_type().name()?,
                obj.repr()?
            )))
        }
    };
    if value < 0 {
        return Err(negative(what, obj));
    }
    u64::try_from(value).map_err(|_| too_large(what, obj))
}

/// An integer argument under `uint`'s rules (pyo3 notes which argument failed), so
/// that counts and limits refuse bool, float and str as heaps do.
#[derive(Debug, Clone, Copy)]
pub struct UInt<T = u64>(pub T);

impl<'a, 'py, T: TryFrom<u64>> FromPyObject<'a, 'py> for UInt<T> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let value = uint(&obj, "the argument")?;
        T::try_from(value).map(UInt).map_err(|_| {
            // The largest T: the first power of two T cannot hold, less one.
            let bits = (1..64)
                .find(|&b| T::try_from(1u64 << b).is_err())
                .unwrap_or(64);
            too_large_for("the argument", &obj, bits)
        })
    }
}

fn negative(what: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    PyValueError::new_err(format!("{what} must not be negative, got {obj}"))
}

fn too_large(what: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    too_large_for(what, obj, 64)
}

fn too_large_for(what: &str, obj: &Bound<'_, PyAny>, bits: u32) -> PyErr {
    PyOverflowError::new_err(format!(
        "{what} is {obj}, over the largest allowed, 2**{bits} - 1"
    ))
}

/// An iterable of unsigned integers (a str or bytes is refused, not read as digits).
pub fn uints(obj: &Bound<'_, PyAny>, what: &str, item: &str) -> PyResult<Vec<u64>> {
    items(obj, what)?
        .iter()
        .enumerate()
        .map(|(i, value)| match plain(value) {
            Some(n) => Ok(n),
            // The item's name is written only for its error: formatting it for every
            // heap cost more than the conversion.
            None => uint(value, &format!("{item} {i}")),
        })
        .collect()
}

/// An int (exactly: not a bool) in 0..2**64, the common case; `None` for anything
/// else, which `uint` then refuses or converts with its message.
fn plain(obj: &Bound<'_, PyAny>) -> Option<u64> {
    if obj.is_exact_instance_of::<PyInt>() {
        obj.extract().ok()
    } else {
        None
    }
}

pub fn items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let refuse = || {
        PyTypeError::new_err(format!(
            "{what} must be an iterable of integers, not {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    };
    // A str would be read as digits, a mapping as its keys: neither is meant.
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.cast::<PyMapping>().is_ok()
    {
        return Err(refuse());
    }
    obj.try_iter().map_err(|_| refuse())?.collect()
}

/// A position's heap sizes as an argument: a `Position` as it is, anything else
/// under `uints`' rules (its `FromPyObject` is `Position`'s, in `position.rs`).
pub struct Heaps(pub Vec<u64>);

/// The heap sizes of a position: a `Position` as it is, else validated.
pub fn heaps(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    Ok(obj.extract::<Heaps>()?.0)
}

/// `nimkit.Outcome.P` or `.N` (the enum lives in Python, for its display).
pub fn py_outcome(py: Python<'_>, outcome: Outcome) -> PyResult<Bound<'_, PyAny>> {
    static OUTCOME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let enum_type = OUTCOME.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("nimkit.outcome")?.getattr("Outcome")?.unbind())
    })?;
    let name = match outcome {
        Outcome::P => "P",
        Outcome::N => "N",
        Outcome::D => "D",
    };
    enum_type.bind(py).getattr(name)
}
