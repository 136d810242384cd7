//! The top of a search laid out for a cluster (`games::top`), for `nimkit.cluster`:
//! the questions open, the answers entered, a worker's answer searched.
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::convert::UInt;
use super::games::{memory, PyNativeGame};
use crate::games::top::{Question, Questions, Top};
use crate::games::Limits;

/// The questions of one cluster search: in normal play (`depth` None) the value of
/// each part of the root by aspiration, a question `(part, option, value)`; in
/// misère play the positions `depth` moves down, a question the index of one. Laid
/// out the same from the same game on every worker.
#[pyclass(name = "Top", module = "nimkit._core")]
pub struct PyTop(Layout);

enum Layout {
    Normal(Questions),
    Misere(Top),
}

/// A question as Python holds it: an int (misère) or (part, option, value).
#[derive(FromPyObject, Clone, Copy)]
enum Asked {
    Position(UInt<usize>),
    Option((UInt<usize>, UInt<usize>, UInt<u32>)),
}

/// A question as `open` gives it.
#[derive(IntoPyObject)]
enum Open {
    Position(usize),
    Option((usize, usize, u32)),
}

fn question(asked: Asked) -> PyResult<Question> {
    match asked {
        Asked::Option((p, o, v)) => Ok((p.0, o.0, v.0)),
        Asked::Position(_) => Err(pyo3::exceptions::PyTypeError::new_err(
            "a normal-play question is (part, option, value)",
        )),
    }
}

fn position(asked: Asked) -> PyResult<usize> {
    match asked {
        Asked::Position(i) => Ok(i.0),
        Asked::Option(_) => Err(pyo3::exceptions::PyTypeError::new_err(
            "a misère question is the index of a position",
        )),
    }
}

#[pymethods]
impl PyTop {
    #[new]
    #[pyo3(signature = (game, depth=None))]
    fn new(py: Python<'_>, game: PyRef<'_, PyNativeGame>, depth: Option<UInt>) -> PyResult<Self> {
        let game = Arc::clone(&game.0);
        let laid = py.detach(|| match depth {
            None => Questions::new(&game).map(Layout::Normal),
            Some(depth) => Top::new(&game, depth.0).map(Layout::Misere),
        });
        Ok(PyTop(super::errors::unless_stopped(laid)?))
    }

    /// The questions still open, each with the key of what it asks about and its
    /// rank (the lowest asked first): in normal play the options whose largest part
    /// is smallest first, as the search in one process orders them; in misère play
    /// the largest positions first (the longest to search start first).
    fn open<'py>(&self, py: Python<'py>) -> Vec<(Open, Bound<'py, PyBytes>, i64)> {
        match &self.0 {
            Layout::Normal(q) => q
                .open()
                .into_iter()
                .filter_map(|(p, o, v)| {
                    let (game, key) = q.option((p, o, v)).ok()?; // open: always there
                    let parts = game.split().unwrap_or_default();
                    let size = parts.iter().map(|p| i64::from(p.size)).max().unwrap_or(0);
                    let mut key = key.to_vec();
                    key.extend_from_slice(&v.to_le_bytes());
                    Some((Open::Option((p, o, v)), PyBytes::new(py, &key), size))
                })
                .collect(),
            Layout::Misere(top) => top
                .open()
                .into_iter()
                .filter_map(|i| {
                    let (_, key, size) = top.work(i)?; // open: always there
                    Some((Open::Position(i), PyBytes::new(py, key), -i64::from(size)))
                })
                .collect(),
        }
    }

    /// Whether the answer to a question is no longer needed.
    fn stale(&self, asked: Asked) -> PyResult<bool> {
        Ok(match &self.0 {
            Layout::Normal(q) => q.stale(question(asked)?),
            Layout::Misere(top) => !top.open().contains(&position(asked)?),
        })
    }

    /// Enter a worker's answer: 1 (the option has the value asked; the position
    /// wins) or 0.
    fn tell(&mut self, asked: Asked, answer: bool) -> PyResult<()> {
        match &mut self.0 {
            Layout::Normal(q) => q.tell(question(asked)?, answer)?,
            Layout::Misere(top) => top.tell(position(asked)?, answer)?,
        }
        Ok(())
    }

    /// The root's value (misère play: 1 if it wins, 0 if it loses), once known.
    fn answer(&self) -> Option<u32> {
        match &self.0 {
            Layout::Normal(q) => q.answer(),
            Layout::Misere(top) => top.answer().map(u32::from),
        }
    }

    /// A worker's answer to a question, searched here.
    #[pyo3(signature = (asked, max_memory=None, evict=false))]
    fn ask(
        &self,
        py: Python<'_>,
        asked: Asked,
        max_memory: Option<UInt>,
        evict: bool,
    ) -> PyResult<bool> {
        let limits = Limits {
            max_positions: u64::MAX,
            max_memory: memory(max_memory),
            evict,
            report: &|_| {},
        };
        let found = match &self.0 {
            Layout::Normal(q) => {
                let asked = question(asked)?;
                py.detach(|| q.ask(asked, &limits))
            }
            Layout::Misere(top) => {
                let i = position(asked)?;
                py.detach(|| top.ask(i, &limits))
            }
        };
        super::errors::unless_stopped(found)
    }
}
