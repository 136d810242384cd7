//! A game whose options come from a callback on state numbers: a game defined in
//! Python, whose states the binding layer numbers (the core never sees them). The
//! callback is asked once per state; what it returns is kept.
use std::any::Any;
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;

use super::{Game, Memo};
use crate::alloc;
use crate::error::Result;

/// The options of a state, as state numbers.
pub type Options = dyn Fn(u64) -> Result<Vec<u64>> + Send + Sync;

/// What the caller keeps with the game (the binding layer: its states), opaque here.
pub type Tag = Arc<dyn Any + Send + Sync>;

/// A game given by its options.
pub struct Defined {
    options: Box<Options>,
    tag: Tag,
    /// The options of each state asked so far.
    known: Mutex<FxHashMap<u64, Arc<[u64]>>>,
    memo: Memo<u64>,
}

impl std::fmt::Debug for Defined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Defined")
    }
}

impl Defined {
    pub fn new(options: Box<Options>, tag: Tag) -> Self {
        Defined {
            options,
            tag,
            known: Mutex::default(),
            memo: Memo::default(),
        }
    }

    /// What the caller attached.
    pub fn tag(&self) -> &Tag {
        &self.tag
    }

    /// The options of `state`, from the callback on first demand. An error from the
    /// callback passes through unchanged (and is asked again next time).
    pub fn options_of(&self, state: u64) -> Result<Arc<[u64]>> {
        let lock = || self.known.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = lock().get(&state) {
            return Ok(Arc::clone(found));
        }
        // Called without the lock: the callback may ask for other states' options.
        let found: Arc<[u64]> = (self.options)(state)?.into();
        let mut known = lock();
        known
            .try_reserve(1)
            .map_err(|_| alloc::too_large::<(u64, Arc<[u64]>)>(known.len() + 1))?;
        known.insert(state, Arc::clone(&found));
        Ok(found)
    }
}

impl Game for Defined {
    type Position = u64;
    const FAMILY: &'static str = "defined";

    fn options(&self, p: &u64, out: &mut Vec<u64>) -> Result<()> {
        out.extend_from_slice(&self.options_of(*p)?);
        Ok(())
    }

    fn memo(&self) -> &Memo<u64> {
        &self.memo
    }
}
