//! Sprouts on the engine for games that split (`crate::split`): a component is a
//! land, keyed by its code; normal play by the proof-number search of couples and
//! sums of lands (`split::dfpn`), misère play by the search over whole positions
//! keyed by the multisets of their lands (`split::misere`).
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::{FxHashMap, FxHashSet};

use super::canon::TRIES;
use super::code::{lands, Code, LAND_END};
use super::land::{land_of_code, lives_of_code, settle};
use super::moves::each_move;
use super::writings::Writings;
use crate::base::error::Result;
use crate::split::misere::{Keyed, MisereSplit, Table};
use crate::split::pruned::Split;

/// The options of the land `code`, each the position it leaves (lands' codes),
/// each once, written canonically.
pub fn land_options(code: &[u8]) -> Vec<Code> {
    let Ok(options) = polled_options(code, &mut Writings::new(TRIES), &mut || Ok(())) else {
        unreachable!("a poll that never stops")
    };
    options
}

/// The options of the land `code`, written by `writings`, `poll` called before each
/// move is written: a land of many symmetric regions takes a second to list, and
/// Ctrl-C must not wait for it.
pub fn polled_options(
    code: &[u8],
    writings: &mut Writings,
    poll: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<Code>> {
    let land = land_of_code(code);
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    let mut settled = Vec::new();
    let mut stopped = Ok(());
    each_move(&land, |regions| {
        if stopped.is_err() {
            return;
        }
        stopped = poll();
        if stopped.is_err() {
            return;
        }
        settled.clear();
        settle(regions, &mut settled);
        let option = writings.code(&settled);
        if seen.insert(option.clone()) {
            out.push(option);
        }
    });
    stopped.map(|()| out)
}

/// The options of the position `code`: a move in one of its lands.
pub fn options(code: &[u8]) -> Vec<Code> {
    let parts: Vec<&[u8]> = lands(code).collect();
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    for (k, part) in parts.iter().enumerate() {
        for option in land_options(part) {
            let mut all: Vec<&[u8]> = parts
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != k)
                .map(|(_, p)| *p)
                .chain(lands(&option))
                .collect();
            all.sort_unstable();
            let whole: Code = all.join(&LAND_END).into_boxed_slice();
            if seen.insert(whole.clone()) {
                out.push(whole);
            }
        }
    }
    out
}

/// A land of two lives is *: any move leaves one life, no move.
fn known(code: &[u8]) -> Option<u32> {
    (lives_of_code(code) == 2).then_some(1)
}

/// The options of lands met lately: searches ask a land's options again and again
/// (for each question about it, in normal play; beside every other part, in misère
/// play), and they cost far more to make than a board's. A cache bounded by the
/// bytes it holds, emptied when full.
#[derive(Debug, Default)]
pub struct Recent {
    options: FxHashMap<Code, Arc<[Code]>>,
    bytes: usize,
    writings: Writings,
}

/// The most bytes `Recent` holds (its lands, their options and their boxes, counted
/// roughly): 6-spot searches meet about 17,000 lands, which a bound of 16,384 lands
/// made it forget and list again, a quarter of the time.
const RECENT_BYTES: usize = 64 << 20;

/// What an entry of `Recent` costs beside its bytes of code: its boxes and slot.
const ENTRY_BYTES: usize = 64;

impl Recent {
    pub fn options(&mut self, land: &[u8]) -> Arc<[Code]> {
        if let Some(options) = self.get(land) {
            return options;
        }
        let Ok(options) = polled_options(land, &mut self.writings, &mut || Ok(())) else {
            unreachable!("a poll that never stops")
        };
        let options: Arc<[Code]> = options.into();
        self.keep(land, &options);
        options
    }

    fn get(&self, land: &[u8]) -> Option<Arc<[Code]>> {
        self.options.get(land).map(Arc::clone)
    }

    fn keep(&mut self, land: &[u8], options: &Arc<[Code]>) {
        let bytes = ENTRY_BYTES
            + land.len()
            + options
                .iter()
                .map(|o| o.len() + std::mem::size_of::<Code>())
                .sum::<usize>();
        if self.bytes + bytes > RECENT_BYTES {
            self.options.clear();
            self.bytes = 0;
        }
        self.bytes += bytes;
        self.options.insert(land.into(), Arc::clone(options));
    }
}

/// The normal-play search of Sprouts' lands.
#[derive(Default)]
pub struct Lands {
    recent: Recent,
}

impl Split for Lands {
    type Part = Code;
    type Key = Code;

    fn key(&self, part: &Code) -> Code {
        part.clone()
    }

    fn known(&self, part: &Code) -> Option<u32> {
        known(part)
    }

    fn options(&mut self, part: &Code, out: &mut Vec<Code>) {
        out.extend(self.recent.options(part).iter().cloned());
    }

    fn split(&mut self, option: &Code, parts: &mut Vec<Code>) -> u32 {
        let mut value = 0;
        for land in lands(option) {
            match known(land) {
                Some(v) => value ^= v,
                None => parts.push(land.into()),
            }
        }
        value
    }

    fn size(&self, part: &Code) -> u32 {
        lives_of_code(part)
    }

    fn key_size(&self, key: &Code) -> u32 {
        lives_of_code(key)
    }

    fn heap_of(&self, key: &Code) -> usize {
        key.len()
    }
}

/// The misère key of a land that is * (no land's code is one byte of this).
const STAR: u8 = 255;

/// The misère search of Sprouts' positions: the table of outcomes by whole position
/// (the multiset of its lands), and the options of lands met lately.
#[derive(Debug, Default)]
pub struct Positions {
    misere: Mutex<Table<Code>>,
    recent: Mutex<Recent>,
}

impl MisereSplit for Positions {
    type Part = Code;
    type Key = Code;
    /// The writings of lands this thread met (`writings`).
    type Scratch = Writings;

    fn scratch(&self, _size: u32) -> Result<Writings> {
        Ok(Writings::default())
    }

    fn table(&self) -> &Mutex<Table<Code>> {
        &self.misere
    }

    fn size(&self, position: &Code) -> u32 {
        lives_of_code(position)
    }

    fn has_move(&self, position: &Code) -> bool {
        !position.is_empty() // settled lands all have a move
    }

    /// Each land with its key: a land whose every move ends it keyed as *.
    fn keyed(&self, position: &Code, writings: &mut Writings, out: &mut Keyed<Code, Code>) {
        for land in lands(position) {
            let star = lives_of_code(land) <= STAR_MOST && self.ends_at_once(land, writings);
            let key: Code = if star { Box::new([STAR]) } else { land.into() };
            out.push((land.into(), key));
        }
    }

    fn is_star(&self, key: &Code) -> bool {
        key[..] == [STAR]
    }

    fn options(
        &self,
        part: &Code,
        writings: &mut Writings,
        poll: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Vec<Code>> {
        Ok(self.options_of(part, writings, poll)?.to_vec())
    }

    fn proof_numbers(&self) -> bool {
        true
    }

    /// A spot's worth of lives for each option to refute: 7 and 8 spots took 1.5 and
    /// 1.35 times less than with every position starting at 1, 9 spots the same
    /// (release build; the Sprouts guide).
    fn breadth(&self, key: &[Code]) -> u32 {
        self.key_size(key) / 3
    }

    fn key_heap(&self, parts: usize) -> usize {
        parts * std::mem::size_of::<Code>()
    }

    fn heap_of(&self, key: &Code) -> usize {
        key.len()
    }

    fn bytes(&self, parts: usize) -> usize {
        parts * 64
    }

    fn key_size(&self, key: &[Code]) -> u32 {
        key.iter().map(|k| lives_of_code(k)).sum()
    }
}

impl Positions {
    /// Whether every move in the land ends it (from the cache, as a poll that never
    /// stops leaves it).
    fn ends_at_once(&self, land: &[u8], writings: &mut Writings) -> bool {
        let Ok(options) = self.options_of(land, writings, &mut || Ok(())) else {
            unreachable!("a poll that never stops")
        };
        options.iter().all(|o| o.is_empty())
    }

    /// The options of a land, from the misère searches' cache.
    /// (Made outside the lock: the misère search of a large position runs on several
    /// threads.)
    fn options_of(
        &self,
        land: &[u8],
        writings: &mut Writings,
        poll: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Arc<[Code]>> {
        let recent = || self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(options) = recent().get(land) {
            return Ok(options);
        }
        // Kept only once whole: a list stopped half way is never seen again.
        let options: Arc<[Code]> = polled_options(land, writings, poll)?.into();
        recent().keep(land, &options);
        Ok(options)
    }
}

/// Lands of at most this many lives are checked for being *.
const STAR_MOST: u32 = 4;
