//! `nimkit.SubtractionGame`: Grundy sequences of subtraction games.
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use std::sync::Arc;

use super::convert::{self, UInt};
use super::quotient::PyMisereQuotient;
use crate::heap::code::{TakeAndBreak, MAX_DIGITS};
use crate::heap::subtraction::{GrundySequence, SubtractionSet};

/// A subtraction game: a move takes `s` objects from one heap, `s` in a finite set.
///
/// Its Grundy sequence is found once, exactly (a repeated window as long as the
/// largest element proves the period); then `grundy(n)` is O(1) for any heap up to
/// 2**64 - 1, and positions of several heaps are solved in normal play by the XOR.
#[pyclass(name = "SubtractionGame", module = "nimkit", frozen, eq, hash)]
#[derive(PartialEq, Hash)]
pub struct PySubtractionGame(Arc<GrundySequence>);

impl PySubtractionGame {
    /// The Grundy sequence, shared with the rules that use it.
    pub fn sequence(&self) -> Arc<GrundySequence> {
        Arc::clone(&self.0)
    }
}

impl From<Arc<GrundySequence>> for PySubtractionGame {
    fn from(sequence: Arc<GrundySequence>) -> Self {
        PySubtractionGame(sequence)
    }
}

#[pymethods]
impl PySubtractionGame {
    #[new]
    #[pyo3(
        signature = (take, max_length = UInt(100_000_000)),
        text_signature = "(take, max_length=100000000)"
    )]
    fn new(py: Python<'_>, take: &Bound<'_, PyAny>, max_length: UInt<usize>) -> PyResult<Self> {
        let max_length = max_length.0;
        if take.is_instance_of::<pyo3::types::PyString>()
            || take.is_instance_of::<pyo3::types::PyInt>()
        {
            return Err(PyTypeError::new_err(
                "take must be a collection of positive integers, e.g. {1, 3, 4}",
            ));
        }
        let elements = convert::uints(take, "take", "element")?;
        let set = SubtractionSet::new(elements)?;
        Ok(PySubtractionGame(Arc::new(
            py.detach(|| GrundySequence::find(set, max_length))?,
        )))
    }

    /// The subtraction set, sorted.
    #[getter]
    fn take<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.set().elements())
    }

    /// The misère quotient of the game's heaps up to ``max_heap``: the same as
    /// ``TakeAndBreak(code).misere_quotient`` for the game's code (digit 3 at each
    /// element of the set; elements up to 256).
    ///
    /// >>> SubtractionGame({1, 3, 4}).misere_quotient().code
    /// '0.3033'
    #[pyo3(
        signature = (max_heap = UInt(300), progress = false),
        text_signature = "($self, max_heap=300, progress=False)"
    )]
    fn misere_quotient(
        &self,
        py: Python<'_>,
        max_heap: UInt<usize>,
        progress: bool,
    ) -> PyResult<PyMisereQuotient> {
        let max_heap = max_heap.0;
        let set = self.0.set().elements();
        let code = TakeAndBreak::subtraction_code(set).ok_or_else(|| {
            PyValueError::new_err(format!(
                "the subtraction set's largest element, {}, is over {MAX_DIGITS}: no \
                 take-and-break code holds it",
                self.0.set().max()
            ))
        })?;
        PyMisereQuotient::compute(
            py,
            TakeAndBreak::shared(&code)?,
            max_heap,
            crate::misere::monoid::MAX_PRODUCT,
            progress,
        )
    }

    /// (preperiod, period): g(n + period) == g(n) for every n >= preperiod.
    fn period(&self) -> (usize, usize) {
        self.0.period()
    }

    /// The Grundy value of a heap of `n` objects.
    fn grundy(&self, n: &Bound<'_, PyAny>) -> PyResult<u16> {
        Ok(self.0.grundy(convert::uint(n, "n")?))
    }

    /// The Grundy values of heaps 0 .. count - 1 as a uint16 array.
    fn grundy_sequence<'py>(
        &self,
        py: Python<'py>,
        count: UInt<usize>,
    ) -> PyResult<Bound<'py, PyArray1<u16>>> {
        let count = count.0;
        Ok(py.detach(|| self.0.first(count))?.into_pyarray(py))
    }

    /// XOR of the heaps' Grundy values.
    fn nim_sum(&self, heaps: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.0.nim_sum(&convert::heaps(heaps)?))
    }

    /// Whether the player to move loses in normal play (nim-sum 0).
    fn is_p_position(&self, heaps: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.nim_sum(heaps)? == 0)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyTuple>,))> {
        let take = PyTuple::new(slf.py(), slf.get().0.set().elements())?;
        Ok((slf.get_type().into_any(), (take,)))
    }

    fn __repr__(&self) -> String {
        let elements: Vec<String> = self.0.set().elements().iter().map(u64::to_string).collect();
        format!("SubtractionGame({{{}}})", elements.join(", "))
    }
}
