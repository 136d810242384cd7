//! Sprouts' own bindings: the table of n-spot games, a position's spots for its
//! picture, and the certificate of its value.
use std::sync::Arc;

use pyo3::prelude::*;

use super::boards::{certifying, telling};
use super::convert::{py_outcome, UInt};
use super::games::memory;
use crate::base::alloc;
use crate::base::error::{Error, Foreign};
use crate::games::sprouts::{self, certify, notation, Answer};
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

/// A certificate as Python reads it: the value, and each fact's land, value if found
/// and the values below 64 it was shown not to have (bits).
type Proved = (u32, Vec<(String, Option<u32>, u64)>);

/// The normal-play value of the position written `text` with what proves it
/// (`sprouts::certify`): `(value, facts)`, each fact a land's text, its value if
/// found, and the values below 64 it was shown not to have (bits); None if a value of
/// 64 or more came up.
#[pyfunction]
#[pyo3(signature = (text, max_memory=None, progress=None))]
pub fn sprouts_certificate(
    py: Python<'_>,
    text: &str,
    max_memory: Option<UInt>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Option<Proved>> {
    let code = notation::parse(text).map_err(Error::from)?;
    let (budget, report) = (certifying(max_memory), telling(&progress));
    let found = py.detach(|| certify::certificate(&code, budget, &report));
    let Some(c) = super::errors::unless_stopped(found)? else {
        return Ok(None);
    };
    // As many facts as the core held: this copy's room is asked for too (MemoryError).
    let mut facts = alloc::with_capacity(c.facts.len())?;
    facts.extend(c.facts.into_iter().map(|f| (f.land, f.value, f.not)));
    Ok(Some((c.value, facts)))
}
