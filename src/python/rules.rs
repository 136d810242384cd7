//! `nimkit._core.Rules`: rules validated once, at construction, and held by every call
//! that needs them (no call converts or validates them again).
use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyTuple};
use pyo3::IntoPyObjectExt;

use super::code::PyTakeAndBreak;
use super::convert;
use super::subtraction::PySubtractionGame;
use crate::heap::rules::{Rules, TakeLimit};
use crate::heap::HeapRule;
use crate::solve::solver::Solvers;

/// Normal or misère play and the heap rule, validated. ``nimkit.Rules`` subclasses it
/// with the keyword constructor and the display.
#[pyclass(name = "Rules", module = "nimkit._core", frozen, subclass, eq, hash)]
#[derive(PartialEq, Hash)]
pub struct PyRules {
    rules: Rules,
    /// The searches questions asked under these rules made (equal whatever they hold).
    solvers: Solvers,
}

impl From<Rules> for PyRules {
    fn from(rules: Rules) -> Self {
        PyRules {
            rules,
            solvers: Solvers::default(),
        }
    }
}

impl PyRules {
    /// The core rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The recent solvers of questions asked under these rules.
    pub fn solvers(&self) -> &Solvers {
        &self.solvers
    }
}

#[pymethods]
impl PyRules {
    /// Rules from the ending and the heap rule: None (no limit), an int limit, a
    /// SubtractionGame or a TakeAndBreak for every heap, or a tuple with one of those
    /// (or None) per heap.
    #[new]
    fn new(misere: bool, take_rule: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyRules::from(rules(misere, take_rule)?))
    }

    /// True when taking the last object loses (the player who cannot move wins).
    #[getter]
    fn misere(&self) -> bool {
        self.rules.is_misere()
    }

    /// The heap rule as given, normalised: None, an int, a SubtractionGame, a
    /// TakeAndBreak, or a tuple of those (or None) per heap.
    #[getter]
    fn take_rule<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        take_limit_to_py(py, self.rules.take_limit())
    }

    /// Whether outcomes follow from Grundy values: always in normal play, and in
    /// misère play unless some heap has a subtraction set other than {1..k} or a
    /// take-and-break code. Without a closed form, outcomes come from exact search.
    #[getter]
    fn has_closed_form(&self) -> bool {
        self.rules.has_closed_form()
    }

    /// Whether a move may split a heap (positions then change their heap count).
    #[getter]
    fn splits(&self) -> bool {
        self.rules.splits()
    }
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
    convert::uint(obj, what).map(HeapRule::Limit)
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
    let takes = convert::items(obj, "max_take").map_err(|_| {
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
