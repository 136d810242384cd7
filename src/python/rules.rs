//! `nimkit._core.Rules`: rules validated once, at construction, and held by every call
//! that needs them (no call converts or validates them again).
use pyo3::prelude::*;

use super::convert;
use crate::rules::Rules;

/// Normal or misère play and the heap rule, validated. ``nimkit.Rules`` subclasses it
/// with the keyword constructor and the display.
#[pyclass(name = "Rules", module = "nimkit._core", frozen, subclass, eq, hash)]
#[derive(PartialEq, Hash)]
pub struct PyRules(Rules);

impl From<Rules> for PyRules {
    fn from(rules: Rules) -> Self {
        PyRules(rules)
    }
}

impl PyRules {
    /// The core rules.
    pub fn rules(&self) -> &Rules {
        &self.0
    }
}

#[pymethods]
impl PyRules {
    /// Rules from the ending and the heap rule: None (no limit), an int limit, a
    /// SubtractionGame or a TakeAndBreak for every heap, or a tuple with one of those
    /// (or None) per heap.
    #[new]
    fn new(misere: bool, take_rule: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyRules(convert::rules(misere, take_rule)?))
    }

    /// True when taking the last object loses (the player who cannot move wins).
    #[getter]
    fn misere(&self) -> bool {
        self.0.is_misere()
    }

    /// The heap rule as given, normalised: None, an int, a SubtractionGame, a
    /// TakeAndBreak, or a tuple of those (or None) per heap.
    #[getter]
    fn take_rule<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::take_limit_to_py(py, self.0.take_limit())
    }

    /// Whether outcomes follow from Grundy values: always in normal play, and in
    /// misère play unless some heap has a subtraction set other than {1..k} or a
    /// take-and-break code. Without a closed form, outcomes come from exact search.
    #[getter]
    fn has_closed_form(&self) -> bool {
        self.0.has_closed_form()
    }

    /// Whether a move may split a heap (positions then change their heap count).
    #[getter]
    fn splits(&self) -> bool {
        self.0.splits()
    }
}
