//! Sprouts (Conway and Paterson, 1967): a move draws a curve joining two spots, or a
//! spot to itself, crossing no curve, and puts a new spot on it; a spot takes at
//! most three curve ends. Positions split into independent lands, so Sprouts is a
//! game of the engine for games that split (`crate::split`), as the boards are.
//!
//! From the lowest: `code` (a position's bytes), `land` (regions, boundaries and
//! the simplifications), `canon` (a land's canonical code), `moves` (a land's
//! moves), `notation` (the string notation, read and written), `writings` (the codes
//! of the lands a listing of options meets), `search` (the engine's questions
//! answered), `certify` (the facts that prove a value, for a checker), `saved` (what
//! the searches learned, as a checkpoint holds it).
pub mod canon;
pub mod certify;
pub mod code;
pub mod land;
pub mod moves;
pub mod notation;
pub mod saved;
pub mod search;
pub mod writings;

use std::sync::{Mutex, PoisonError};

use rustc_hash::FxHashMap;

use self::code::{lands, Code};
use self::land::lives_of_code;
use self::search::{Lands, Positions};
use crate::base::error::Result;
use crate::base::outcome::Outcome;
use crate::games::{Game, Limits, Memo, Part, Value};
use crate::split::budget::Budget;
use crate::split::dfpn::{Outcomes, Proofs};
use crate::split::misere;

/// The game of Sprouts; a position is its code (`code::Code`). The family keeps
/// what its searches learn: the values of lands, the misère outcomes of positions.
#[derive(Debug, Default)]
pub struct Sprouts {
    learned: Mutex<Learned>,
    positions: Positions,
    memo: Memo<Code>,
}

/// What the normal-play searches learn: the values of lands, and the numbers of the
/// couples of a search that has not ended (paused or stopped: the next search goes on
/// from them; one that ends drops them, its proof being in the values).
#[derive(Debug, Default)]
struct Learned {
    values: FxHashMap<Code, u32>,
    proofs: Proofs<Code>,
}

impl Sprouts {
    /// The normal-play value of the position `code`.
    pub fn value(
        &self,
        code: &[u8],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<u32> {
        self.outcomes(budget, report, |search, parts| search.value(parts), code)
    }

    /// Whether the normal-play value of the position `code` is `target` (Lemoine and
    /// Viennot's "is this position plus *k a loss?").
    pub fn value_is(
        &self,
        code: &[u8],
        target: u32,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        self.outcomes(
            budget,
            report,
            |search, parts| search.sum_is(parts, target),
            code,
        )
    }

    /// `ask` the proof-number search of the family's lands about the lands of `code`.
    fn outcomes<T>(
        &self,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
        ask: impl FnOnce(&mut Outcomes<'_, Lands>, &[Code]) -> Result<T>,
        code: &[u8],
    ) -> Result<T> {
        let parts: Vec<Code> = lands(code).map(Code::from).collect();
        let mut learned = self.learned.lock().unwrap_or_else(PoisonError::into_inner);
        let Learned { values, proofs } = &mut *learned;
        let mut lands = Lands::default();
        let found = ask(
            &mut Outcomes::new(&mut lands, values, proofs, budget, report)?,
            &parts,
        );
        if found.is_ok() {
            proofs.clear();
        }
        found
    }
}

/// What `table` finds for one number of spots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The normal-play value.
    Value(u32),
    /// The misère-play outcome.
    Misere(Outcome),
}

/// The games of n spots for each n in `spots`, in normal play (their values) or
/// misère play (their outcomes), searched by one family so that what is learned for
/// one n is not searched again for the next. `row` hears each answer as it is found
/// and may stop the table by returning an error.
pub fn table(
    spots: std::ops::RangeInclusive<u64>,
    misere: bool,
    budget: Budget,
    row: &mut dyn FnMut(u64, Answer) -> Result<()>,
) -> Result<()> {
    notation::start(*spots.end())?; // too many spots: refused before any is searched
    let family = Sprouts::default();
    for n in spots {
        let code = notation::start(n)?;
        let answer = if misere {
            let wins = misere::wins(&family.positions, &code, budget, &|_| {})?;
            Answer::Misere(if wins { Outcome::N } else { Outcome::P })
        } else {
            Answer::Value(family.value(&code, budget, &|_| {})?)
        };
        row(n, answer)?;
    }
    Ok(())
}

fn budget(limits: &Limits) -> Budget {
    Budget {
        max_memory: limits.max_memory,
        evict: limits.evict,
        ..Budget::default()
    }
}

impl Game for Sprouts {
    type Position = Code;
    const FAMILY: &'static str = "sprouts";

    fn options(&self, p: &Code, out: &mut Vec<Code>) -> Result<()> {
        out.extend(search::options(p));
        Ok(())
    }

    fn value(&self, p: &Code, limits: &Limits) -> Result<Option<Value>> {
        let value = Sprouts::value(self, p, budget(limits), limits.report)?;
        Ok(Some(Value::Finite(u64::from(value))))
    }

    fn normal(&self, p: &Code, limits: &Limits) -> Result<Option<Outcome>> {
        let lost = Sprouts::value_is(self, p, 0, budget(limits), limits.report)?;
        Ok(Some(if lost { Outcome::P } else { Outcome::N }))
    }

    fn value_is(&self, p: &Code, target: u32, limits: &Limits) -> Result<Option<bool>> {
        Sprouts::value_is(self, p, target, budget(limits), limits.report).map(Some)
    }

    fn misere(&self, p: &Code, limits: &Limits) -> Result<Option<Outcome>> {
        let wins = misere::wins(&self.positions, p, budget(limits), limits.report)?;
        Ok(Some(if wins { Outcome::N } else { Outcome::P }))
    }

    fn loopy(&self, _p: &Code, _limits: &Limits) -> Result<Option<bool>> {
        Ok(Some(false)) // every move takes a life
    }

    fn text(&self, p: &Code) -> Option<String> {
        Some(notation::text(p))
    }

    fn split(&self, p: &Code) -> Option<Vec<Part<Code>>> {
        let parts = lands(p).map(|land| Part {
            key: land.to_vec(),
            size: lives_of_code(land),
            position: land.into(),
        });
        Some(parts.collect())
    }

    fn memo(&self) -> &Memo<Code> {
        &self.memo
    }

    fn bounds_memory(&self, _p: &Code) -> bool {
        true
    }

    fn same_game(&self, _other: &Self) -> bool {
        true // one game: positions tell Sprouts apart
    }

    fn hash_game(&self, _state: &mut dyn std::hash::Hasher) {}
}
