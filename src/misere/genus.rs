//! Conway's genus of impartial games (On Numbers and Games, ch. 12): `g^(γ0 γ1 ...)`,
//! `g` the normal-play Grundy value and `γk` the misère Grundy value of the game plus
//! `k` copies of `*2`. The `γ` sequence ends alternating between two values; it is
//! kept up to where that starts. A game's genus follows from its options' genera, as
//! CGSuite's `Genus` computes it: `γ0` is the mex of the options' `γ0` (1 for the
//! game with no options), and `γk` the mex of the options' `γk` with `γ(k-1)` and
//! `γ(k-1) XOR 1` (the moves in the added `*2`: to `*1`, which XORs a misère value
//! with 1, and to 0).
use std::sync::Arc;

use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::mex;
use crate::heap::code::TakeAndBreak;
use crate::heap::rules::{Rules, TakeLimit};
use crate::heap::HeapRule;
use crate::search::MultisetSolution;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genus {
    /// The normal-play Grundy value.
    pub base: u32,
    /// `γ0, γ1, ...`; the last two repeat forever (at least two kept).
    pub sup: Vec<u32>,
}

impl Genus {
    /// The genus of the game with no options: `0^120`.
    pub fn zero() -> Self {
        Genus {
            base: 0,
            sup: vec![1, 2, 0],
        }
    }

    /// `γk` for any `k`.
    pub fn sup_digit(&self, k: usize) -> u32 {
        let len = self.sup.len();
        if k < len {
            self.sup[k]
        } else {
            self.sup[len - 2 + ((len ^ k) & 1)]
        }
    }

    /// The misère Grundy value (`γ0`).
    pub fn misere_value(&self) -> u32 {
        self.sup[0]
    }

    /// The genus of a game with these options' genera.
    pub fn from_options(options: &[&Genus]) -> Self {
        if options.is_empty() {
            return Genus::zero();
        }
        let base = mex::of_values(options.iter().map(|g| g.base));
        // Past every option's own alternation, two more digits settle the game's.
        let longest = options.iter().map(|g| g.sup.len()).max().unwrap_or(0);
        let mut sup = vec![mex::of_values(options.iter().map(|g| g.sup_digit(0)))];
        for k in 1..longest.max(2) + 2 {
            let before = sup[k - 1];
            let digits = options.iter().map(|g| g.sup_digit(k));
            sup.push(mex::of_values(
                [before, before ^ 1].into_iter().chain(digits),
            ));
        }
        while sup.len() > 2 && sup[sup.len() - 1] == sup[sup.len() - 3] {
            sup.pop();
        }
        Genus { base, sup }
    }

    /// Conway's notation, e.g. `0^120` (digits of two or more figures in brackets).
    pub fn text(&self) -> String {
        let digits: Vec<String> = self.sup.iter().map(u32::to_string).collect();
        if self.sup.iter().all(|&d| d < 10) {
            format!("{}^{}", self.base, digits.concat())
        } else {
            format!("{}^({})", self.base, digits.join(","))
        }
    }
}

/// The genus of every position a search labelled, by id.
pub fn genera(solution: &MultisetSolution) -> Result<Vec<Genus>> {
    let mut genera: Vec<Option<Genus>> = alloc::filled(solution.len(), None)?;
    solution.children_first(|id, children| {
        let options: Vec<&Genus> = children
            .iter()
            .map(|&c| genera[c as usize].as_ref().expect("children come first"))
            .collect();
        let genus = Genus::from_options(&options);
        genera[id as usize] = Some(genus);
    })?;
    Ok(genera
        .into_iter()
        .map(|g| g.expect("every position visited"))
        .collect())
}

/// The genus of each of `heaps` (single heaps of a code), by one exact search over
/// every position they reach (refused past `max_positions` positions); `done(k)` once
/// the first `k` heaps are searched.
pub fn of_heaps(
    rule: &Arc<TakeAndBreak>,
    heaps: &[u64],
    max_positions: u64,
    done: &mut dyn FnMut(usize),
) -> Result<Vec<Genus>> {
    if heaps.len() as u64 > max_positions {
        // Each heap is a position of the search: refused before any work.
        return Err(Error::MultisetSearchTooLarge {
            start: heaps.iter().max().into_iter().copied().collect(),
            limit: max_positions,
            misere: true,
        });
    }
    let rules = Rules::new(true, TakeLimit::Uniform(HeapRule::Code(Arc::clone(rule))))?;
    let starts = heaps.iter().map(|&n| vec![n]);
    let top: Vec<u64> = heaps.iter().max().into_iter().copied().collect();
    let solution = MultisetSolution::solve_each(starts, &top, &rules, max_positions, done)?;
    let genera = genera(&solution)?;
    let mut out = alloc::with_capacity(heaps.len())?;
    out.extend(
        heaps
            .iter()
            .map(|&n| genera[solution.id_of(&[n]) as usize].clone()),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_heaps_have_their_known_genera() {
        // ONAG ch. 12: *1 = 1^031, *2 = 2^20, *3 = 3^31.
        let zero = Genus::zero();
        let one = Genus::from_options(&[&zero]);
        assert_eq!(one.text(), "1^031");
        let two = Genus::from_options(&[&zero, &one]);
        assert_eq!(two.text(), "2^20");
        let three = Genus::from_options(&[&zero, &one, &two]);
        assert_eq!(three.text(), "3^31");
    }
}
