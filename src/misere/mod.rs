//! Misère play: take-and-break games by misère quotients, and the canonical forms
//! of impartial games (`canonical`).
mod bits;
pub mod canonical;
pub mod genus;
mod interpolation;
pub mod monoid;
mod options;
pub mod presentation;
pub mod quotient;
mod ranks;
pub mod solver;
pub mod values;
mod walk;

pub use quotient::MisereQuotient;
pub use solver::QuotientSolver;

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::base::error::{Error, Result};
use crate::heap::code::TakeAndBreak;

/// The heaps a quotient computed for a search that is too large goes up to (it
/// stops earlier once proven periodic).
pub const SHARED_MAX_HEAP: usize = 300;
/// The most elements of a candidate for that quotient: an answer the caller did not
/// ask for must come fast, so a quotient that outgrows this is not used.
pub const SHARED_LIMIT: usize = 1 << 12;

/// What a code keeps of its misère quotient (`TakeAndBreak::attached`): the quotient
/// that answers searches too large (`shared`), and the computation that reached
/// furthest, so that a quotient asked for again, or further, resumes rather than
/// starts over (`quotient_up_to`). It goes with the rule.
#[derive(Default)]
pub struct Kept {
    /// The quotient up to `SHARED_MAX_HEAP`, or why it could not be computed.
    shared: Mutex<Option<std::result::Result<Arc<MisereQuotient>, Error>>>,
    solver: Mutex<Option<QuotientSolver>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere leaves nothing half-written here: keep using it.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The quotient of `rule`'s heaps up to `max_heap` (`QuotientSolver::compute`, with
/// `report`; candidates of at most `limit` elements), from the rule's kept computation when it holds it or can go on to it.
/// The work is kept even when it stops (Ctrl-C, or a quotient too large).
pub fn quotient_up_to(
    rule: &Arc<TakeAndBreak>,
    max_heap: usize,
    limit: usize,
    report: &mut dyn FnMut(usize),
) -> Result<MisereQuotient> {
    let kept: &Kept = rule.attached();
    // Taken out (the lock is let go at once): `keep` puts it back.
    let taken = lock(&kept.solver).take();
    let mut solver = match taken {
        Some(solver) => {
            if let Some(q) = solver.quotient_at(max_heap) {
                keep(kept, solver);
                return Ok(q);
            }
            if solver.max_heap() < max_heap {
                solver
            } else {
                // It went past `max_heap` and grew since: start over, keep it.
                keep(kept, solver);
                QuotientSolver::new()
            }
        }
        None => QuotientSolver::new(),
    };
    solver.set_limit(limit);
    let found = solver
        .compute(rule, max_heap, report)
        .map(|()| solver.quotient());
    keep(kept, solver);
    found
}

/// The furthest computation a rule keeps: a solver holds every heap's options
/// (about n words for a heap of n): tens of MB at heap 1000 for a code that splits.
pub const KEPT_MAX_HEAP: usize = 1000;

/// Keep `solver` unless the kept one reached further, or it went past
/// `KEPT_MAX_HEAP` (its memory is then let go with it).
fn keep(kept: &Kept, solver: QuotientSolver) {
    let mut slot = lock(&kept.solver);
    let further = slot
        .as_ref()
        .is_none_or(|old| old.max_heap() < solver.max_heap());
    if further && solver.max_heap() <= KEPT_MAX_HEAP {
        *slot = Some(solver);
    }
}

/// The code's misère quotient up to `SHARED_MAX_HEAP` heaps, computed once (when
/// `compute`) and kept by the rule; `None` when it outgrows its limits or is not
/// computed. Ctrl-C stops it without keeping anything.
pub fn shared(rule: &Arc<TakeAndBreak>, compute: bool) -> Result<Option<Arc<MisereQuotient>>> {
    let kept: &Kept = rule.attached();
    let known = lock(&kept.shared).clone();
    if let Some(known) = known {
        return Ok(known.ok());
    }
    if !compute {
        return Ok(None);
    }
    let quotient = match quotient_up_to(rule, SHARED_MAX_HEAP, SHARED_LIMIT, &mut |_| {}) {
        Ok(q) => Ok(Arc::new(q)),
        Err(err @ (Error::Interrupted | Error::OutOfMemory { .. })) => return Err(err),
        Err(err) => Err(err),
    };
    let found = quotient.as_ref().ok().cloned();
    *lock(&kept.shared) = Some(quotient);
    Ok(found)
}

/// A quotient the rule keeps that covers `heaps`: the one `shared` computed, or the
/// furthest computation (`quotient_up_to`: a user's `misere_quotient(max_heap=N)`)
/// when it reached their largest heap. Nothing is computed.
pub fn covering(rule: &TakeAndBreak, heaps: &[u64]) -> Option<Arc<MisereQuotient>> {
    let kept: &Kept = rule.attached();
    if let Some(Ok(q)) = lock(&kept.shared).as_ref() {
        if q.covers(heaps) {
            return Some(Arc::clone(q));
        }
    }
    let top = heaps.iter().copied().max().unwrap_or(0);
    let slot = lock(&kept.solver);
    let solver = slot.as_ref()?;
    let q = solver.quotient();
    (q.covers(heaps) || top <= solver.max_heap() as u64).then(|| Arc::new(q))
}

/// How far the rule's kept computation reached, if it holds one.
pub fn kept_max_heap(rule: &TakeAndBreak) -> Option<usize> {
    let kept: &Kept = rule.attached();
    lock(&kept.solver).as_ref().map(QuotientSolver::max_heap)
}

/// Why `shared` has no quotient for the code: the error that stopped its
/// computation, if it was tried.
pub fn shared_failure(rule: &TakeAndBreak) -> Option<Error> {
    let kept: &Kept = rule.attached();
    lock(&kept.shared).as_ref()?.as_ref().err().cloned()
}
