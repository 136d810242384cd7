//! Octal codes with the same Grundy sequence up to a shift, and the trivial ones (a
//! period proven within the first heaps): Czajka's GameLookup.md and TrivialGames.md
//! (`tczajka/octal-games`, `old/src/all_games_exec.cc`), by the same rules.
//!
//! Each code is rewritten to a normal form by moves that provably change no value:
//! - while a heap of 1 cannot be taken whole it has no move at all, so every heap is
//!   one larger than in the game whose heaps are one smaller (the sequence shifts);
//! - with `G(i) != 0` the heap `i` already has an option of value 0: taking it whole
//!   adds nothing (`i <= 3`);
//! - with `G(i) = 0` and splitting without taking (`4.`), taking `i` leaves what the
//!   split into `i` and the rest leaves; with `G(2) = 0` and taking 1 to split, taking
//!   3 leaves what the split into 2 and the rest leaves.
//!
//! Codes whose normal forms prove the same period with the same values are one class;
//! so are codes with the same normal form. Nothing else is merged: two classes might
//! still have the same sequence (the tests compare the first 10**5 values).
use std::collections::BTreeMap;

use super::{TakeAndBreak, NONE, ONE, TWO};
use crate::base::error::{FamilyError, Result};
use crate::base::interrupt::Poll;
use crate::heap::periodic::{period_search, PeriodSearch};

/// The most digits after the point that `octal_equivalences` goes through (8,192 codes).
pub const MAX_CLASSIFIED_DIGITS: usize = 4;
/// The fewest and the most heaps a period may be looked for in.
pub const CLASSIFIED_HEAPS: std::ops::RangeInclusive<usize> = 64..=(1 << 16);

/// Digits or heaps outside what `octal_equivalences` goes through.
#[derive(Debug, thiserror::Error)]
#[error(
    "octal_equivalences goes through codes with 1 to {MAX_CLASSIFIED_DIGITS} digits after \
     the point and looks for periods within 64 to 65536 heaps; got digits={digits}, \
     heaps={heaps}"
)]
pub struct ClassificationRange {
    digits: usize,
    heaps: usize,
}

impl FamilyError for ClassificationRange {}

/// Codes with the same Grundy sequence up to a shift.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OctalClass {
    /// The simplest member: the fewest digits (the digit before the point counts
    /// when it is not 0), then `0.` before `4.`, then the smallest.
    pub representative: String,
    /// Every member, simplest first, with its offset: the heap before its first
    /// nonzero value. Members agree on `G(offset + n)` for every `n`.
    pub members: Vec<(String, usize)>,
    /// The representative's least preperiod and period and its values up to their
    /// sum, for a trivial class.
    pub period: Option<(usize, usize, Vec<u32>)>,
}

/// What makes two codes one class.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    /// The normal form's proven preperiod, period and values up to their sum.
    Periodic(usize, usize, Vec<u32>),
    /// The normal form's code.
    Normal(String),
}

/// Every octal code with up to `digits` digits after the point (`0.` and `4.`), in
/// classes, simplest representative first. A class is trivial when the normal form
/// of its codes proves a period within `heaps` heaps.
pub fn octal_equivalences(digits: usize, heaps: usize) -> Result<Vec<OctalClass>> {
    if !(1..=MAX_CLASSIFIED_DIGITS).contains(&digits) || !CLASSIFIED_HEAPS.contains(&heaps) {
        return Err(ClassificationRange { digits, heaps }.into());
    }
    let mut classes: BTreeMap<Key, Vec<(String, usize, Normal)>> = BTreeMap::new();
    let mut poll = Poll::default();
    for code in octal_codes(digits) {
        poll.tick()?;
        let normal = Normal::of(&TakeAndBreak::parse(&code)?)?;
        let values = normal.rule.first(heaps)?;
        let offset = normal.shift + values.iter().position(|&v| v != 0).unwrap_or(1) - 1;
        let bound = normal.rule.theorem_bound().unwrap_or(2);
        let t = normal.rule.max_take() as usize;
        let key = match period_search(&values, t, bound) {
            PeriodSearch::Proven(pre, p) => Key::Periodic(pre, p, values[..pre + p].to_vec()),
            _ => Key::Normal(normal.rule.code()),
        };
        classes.entry(key).or_default().push((code, offset, normal));
    }
    let mut classes: Vec<OctalClass> = classes
        .into_iter()
        .map(|(key, mut members)| {
            members.sort_by_key(|(code, ..)| simplicity(code));
            let (representative, _, normal) = &members[0];
            let period = match key {
                Key::Periodic(pre, p, values) => Some(normal.unshifted(pre, p, &values)),
                Key::Normal(_) => None,
            };
            OctalClass {
                representative: representative.clone(),
                members: members
                    .iter()
                    .map(|(code, offset, _)| (code.clone(), *offset))
                    .collect(),
                period,
            }
        })
        .collect();
    classes.sort_by_key(|class| simplicity(&class.representative));
    Ok(classes)
}

/// The codes `0.d1..dk` and `4.d1..dk` for `k <= digits`, last digit nonzero (and
/// `4.0`), in canonical form.
fn octal_codes(digits: usize) -> Vec<String> {
    let mut codes = vec!["4.0".to_string()];
    let mut tails = vec![String::new()];
    for _ in 0..digits {
        let longer: Vec<String> = tails
            .iter()
            .flat_map(|tail| (0..8).map(move |d| format!("{tail}{d}")))
            .collect();
        for tail in longer.iter().filter(|tail| !tail.ends_with('0')) {
            codes.extend(["0", "4"].map(|d0| format!("{d0}.{tail}")));
        }
        tails = longer;
    }
    codes
}

/// Czajka's order of names (`.17`, `4`, `4.3`): shorter, then smaller.
fn simplicity(code: &str) -> (usize, String) {
    let name = match code.split_once('.') {
        Some(("0", tail)) => format!(".{tail}"),
        Some((d0, "0")) => d0.to_string(),
        _ => code.to_string(),
    };
    (name.len(), name)
}

/// A code's normal form and how many times its heaps were shifted down.
struct Normal {
    rule: TakeAndBreak,
    shift: usize,
}

impl Normal {
    fn of(rule: &TakeAndBreak) -> Result<Self> {
        // Bit t of each: taking t may leave nothing, one heap, two heaps.
        let bits = |bit: u8| -> u64 {
            let digits = rule.digits.iter().enumerate();
            digits
                .filter(|&(_, &d)| d & bit != 0)
                .map(|(t, _)| 1 << t)
                .sum()
        };
        let (mut whole, mut take, mut split) = (bits(NONE), bits(ONE), bits(TWO));
        let mut shift = 0;
        // A heap of 1 that cannot be taken whole has no move: it counts as no heap.
        while whole & 2 == 0 {
            split <<= 1;
            take |= split;
            whole = (whole >> 1) | take;
            shift += 1;
        }
        let values = from_bits(whole, take, split)?.first(4)?;
        for (i, &value) in values.iter().enumerate().skip(1) {
            if value != 0 {
                whole |= 1 << i;
            } else if i >= 2 && split & 1 != 0 {
                take |= 1 << i;
            }
        }
        if values[2] == 0 && split & 2 != 0 {
            take |= 1 << 3;
        }
        Ok(Normal {
            rule: from_bits(whole, take, split)?,
            shift,
        })
    }

    /// The least preperiod, the period and the values up to their sum of the code
    /// this form was made from, given the form's.
    fn unshifted(&self, pre: usize, p: usize, values: &[u32]) -> (usize, usize, Vec<u32>) {
        let value = |n: usize| match n.checked_sub(self.shift) {
            Some(m) if m < pre + p => values[m],
            Some(m) => values[pre + (m - pre) % p],
            None => 0,
        };
        let mut start = pre + self.shift;
        while start > 0 && value(start - 1) == value(start - 1 + p) {
            start -= 1;
        }
        (start, p, (0..start + p).map(value).collect())
    }
}

/// The rule whose takes `t` may leave nothing, one heap, two heaps by bit `t` of
/// `whole`, `take`, `split`.
fn from_bits(whole: u64, take: u64, split: u64) -> Result<TakeAndBreak> {
    let digit = |t: u32| ((whole >> t) & 1) | ((take >> t) & 1) << 1 | ((split >> t) & 1) << 2;
    let top = 64 - (whole | take | split).leading_zeros();
    let tail: String = (1..top.max(2))
        .map(|t| char::from_digit(digit(t) as u32, 8).unwrap_or('0'))
        .collect();
    TakeAndBreak::parse(&format!("{}.{tail}", digit(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_counted_once() {
        let codes = octal_codes(3);
        assert_eq!(codes.len(), 1023);
        let mut unique = codes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), codes.len());
        assert!(codes
            .iter()
            .all(|code| TakeAndBreak::parse(code).unwrap().code() == *code));
    }

    #[test]
    fn normal_forms_shift_and_add() {
        // .02 is .13 with heaps two larger (heaps of 1 and 2 have no move).
        let normal = Normal::of(&TakeAndBreak::parse("0.02").unwrap()).unwrap();
        assert_eq!(normal.shift, 2);
        let of_13 = Normal::of(&TakeAndBreak::parse("0.13").unwrap()).unwrap();
        assert_eq!(of_13.shift, 0);
        assert_eq!(of_13.rule.first(200), normal.rule.first(200));
    }

    #[test]
    fn names_order_as_czajka_does() {
        let mut codes = ["4.3", "0.17", "4.0", "0.332", "4.32", "0.2"];
        codes.sort_by_key(|code| simplicity(code));
        assert_eq!(codes, ["4.0", "0.2", "0.17", "4.3", "0.332", "4.32"]);
    }
}
