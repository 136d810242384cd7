//! What the Python classes of the games on graphs and boards read from their native
//! game (the graph's names and edges, the board's size), and the table of a row of
//! Cram rectangles.
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::convert::UInt;
use super::games::PyNativeGame;
use crate::games::arc_kayles::ArcKayles;
use crate::games::cram::{self, Cram};
use crate::games::node_kayles::NodeKayles;
use crate::games::vertex::{Canon, Deletion};
use crate::games::At;

/// The engine of a Node Kayles, Arc Kayles or Cram game, with its tag.
fn engine<'a>(game: &'a PyNativeGame) -> PyResult<(&'a Deletion, Option<&'a Py<PyAny>>)> {
    let any = game.0.as_any();
    let tag =
        |t: Option<&'a crate::games::defined::Tag>| t.and_then(|t| t.downcast_ref::<Py<PyAny>>());
    if let Some(at) = any.downcast_ref::<At<NodeKayles>>() {
        return Ok((at.game.engine(), tag(at.game.tag())));
    }
    if let Some(at) = any.downcast_ref::<At<ArcKayles>>() {
        return Ok((at.game.engine(), tag(at.game.tag())));
    }
    if let Some(at) = any.downcast_ref::<At<Cram>>() {
        return Ok((at.game.engine(), None));
    }
    Err(PyTypeError::new_err(format!(
        "a {} game is not played on a graph",
        game.0.family()
    )))
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

/// The Grundy values of the `rows` x n Cram rectangles, n = 1..=`max_cols`; `progress`
/// (a callable) hears each width done.
#[pyfunction]
#[pyo3(signature = (rows, max_cols, progress=None))]
pub fn cram_table(
    py: Python<'_>,
    rows: UInt<usize>,
    max_cols: UInt<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<u64>> {
    let mut report = |n: usize| {
        if let Some(bar) = &progress {
            Python::attach(|py| {
                // A display error must not stop the search.
                let _ = bar.bind(py).call1((n,));
            });
        }
    };
    Ok(py.detach(|| cram::table(rows.0, max_cols.0, &mut report))?)
}
