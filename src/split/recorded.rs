//! A table that forgets nothing: every value a search learned and every value it
//! showed a component not to have, so that what the search proved can be written out
//! and checked by another program (a certificate). Its map of refuted values grows
//! without bound where a search's own is a cache; the memory bound still counts the
//! values (the map of refuted values is as large as that of values at most).
use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::table::{capacity_with, enter_in, layout, Values};
use crate::base::alloc;
use crate::base::error::Result;

/// The values and refuted values of one search, kept in full.
#[derive(Debug)]
pub struct Recorded<K> {
    pub values: FxHashMap<K, u32>,
    /// The values below 64 each component was shown not to have, as bits.
    pub refuted: FxHashMap<K, u64>,
}

impl<K> Default for Recorded<K> {
    fn default() -> Self {
        Recorded {
            values: FxHashMap::default(),
            refuted: FxHashMap::default(),
        }
    }
}

impl<K: Eq + Hash> Values<K> for Recorded<K> {
    fn get(&mut self, key: &K) -> Option<u32> {
        self.values.get(key).copied()
    }

    fn count(&self) -> usize {
        self.values.len()
    }

    fn bytes(&self) -> u64 {
        layout::<K, u32>(self.values.capacity()) + layout::<K, u64>(self.refuted.capacity())
    }

    fn bytes_with(&mut self, _key: &K) -> u64 {
        layout::<K, u32>(capacity_with(&self.values)) + layout::<K, u64>(self.refuted.capacity())
    }

    fn enter(&mut self, key: K, value: u32) -> Result<()> {
        enter_in(&mut self.values, key, value)
    }

    fn refuted(&mut self, key: &K) -> Option<u64> {
        self.refuted.get(key).copied()
    }

    fn refute(&mut self, key: K, not: u64) -> Result<()> {
        if let Some(old) = self.refuted.get_mut(&key) {
            *old |= not;
            return Ok(());
        }
        if self.refuted.len() == self.refuted.capacity() {
            let len = self.refuted.len() + 1;
            self.refuted
                .try_reserve(1)
                .map_err(|_| alloc::too_large::<(K, u64)>(len))?;
        }
        self.refuted.insert(key, not);
        Ok(())
    }
}
