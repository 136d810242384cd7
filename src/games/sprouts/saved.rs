//! What the normal-play searches of a Sprouts family learned, as a checkpoint holds
//! it: the values of lands and the numbers of the couples of a search not ended, each
//! land by its text, so that a checkpoint is read back through the notation's own
//! checks (a land's code is never believed as bytes).
use std::sync::PoisonError;

use rustc_hash::FxHashMap;

use super::code::{lands, Code};
use super::land::lives_of_code;
use super::{notation, Learned, Sprouts};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::split::proof::{Numbers, INF};

/// The values of lands, and each couple's land, heap, proof and disproof numbers.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Saved {
    pub values: Vec<(String, u32)>,
    pub couples: Vec<(String, u32, u32, u32)>,
}

impl Sprouts {
    /// What the family's normal-play searches learned.
    pub fn saved(&self) -> Result<Saved> {
        let learned = self.learned.lock().unwrap_or_else(PoisonError::into_inner);
        // A table of millions of lands takes a while to write out: Ctrl-C is heard.
        let mut poll = Poll::default();
        let mut values = alloc::with_capacity(learned.values.len())?;
        for (land, &value) in &learned.values {
            poll.tick()?;
            values.push((notation::text(land), value));
        }
        let mut couples = alloc::with_capacity(learned.proofs.len())?;
        for (land, heap, n) in learned.proofs.entries() {
            poll.tick()?;
            couples.push((notation::text(land), heap, n.pn, n.dn));
        }
        Ok(Saved { values, couples })
    }

    /// Enter what `saved` holds in the family's tables: ValueError (`Checkpoint`)
    /// naming the first entry that is not a land or that no land could have.
    pub fn restore(&self, saved: &Saved) -> Result<()> {
        let mut read: FxHashMap<Code, u32> = FxHashMap::default();
        read.try_reserve(saved.values.len())
            .map_err(|_| alloc::too_large::<(Code, u32)>(saved.values.len()))?;
        let mut poll = Poll::default(); // each land is parsed and written anew
        for (text, value) in &saved.values {
            poll.tick()?;
            let land = land_of(text)?;
            // Each move takes a life, and a move needs two: fewer moves than lives.
            let lives = lives_of_code(&land);
            if *value >= lives {
                return Err(Error::Checkpoint(format!(
                    "the land {} saved with the value {value}: a land of {lives} lives \
                     has a value below {lives}",
                    shown(text)
                )));
            }
            if let Some(other) = read.insert(land, *value).filter(|v| v != value) {
                return Err(twice(text, other, *value));
            }
        }
        let mut couples = Vec::new();
        alloc::grow_by(&mut couples, saved.couples.len())?;
        for (text, heap, pn, dn) in &saved.couples {
            poll.tick()?;
            let numbers = Numbers { pn: *pn, dn: *dn };
            // A couple proved lost gave its land's value; a pn of 0 with a finite dn
            // (or the reverse) is no search's.
            if *dn == 0 || (*pn == 0) != (*dn == INF) {
                return Err(Error::Checkpoint(format!(
                    "the couple of the land {} and *{heap} saved with the numbers \
                     {pn} and {dn}, which no search keeps",
                    shown(text)
                )));
            }
            couples.push((land_of(text)?, *heap, numbers));
        }
        let mut learned = self.learned.lock().unwrap_or_else(PoisonError::into_inner);
        let Learned { values, proofs } = &mut *learned;
        for (land, value) in &read {
            if let Some(&known) = values.get(land).filter(|&v| v != value) {
                return Err(twice(&notation::text(land), known, *value));
            }
        }
        values
            .try_reserve(read.len())
            .map_err(|_| alloc::too_large::<(Code, u32)>(values.len() + read.len()))?;
        values.extend(read);
        for (land, heap, numbers) in couples {
            let bytes = land.len();
            proofs.restore(land, heap, numbers, bytes)?;
        }
        Ok(())
    }
}

/// The most of a land's text an error message repeats.
const SHOWN: usize = 80;

/// A land's text as an error message repeats it: cut short past `SHOWN` bytes.
fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

fn twice(text: &str, one: u32, other: u32) -> Error {
    Error::Checkpoint(format!(
        "the land {} has two values, {one} and {other}",
        shown(text)
    ))
}

/// The code of the land written `text`: an error unless it is one land.
fn land_of(text: &str) -> Result<Code> {
    let bad = |why: String| Error::Checkpoint(format!("the land {:?} saved: {why}", shown(text)));
    let code = notation::parse(text).map_err(|e| bad(e.to_string()))?;
    let mut parts = lands(&code);
    match (parts.next(), parts.next()) {
        (Some(land), None) => Ok(land.into()),
        _ => Err(bad("not one land with a move".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::budget::Budget;
    use std::time::{Duration, Instant};

    /// A search paused every few milliseconds, each time saved and read by a fresh
    /// family that goes on, gives the answer of a search never paused.
    #[test]
    fn a_search_saved_on_the_way_goes_on_in_another_family() {
        let code = notation::start(6).unwrap();
        let mut family = Sprouts::default();
        let mut pauses = 0;
        let value = loop {
            let until = Some(Instant::now() + Duration::from_millis(10));
            match family.value(
                &code,
                Budget {
                    until,
                    ..Budget::default()
                },
                &|_| {},
            ) {
                Err(Error::Paused { .. }) => pauses += 1,
                done => break done.unwrap(),
            }
            let saved = family.saved().unwrap();
            family = Sprouts::default();
            family.restore(&saved).unwrap();
            assert_eq!(family.saved().unwrap().values.len(), saved.values.len());
        };
        // 6 spots: a second-player win (Applegate, Jacobson and Sleator 1991).
        assert_eq!(value, 0, "after {pauses} pauses");
    }

    #[test]
    fn what_no_land_could_have_is_refused() {
        let family = Sprouts::default();
        for (land, value) in [("0", 3), ("0*2", 6), ("0*2|", 0), ("1a1a", 7)] {
            let values = vec![(land.to_string(), value)];
            let saved = Saved {
                values,
                couples: Vec::new(),
            };
            assert!(matches!(family.restore(&saved), Err(Error::Checkpoint(_))));
        }
        let values = vec![("0*2".to_string(), 0), ("0*2".to_string(), 0)];
        assert!(family
            .restore(&Saved {
                values,
                couples: Vec::new()
            })
            .is_ok());
        let values = vec![("0*2".to_string(), 1)]; // known here as 0
        assert!(matches!(
            family.restore(&Saved { values, couples: Vec::new() }),
            Err(Error::Checkpoint(m)) if m.contains("two values, 0 and 1")
        ));
        let couples = vec![("0*3".to_string(), 1, 0, 7)];
        let saved = Saved {
            values: Vec::new(),
            couples,
        };
        assert!(matches!(family.restore(&saved), Err(Error::Checkpoint(_))));
    }
}
