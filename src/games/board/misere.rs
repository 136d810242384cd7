//! Misère play on the vertex-deletion engine: the engine's misère search
//! (`split::misere`) over positions keyed by the multisets of their components'
//! keys, a component that is * keyed as * whatever its shape.
use std::sync::Mutex;

use smallvec::SmallVec;

use super::canon;
use super::graph::Deletion;
use super::kinds::{Canon, Moves};
use super::sets::{heap_of, is_empty, members, vertices_of, Bits, Key};
use crate::base::alloc;
use crate::base::error::Result;
use crate::split::budget::Budget;
use crate::split::misere::{self, Keyed, MisereSplit, Table};

impl Deletion {
    /// Whether the player to move wins `set` in misère play, within `budget` (with
    /// `budget.evict`, room made past it); `report` hears now and then how many
    /// positions are settled (`split::misere::wins`).
    pub fn misere_wins(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        misere::wins(self, &Bits::from_slice(set), budget, report)
    }

    /// The bytes a component's key holds on the heap (none while it fits in place).
    /// The bytes of `sets` sets of vertices.
    pub(super) fn set_bytes(&self, sets: usize) -> usize {
        sets.saturating_mul(self.vertices.div_ceil(64) * 8)
    }

    pub(super) fn component_key_heap(&self) -> usize {
        let words = match self.canon {
            // Keys by vertex set, and canonical keys of components of up to 64
            // vertices; larger ones are counted as they are entered (`heap_of`).
            Canon::Labels => {
                (1 + self.vertices.div_ceil(64)).max(canon::key_words(self.vertices.min(64)))
            }
            Canon::Grid { rows, cols } => 1 + (rows * cols).div_ceil(64),
        };
        if words > 3 {
            words * 8
        } else {
            0
        }
    }

    /// Whether `part` (a component with a move) is *: each of its moves leaves no
    /// move in it. Asked of small components only, where a check is cheap.
    pub(super) fn is_star(&self, part: &[u64]) -> bool {
        members(part).nth(STAR_MOST).is_none()
            && self.options(part).iter().all(|o| !self.has_move(o))
    }

    /// Whether `set` has a move left.
    pub(super) fn has_move(&self, set: &[u64]) -> bool {
        match self.moves {
            Moves::Neighbourhood => !is_empty(set),
            Moves::Edge => {
                members(set).any(|v| self.adjacency[v].iter().zip(set).any(|(a, s)| a & s != 0))
            }
        }
    }
}

impl MisereSplit for Deletion {
    type Part = Bits;
    type Key = Key;
    type Scratch = Recent;

    fn scratch(&self, size: u32) -> Result<Recent> {
        Recent::new(size)
    }

    fn table(&self) -> &Mutex<Table<Key>> {
        &self.misere
    }

    fn size(&self, position: &Bits) -> u32 {
        position.iter().map(|w| w.count_ones()).sum()
    }

    fn has_move(&self, position: &Bits) -> bool {
        Deletion::has_move(self, position)
    }

    /// The components of `set`, each with its key in misère play: a component that is
    /// * (every move ends it) keyed as * whatever its shape.
    fn keyed(&self, set: &Bits, recent: &mut Recent, out: &mut Keyed<Bits, Key>) {
        for part in self.components(set) {
            let key = recent.key(&part, || {
                if self.is_star(&part) {
                    SmallVec::from_elem(STAR, 1)
                } else {
                    self.key(&part)
                }
            });
            out.push((part, key));
        }
    }

    fn is_star(&self, key: &Key) -> bool {
        key[..] == [STAR]
    }

    fn options(
        &self,
        part: &Bits,
        _: &mut Recent,
        _poll: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Vec<Bits>> {
        Ok(Deletion::options(self, part)) // a board's options are quick to make
    }

    /// A whole position's key by its components' canonical keys (general graphs;
    /// boards' keys are canonical already).
    fn alias(&self, parts: &[Bits]) -> Option<Box<[Key]>> {
        if self.canon != Canon::Labels {
            return None;
        }
        let mut keys: Vec<Key> = parts
            .iter()
            .map(|p| canon::canonical(p, &self.adjacency))
            .collect();
        keys.sort_unstable();
        Some(keys.into_boxed_slice())
    }

    fn key_heap(&self, parts: usize) -> usize {
        parts * (std::mem::size_of::<Key>() + self.component_key_heap())
    }

    fn heap_of(&self, key: &Key) -> usize {
        heap_of(key)
    }

    fn bytes(&self, sets: usize) -> usize {
        self.set_bytes(sets)
    }

    fn key_size(&self, key: &[Key]) -> u32 {
        vertices_of(key)
    }
}

/// The components of at most this many vertices are checked for being *.
pub(super) const STAR_MOST: usize = 8;

/// The misère key of a component that is * (keys of components hold two words or
/// more).
pub(super) const STAR: u64 = u64::MAX - 1;

/// The misère keys of components met lately, by vertex set: the options of a
/// position's options overlap, so a component recurs far more often than it is new.
pub struct Recent(Vec<(Bits, Key)>);

impl Recent {
    /// Room for the components of a search from a position of `vertices`: a power of
    /// two, from 2**4 for the smallest (searched by the thousand by `winning_moves`
    /// and the tests) to 2**14 from 28 vertices.
    pub(super) fn new(vertices: u32) -> Result<Self> {
        let slots = 1 << (vertices / 2).clamp(4, 14);
        Ok(Recent(alloc::filled(slots, (Bits::new(), Key::new()))?))
    }

    /// The key of `part`, made by `make` unless remembered.
    pub(super) fn key(&mut self, part: &Bits, make: impl FnOnce() -> Key) -> Key {
        let hash = part
            .iter()
            .fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let slots = self.0.len();
        let slot = &mut self.0[(hash >> 50) as usize % slots];
        if slot.0 != *part {
            *slot = (part.clone(), make());
        }
        slot.1.clone()
    }
}
