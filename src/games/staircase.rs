//! Staircase Nim (Ferguson, Part I, 4.6, exercise; Winning Ways ch. 15): coins on the
//! steps of a staircase, step 0 the floor; a move brings any positive number of coins
//! from a step down to the step below. It is Nim on the odd steps: a move from an odd
//! step lowers a Nim heap, and a move from an even step onto an odd one can be undone
//! by the opponent's next move, so the Grundy value is the XOR of the odd steps
//! (each option changes that XOR, and every smaller XOR is reached by lowering an odd
//! step). Poker Nim (Nim where coins taken may later be added back) reduces the same
//! way: adding coins is undone by taking them. Misère play is searched.
use super::heaps::MAX_OPTIONS;
use super::{Game, Limits, Memo, Value};
use crate::base::error::{Error, FamilyError, Result};
use crate::base::outcome::Outcome;

/// Why a staircase cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum StaircaseError {
    #[error(
        "the staircase holds {total} coins, more than 2**64 - 1 (coins move between steps, \
         so each step must be able to hold them all)"
    )]
    TooManyCoins { total: u128 },
}

impl FamilyError for StaircaseError {}

/// Staircase Nim; a position is the coins on each step, step 0 first.
#[derive(Debug, Default)]
pub struct Staircase {
    memo: Memo<Vec<u64>>,
}

impl Staircase {
    /// `coins`, refused when they add up to more than 2**64 - 1 (a move adds coins to
    /// a step, so every step must be able to hold all of them).
    pub fn check(coins: &[u64]) -> Result<()> {
        let total: u128 = coins.iter().map(|&c| u128::from(c)).sum();
        if total > u128::from(u64::MAX) {
            return Err(StaircaseError::TooManyCoins { total }.into());
        }
        Ok(())
    }
}

/// The XOR of the coins on the odd steps.
pub fn value(steps: &[u64]) -> u64 {
    steps.iter().skip(1).step_by(2).fold(0, |x, &c| x ^ c)
}

impl Game for Staircase {
    type Position = Vec<u64>;
    const FAMILY: &'static str = "staircase";

    fn options(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> Result<()> {
        let count: u128 = p.iter().skip(1).map(|&c| u128::from(c)).sum();
        if count > MAX_OPTIONS {
            return Err(Error::TooManyGameOptions {
                options: count,
                limit: MAX_OPTIONS,
            });
        }
        for step in 1..p.len() {
            for t in 1..=p[step] {
                out.push(moved(p, step, t));
            }
        }
        Ok(())
    }

    fn value(&self, p: &Vec<u64>, _limits: &Limits) -> Result<Option<Value>> {
        Ok(Some(Value::Finite(value(p))))
    }

    fn options_with(
        &self,
        p: &Vec<u64>,
        outcome: Outcome,
        misere: bool,
        _limits: &Limits,
    ) -> Result<Option<Vec<Vec<u64>>>> {
        if misere || outcome != Outcome::P {
            return Ok(None);
        }
        // Make the XOR of the odd steps 0: lower an odd step, or raise one from above.
        let x = value(p);
        let mut found = Vec::new();
        if x == 0 {
            return Ok(Some(found));
        }
        for step in 1..p.len() {
            let target = p[step] ^ x;
            if step % 2 == 1 && target < p[step] {
                found.push(moved(p, step, p[step] - target));
            }
            let below = step - 1;
            if step % 2 == 0 && below % 2 == 1 {
                let target = p[below] ^ x;
                if target > p[below] && target - p[below] <= p[step] {
                    found.push(moved(p, step, target - p[below]));
                }
            }
        }
        Ok(Some(found))
    }

    fn loopy(&self, _p: &Vec<u64>, _limits: &Limits) -> Result<Option<bool>> {
        Ok(Some(false)) // every move brings coins closer to the floor
    }

    fn numbers(&self, p: &Vec<u64>) -> Option<Vec<u64>> {
        Some(p.clone())
    }

    fn memo(&self) -> &Memo<Vec<u64>> {
        &self.memo
    }

    fn same_game(&self, _other: &Self) -> bool {
        true
    }

    fn hash_game(&self, _state: &mut dyn std::hash::Hasher) {}
}

/// `p` with `t` coins brought from `step` to the step below.
fn moved(p: &[u64], step: usize, t: u64) -> Vec<u64> {
    let mut next = p.to_vec();
    next[step] -= t;
    next[step - 1] += t;
    next
}
