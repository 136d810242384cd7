//! P-position tables and exact counts of a box.
use num_bigint::BigUint;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::convert::{self, UInt};
use super::rules::PyRules;
use crate::solve::tables;

/// Every P-position of the box `0..=bounds[i]`, in lexicographic order, as a
/// (count, heaps) uint64 array; refuses more than `max_rows` rows.
#[pyfunction]
pub fn p_positions<'py>(
    py: Python<'py>,
    bounds: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    max_rows: UInt,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let max_rows = max_rows.0;
    let (bounds, rules) = (
        convert::uints(bounds, "bounds", "bound")?,
        rules.get().rules(),
    );
    let count = py.detach(|| tables::count_p_positions(&bounds, rules))?;
    if count > BigUint::from(max_rows) {
        return Err(PyValueError::new_err(format!(
            "the box holds {count} P-positions, more than max_rows={max_rows}"
        )));
    }
    let flat = py.detach(|| tables::p_positions(&bounds, rules))?;
    let rows = usize::try_from(count).expect("at most max_rows rows");
    let table = Array2::from_shape_vec((rows, bounds.len()), flat)
        .expect("the listing has one row per counted P-position");
    Ok(table.into_pyarray(py))
}

/// The exact number of P-positions of the box `0..=bounds[i]`.
#[pyfunction]
pub fn count_p_positions(
    py: Python<'_>,
    bounds: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
) -> PyResult<BigUint> {
    let (bounds, rules) = (
        convert::uints(bounds, "bounds", "bound")?,
        rules.get().rules(),
    );
    Ok(py.detach(|| tables::count_p_positions(&bounds, rules))?)
}
