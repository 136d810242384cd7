//! One position at a time: validation, closed forms, moves, and the reference search.
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArrayDyn};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::convert::{self, UInt};
use super::moves::{py_moves, PyMove};
use super::position::PyPosition;
use super::rules::PyRules;
use crate::base::outcome::Outcome;
use crate::search;
use crate::solve::theory::Method;

/// Validate heap sizes; return them as a tuple of ints.
#[pyfunction]
pub fn check_heaps<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, convert::heaps(heaps)?)
}

/// What `analyse` returns: Grundy values, nim-sum, whether P, the winning moves,
/// whether they are every one, and what decided them.
type Analysed = (Vec<u64>, u64, bool, Vec<PyMove>, bool, &'static str);

/// Grundy values, nim-sum, whether P, every winning move (or only the first, where a
/// heap has too many options to list them all, with `false` after the moves), and
/// what decided them ("closed form", "search" or "misère quotient"), in one call;
/// rules with no closed form search the positions the position reaches, up to
/// `max_positions`.
#[pyfunction]
pub fn analyse(
    py: Python<'_>,
    position: &Bound<'_, PyPosition>,
    rules: &Bound<'_, PyRules>,
    max_positions: UInt,
) -> PyResult<Analysed> {
    let max_positions = max_positions.0;
    let (heaps, rules) = (position.get().heaps(), rules.get());
    let (a, complete) = py.detach(|| {
        let solver = rules.solvers().get(heaps, rules.rules(), max_positions)?;
        solver.analyse_listing(heaps)
    })?;
    let method = match a.method {
        Method::ClosedForm => "closed form",
        Method::Search => "search",
        Method::Quotient => "misère quotient",
    };
    Ok((
        a.grundy,
        a.nim_sum,
        a.outcome == Outcome::P,
        py_moves(a.winning_moves),
        complete,
        method,
    ))
}

/// Whether each position is P, and its remoteness (None unless asked for).
type SolvedBox<'py> = (
    Bound<'py, PyArrayDyn<bool>>,
    Option<Bound<'py, PyArrayDyn<u32>>>,
);

/// The reference search over the box `0..=bounds[i]`: whether each position is P,
/// and with `remoteness` its remoteness, as arrays of shape `bounds + 1`.
#[pyfunction]
#[pyo3(signature = (bounds, rules, max_positions, remoteness = false))]
pub fn solve_box<'py>(
    py: Python<'py>,
    bounds: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    max_positions: UInt,
    remoteness: bool,
) -> PyResult<SolvedBox<'py>> {
    let max_positions = max_positions.0;
    let (bounds, rules) = (
        convert::uints(bounds, "bounds", "bound")?,
        rules.get().rules(),
    );
    let (is_p, distances) =
        py.detach(|| search::solve_box(&bounds, rules, max_positions, remoteness))?;
    let shape: Vec<usize> = bounds.iter().map(|&b| b as usize + 1).collect();
    let is_p = boxed(&shape, is_p).into_pyarray(py);
    let distances = distances.map(|d| boxed(&shape, d).into_pyarray(py));
    Ok((is_p, distances))
}

/// Whether each position of the box is P, by the fast per-line search.
#[pyfunction]
pub fn solve_outcomes<'py>(
    py: Python<'py>,
    bounds: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    max_positions: UInt,
) -> PyResult<Bound<'py, PyArrayDyn<bool>>> {
    let max_positions = max_positions.0;
    let (bounds, rules) = (
        convert::uints(bounds, "bounds", "bound")?,
        rules.get().rules(),
    );
    let is_p = py.detach(|| search::solve_outcomes(&bounds, rules, max_positions))?;
    let shape: Vec<usize> = bounds.iter().map(|&b| b as usize + 1).collect();
    Ok(boxed(&shape, is_p).into_pyarray(py))
}

/// One value per position of the box, shaped as the box.
fn boxed<T>(shape: &[usize], values: Vec<T>) -> ArrayD<T> {
    ArrayD::from_shape_vec(IxDyn(shape), values)
        .expect("the box solution has one entry per position of the box")
}
