//! Coin-turning games (Ferguson, Part I, ch. 5; Winning Ways ch. 14): a row of coins,
//! heads or tails; a move turns over a set of coins the rule allows, the rightmost of
//! which goes from heads to tails.
//!
//! The theorem (Lenstra; Ferguson 5.1): a position is the sum of single-head positions,
//! one for each coin showing heads (turning a coin twice is the same as not turning
//! it), so its value is the XOR of the values of its heads. A single coin's value is
//! the mex over the moves from it alone, each worth the XOR of the other coins it
//! turns; the named rules have closed forms for it:
//! Turning Turtles (turn one or two coins) `x + 1`, Twins (exactly two) `x`, Mock
//! Turtles (one to three) the odious numbers, Ruler (any run of coins ending at the
//! one going to tails) the largest power of 2 dividing `x + 1`, coins numbered from 0
//! on the left. Moebius (one to five) and Mogul (one to seven) are found by that mex,
//! with the values the XOR of a set of at most k earlier coins takes kept as bit sets.
use super::heaps::MAX_OPTIONS;
use super::{Game, Limits, Memo, Value};
use crate::base::error::{Error, FamilyError, Result};
use crate::base::interrupt::Poll;
use crate::base::mex;
use crate::base::outcome::Outcome;

/// Why a coin-turning game cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum CoinsError {
    #[error(
        "no coin-turning rule {0:?}: the rules are turning_turtles, twins, mock_turtles, \
         ruler, moebius and mogul"
    )]
    UnknownRule(String),
    #[error(
        "the single-coin values up to coin {coin} need bit sets of {values} values, more \
         than max_positions = {limit}: raise max_positions (each set takes values / 8 \
         bytes)"
    )]
    ValuesTooLarge {
        coin: usize,
        values: u64,
        limit: u64,
    },
}

impl FamilyError for CoinsError {}

/// Which sets of coins a move turns, with its rightmost coin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// `least` to `most` coins anywhere to the left of the rightmost and it.
    Turn { least: u32, most: u32 },
    /// A run of consecutive coins ending at the rightmost.
    Ruler,
}

/// The named rules, as Ferguson lists them.
pub const RULES: [(&str, Rule); 6] = [
    ("turning_turtles", Rule::Turn { least: 1, most: 2 }),
    ("twins", Rule::Turn { least: 2, most: 2 }),
    ("mock_turtles", Rule::Turn { least: 1, most: 3 }),
    ("ruler", Rule::Ruler),
    ("moebius", Rule::Turn { least: 1, most: 5 }),
    ("mogul", Rule::Turn { least: 1, most: 7 }),
];

impl Rule {
    /// The rule of a name in `RULES`.
    pub fn named(name: &str) -> Result<Rule> {
        RULES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, rule)| rule)
            .ok_or_else(|| CoinsError::UnknownRule(name.to_owned()).into())
    }

    /// The value of a single head on each of coins `0..n`; for the rules valued by
    /// their mex, refused when the values' bit sets would pass `limit` values.
    pub fn values(self, n: usize, limit: u64) -> Result<Vec<u64>> {
        let closed = |f: fn(u64) -> u64| Ok((0..n as u64).map(f).collect());
        match self {
            Rule::Turn { least: 1, most: 2 } => closed(|x| x + 1),
            Rule::Turn { least: 2, most: 2 } => closed(|x| x),
            Rule::Turn { least: 1, most: 3 } => closed(odious),
            Rule::Ruler => closed(|x| 1 << (x + 1).trailing_zeros()),
            Rule::Turn { least, most } => values_by_mex(least, most, n, limit),
        }
    }

    /// Every move from `coins`: the sets of coins turned, each listed rightmost first.
    /// Refused past `MAX_OPTIONS` moves.
    pub fn moves(self, coins: &[bool]) -> Result<Vec<Vec<usize>>> {
        let count: u128 = heads(coins).map(|x| self.moves_from(x)).sum();
        if count > MAX_OPTIONS {
            return Err(Error::TooManyGameOptions {
                options: count,
                limit: MAX_OPTIONS,
            });
        }
        let mut found = Vec::new();
        for x in heads(coins) {
            match self {
                Rule::Ruler => {
                    found.extend((1..=x + 1).map(|run| (x + 1 - run..=x).rev().collect()))
                }
                Rule::Turn { least, most } => {
                    for others in least - 1..=most - 1 {
                        for_each_subset(x, others as usize, &mut |set| {
                            let mut turned = vec![x];
                            turned.extend(set.iter().rev());
                            found.push(turned);
                        });
                    }
                }
            }
        }
        Ok(found)
    }

    /// How many moves have coin `x` as their rightmost.
    fn moves_from(self, x: usize) -> u128 {
        match self {
            Rule::Ruler => x as u128 + 1,
            Rule::Turn { least, most } => (least - 1..=most - 1)
                .map(|j| choose(x as u128, u128::from(j)))
                .fold(0, u128::saturating_add),
        }
    }
}

/// The coins showing heads.
fn heads(coins: &[bool]) -> impl Iterator<Item = usize> + '_ {
    (0..coins.len()).filter(|&x| coins[x])
}

/// C(n, k), saturating.
fn choose(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |c, i| c.saturating_mul(n - i) / (i + 1))
}

/// Calls `each` on every set of `size` coins among `0..n`, increasing.
fn for_each_subset(n: usize, size: usize, each: &mut dyn FnMut(&[usize])) {
    if size > n {
        return;
    }
    let mut set: Vec<usize> = (0..size).collect();
    loop {
        each(&set);
        // The next set in lexicographic order: raise the last index that can rise.
        let Some(i) = (0..size).rev().find(|&i| set[i] < n - size + i) else {
            return;
        };
        set[i] += 1;
        for j in i + 1..size {
            set[j] = set[j - 1] + 1;
        }
    }
}

/// The `x`-th odious number (an odd number of 1s in binary): `2x` or `2x + 1`.
fn odious(x: u64) -> u64 {
    let even = 2 * x;
    if even.count_ones() % 2 == 1 {
        even
    } else {
        even + 1
    }
}

/// Single-coin values of the rule turning `least..=most` coins, by their mex: the
/// values the XOR of exactly j earlier coins takes are kept as bit sets, `u64` words
/// (a XOR of values below a power of 2 stays below it, so the sets only double).
/// XOR-ing every member with `g` moves word `w` to `w ^ (g >> 6)` and permutes the
/// bits inside it by `g & 63`.
fn values_by_mex(least: u32, most: u32, n: usize, limit: u64) -> Result<Vec<u64>> {
    let mut poll = Poll::default();
    // reach[j]: the XORs of exactly j distinct earlier coins' values (j = 0: just 0).
    let mut reach: Vec<Vec<u64>> = (0..most).map(|j| vec![u64::from(j == 0)]).collect();
    let mut values = crate::base::alloc::with_capacity(n)?;
    for coin in 0..n {
        let g = least_unreached(&reach[(least - 1) as usize..]);
        let words = reach[0].len();
        if g >= 64 * words as u64 {
            if 128 * words as u64 > limit.max(64) {
                return Err(CoinsError::ValuesTooLarge {
                    coin,
                    values: 128 * words as u64,
                    limit,
                }
                .into());
            }
            for set in &mut reach {
                crate::base::alloc::grow_by(set, words)?;
                set.resize(2 * words, 0);
            }
        }
        for j in (1..most as usize).rev() {
            let (lower, upper) = reach.split_at_mut(j);
            let (from, to) = (&lower[j - 1], &mut upper[0]);
            let (word_shift, bits) = ((g >> 6) as usize, g & 63);
            for (w, &word) in from.iter().enumerate() {
                poll.tick()?;
                if word != 0 {
                    to[w ^ word_shift] |= permute(word, bits);
                }
            }
        }
        values.push(g);
    }
    Ok(values)
}

/// `word` with the bit at each position `p` moved to `p ^ c` (`c` below 64): for each
/// bit of `c`, the halves of each block of twice its size swap.
fn permute(mut word: u64, c: u64) -> u64 {
    const LOWER_HALVES: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff,
    ];
    for (k, mask) in LOWER_HALVES.iter().enumerate() {
        if c >> k & 1 == 1 {
            let s = 1 << k;
            word = (word & mask) << s | (word >> s) & mask;
        }
    }
    word
}

/// The least value in none of `sets` (it may be the first past them all).
fn least_unreached(sets: &[Vec<u64>]) -> u64 {
    let words = (0..sets[0].len()).map(|w| sets.iter().fold(0, |acc, set| acc | set[w]));
    u64::from(mex::of_bits(words))
}

/// A coin-turning game; a position is the row of coins, `true` for heads.
#[derive(Debug)]
pub struct Coins {
    rule: Rule,
    memo: Memo<Vec<bool>>,
}

impl Coins {
    pub fn new(rule: Rule) -> Self {
        Coins {
            rule,
            memo: Memo::default(),
        }
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The position's value: the XOR of its heads' single-coin values.
    pub fn value_of(&self, coins: &[bool], limit: u64) -> Result<u64> {
        let last = coins.iter().rposition(|&c| c).map_or(0, |x| x + 1);
        let values = self.rule.values(last, limit)?;
        Ok(heads(coins).fold(0, |acc, x| acc ^ values[x]))
    }

    /// The moves (coins turned, rightmost first) to a position of value 0.
    pub fn winning_turns(&self, coins: &[bool], limit: u64) -> Result<Vec<Vec<usize>>> {
        let values = self.rule.values(coins.len(), limit)?;
        let total = heads(coins).fold(0, |acc, x| acc ^ values[x]);
        if total == 0 {
            return Ok(Vec::new());
        }
        let mut moves = self.rule.moves(coins)?;
        moves.retain(|turned| turned.iter().fold(0, |acc, &c| acc ^ values[c]) == total);
        Ok(moves)
    }
}

/// `coins` with the coins of `turned` turned over.
pub fn turned(coins: &[bool], turned: &[usize]) -> Vec<bool> {
    let mut next = coins.to_vec();
    for &c in turned {
        next[c] = !next[c];
    }
    next
}

impl Game for Coins {
    type Position = Vec<bool>;
    const FAMILY: &'static str = "coins";

    fn options(&self, p: &Vec<bool>, out: &mut Vec<Vec<bool>>) -> Result<()> {
        out.extend(self.rule.moves(p)?.iter().map(|t| turned(p, t)));
        Ok(())
    }

    fn value(&self, p: &Vec<bool>, limits: &Limits) -> Result<Option<Value>> {
        Ok(Some(Value::Finite(self.value_of(p, limits.max_positions)?)))
    }

    fn options_with(
        &self,
        p: &Vec<bool>,
        outcome: Outcome,
        misere: bool,
        limits: &Limits,
    ) -> Result<Option<Vec<Vec<bool>>>> {
        if misere || outcome != Outcome::P {
            return Ok(None);
        }
        let moves = self.winning_turns(p, limits.max_positions)?;
        Ok(Some(moves.iter().map(|t| turned(p, t)).collect()))
    }

    fn loopy(&self, _p: &Vec<bool>, _limits: &Limits) -> Result<Option<bool>> {
        // The rightmost coin turned goes to tails: the row, read as a binary number
        // with the rightmost coin highest, falls with every move.
        Ok(Some(false))
    }

    fn numbers(&self, p: &Vec<bool>) -> Option<Vec<u64>> {
        Some(p.iter().map(|&c| u64::from(c)).collect())
    }

    fn memo(&self) -> &Memo<Vec<bool>> {
        &self.memo
    }

    fn same_game(&self, other: &Self) -> bool {
        self.rule == other.rule
    }

    fn hash_game(&self, mut state: &mut dyn std::hash::Hasher) {
        std::hash::Hash::hash(&self.rule, &mut state);
    }
}
