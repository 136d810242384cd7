//! What proves the normal-play value of a Sprouts position: every fact the pruned
//! value search established about the lands it met, written in the notation for a
//! checker that shares nothing with the search (`nimkit.verify`). The search runs on
//! one thread over a table that forgets nothing (`split::recorded`); the proof-number
//! search that `value` uses keeps no facts a checker could follow one by one.
use super::code::{lands, Code};
use super::land::lives_of_code;
use super::notation;
use super::search::Lands;
use crate::base::alloc;
use crate::base::error::Result;
use crate::split::budget::Budget;
use crate::split::pruned::{Search, Wide};
use crate::split::recorded::Recorded;

/// The value of a position and the facts that prove it.
#[derive(Debug)]
pub struct Certificate {
    pub value: u32,
    /// Lands of fewest lives first.
    pub facts: Vec<Fact>,
}

/// What the search proved of one land: its text, its value if it found it, and the
/// values below 64 it showed the land has not (bits).
#[derive(Debug, PartialEq, Eq)]
pub struct Fact {
    pub land: String,
    pub value: Option<u32>,
    pub not: u64,
}

/// The normal-play value of the position `code` with its certificate, searched
/// within `budget` (never evicting: a fact dropped is a step the checker cannot
/// follow); None if a value of 64 or more came up.
pub fn certificate(
    code: &[u8],
    budget: Budget,
    report: &(dyn Fn(usize) + Sync),
) -> Result<Option<Certificate>> {
    let budget = Budget {
        evict: false,
        until: None,
        ..budget
    };
    let (mut game, mut table) = (Lands::default(), Recorded::<Code>::default());
    let mut value = 0;
    for land in lands(code) {
        let mut search = Search::new(&mut game, &mut table, budget, report)?;
        match search.value(&Code::from(land))? {
            Ok(v) => value ^= v,
            Err(Wide) => return Ok(None),
        }
    }
    let mut found = alloc::with_capacity(table.values.len() + table.refuted.len())?;
    for (key, &v) in &table.values {
        found.push((key, Some(v), table.refuted.get(key).copied().unwrap_or(0)));
    }
    for (key, &not) in &table.refuted {
        if !table.values.contains_key(key) {
            found.push((key, None, not));
        }
    }
    found.sort_unstable_by_key(|&(key, ..)| (lives_of_code(key), key));
    let mut facts = alloc::with_capacity(found.len())?;
    facts.extend(found.into_iter().map(|(key, value, not)| Fact {
        land: notation::text(key),
        value,
        not,
    }));
    Ok(Some(Certificate { value, facts }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_facts_prove_the_value_the_search_finds() {
        let code = notation::start(5).unwrap();
        let c = certificate(&code, Budget::default(), &|_| {})
            .unwrap()
            .unwrap();
        assert_eq!(c.value, 1); // 5 spots: a first-player win (Applegate et al. 1991)
        assert!(c.facts.iter().any(|f| f.land == notation::text(&code)));
        assert!(c.facts.iter().all(|f| f.value.is_some() || f.not != 0));
    }
}
