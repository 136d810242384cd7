//! Closed forms: Grundy values, nim-sum, outcome and every winning move, in O(heaps)
//! (times the set size for subtraction sets).
//!
//! A heap's Grundy value is its rule's (`HeapRule::grundy`). Normal play: P exactly when
//! the nim-sum is 0. Misère play of Nim with take limits: the same while some Grundy
//! value exceeds 1; once all are 0 or 1, P exactly when the nim-sum is 1. Misère play
//! of other subtraction sets has no such rule (`Error::NoClosedForm`): see `solver`.
use crate::base::error::{Error, Result};
use crate::base::outcome::Outcome;
use crate::heap::code::Scan;
use crate::heap::position::Move;
use crate::heap::rules::Rules;

/// The outcome decided by the nim-sum and whether some Grundy value exceeds 1.
#[inline]
pub fn is_p(nim_sum: u64, some_big: bool, misere: bool) -> bool {
    if misere && !some_big {
        nim_sum == 1
    } else {
        nim_sum == 0
    }
}

/// The Grundy value a heap must move to for the whole position to become P, given
/// the nim-sum of the other heaps and whether one of them has a Grundy value over 1.
#[inline]
pub fn target_grundy(others_sum: u64, some_other_big: bool, misere: bool) -> u64 {
    if misere && !some_other_big {
        // The others are all 0 or 1; leave an odd number of 1s and no larger value.
        others_sum ^ 1
    } else {
        others_sum
    }
}

/// Each heap's Grundy value.
pub fn grundy_values(heaps: &[u64], rules: &Rules) -> Result<Vec<u64>> {
    rules.check_position(heaps)?;
    Ok(heaps
        .iter()
        .enumerate()
        .map(|(i, &n)| rules.take_for(i).grundy(n))
        .collect())
}

/// XOR of the heaps' Grundy values.
pub fn nim_sum(heaps: &[u64], rules: &Rules) -> Result<u64> {
    Ok(grundy_values(heaps, rules)?.iter().fold(0, |s, &g| s ^ g))
}

/// P or N, without allocating.
pub fn outcome(heaps: &[u64], rules: &Rules) -> Result<Outcome> {
    check_closed_form(heaps, rules)?;
    Ok(outcome_of(heaps, rules))
}

/// `outcome` for heaps already checked against rules with a closed form (a solver's,
/// below its start: self-play asks once per game).
#[inline]
pub fn outcome_of(heaps: &[u64], rules: &Rules) -> Outcome {
    let (mut nim_sum, mut big) = (0, false);
    for (i, &n) in heaps.iter().enumerate() {
        let g = rules.take_for(i).grundy(n);
        nim_sum ^= g;
        big |= g > 1;
    }
    if is_p(nim_sum, big, rules.is_misere()) {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// What decided an outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Grundy values and their nim-sum (Bouton's misère rule for Nim and take limits).
    ClosedForm,
    /// An exact search of every position the start reaches.
    Search,
    /// The misère quotient of a code (Plambeck and Siegel).
    Quotient,
}

/// Everything known about a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Normal-play Grundy values (defined under any rules).
    pub grundy: Vec<u64>,
    pub nim_sum: u64,
    pub outcome: Outcome,
    pub winning_moves: Vec<Move>,
    /// What decided the outcome and the winning moves.
    pub method: Method,
}

/// Everything the closed forms say, with every winning move: refused for a code's heap
/// with more options than a search looks through (`Rules::check_scan_up_to`).
pub fn analyse(heaps: &[u64], rules: &Rules) -> Result<Analysis> {
    rules.check_scan_up_to(heaps.iter().copied().max().unwrap_or(0))?;
    analyse_by_class(heaps, rules, Scan::Every)
}

/// As `analyse`, with the options of a code's heap looked through as `scan` says
/// (`Take::to_grundy`), by classes of equal Grundy values where a period gives them:
/// the first winning move is the first of `analyse`'s, for heaps of any size.
pub fn analyse_by_class(heaps: &[u64], rules: &Rules, scan: Scan) -> Result<Analysis> {
    check_closed_form(heaps, rules)?;
    let grundy = grundy_values(heaps, rules)?;
    let nim_sum = grundy.iter().fold(0, |s, &g| s ^ g);
    let big = grundy.iter().filter(|&&g| g > 1).count();
    let misere = rules.is_misere();
    let outcome = if is_p(nim_sum, big > 0, misere) {
        Outcome::P
    } else {
        Outcome::N
    };
    let winning_moves = grundy
        .iter()
        .zip(heaps)
        .enumerate()
        .flat_map(|(heap, (&g, &n))| {
            let target = target_grundy(nim_sum ^ g, big > usize::from(g > 1), misere);
            let options = rules.take_for(heap).to_grundy(n, target, scan);
            options.map(move |option| option.on(heap))
        })
        .collect();
    Ok(Analysis {
        grundy,
        nim_sum,
        outcome,
        winning_moves,
        method: Method::ClosedForm,
    })
}

fn check_closed_form(heaps: &[u64], rules: &Rules) -> Result<()> {
    rules.check_position(heaps)?;
    if rules.has_closed_form() {
        Ok(())
    } else {
        Err(Error::NoClosedForm)
    }
}
