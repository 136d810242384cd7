//! One position at a time: validation, closed forms, moves, and the reference search.
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArrayDyn};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::convert;
use crate::error::Error;
use crate::position::{check_move, Move, Position};
use crate::search::{self, BoxSolution};
use crate::solver::Solver;
use crate::theory;

type Moves = Vec<(usize, u64)>;

fn pairs(moves: impl IntoIterator<Item = Move>) -> Moves {
    moves.into_iter().map(|m| (m.heap, m.take)).collect()
}

/// Validate heap sizes; return them as a tuple of ints.
#[pyfunction]
pub fn check_heaps<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, convert::heaps(heaps)?)
}

/// Validate rules; return the take rule normalised (None, an int, a SubtractionGame, or
/// a tuple of those per heap).
#[pyfunction]
pub fn check_rules<'py>(
    py: Python<'py>,
    misere: bool,
    take_rule: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = convert::rules(misere, take_rule)?;
    convert::take_limit_to_py(py, rules.take_limit())
}

/// Whether outcomes follow from Grundy values (else they need search).
#[pyfunction]
pub fn has_closed_form(misere: bool, take_rule: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(convert::rules(misere, take_rule)?.has_closed_form())
}

/// Each heap's Grundy value and their XOR: no search, whatever the rules.
#[pyfunction]
pub fn grundy_values(
    heaps: &Bound<'_, PyAny>,
    misere: bool,
    take_rule: &Bound<'_, PyAny>,
) -> PyResult<(Vec<u64>, u64)> {
    let rules = convert::rules(misere, take_rule)?;
    let heaps = convert::heaps(heaps)?;
    Ok((
        theory::grundy_values(&heaps, &rules)?,
        theory::nim_sum(&heaps, &rules)?,
    ))
}

/// Validate a move's heap index and take; return them as ints.
#[pyfunction]
pub fn check_move_args(heap: &Bound<'_, PyAny>, take: &Bound<'_, PyAny>) -> PyResult<(usize, u64)> {
    let heap = convert::uint(heap, "heap")?;
    let take = convert::uint(take, "take")?;
    if take == 0 {
        return Err(Error::TakeNothing.into());
    }
    // A heap index past usize cannot name a heap of any position in memory.
    Ok((usize::try_from(heap).unwrap_or(usize::MAX), take))
}

/// Grundy values, nim-sum, whether P, and every winning move, in one call; rules with
/// no closed form search the box below the position, up to `max_positions`.
#[pyfunction]
pub fn analyse(
    py: Python<'_>,
    heaps: &Bound<'_, PyAny>,
    misere: bool,
    take_rule: &Bound<'_, PyAny>,
    max_positions: u64,
) -> PyResult<(Vec<u64>, u64, bool, Moves)> {
    let rules = convert::rules(misere, take_rule)?;
    let heaps = convert::heaps(heaps)?;
    let a = py.detach(|| {
        Solver::new(&heaps, &rules, max_positions).map(|solver| solver.analyse(&heaps))
    })?;
    Ok((
        a.grundy,
        a.nim_sum,
        a.outcome == theory::Outcome::P,
        pairs(a.winning_moves),
    ))
}

/// The heaps after a move, which must be legal under the rules.
#[pyfunction]
pub fn after<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
    heap: usize,
    take: u64,
    misere: bool,
    take_rule: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyTuple>> {
    let rules = convert::rules(misere, take_rule)?;
    let position = Position::new(convert::heaps(heaps)?).after(Move::new(heap, take), &rules)?;
    PyTuple::new(py, position.heaps())
}

/// Whether a move is legal: None if so, else the reason.
#[pyfunction]
pub fn illegal_reason(
    heaps: &Bound<'_, PyAny>,
    heap: usize,
    take: u64,
    misere: bool,
    take_rule: &Bound<'_, PyAny>,
) -> PyResult<Option<String>> {
    let rules = convert::rules(misere, take_rule)?;
    let heaps = convert::heaps(heaps)?;
    rules.check_heaps(heaps.len())?;
    Ok(check_move(&heaps, Move::new(heap, take), &rules)
        .err()
        .map(|e| e.to_string()))
}

/// Every legal move; refuses to list more than `limit`.
#[pyfunction]
pub fn legal_moves(
    heaps: &Bound<'_, PyAny>,
    misere: bool,
    take_rule: &Bound<'_, PyAny>,
    limit: u64,
) -> PyResult<Moves> {
    let rules = convert::rules(misere, take_rule)?;
    let position = Position::new(convert::heaps(heaps)?);
    let count = position.count_moves(&rules)?;
    if count > u128::from(limit) {
        return Err(PyValueError::new_err(format!(
            "the position has {count} legal moves, more than the {limit} that may be listed"
        )));
    }
    let moves = pairs(position.moves(&rules)?);
    Ok(moves)
}

/// Whether each position is P, and its remoteness (None unless asked for).
type SolvedBox<'py> = (
    Bound<'py, PyArrayDyn<bool>>,
    Option<Bound<'py, PyArrayDyn<u32>>>,
);

/// The reference search over the box `0..=bounds[i]`: whether each position is P,
/// and with `remoteness` its remoteness, as arrays of shape `bounds + 1`.
#[pyfunction]
#[pyo3(signature = (bounds, misere, take_rule, max_positions, remoteness = false))]
pub fn solve_box<'py>(
    py: Python<'py>,
    bounds: &Bound<'py, PyAny>,
    misere: bool,
    take_rule: &Bound<'py, PyAny>,
    max_positions: u64,
    remoteness: bool,
) -> PyResult<SolvedBox<'py>> {
    let (bounds, rules) = convert::box_args(bounds, misere, take_rule)?;
    let (solution, distances) = py.detach(|| {
        BoxSolution::solve(&bounds, &rules, max_positions).map(|solution| {
            let distances = remoteness.then(|| solution.remoteness());
            (solution, distances)
        })
    })?;
    let shape: Vec<usize> = bounds.iter().map(|&b| b as usize + 1).collect();
    let is_p = boxed(&shape, solution.is_p().to_vec()).into_pyarray(py);
    let distances = distances.map(|d| boxed(&shape, d).into_pyarray(py));
    Ok((is_p, distances))
}

/// Whether each position of the box is P, by the fast per-line search.
#[pyfunction]
pub fn solve_outcomes<'py>(
    py: Python<'py>,
    bounds: &Bound<'py, PyAny>,
    misere: bool,
    take_rule: &Bound<'py, PyAny>,
    max_positions: u64,
) -> PyResult<Bound<'py, PyArrayDyn<bool>>> {
    let (bounds, rules) = convert::box_args(bounds, misere, take_rule)?;
    let is_p = py.detach(|| search::solve_outcomes(&bounds, &rules, max_positions))?;
    let shape: Vec<usize> = bounds.iter().map(|&b| b as usize + 1).collect();
    Ok(boxed(&shape, is_p).into_pyarray(py))
}

/// One value per position of the box, shaped as the box.
fn boxed<T>(shape: &[usize], values: Vec<T>) -> ArrayD<T> {
    ArrayD::from_shape_vec(IxDyn(shape), values)
        .expect("the box solution has one entry per position of the box")
}
