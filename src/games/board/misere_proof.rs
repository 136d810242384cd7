//! What proves a misère outcome on a board: the positions of a proof tree, for a
//! checker that shares nothing with the search (`nimkit.verify`). A position the
//! player to move wins is given with one option that loses (or none: no move is
//! left, and the player who cannot move wins misère play); a position that loses is
//! followed into every option, each a win. Positions are told apart by the
//! multiset of their components' keys (components with no move left out: they add
//! nothing in either ending), so each is proven once.
use rustc_hash::FxHashSet;

use super::graph::Deletion;
use super::kinds::Moves;
use super::sets::{members, Bits, Key};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::split::budget::Budget;

/// One position of a misère proof: its components with a move, whether the player
/// to move wins, and for a win with a move the components of an option that loses.
#[derive(Debug)]
pub struct Step {
    pub parts: Vec<Bits>,
    pub wins: bool,
    pub witness: Option<Vec<Bits>>,
}

impl Deletion {
    /// Whether the player to move wins `set` in misère play, and the positions that
    /// prove it (the root's first), searched within `budget`.
    pub fn misere_proof(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<(bool, Vec<Step>)> {
        let mut seen: FxHashSet<Vec<Key>> = FxHashSet::default();
        let mut steps: Vec<Step> = Vec::new();
        let mut stack = vec![Bits::from_slice(set)];
        let mut poll = Poll::default();
        while let Some(position) = stack.pop() {
            poll.tick()?;
            let parts = self.moving_parts(&position);
            let mut key: Vec<Key> = parts.iter().map(|p| self.key(p)).collect();
            key.sort_unstable();
            if !seen.insert(key) {
                continue;
            }
            let wins = self.misere_wins(&position, budget, report)?;
            let mut witness = None;
            if wins && !parts.is_empty() {
                // Of the options that lose, the one with the fewest moves left: its
                // proof is the smallest, roughly.
                let mut losing: Option<Bits> = None;
                let mut options = self.options(&position);
                options.sort_by_cached_key(|o| self.moves_left(o));
                for option in options {
                    if !self.misere_wins(&option, budget, report)? {
                        losing = Some(option);
                        break;
                    }
                }
                let option = losing.ok_or(Error::Inconsistent(
                    "a misère win with no option that loses",
                ))?;
                witness = Some(self.moving_parts(&option));
                stack.push(option);
            } else if !wins {
                stack.extend(self.options(&position));
            }
            alloc::grow_by(&mut steps, 1)?;
            steps.push(Step {
                parts,
                wins,
                witness,
            });
        }
        let root = steps.first().is_some_and(|s| s.wins);
        Ok((root, steps))
    }

    /// How many moves `set` has.
    fn moves_left(&self, set: &[u64]) -> u32 {
        let ones = |words: &mut dyn Iterator<Item = u64>| words.map(|w| w.count_ones()).sum();
        match self.moves {
            Moves::Neighbourhood => ones(&mut set.iter().copied()),
            Moves::Edge => {
                let ends: u32 = members(set)
                    .map(|v| ones(&mut self.adjacency[v].iter().zip(set).map(|(a, s)| a & s)))
                    .sum();
                ends / 2
            }
        }
    }

    /// The components of `set` with a move.
    fn moving_parts(&self, set: &[u64]) -> Vec<Bits> {
        let mut parts = self.components(set);
        parts.retain(|p| self.has_move(p));
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proof_follows_every_option_of_a_loss_and_one_of_a_win() {
        for (rows, cols) in [(2, 3), (3, 3), (2, 5), (3, 4)] {
            let board = Deletion::board(rows, cols, Moves::Edge).unwrap();
            let all = board.all();
            let (wins, steps) = board
                .misere_proof(&all, Budget::default(), &|_| {})
                .unwrap();
            assert_eq!(
                wins,
                board.misere_wins(&all, Budget::default(), &|_| {}).unwrap()
            );
            for step in &steps {
                let set: Bits =
                    step.parts
                        .iter()
                        .fold(Bits::from_elem(0, all.len()), |mut s, p| {
                            s.iter_mut().zip(p).for_each(|(a, b)| *a |= b);
                            s
                        });
                let again = board.misere_wins(&set, Budget::default(), &|_| {}).unwrap();
                assert_eq!(again, step.wins, "{rows} x {cols}");
                assert_eq!(step.witness.is_some(), step.wins && !step.parts.is_empty());
            }
        }
    }
}
