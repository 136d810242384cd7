//! The classical families' own questions for Python (their constructors are in
//! `families.rs`): getters, tables, winning moves by theorem.
use numpy::ndarray::Array2;
use numpy::IntoPyArray;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::convert::UInt;
use super::games::PyNativeGame;
use super::progress;
use crate::base::error::Error;
use crate::games::coins::{Coins, Rule, RULES};
use crate::games::corners::Corners;
use crate::games::hackenbush::Hackenbush;
use crate::games::moore::Moore;
use crate::games::wythoff;
use crate::games::{At, Game};
use crate::solve::solver::DEFAULT_MAX_POSITIONS;

/// The `k`-th P-position of Wythoff's game, `(⌊kφ⌋, ⌊kφ⌋ + k)`.
#[pyfunction]
pub fn wythoff_pair(k: UInt) -> (u128, u128) {
    let low = wythoff::lower(k.0);
    (low, low + u128::from(k.0))
}

/// The Grundy values of Wythoff's game for both heaps below `n`, in the narrowest
/// unsigned dtype that holds them.
#[pyfunction]
#[pyo3(signature = (n, progress = false))]
pub fn wythoff_grundy_table(py: Python<'_>, n: UInt<usize>, progress: bool) -> PyResult<Py<PyAny>> {
    let n = n.0;
    let table = progress::run(py, progress, n, "rows", |report| {
        wythoff::grundy_table(n, n, report)
    })?;
    let largest = table.iter().copied().max().unwrap_or(0);
    Ok(if largest <= u32::from(u8::MAX) {
        array(py, n, narrow::<u8>(&table)?)
    } else if largest <= u32::from(u16::MAX) {
        array(py, n, narrow::<u16>(&table)?)
    } else {
        array(py, n, table)
    })
}

/// An `n` by `n` array of `values`, row by row.
fn array<T: numpy::Element>(py: Python<'_>, n: usize, values: Vec<T>) -> Py<PyAny> {
    let shaped = Array2::from_shape_vec((n, n), values).expect("n * n values");
    shaped.into_pyarray(py).into_any().unbind()
}

/// The values as a narrower type (each fits), in fallibly allocated memory.
fn narrow<T: TryFrom<u32>>(table: &[u32]) -> Result<Vec<T>, Error> {
    let mut out = crate::base::alloc::with_capacity(table.len())?;
    out.extend(table.iter().map(|&v| T::try_from(v).ok().expect("fits")));
    Ok(out)
}

/// The family's game of `game`, or a TypeError naming what was asked.
fn family<'a, G: Game>(game: &'a PyNativeGame, what: &str) -> PyResult<&'a At<G>> {
    game.0
        .as_any()
        .downcast_ref::<At<G>>()
        .ok_or_else(|| PyTypeError::new_err(format!("a {} game has no {what}", game.0.family())))
}

/// The k of a Moore's Nim game.
#[pyfunction]
pub fn moore_k(game: PyRef<'_, PyNativeGame>) -> PyResult<u64> {
    Ok(family::<Moore>(&game, "k")?.game.k())
}

/// The rule's name of a coin-turning game.
#[pyfunction]
pub fn coin_rule(game: PyRef<'_, PyNativeGame>) -> PyResult<&'static str> {
    let rule = family::<Coins>(&game, "coin rule")?.game.rule();
    let (name, _) = RULES
        .iter()
        .find(|(_, r)| *r == rule)
        .expect("a named rule");
    Ok(name)
}

/// The single-coin values of the first `n` coins under `rule`, the bit sets of the
/// rules valued by their mex bounded by `max_positions` values.
#[pyfunction]
#[pyo3(signature = (rule, n, max_positions = UInt(DEFAULT_MAX_POSITIONS)))]
pub fn coin_values(
    py: Python<'_>,
    rule: &str,
    n: UInt<usize>,
    max_positions: UInt,
) -> PyResult<Vec<u64>> {
    let rule = Rule::named(rule)?;
    Ok(py.detach(|| rule.values(n.0, max_positions.0))?)
}

/// The edge names kept with a Green Hackenbush game's graph.
#[pyfunction]
pub fn hackenbush_names(py: Python<'_>, game: PyRef<'_, PyNativeGame>) -> PyResult<Py<PyAny>> {
    let at = family::<Hackenbush>(&game, "edges")?;
    let names = at
        .game
        .tag()
        .and_then(|tag| tag.downcast_ref::<Py<PyAny>>());
    Ok(names.expect("tagged by hackenbush_game").clone_ref(py))
}

/// The rectangles `(a, b, x, y)` of Turning Corners' winning moves (normal play).
#[pyfunction]
pub fn corners_winning_rectangles(
    py: Python<'_>,
    game: PyRef<'_, PyNativeGame>,
) -> PyResult<Vec<(usize, usize, usize, usize)>> {
    let at = family::<Corners>(&game, "rectangles")?;
    let moves = py.detach(|| at.position.winning_moves())?;
    Ok(moves.into_iter().map(|[a, b, x, y]| (a, b, x, y)).collect())
}

/// The edges (numbers into the graph's) whose chop wins, in normal play.
#[pyfunction]
pub fn hackenbush_winning_chops(
    py: Python<'_>,
    game: PyRef<'_, PyNativeGame>,
) -> PyResult<Vec<u32>> {
    let at = family::<Hackenbush>(&game, "edges")?;
    Ok(py.detach(|| at.game.winning_chops(&at.position))?)
}
