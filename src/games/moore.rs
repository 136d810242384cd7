//! Moore's Nim_k (Moore, 1910; Ferguson, Part I, 2.5 exercise; Winning Ways ch. 15): a
//! move takes any positive number from each of at most k heaps (Nim is k = 1).
//!
//! Moore's theorem: a position is P exactly when, written in binary, the heaps' digits
//! add up to a multiple of k + 1 in every place. In misère play the positions whose
//! heaps are all 0 or 1 are P when the number of 1s is 1 more than a multiple of
//! k + 1, and the others as in normal play (checked against search in the tests).
//! Both answer positions of any size at once; the winning moves come from a search over
//! the binary places, highest first, that keeps for each heap whether it is already
//! below its old size (then its lower digits are free) and lets at most k heaps go
//! below. No closed form of the Grundy values is known: they are searched.
use std::collections::HashMap;

use super::heaps::MAX_OPTIONS;
use super::{Game, Limits, Memo};
use crate::base::error::{Error, FamilyError, Result};
use crate::base::interrupt::Poll;
use crate::base::outcome::Outcome;

/// Why Moore's Nim cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum MooreError {
    #[error("k must be at least 1: a move of Moore's Nim takes from 1 to k heaps")]
    K,
    #[error(
        "finding every winning move of Moore's Nim means trying the sets of up to {most} \
         of {among} heaps, more than {limit}; the outcome comes from Moore's theorem at once"
    )]
    TooManySets {
        among: usize,
        most: u64,
        limit: u128,
    },
}

impl FamilyError for MooreError {}

/// Moore's Nim_k; a position is the heaps.
#[derive(Debug)]
pub struct Moore {
    k: u64,
    memo: Memo<Vec<u64>>,
}

impl Moore {
    /// The game where a move takes from 1 to `k` heaps (`k` at least 1).
    pub fn new(k: u64) -> Result<Self> {
        if k == 0 {
            return Err(MooreError::K.into());
        }
        Ok(Moore {
            k,
            memo: Memo::default(),
        })
    }

    pub fn k(&self) -> u64 {
        self.k
    }

    /// Whether `heaps` is a P-position in normal play (Moore's theorem).
    pub fn is_p(&self, heaps: &[u64]) -> bool {
        (0..64).all(|bit| self.column(heaps, bit) == 0)
    }

    /// The heaps' binary digits in place `bit`, added up modulo k + 1.
    fn column(&self, heaps: &[u64], bit: u32) -> u64 {
        let ones = heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() as u64;
        ones % modulus(self.k)
    }

    /// Whether `heaps` is a P-position in misère play.
    pub fn is_misere_p(&self, heaps: &[u64]) -> bool {
        if heaps.iter().all(|&h| h <= 1) {
            let ones = heaps.iter().filter(|&&h| h == 1).count() as u64;
            return ones % modulus(self.k) == 1;
        }
        self.is_p(heaps)
    }

    /// Every option of `heaps` that is a P-position in normal play.
    pub fn p_options(&self, heaps: &[u64]) -> Result<Vec<Vec<u64>>> {
        let mut search = Search {
            k: self.k,
            heaps,
            built: heaps.to_vec(),
            free: Vec::new(),
            feasible: HashMap::new(),
            found: Vec::new(),
            poll: Poll::default(),
        };
        let top = heaps
            .iter()
            .map(|&h| 64 - h.leading_zeros())
            .max()
            .unwrap_or(0);
        search.enumerate(top)?;
        Ok(search.found)
    }

    /// Every option of `heaps` that is a P-position in misère play: the normal-play
    /// ones with a heap above 1, and those of 0s and 1s only.
    fn misere_p_options(&self, heaps: &[u64]) -> Result<Vec<Vec<u64>>> {
        let mut found: Vec<Vec<u64>> = self
            .p_options(heaps)?
            .into_iter()
            .filter(|q| q.iter().any(|&h| h > 1))
            .collect();
        // Heaps above 1 must all go to 0 or 1; a 1 may go to 0.
        let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 1).collect();
        let ones: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] == 1).collect();
        if big.len() as u64 > self.k {
            return Ok(found);
        }
        let mut poll = Poll::default();
        // Each big heap goes to 0 or 1 (at most k of them, so 2**k ways: refused past
        // the options a game lists), and up to k - big of the 1s go to 0.
        if big.len() > 23 {
            return Err(Error::TooManyGameOptions {
                options: 1 << big.len().min(127),
                limit: MAX_OPTIONS,
            });
        }
        let spare = self.k - big.len() as u64;
        let cuts = subsets(ones.len(), spare)?;
        for low in 0u64..1 << big.len() {
            for cut in &cuts {
                poll.tick()?;
                let mut q = heaps.to_vec();
                for (j, &i) in big.iter().enumerate() {
                    q[i] = low >> j & 1;
                }
                for &j in cut {
                    q[ones[j]] = 0;
                }
                if q.as_slice() != heaps && self.is_misere_p(&q) {
                    push_counted(&mut found, q)?;
                }
            }
        }
        Ok(found)
    }
}

/// k + 1, saturating: no place has more than 2**64 - 2 digits to add up, so a k of
/// 2**64 - 1 counts them exactly all the same.
fn modulus(k: u64) -> u64 {
    k.saturating_add(1)
}

/// The subsets of `0..n` with at most `most` elements, each as sorted indices; refused
/// when there are more than `MAX_OPTIONS` (a position of very many heaps).
fn subsets(n: usize, most: u64) -> Result<Vec<Vec<usize>>> {
    let mut count = 0u128;
    let mut choose = 1u128; // C(n, j)
    for j in 0..=most.min(n as u64) as u128 {
        count = count.saturating_add(choose);
        choose = choose.saturating_mul(n as u128 - j) / (j + 1);
    }
    if count > MAX_OPTIONS {
        return Err(MooreError::TooManySets {
            among: n,
            most,
            limit: MAX_OPTIONS,
        }
        .into());
    }
    let mut all = vec![Vec::new()];
    for i in 0..n {
        let grown: Vec<Vec<usize>> = all
            .iter()
            .filter(|s| (s.len() as u64) < most)
            .map(|s| s.iter().copied().chain([i]).collect())
            .collect();
        all.extend(grown);
    }
    Ok(all)
}

/// `q` added to `found`, refused past `MAX_OPTIONS` moves.
fn push_counted(found: &mut Vec<Vec<u64>>, q: Vec<u64>) -> Result<()> {
    if found.len() as u128 >= MAX_OPTIONS {
        return Err(Error::TooManyGameOptions {
            options: found.len() as u128 + 1,
            limit: MAX_OPTIONS,
        });
    }
    found.push(q);
    Ok(())
}

/// The search for P-options over the binary places, highest first. A heap is free once
/// a 1 of it became 0 (it is then below its old size whatever its lower digits); at
/// most k heaps may be free, and at the end at least one must be.
struct Search<'a> {
    k: u64,
    heaps: &'a [u64],
    /// The option being built: the places above the current one are final.
    built: Vec<u64>,
    /// The free heaps, in the order they became free.
    free: Vec<usize>,
    /// Whether the places below `bit` can be completed, by (bit, sorted free heaps).
    feasible: HashMap<(u32, Vec<usize>), bool>,
    found: Vec<Vec<u64>>,
    poll: Poll,
}

impl Search<'_> {
    /// The choices at place `bit - 1` (`bit` places remain): which tight heaps with a 1
    /// there become free, and how many free heaps get a 1, so that the digits add up
    /// to a multiple of k + 1. Calls `each(newly free, ones among the free)`.
    fn choices(&self, bit: u32, mut each: impl FnMut(&[usize], u64) -> Result<()>) -> Result<()> {
        let place = bit - 1;
        let tight_ones: Vec<usize> = (0..self.heaps.len())
            .filter(|i| !self.free.contains(i) && self.heaps[*i] >> place & 1 == 1)
            .collect();
        let room = self.k - self.free.len() as u64;
        for dropped in subsets(tight_ones.len(), room)? {
            let kept = (tight_ones.len() - dropped.len()) as u64;
            let newly: Vec<usize> = dropped.iter().map(|&j| tight_ones[j]).collect();
            // Free heaps may add any number of 1s up to how many they are.
            for ones in 0..=self.free.len() as u64 {
                if (kept + ones).is_multiple_of(modulus(self.k)) {
                    each(&newly, ones)?;
                }
            }
        }
        Ok(())
    }

    /// Whether the places below `bit` can be completed from the free heaps now.
    fn can_finish(&mut self, bit: u32) -> Result<bool> {
        if bit == 0 {
            return Ok(!self.free.is_empty());
        }
        let mut key = self.free.clone();
        key.sort_unstable();
        if let Some(&known) = self.feasible.get(&(bit, key.clone())) {
            return Ok(known);
        }
        self.poll.tick()?;
        let mut nexts = Vec::new();
        self.choices(bit, |newly, _| {
            nexts.push(newly.to_vec());
            Ok(())
        })?;
        let mut can = false;
        for newly in nexts {
            let before = self.free.len();
            self.free.extend(&newly);
            can = self.can_finish(bit - 1)?;
            self.free.truncate(before);
            if can {
                break;
            }
        }
        self.feasible.insert((bit, key), can);
        Ok(can)
    }

    /// Every completion of the places below `bit`, each added to `found`.
    fn enumerate(&mut self, bit: u32) -> Result<()> {
        if !self.can_finish(bit)? {
            return Ok(());
        }
        if bit == 0 {
            return push_counted(&mut self.found, self.built.clone());
        }
        let place = bit - 1;
        let mut moves = Vec::new();
        self.choices(bit, |newly, ones| {
            moves.push((newly.to_vec(), ones));
            Ok(())
        })?;
        for (newly, ones) in moves {
            let before = self.free.len();
            // Every heap's digit here: tight ones keep theirs, the newly free drop a 1,
            // and the heaps free before take `ones` 1s, in every way.
            for i in 0..self.heaps.len() {
                let original = self.heaps[i] & 1 << place;
                self.built[i] = self.built[i] & !(1 << place) | original;
            }
            for &i in &newly {
                self.built[i] &= !(1 << place);
            }
            for chosen in subsets(before, ones)? {
                if chosen.len() as u64 != ones {
                    continue;
                }
                for (j, &i) in self.free[..before].iter().enumerate() {
                    let one = chosen.contains(&j);
                    self.built[i] = self.built[i] & !(1 << place) | u64::from(one) << place;
                }
                self.free.extend(&newly);
                self.enumerate(place)?;
                self.free.truncate(before);
            }
        }
        Ok(())
    }
}

impl Game for Moore {
    type Position = Vec<u64>;
    const FAMILY: &'static str = "moore";

    fn options(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> Result<()> {
        // Count them first: the products of at most k heaps' sizes, added up.
        let mut ways = vec![0u128; self.k.min(p.len() as u64) as usize + 1];
        ways[0] = 1;
        for &h in p {
            for j in (1..ways.len()).rev() {
                ways[j] = ways[j].saturating_add(ways[j - 1].saturating_mul(u128::from(h)));
            }
        }
        let count = ways[1..].iter().fold(0u128, |a, &w| a.saturating_add(w));
        if count > MAX_OPTIONS {
            return Err(Error::TooManyGameOptions {
                options: count,
                limit: MAX_OPTIONS,
            });
        }
        // Heap by heap: each partial option keeps the heap, or lowers it if fewer
        // than k heaps were lowered so far.
        let mut partial = vec![(p.clone(), 0u64)];
        for (i, &h) in p.iter().enumerate() {
            let mut grown = Vec::new();
            for (q, lowered) in &partial {
                if *lowered < self.k {
                    for smaller in 0..h {
                        let mut next = q.clone();
                        next[i] = smaller;
                        grown.push((next, lowered + 1));
                    }
                }
            }
            partial.extend(grown);
        }
        out.extend(partial.into_iter().filter(|(_, l)| *l > 0).map(|(q, _)| q));
        Ok(())
    }

    fn normal(&self, p: &Vec<u64>, _limits: &Limits) -> Result<Option<Outcome>> {
        Ok(Some(if self.is_p(p) { Outcome::P } else { Outcome::N }))
    }

    fn misere(&self, p: &Vec<u64>, _limits: &Limits) -> Result<Option<Outcome>> {
        let p_position = self.is_misere_p(p);
        Ok(Some(if p_position { Outcome::P } else { Outcome::N }))
    }

    fn options_with(
        &self,
        p: &Vec<u64>,
        outcome: Outcome,
        misere: bool,
        _limits: &Limits,
    ) -> Result<Option<Vec<Vec<u64>>>> {
        if outcome != Outcome::P {
            return Ok(None);
        }
        let found = if misere {
            self.misere_p_options(p)?
        } else {
            self.p_options(p)?
        };
        Ok(Some(found))
    }

    fn loopy(&self, _p: &Vec<u64>, _limits: &Limits) -> Result<Option<bool>> {
        Ok(Some(false))
    }

    fn numbers(&self, p: &Vec<u64>) -> Option<Vec<u64>> {
        Some(p.clone())
    }

    fn memo(&self) -> &Memo<Vec<u64>> {
        &self.memo
    }

    fn same_game(&self, other: &Self) -> bool {
        self.k == other.k
    }

    fn hash_game(&self, state: &mut dyn std::hash::Hasher) {
        state.write_u64(self.k);
    }
}
