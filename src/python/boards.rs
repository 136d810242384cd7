//! What the Python classes of the games on graphs and boards read from their native
//! game (the graph's names and edges, the board's size), and the table of a row of
//! Cram rectangles.
use std::time::{Duration, Instant};

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use super::convert::UInt;
use super::games::{memory, PyNativeGame};
use crate::base::alloc;
use crate::games::board::graph::Deletion;
use crate::games::board::kinds::Canon;
use crate::games::board::on_graph::Played;
use crate::games::board::sets::{members, Bits};
use crate::games::cram;
use crate::split::budget::{Budget, Step};
use crate::split::saved::Saved;

/// The engine of a Node Kayles, Arc Kayles or Cram game, with its tag.
fn engine(game: &PyNativeGame) -> PyResult<(&Deletion, Option<&Py<PyAny>>)> {
    let played = game.0.extra().and_then(|e| e.downcast_ref::<Played>());
    let Some(Played { engine, tag }) = played else {
        return Err(PyTypeError::new_err(format!(
            "a {} game is not played on a graph",
            game.0.family()
        )));
    };
    Ok((
        engine,
        tag.as_ref().and_then(|t| t.downcast_ref::<Py<PyAny>>()),
    ))
}

/// The engine of a Node Kayles, Arc Kayles or Cram game and the mask of the vertices
/// left, refused past the vertices a table of every position holds.
pub(super) fn engine_and_start(game: &PyNativeGame) -> PyResult<(&Deletion, u64)> {
    let (engine, _) = engine(game)?;
    // The table's own check names the limit.
    engine.mask_moves()?;
    let left = game.0.numbers().unwrap_or_default();
    Ok((engine, left.iter().fold(0, |s, &v| s | 1 << v)))
}

/// The engine of a Node Kayles, Arc Kayles or Cram game and the vertices left.
fn played(game: &PyNativeGame) -> PyResult<(&Deletion, Bits)> {
    let (engine, _) = engine(game)?;
    let left = game.0.numbers().unwrap_or_default();
    Ok((engine, engine.set_of(left)?))
}

/// The names of a graph's vertices, as the Python class gave them.
#[pyfunction]
pub fn vertex_names(py: Python<'_>, game: PyRef<'_, PyNativeGame>) -> PyResult<Py<PyAny>> {
    let (_, names) = engine(&game)?;
    Ok(names.map_or_else(|| py.None(), |n| n.clone_ref(py)))
}

/// The edges `(u, v)`, `u < v`, of the whole graph (vertex numbers).
#[pyfunction]
pub fn vertex_edges(game: PyRef<'_, PyNativeGame>) -> PyResult<Vec<(usize, usize)>> {
    Ok(engine(&game)?.0.edges())
}

/// The rows and columns of a Cram board.
#[pyfunction]
pub fn board_size(game: PyRef<'_, PyNativeGame>) -> PyResult<(usize, usize)> {
    match engine(&game)?.0.canon() {
        Canon::Grid { rows, cols } => Ok((rows, cols)),
        Canon::Labels => Err(PyTypeError::new_err("this game is not played on a board")),
    }
}

/// A certificate as Python reads it: the value, the board's rows and columns, the
/// position's cells, and the facts: each component's cells, its value if found, and
/// the values below 64 it was shown not to have (bits).
type Proved = (
    u32,
    usize,
    usize,
    Vec<u16>,
    Vec<(Vec<u16>, Option<u32>, u64)>,
);

/// The normal-play value of a game on a board with what proves it
/// (`Deletion::certificate`): `(value, rows, cols, position, facts)`, the position
/// and the facts' shapes laid out on `rows` x `cols`; None if the game is on no board the bitboards take, or a
/// value of 64 or more came up.
#[pyfunction]
#[pyo3(signature = (game, max_memory=None, progress=None))]
pub fn vertex_certificate(
    py: Python<'_>,
    game: PyRef<'_, PyNativeGame>,
    max_memory: Option<UInt>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Option<Proved>> {
    let (engine, played) = played(&game)?;
    let (budget, report) = (certifying(max_memory), telling(&progress));
    let found = py.detach(|| engine.certificate(&played, budget, &report));
    let Some(c) = super::errors::unless_stopped(found)? else {
        return Ok(None);
    };
    // As many facts as the core held: this copy's room is asked for too (MemoryError).
    let mut facts = alloc::with_capacity(c.facts.len())?;
    facts.extend(c.facts.into_iter().map(|f| (f.cells, f.value, f.not)));
    Ok(Some((c.value, c.rows, c.cols, c.position, facts)))
}

/// Whether the player to move wins a game on a board in misère play, with the
/// positions that prove it (`board::misere_proof`): each as its components' vertices,
/// whether it wins, and for a win with a move the components of an option that
/// loses.
#[pyfunction]
#[pyo3(signature = (game, max_memory=None, progress=None))]
pub fn vertex_misere_certificate(
    py: Python<'_>,
    game: PyRef<'_, PyNativeGame>,
    max_memory: Option<UInt>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(bool, Vec<MisereStep>)> {
    let (engine, played) = played(&game)?;
    let (budget, report) = (certifying(max_memory), telling(&progress));
    let found = py.detach(|| engine.misere_proof(&played, budget, &report));
    let (wins, steps) = super::errors::unless_stopped(found)?;
    let vertices = |parts: Vec<Bits>| -> Vec<Vec<usize>> {
        parts.iter().map(|p| members(p).collect()).collect()
    };
    let mut out = alloc::with_capacity(steps.len())?;
    out.extend(
        steps
            .into_iter()
            .map(|s| (vertices(s.parts), s.wins, s.witness.map(vertices))),
    );
    Ok((wins, out))
}

/// The budget of a certificate's search: `max_memory`, and nothing evicted (the core
/// makes sure of that too).
pub(super) fn certifying(max_memory: Option<UInt>) -> Budget {
    Budget {
        max_memory: memory(max_memory),
        ..Budget::default()
    }
}

/// What tells a progress bar (if any) how far a search has got.
pub(super) fn telling(progress: &Option<Py<PyAny>>) -> impl Fn(usize) + Sync + '_ {
    move |n| {
        if let Some(bar) = progress {
            super::progress::tell(bar, n);
        }
    }
}

/// When a search given `seconds` (None: no bound) pauses.
pub(super) fn until(seconds: Option<f64>) -> PyResult<Option<Instant>> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && s >= 0.0 => {
            Ok(Some(Instant::now() + Duration::from_secs_f64(s.min(1e9))))
        }
        Some(s) => Err(PyValueError::new_err(format!(
            "seconds must be a number of seconds, at least 0, not {s}"
        ))),
    }
}

/// A position of a misère proof: its components, whether it wins, a losing option.
type MisereStep = (Vec<Vec<usize>>, bool, Option<Vec<Vec<usize>>>);

/// The normal-play value of a game on a graph or board (or of the vertices `cells`
/// of its graph, sharing its tables), its searches holding at most `max_memory`
/// bytes (`evict`: making room past it, see `Budget::evict`), searched for at most
/// `seconds` (None: to the end): None when the time ran out first (what the search
/// learned is kept: ask again to go on).
#[pyfunction]
#[pyo3(signature = (game, max_memory=None, seconds=None, progress=None, cells=None, evict=false))]
pub fn vertex_value(
    py: Python<'_>,
    game: PyRef<'_, PyNativeGame>,
    max_memory: Option<UInt>,
    seconds: Option<f64>,
    progress: Option<Py<PyAny>>,
    cells: Option<Vec<UInt>>,
    evict: bool,
) -> PyResult<Option<u64>> {
    let (engine, played) = played(&game)?;
    let chosen = match cells {
        Some(cells) => Some(engine.set_of(cells.iter().map(|c| c.0))?),
        None => None,
    };
    let position = chosen.as_ref().unwrap_or(&played);
    let until = until(seconds)?;
    let budget = Budget {
        max_memory: memory(max_memory),
        evict,
        ..Budget::default()
    };
    let report = telling(&progress);
    let found = py.detach(|| match until {
        None => engine.value(position, budget, &report).map(Step::Done),
        Some(until) => engine.value_until(position, budget, until, &report),
    });
    Ok(match super::errors::unless_stopped(found)? {
        Step::Done(value) => Some(value),
        Step::Paused { .. } => None,
    })
}

/// The moves of a small game on a graph or board as masks of its vertices (what each
/// needs, what it deletes, in action order: vertices for Node Kayles, `vertex_edges`
/// for Arc Kayles and Cram), and the Grundy value and misère outcome (1: the player to
/// move wins) of every position, position `s` holding vertex `v` when bit `v` is set.
#[pyfunction]
pub fn vertex_every_position<'py>(
    py: Python<'py>,
    game: PyRef<'py, PyNativeGame>,
) -> PyResult<EveryTable<'py>> {
    let (engine, _) = engine(&game)?;
    let every = py.detach(|| engine.every_position())?;
    let needs: Vec<u32> = every.moves.iter().map(|m| m.needs).collect();
    let deletes: Vec<u32> = every.moves.iter().map(|m| m.deletes).collect();
    Ok((
        needs.into_pyarray(py),
        deletes.into_pyarray(py),
        every.values.into_pyarray(py),
        every.misere_wins.into_pyarray(py),
    ))
}

/// The masks of the moves of `game`'s whole graph, `(needs, deletes)`, in the order of
/// `vertex_every_position`'s (without valuing any position).
#[pyfunction]
pub fn vertex_moves<'py>(py: Python<'py>, game: PyRef<'py, PyNativeGame>) -> PyResult<Masks<'py>> {
    let (engine, _) = engine(&game)?;
    let moves = engine.mask_moves()?;
    let needs: Vec<u32> = moves.iter().map(|m| m.needs).collect();
    let deletes: Vec<u32> = moves.iter().map(|m| m.deletes).collect();
    Ok((needs.into_pyarray(py), deletes.into_pyarray(py)))
}

/// The moves' masks: what each needs and what it deletes.
type Masks<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<u32>>);

/// What `vertex_every_position` gives: the moves' masks, the values, the misère wins.
type EveryTable<'py> = (
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u8>>,
);

/// One table a checkpoint keeps: its name and its keys' lengths, words and values.
type Table<'py> = (
    &'static str,
    Bound<'py, PyArray1<u16>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u32>>,
);

/// The tables of what the normal-play searches of a game on a graph or board learned.
#[pyfunction]
pub fn vertex_tables<'py>(
    py: Python<'py>,
    game: PyRef<'py, PyNativeGame>,
) -> PyResult<Vec<Table<'py>>> {
    let (engine, _) = engine(&game)?;
    let tables = py.detach(|| engine.saved())?;
    Ok(tables
        .into_iter()
        .map(|(name, t)| {
            (
                name,
                t.lengths.into_pyarray(py),
                t.words.into_pyarray(py),
                t.values.into_pyarray(py),
            )
        })
        .collect())
}

/// Enter in a game's tables one that `vertex_tables` gave.
#[pyfunction]
pub fn vertex_restore(
    py: Python<'_>,
    game: PyRef<'_, PyNativeGame>,
    name: &str,
    lengths: PyReadonlyArray1<'_, u16>,
    words: PyReadonlyArray1<'_, u64>,
    values: PyReadonlyArray1<'_, u32>,
) -> PyResult<()> {
    let (engine, _) = engine(&game)?;
    // Copied with fallible allocations: a checkpoint may be as large as memory.
    fn copy<T: Copy + numpy::Element>(a: &PyReadonlyArray1<'_, T>) -> PyResult<Vec<T>> {
        let view = a.as_array();
        let mut v = alloc::with_capacity(view.len())?;
        v.extend(view.iter().copied());
        Ok(v)
    }
    let saved = Saved {
        lengths: copy(&lengths)?,
        words: copy(&words)?,
        values: copy(&values)?,
    };
    Ok(py.detach(|| engine.restore(name, &saved))?)
}

/// The Grundy values of the `rows` x n Cram rectangles, n = 1..=`max_cols`; `progress`
/// (a callable) hears each width done.
#[pyfunction]
#[pyo3(signature = (rows, max_cols, progress=None, max_memory=None, evict=false))]
pub fn cram_table(
    py: Python<'_>,
    rows: UInt<usize>,
    max_cols: UInt<usize>,
    progress: Option<Py<PyAny>>,
    max_memory: Option<UInt>,
    evict: bool,
) -> PyResult<Vec<u64>> {
    let budget = Budget {
        max_memory: memory(max_memory),
        until: None,
        evict,
    };
    let mut report = |n: usize| {
        if let Some(bar) = &progress {
            super::progress::tell(bar, n);
        }
    };
    super::errors::unless_stopped(
        py.detach(|| cram::table(rows.0, max_cols.0, budget, &mut report)),
    )
}
