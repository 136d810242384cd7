//! Sprouts' own bindings: the table of n-spot games, a position's spots for its
//! picture, the certificate of its value, and its searches in steps with what they
//! learned saved and read back.
use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::boards::{certifying, telling, until};
use super::convert::{py_outcome, UInt};
use super::games::{memory, PyNativeGame};
use crate::base::alloc;
use crate::base::error::{Error, Foreign};
use crate::games::sprouts::{self, certify, notation, saved::Saved, Answer, Sprouts};
use crate::games::At;
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

/// The family and position of a Sprouts game.
fn sprouts_of(game: &PyNativeGame) -> PyResult<&At<Sprouts>> {
    game.0
        .as_any()
        .downcast_ref::<At<Sprouts>>()
        .ok_or_else(|| PyTypeError::new_err(format!("a {} game is not Sprouts", game.0.family())))
}

/// The normal-play value of a Sprouts position (or, given `target`, whether it is
/// `target`), searched for at most `seconds` (None: to the end): None when the time
/// ran out first (what the search learned is kept by its family: ask again to go on).
#[pyfunction]
#[pyo3(signature = (game, target=None, max_memory=None, seconds=None, progress=None, evict=false))]
pub fn sprouts_step(
    py: Python<'_>,
    game: PyRef<'_, PyNativeGame>,
    target: Option<UInt<u32>>,
    max_memory: Option<UInt>,
    seconds: Option<f64>,
    progress: Option<Py<PyAny>>,
    evict: bool,
) -> PyResult<Option<Py<PyAny>>> {
    let at = sprouts_of(&game)?;
    let budget = Budget {
        max_memory: memory(max_memory),
        until: until(seconds)?,
        evict,
    };
    let report = telling(&progress);
    let found = py.detach(|| {
        let answer = match target {
            None => at.game.value(&at.position, budget, &report).map(Ok),
            Some(t) => at
                .game
                .value_is(&at.position, t.0, budget, &report)
                .map(Err),
        };
        match answer {
            Err(Error::Paused { .. }) => Ok(None),
            answer => answer.map(Some),
        }
    });
    Ok(match super::errors::unless_stopped(found)? {
        None => None,
        Some(Ok(value)) => Some(value.into_pyobject(py)?.into_any().unbind()),
        Some(Err(is)) => Some(is.into_pyobject(py)?.to_owned().into_any().unbind()),
    })
}

/// What the normal-play searches of a Sprouts game's family learned: the values of
/// lands `[(land, value)]` and the numbers of couples `[(land, heap, pn, dn)]`.
type Learned = (Vec<(String, u32)>, Vec<(String, u32, u32, u32)>);

/// What the normal-play searches of the game's family learned (`sprouts_restore`
/// reads it back).
#[pyfunction]
pub fn sprouts_saved(py: Python<'_>, game: PyRef<'_, PyNativeGame>) -> PyResult<Learned> {
    let at = sprouts_of(&game)?;
    let saved = super::errors::unless_stopped(py.detach(|| at.game.saved()))?;
    Ok((saved.values, saved.couples))
}

/// A couple as Python gives it back: its land, heap, proof and disproof numbers.
type Couple = (String, UInt<u32>, UInt<u32>, UInt<u32>);

/// Enter in the game's family what `sprouts_saved` gave: ValueError naming the first
/// entry that is not a land or that no land could have.
#[pyfunction]
pub fn sprouts_restore(
    py: Python<'_>,
    game: PyRef<'_, PyNativeGame>,
    values: Vec<(String, UInt<u32>)>,
    couples: Vec<Couple>,
) -> PyResult<()> {
    let at = sprouts_of(&game)?;
    let saved = Saved {
        values: values.into_iter().map(|(l, v)| (l, v.0)).collect(),
        couples: couples
            .into_iter()
            .map(|(l, h, p, d)| (l, h.0, p.0, d.0))
            .collect(),
    };
    super::errors::unless_stopped(py.detach(|| at.game.restore(&saved)))
}
