//! The classical families for Python: their constructors and tables.
use std::sync::Arc;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use super::convert::{self, UInt};
use super::games::PyNativeGame;
use super::progress;
use crate::error::Error;
use crate::games::coins::{Coins, Rule, RULES};
use crate::games::corners::{Board, Corners};
use crate::games::hackenbush::Hackenbush;
use crate::games::moore::Moore;
use crate::games::staircase::Staircase;
use crate::games::wythoff::{self, Wythoff};
use crate::games::{At, Game};
use crate::solver::DEFAULT_MAX_POSITIONS;

/// Wythoff's game at heaps `a` and `b`.
#[pyfunction]
pub fn wythoff_game(a: UInt, b: UInt) -> PyNativeGame {
    PyNativeGame(Arc::new(At::new(Arc::new(Wythoff::default()), (a.0, b.0))))
}

/// Staircase Nim with `coins` on the steps, step 0 (the floor) first.
#[pyfunction]
pub fn staircase_game(coins: &Bound<'_, PyAny>) -> PyResult<PyNativeGame> {
    let coins = convert::uints(coins, "coins", "step")?;
    Staircase::check(&coins)?;
    let game = At::new(Arc::new(Staircase::default()), coins);
    Ok(PyNativeGame(Arc::new(game)))
}

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
    let mut out = crate::alloc::with_capacity(table.len())?;
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

/// Moore's Nim_k at `heaps`.
#[pyfunction]
pub fn moore_game(heaps: &Bound<'_, PyAny>, k: UInt) -> PyResult<PyNativeGame> {
    let heaps = convert::heaps(heaps)?;
    let game = At::new(Arc::new(Moore::new(k.0)?), heaps);
    Ok(PyNativeGame(Arc::new(game)))
}

/// The k of a Moore's Nim game.
#[pyfunction]
pub fn moore_k(game: PyRef<'_, PyNativeGame>) -> PyResult<u64> {
    Ok(family::<Moore>(&game, "k")?.game.k())
}

/// The coin-turning game of rule `rule` (a name in `RULES`) on `coins` (1 for heads).
#[pyfunction]
pub fn coins_game(rule: &str, coins: &Bound<'_, PyAny>) -> PyResult<PyNativeGame> {
    let rule = Rule::named(rule)?;
    let row = convert::uints(coins, "coins", "coin")?;
    let row = bits(&row)?;
    Ok(PyNativeGame(Arc::new(At::new(
        Arc::new(Coins::new(rule)),
        row,
    ))))
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

/// Turning Corners on `rows` (lists of 0s and 1s, 1 for heads, of one length).
#[pyfunction]
pub fn corners_game(rows: Vec<Bound<'_, PyAny>>) -> PyResult<PyNativeGame> {
    let mut cols = None;
    let mut cells = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let row = bits(&convert::uints(row, "row", "coin")?)?;
        if *cols.get_or_insert(row.len()) != row.len() {
            return Err(PyValueError::new_err(format!(
                "row {i} has {} coins, row 0 has {}: a board's rows are of one length",
                row.len(),
                cols.unwrap_or(0)
            )));
        }
        cells.extend(row);
    }
    let board = Board {
        cols: cols.unwrap_or(0),
        cells,
    };
    Ok(PyNativeGame(Arc::new(At::new(
        Arc::new(Corners::default()),
        board,
    ))))
}

/// Coins as booleans: 1 is heads, 0 tails, anything else refused.
fn bits(row: &[u64]) -> PyResult<Vec<bool>> {
    row.iter()
        .map(|&c| match c {
            0 | 1 => Ok(c == 1),
            _ => Err(PyValueError::new_err(format!(
                "a coin is 1 (heads) or 0 (tails), not {c}"
            ))),
        })
        .collect()
}

/// Green Hackenbush on a graph of `nodes` nodes and `edges` (`(u, v)` rows), the
/// nodes of `ground` on the ground; `names` (the edges as the caller names them) is
/// kept with the graph.
#[pyfunction]
pub fn hackenbush_game(
    py: Python<'_>,
    nodes: UInt<usize>,
    edges: PyReadonlyArray2<'_, u64>,
    ground: Vec<UInt<u32>>,
    names: Py<PyAny>,
) -> PyResult<PyNativeGame> {
    let edges = edges.as_array();
    if edges.ncols() != 2 {
        return Err(PyValueError::new_err("edges are pairs (u, v)"));
    }
    let mut pairs = crate::alloc::with_capacity(edges.nrows())?;
    for row in edges.rows() {
        let node = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        pairs.push((node(row[0]), node(row[1])));
    }
    let ground: Vec<u32> = ground.iter().map(|g| g.0).collect();
    let (game, start) = py.detach(|| {
        let game = Hackenbush::new(nodes.0, pairs, &ground)?;
        let start = game.start()?;
        Ok::<_, Error>((game, start))
    })?;
    let game = game.tagged(Arc::new(names));
    Ok(PyNativeGame(Arc::new(At::new(Arc::new(game), start))))
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
