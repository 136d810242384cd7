//! `nimkit.TakeAndBreak`: take-and-break codes and their Grundy sequences.
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use std::sync::Arc;

use super::convert;
use crate::code::TakeAndBreak;

/// The most values `grundy_sequence` returns at once (16 GiB of uint32).
const MAX_SEQUENCE: usize = 1 << 32;

/// A take-and-break game given by its code (Winning Ways / CGSuite notation), e.g.
/// ``TakeAndBreak("0.77")`` (Kayles), ``"0.07"`` (Dawson's Kayles), ``"4!.0"``
/// (Grundy's game).
///
/// Digit ``t`` of the code (``d0.d1d2...``) says what taking ``t`` may leave: bit 1
/// nothing, bit 2 one heap, bit 4 two heaps, bit 8 three (hexadecimal); ``d0`` splits
/// without taking; ``!`` asks the heaps left to be pairwise different. Grundy values
/// are computed on demand and cached; once a period is proven (octal periodicity
/// theorem), a heap of any size up to 2**64 - 1 is O(1). Without a proven period,
/// values are computed up to ``naive_limit``.
///
/// >>> kayles = TakeAndBreak("0.77")
/// >>> [kayles.grundy(n) for n in range(1, 11)]
/// [1, 2, 3, 1, 4, 3, 2, 1, 4, 2]
/// >>> kayles.period()
/// (71, 12)
#[pyclass(name = "TakeAndBreak", module = "nimkit", frozen, eq, hash)]
#[derive(PartialEq, Hash)]
pub struct PyTakeAndBreak(Arc<TakeAndBreak>);

impl PyTakeAndBreak {
    /// The rule, shared with the Rules that use it.
    pub fn rule(&self) -> Arc<TakeAndBreak> {
        Arc::clone(&self.0)
    }
}

impl From<Arc<TakeAndBreak>> for PyTakeAndBreak {
    fn from(rule: Arc<TakeAndBreak>) -> Self {
        PyTakeAndBreak(rule)
    }
}

#[pymethods]
impl PyTakeAndBreak {
    #[new]
    fn new(code: &str) -> PyResult<Self> {
        Ok(PyTakeAndBreak(Arc::new(TakeAndBreak::parse(code)?)))
    }

    /// The code in canonical form, e.g. ``"0.77"`` or ``"4!.0"``.
    #[getter]
    fn code(&self) -> String {
        self.0.code()
    }

    /// The largest number of objects one move takes.
    #[getter]
    fn max_take(&self) -> u64 {
        self.0.max_take()
    }

    /// Whether some move splits a heap into two or three.
    #[getter]
    fn splits(&self) -> bool {
        self.0.splits()
    }

    /// The largest heap whose value is computed without a proven period.
    #[getter]
    fn naive_limit(&self) -> u64 {
        self.0.naive_limit()
    }

    /// The Grundy value of a heap of ``n`` objects.
    fn grundy(&self, py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<u32> {
        let n = convert::uint(n, "n")?;
        let rule = &self.0;
        Ok(py.detach(|| rule.ensure(n).map(|()| rule.grundy(n)))?)
    }

    /// The Grundy values of heaps ``0 .. count - 1`` as a uint32 array.
    fn grundy_sequence<'py>(
        &self,
        py: Python<'py>,
        count: usize,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        if count > MAX_SEQUENCE {
            return Err(PyValueError::new_err(format!(
                "count is {count}, over the most returned at once, {MAX_SEQUENCE}"
            )));
        }
        let rule = &self.0;
        let values = py.detach(|| {
            rule.ensure(count.saturating_sub(1) as u64)
                .and_then(|()| rule.first(count))
        })?;
        Ok(values.into_pyarray(py))
    }

    /// ``(preperiod, period)`` once proven by the values of heaps up to ``max_heap``
    /// (default and most: ``naive_limit``), else None. ``G(n + period) == G(n)`` for
    /// every ``n >= preperiod``; the preperiod counts heap 0. Codes with ``!`` prove
    /// no period.
    #[pyo3(signature = (max_heap = None))]
    fn period(&self, py: Python<'_>, max_heap: Option<u64>) -> Option<(usize, usize)> {
        let rule = &self.0;
        let top = max_heap.unwrap_or(u64::MAX).min(rule.naive_limit());
        py.detach(|| {
            // Past the limit without a period, `ensure` says so; the answer is None.
            let _ = rule.ensure(top);
            rule.period()
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.code(),)))
    }

    fn __repr__(&self) -> String {
        format!("TakeAndBreak({:?})", self.0.code())
    }
}
