//! Sprouts' own bindings: the table of n-spot games, and a position's spots for its
//! picture.
use std::sync::Arc;

use pyo3::prelude::*;

use super::convert::{py_outcome, UInt};
use super::games::memory;
use crate::base::error::{Error, Foreign};
use crate::games::sprouts::{self, notation, Answer};
use crate::split::budget::Budget;

/// The n-spot games for n = `first`..=`last`, searched by one family: `row(n, value)`
/// in normal play, `row(n, outcome)` in misère play, called as each is found. What
/// `row` raises stops the table and is raised again.
#[pyfunction]
#[pyo3(signature = (first, last, misere, row, max_memory=None, evict=false))]
pub fn sprouts_table(
    py: Python<'_>,
    first: UInt,
    last: UInt,
    misere: bool,
    row: Py<PyAny>,
    max_memory: Option<UInt>,
    evict: bool,
) -> PyResult<()> {
    let budget = Budget {
        max_memory: memory(max_memory),
        until: None,
        evict,
    };
    let mut tell = |n: u64, answer: Answer| {
        Python::attach(|py| {
            let answer = match answer {
                Answer::Value(v) => v.into_pyobject(py)?.into_any(),
                Answer::Misere(o) => py_outcome(py, o)?,
            };
            row.bind(py).call1((n, answer)).map(drop)
        })
        .map_err(|raised| {
            Error::Callback(Foreign {
                message: raised.to_string(),
                payload: Arc::new(raised),
            })
        })
    };
    let done = py.detach(|| sprouts::table(first.0..=last.0, misere, budget, &mut tell));
    super::errors::unless_stopped(done)
}

/// The spots of the position written `text`: its lands, each its regions, each its
/// boundaries, each its spots as the notation writes them.
#[pyfunction]
pub fn sprouts_spots(text: &str) -> PyResult<Vec<Vec<Vec<Vec<String>>>>> {
    let code = notation::parse(text).map_err(Error::from)?;
    Ok(notation::spots(&code))
}
