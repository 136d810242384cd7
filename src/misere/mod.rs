//! Misère play of take-and-break games by misère quotients.
mod bits;
pub mod genus;
pub mod monoid;
pub mod presentation;
pub mod quotient;
pub mod solver;
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

type Known = HashMap<String, Option<Arc<MisereQuotient>>>;
static SHARED: Mutex<Option<Known>> = Mutex::new(None);

/// The code's misère quotient up to `SHARED_MAX_HEAP` heaps, computed once per code
/// (when `compute`) and kept; `None` when it outgrows its limits or is not computed.
/// Ctrl-C stops it without keeping anything.
pub fn shared(rule: &Arc<TakeAndBreak>, compute: bool) -> Result<Option<Arc<MisereQuotient>>> {
    let code = rule.code();
    let lock = || SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = lock().get_or_insert_with(HashMap::new).get(&code) {
        return Ok(known.clone());
    }
    if !compute {
        return Ok(None);
    }
    let mut solver = QuotientSolver::new(Arc::clone(rule));
    let quotient = match solver.compute(SHARED_MAX_HEAP, &mut |_| {}) {
        Ok(()) => Some(Arc::new(solver.quotient())),
        Err(Error::Interrupted) => return Err(Error::Interrupted),
        Err(Error::OutOfMemory { bytes }) => return Err(Error::OutOfMemory { bytes }),
        Err(_) => None,
    };
    lock()
        .get_or_insert_with(HashMap::new)
        .insert(code, quotient.clone());
    Ok(quotient)
}
