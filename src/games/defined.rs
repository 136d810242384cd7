//! A game whose options come from a callback on state numbers: a game defined in
//! Python, whose states the binding layer numbers (the core never sees them). A
//! search asks the callback once per state and keeps the graph (`Memo`), from which
//! later questions about its positions (their options too) are answered.
use std::any::Any;
use std::sync::Arc;

use super::{Game, Memo};
use crate::base::error::Result;

/// Appends the options of a state to a vector, as state numbers.
pub type Options = dyn Fn(u64, &mut Vec<u64>) -> Result<()> + Send + Sync;

/// What the caller keeps with the game (the binding layer: its states), opaque here.
pub type Tag = Arc<dyn Any + Send + Sync>;

/// A game given by its options.
pub struct Defined {
    options: Box<Options>,
    tag: Tag,
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
            memo: Memo::default(),
        }
    }

    /// What the caller attached.
    pub fn tag(&self) -> &Tag {
        &self.tag
    }
}

impl Game for Defined {
    type Position = u64;
    const FAMILY: &'static str = "defined";

    fn options(&self, p: &u64, out: &mut Vec<u64>) -> Result<()> {
        (self.options)(*p, out)
    }

    fn memo(&self) -> &Memo<u64> {
        &self.memo
    }

    fn calls_out(&self, _p: &u64) -> bool {
        true
    }
}
