//! One position at a time: validation, closed forms, moves, and the reference search.
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArrayDyn};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::convert::{self, WireMove};
use super::rules::PyRules;
use crate::position::{check_move, Position};
use crate::search::{self, BoxSolution};
use crate::solver::{self, Solver};
use crate::theory;

type Moves = Vec<WireMove>;

/// Validate heap sizes; return them as a tuple of ints.
#[pyfunction]
pub fn check_heaps<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, convert::heaps(heaps)?)
}

/// Each heap's Grundy value and their XOR: no search, whatever the rules.
#[pyfunction]
pub fn grundy_values(
    heaps: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
) -> PyResult<(Vec<u64>, u64)> {
    let rules = rules.get().rules();
    let heaps = convert::heaps(heaps)?;
    Ok((
        theory::grundy_values(&heaps, rules)?,
        theory::nim_sum(&heaps, rules)?,
    ))
}

/// Validate a move's heap index, take and parts; return them as ints (and a tuple).
#[pyfunction]
#[pyo3(signature = (heap, take, into = None))]
pub fn check_move_args(
    heap: &Bound<'_, PyAny>,
    take: &Bound<'_, PyAny>,
    into: Option<&Bound<'_, PyAny>>,
) -> PyResult<WireMove> {
    let heap = convert::uint(heap, "heap")?;
    let take = convert::uint(take, "take")?;
    let into = into
        .filter(|into| !into.is_none())
        .map(|into| convert::uints(into, "into", "part"))
        .transpose()?;
    // A heap index past usize cannot name a heap of any position in memory.
    let heap = usize::try_from(heap).unwrap_or(usize::MAX);
    Ok(convert::wire(convert::move_from(heap, take, into)?))
}

/// Grundy values, nim-sum, whether P, and every winning move, in one call; rules with
/// no closed form search the box below the position, up to `max_positions`.
#[pyfunction]
pub fn analyse(
    py: Python<'_>,
    heaps: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    max_positions: u64,
) -> PyResult<(Vec<u64>, u64, bool, Moves)> {
    let rules = rules.get().rules();
    let heaps = convert::heaps(heaps)?;
    let a = py.detach(|| {
        Solver::new(&heaps, rules, max_positions).map(|solver| solver.analyse(&heaps))
    })?;
    Ok((
        a.grundy,
        a.nim_sum,
        a.outcome == theory::Outcome::P,
        convert::wires(a.winning_moves),
    ))
}

/// Whether the position is P: the closed forms, or search where the rules need it (no
/// winning moves are looked for).
#[pyfunction]
pub fn is_p(
    py: Python<'_>,
    heaps: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    max_positions: u64,
) -> PyResult<bool> {
    let rules = rules.get().rules();
    let heaps = convert::heaps(heaps)?;
    let outcome = py.detach(|| solver::outcome(&heaps, rules, max_positions))?;
    Ok(outcome == theory::Outcome::P)
}

/// The remoteness of a position, from the solver of the position as start (the box
/// below it, or every multiset of heaps it reaches when moves split heaps).
#[pyfunction]
pub fn remoteness(
    py: Python<'_>,
    heaps: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    max_positions: u64,
) -> PyResult<u32> {
    let rules = rules.get().rules();
    let heaps = convert::heaps(heaps)?;
    let found = py.detach(|| {
        Solver::new(&heaps, rules, max_positions).map(|solver| solver.remoteness(&heaps))
    })?;
    found.ok_or_else(|| {
        PyValueError::new_err(format!(
            "the remoteness of {heaps:?} needs every position it can reach, more than \
             max_positions = {max_positions} (raise max_positions to allow it)"
        ))
    })
}

/// The heaps after a move, which must be legal under the rules.
#[pyfunction]
pub fn after<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
    mv: WireMove,
    rules: &Bound<'py, PyRules>,
) -> PyResult<Bound<'py, PyTuple>> {
    let rules = rules.get().rules();
    let mv = convert::move_from(mv.0, mv.1, mv.2)?;
    let position = Position::new(convert::heaps(heaps)?).after(mv, rules)?;
    PyTuple::new(py, position.heaps())
}

/// Whether a move is legal: None if so, else the reason.
#[pyfunction]
pub fn illegal_reason(
    heaps: &Bound<'_, PyAny>,
    mv: WireMove,
    rules: &Bound<'_, PyRules>,
) -> PyResult<Option<String>> {
    let rules = rules.get().rules();
    let heaps = convert::heaps(heaps)?;
    rules.check_heaps(heaps.len())?;
    let mv = convert::move_from(mv.0, mv.1, mv.2)?;
    Ok(check_move(&heaps, mv, rules).err().map(|e| e.to_string()))
}

/// Every legal move; refuses to list more than `limit`.
#[pyfunction]
pub fn legal_moves(
    heaps: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    limit: u64,
) -> PyResult<Moves> {
    let rules = rules.get().rules();
    let position = Position::new(convert::heaps(heaps)?);
    let count = position.count_moves(rules)?;
    if count > u128::from(limit) {
        return Err(PyValueError::new_err(format!(
            "the position has {count} legal moves, more than the {limit} that may be listed"
        )));
    }
    let moves = convert::wires(position.moves(rules)?);
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
#[pyo3(signature = (bounds, rules, max_positions, remoteness = false))]
pub fn solve_box<'py>(
    py: Python<'py>,
    bounds: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    max_positions: u64,
    remoteness: bool,
) -> PyResult<SolvedBox<'py>> {
    let (bounds, rules) = (
        convert::uints(bounds, "bounds", "bound")?,
        rules.get().rules(),
    );
    let (solution, distances) = py.detach(|| {
        let solution = BoxSolution::solve(&bounds, rules, max_positions)?;
        let distances = remoteness.then(|| solution.remoteness()).transpose()?;
        Ok::<_, crate::error::Error>((solution, distances))
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
    rules: &Bound<'py, PyRules>,
    max_positions: u64,
) -> PyResult<Bound<'py, PyArrayDyn<bool>>> {
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
