//! Sprouts on the engine for games that split (`crate::split`): a component is a
//! land, keyed by its code; normal play by the proof-number search of couples and
//! sums of lands (`split::dfpn`), misère play by the search over whole positions
//! keyed by the multisets of their lands (`split::misere`).
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rustc_hash::{FxHashMap, FxHashSet};

use super::canon::TRIES;
use super::code::{lands, Code, LAND_END};
use super::land::{land_of_code, lives_of_code, settle};
use super::moves::each_move;
use super::writings::Writings;
use crate::base::alloc;
use crate::base::error::Result;
use crate::misere::canonical::{self, Forms, Id};
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

/// The misère search of Sprouts' positions: the table of outcomes by whole position
/// (the multiset of its parts), the options of lands met lately, and the misère
/// simplest forms of small lands (`Small`).
#[derive(Debug, Default)]
pub struct Positions {
    misere: Mutex<Table<Code>>,
    recent: Mutex<Recent>,
    small: Mutex<Small>,
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

    /// Each part with its key, itself: a land of at most `FORM_MOST` lives as its
    /// simplest form (none where that is 0: it changes no outcome), others as met.
    fn keyed(&self, position: &Code, writings: &mut Writings, out: &mut Keyed<Code, Code>) {
        for land in lands(position) {
            let code: Code = if is_form(land) {
                land.into()
            } else if lives_of_code(land) <= FORM_MOST {
                match self.form(land, writings) {
                    Ok(Some(form)) => form,
                    Ok(None) => continue,
                    Err(_) => land.into(), // no room for more forms: the land as met
                }
            } else {
                land.into()
            };
            out.push((code.clone(), code));
        }
    }

    fn is_star(&self, key: &Code) -> bool {
        is_form(key) && form_id(key) == canonical::STAR
    }

    fn options(
        &self,
        part: &Code,
        writings: &mut Writings,
        poll: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Vec<Code>> {
        if is_form(part) {
            let small = self.small();
            let options = small.forms.options(form_id(part));
            return Ok(options.iter().map(|&o| small.code(o)).collect());
        }
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

    /// Lives, a simplest form counted by its longest play (a move takes a life).
    fn key_size(&self, key: &[Code]) -> u32 {
        key.iter()
            .map(|k| {
                if is_form(k) {
                    u32::from(k[1])
                } else {
                    lives_of_code(k)
                }
            })
            .sum()
    }
}

impl Positions {
    fn small(&self) -> MutexGuard<'_, Small> {
        self.small.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The code of the simplest form of the land `land` (of at most `FORM_MOST`
    /// lives), or none where it is 0. An error where the forms are full.
    fn form(&self, land: &[u8], writings: &mut Writings) -> Result<Option<Code>> {
        let mut small = self.small();
        let id = self.land_form(&mut small, land, writings)?;
        Ok((id != canonical::ZERO).then(|| small.code(id)))
    }

    /// The simplest form of `land`: of the sums of its options' lands. Recursive, as
    /// deep as the land has lives (at most `FORM_MOST`).
    fn land_form(&self, small: &mut Small, land: &[u8], writings: &mut Writings) -> Result<Id> {
        if let Some(&id) = small.lands.get(land) {
            return Ok(id);
        }
        if small.forms.bytes() + small.bytes > SMALL_BYTES {
            return Err(alloc::too_large::<Id>(small.lands.len() + 1));
        }
        let options = self.options_of(land, writings, &mut || Ok(()))?;
        let mut forms = alloc::with_capacity(options.len())?;
        for option in options.iter() {
            let mut sum = canonical::ZERO;
            for part in lands(option) {
                let part = self.land_form(small, part, writings)?;
                sum = small.forms.sum(sum, part)?;
            }
            forms.push(sum);
        }
        let id = small.forms.game(forms)?;
        if small.lands.try_reserve(1).is_err() {
            return Err(alloc::too_large::<Id>(small.lands.len() + 1));
        }
        small.bytes += land.len() + 32;
        small.lands.insert(land.into(), id);
        Ok(id)
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

/// Lands of at most this many lives are keyed by their misère simplest forms.
const FORM_MOST: u32 = 10;

/// The most bytes the simplest forms of small lands hold: past it, lands not yet
/// met are keyed as met.
const SMALL_BYTES: usize = 256 << 20;

/// The misère simplest forms of small lands (Conway's canonical forms,
/// `misere::canonical`): lands with one form are one game in misère play, so a
/// position is keyed by its small lands' forms, a land that is 0 is dropped and
/// the forms' options (no reversible move among them) are searched in place of the
/// land's. What Lemoine and Viennot's canonical trees do for misère Sprouts
/// (arXiv 0908.4407).
#[derive(Debug, Default)]
struct Small {
    forms: Forms,
    lands: FxHashMap<Code, Id>,
    /// The bytes `lands` holds, roughly.
    bytes: usize,
}

/// The first byte of a simplest form's code (no land's code has it), then its
/// longest play and its number in seven-bit bytes, so that no byte of it ends a
/// land.
const FORM: u8 = 254;

impl Small {
    /// The code of the simplest form `id` (none for 0: a part that changes nothing).
    fn code(&self, id: Id) -> Code {
        if id == canonical::ZERO {
            return Box::new([]);
        }
        let height = self.forms.height(id).min(127) as u8;
        let digits = (0..4).map(|i| (id >> (7 * i)) as u8 & 127);
        [FORM, height].into_iter().chain(digits).collect()
    }
}

fn is_form(code: &[u8]) -> bool {
    code.first() == Some(&FORM)
}

fn form_id(code: &[u8]) -> Id {
    code[2..6]
        .iter()
        .enumerate()
        .map(|(i, &d)| Id::from(d) << (7 * i))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::sprouts::code::BOUNDARY_END;
    use crate::games::sprouts::notation;

    #[test]
    fn form_codes_hold_their_number_and_no_byte_that_ends_a_land() {
        let mut small = Small::default();
        let star2 = small
            .forms
            .game(vec![canonical::ZERO, canonical::STAR])
            .unwrap();
        for id in [canonical::STAR, star2] {
            let code = small.code(id);
            assert!(is_form(&code) && form_id(&code) == id);
            assert!(code[1..].iter().all(|&b| b < BOUNDARY_END));
        }
        assert!(small.code(canonical::ZERO).is_empty());
    }

    /// One spot's one move (up to symmetry) leaves a land of two lives, whose one
    /// move ends the game: that land is *, and one spot is {*}, which is 0 in misère
    /// play (the Grundy–Smith proviso met: * is a loss for the player to move), so
    /// one spot is keyed by no part at all, and wins, as published.
    #[test]
    fn small_lands_are_keyed_by_their_forms() {
        let positions = Positions::default();
        let mut writings = Writings::default();
        let one = notation::start(1).unwrap();
        let mut keyed = Keyed::new();
        positions.keyed(&one, &mut writings, &mut keyed);
        assert!(keyed.is_empty());
        let options = positions
            .options(&one, &mut writings, &mut || Ok(()))
            .unwrap();
        assert_eq!(options.len(), 1);
        positions.keyed(&options[0], &mut writings, &mut keyed);
        assert_eq!(keyed.len(), 1);
        assert!(positions.is_star(&keyed[0].1));
        // A form is searched by its own options: * has the one option 0 (no part).
        let options = positions.options(&keyed[0].0, &mut writings, &mut || Ok(()));
        assert_eq!(options.unwrap(), vec![Code::default()]);
    }
}
