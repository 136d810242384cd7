//! Misère play of take-and-break games by misère quotients.
mod bits;
pub mod genus;
pub mod monoid;
pub mod presentation;
pub mod quotient;
mod ranks;
pub mod solver;
pub mod values;
mod walk;

pub use quotient::MisereQuotient;
pub use solver::QuotientSolver;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::code::TakeAndBreak;
use crate::error::{Error, Result};

/// The heaps a quotient computed for a search that is too large goes up to (it
/// stops earlier once proven periodic).
pub const SHARED_MAX_HEAP: usize = 300;

/// Each code's quotient, or why it could not be computed.
type Known = HashMap<String, std::result::Result<Arc<MisereQuotient>, Error>>;
static SHARED: Mutex<Option<Known>> = Mutex::new(None);

/// The computation of each code's quotient that reached furthest, kept so that the
/// quotient asked for again, or further, resumes rather than starts over.
static SOLVERS: Mutex<Option<HashMap<String, QuotientSolver>>> = Mutex::new(None);

/// The quotient of `rule`'s heaps up to `max_heap` (`QuotientSolver::compute`, with
/// `report`), from the code's kept computation when it holds it or can go on to it.
/// The work is kept even when it stops (Ctrl-C, or a quotient too large).
pub fn quotient_up_to(
    rule: &Arc<TakeAndBreak>,
    max_heap: usize,
    report: &mut dyn FnMut(usize),
) -> Result<MisereQuotient> {
    let code = rule.code();
    let lock = || SOLVERS.lock().unwrap_or_else(PoisonError::into_inner);
    let kept = lock().get_or_insert_with(HashMap::new).remove(&code);
    let mut solver = match kept {
        Some(kept) => {
            if let Some(q) = kept.quotient_at(max_heap) {
                keep(lock(), code, kept);
                return Ok(q);
            }
            if kept.max_heap() < max_heap {
                kept
            } else {
                // It went past `max_heap` and grew since: start over, keep it.
                keep(lock(), code.clone(), kept);
                QuotientSolver::new(Arc::clone(rule))
            }
        }
        None => QuotientSolver::new(Arc::clone(rule)),
    };
    let found = solver.compute(max_heap, report).map(|()| solver.quotient());
    keep(lock(), code, solver);
    found
}

/// The furthest computation kept per code: a solver holds every heap's options
/// (about n words for a heap of n): tens of MB at heap 1000 for a code that splits.
pub const KEPT_MAX_HEAP: usize = 1000;

/// Keep `solver` unless the kept one for `code` reached further, or it went past
/// `KEPT_MAX_HEAP` (its memory is then let go with it).
fn keep(
    mut solvers: std::sync::MutexGuard<'_, Option<HashMap<String, QuotientSolver>>>,
    code: String,
    solver: QuotientSolver,
) {
    let solvers = solvers.get_or_insert_with(HashMap::new);
    let further = solvers
        .get(&code)
        .is_none_or(|kept| kept.max_heap() < solver.max_heap());
    if further && solver.max_heap() <= KEPT_MAX_HEAP {
        solvers.insert(code, solver);
    }
}

/// The code's misère quotient up to `SHARED_MAX_HEAP` heaps, computed once per code
/// (when `compute`) and kept; `None` when it outgrows its limits or is not computed.
/// Ctrl-C stops it without keeping anything.
pub fn shared(rule: &Arc<TakeAndBreak>, compute: bool) -> Result<Option<Arc<MisereQuotient>>> {
    let code = rule.code();
    let lock = || SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = lock().get_or_insert_with(HashMap::new).get(&code) {
        return Ok(known.as_ref().ok().cloned());
    }
    if !compute {
        return Ok(None);
    }
    let quotient = match quotient_up_to(rule, SHARED_MAX_HEAP, &mut |_| {}) {
        Ok(q) => Ok(Arc::new(q)),
        Err(err @ (Error::Interrupted | Error::OutOfMemory { .. })) => return Err(err),
        Err(err) => Err(err),
    };
    let found = quotient.as_ref().ok().cloned();
    lock()
        .get_or_insert_with(HashMap::new)
        .insert(code, quotient);
    Ok(found)
}

/// Why `shared` has no quotient for the code: the error that stopped its
/// computation, if it was tried.
pub fn shared_failure(rule: &TakeAndBreak) -> Option<Error> {
    let lock = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    lock.as_ref()?.get(&rule.code())?.as_ref().err().cloned()
}
