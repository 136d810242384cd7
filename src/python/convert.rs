//! Python values to core values, with errors that name the offending value.
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::sync::Arc;

use pyo3::types::{PyBool, PyBytes, PyInt, PyMapping, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use super::code::PyTakeAndBreak;
use super::position::PyPosition;
use super::subtraction::PySubtractionGame;
use crate::heap::HeapRule;
use crate::rules::{Rules, TakeLimit};

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
        T::try_from(value)
            .map(UInt)
            .map_err(|_| too_large("the argument", &obj))
    }
}

fn negative(what: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    PyValueError::new_err(format!("{what} must not be negative, got {obj}"))
}

fn too_large(what: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    PyOverflowError::new_err(format!(
        "{what} is {obj}, over the largest allowed, 2**64 - 1"
    ))
}

/// An iterable of unsigned integers (a str or bytes is refused, not read as digits).
pub fn uints(obj: &Bound<'_, PyAny>, what: &str, item: &str) -> PyResult<Vec<u64>> {
    items(obj, what)?
        .iter()
        .enumerate()
        .map(|(i, value)| uint(value, &format!("{item} {i}")))
        .collect()
}

fn items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
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

/// The heap sizes of a position: a `Position` as it is, else validated.
pub fn heaps(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    if let Ok(position) = obj.cast::<PyPosition>() {
        return Ok(position.get().heaps().to_vec());
    }
    uints(obj, "heaps", "heap")
}

/// The rule of one heap: None (no limit), an integer limit, a SubtractionGame or a
/// TakeAndBreak.
fn heap_rule(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<HeapRule> {
    if obj.is_none() {
        return Ok(HeapRule::Nim);
    }
    if let Ok(game) = obj.cast::<PySubtractionGame>() {
        return Ok(HeapRule::Set(game.get().sequence()));
    }
    if let Ok(code) = obj.cast::<PyTakeAndBreak>() {
        return Ok(HeapRule::Code(code.get().rule()));
    }
    uint(obj, what).map(HeapRule::Limit)
}

/// The take rule as nimkit.Rules passes it: None (no limit), one integer limit or one
/// SubtractionGame or TakeAndBreak for every heap, or a sequence with one of those
/// (or None) per heap.
pub fn take_limit(obj: &Bound<'_, PyAny>) -> PyResult<TakeLimit> {
    let single = obj.is_none()
        || obj.cast::<PySubtractionGame>().is_ok()
        || obj.cast::<PyTakeAndBreak>().is_ok()
        || obj.is_instance_of::<PyInt>()
        || obj.hasattr("__index__")?;
    if single {
        return heap_rule(obj, "max_take").map(TakeLimit::Uniform);
    }
    let takes = items(obj, "max_take").map_err(|_| {
        PyTypeError::new_err(format!(
            "max_take must be None, an integer >= 1, or one integer or None per heap, not {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    takes
        .iter()
        .enumerate()
        .map(|(i, take)| heap_rule(take, &format!("max_take for heap {i}")))
        .collect::<PyResult<_>>()
        .map(TakeLimit::PerHeap)
}

/// Validated rules from the two arguments every Python entry point takes.
pub fn rules(misere: bool, max_take: &Bound<'_, PyAny>) -> PyResult<Rules> {
    Ok(Rules::new(misere, take_limit(max_take)?)?)
}

/// A take rule as Python sees it: None, an int, a SubtractionGame, a TakeAndBreak, or
/// a tuple of those.
pub fn take_limit_to_py<'py>(py: Python<'py>, limit: &TakeLimit) -> PyResult<Bound<'py, PyAny>> {
    let heap = |rule: &HeapRule| match rule {
        HeapRule::Nim => Ok(py.None().into_bound(py)),
        HeapRule::Limit(k) => k.into_bound_py_any(py),
        HeapRule::Set(set) => PySubtractionGame::from(Arc::clone(set)).into_bound_py_any(py),
        HeapRule::Code(code) => PyTakeAndBreak::from(Arc::clone(code)).into_bound_py_any(py),
    };
    match limit {
        TakeLimit::Uniform(rule) => heap(rule),
        TakeLimit::PerHeap(rules) => {
            let items = rules.iter().map(heap).collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, items)?.into_any())
        }
    }
}
