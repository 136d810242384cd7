//! Heaps under a take-and-break code that splits them (Kayles, Dawson's Kayles, ...)
//! stepped by `Envs`: the heaps live in `slots` fixed places, a move takes from the
//! heap in one place and may leave two heaps there, the smaller one moved to the
//! first empty place. Labels come from each heap size's Grundy value (normal play)
//! or its element of the code's misère quotient (misère play), so a label is a few
//! look-ups per move. The action ids are `nimkit.rl.jax`'s: `(take * sizes + a) *
//! slots + slot`, the move taking `take` from the heap in `slot` and leaving heaps
//! `a` and `n - take - a` (`a` the smaller, 0 for one heap or none).
use rustc_hash::FxHashSet;
use smallvec::SmallVec;

use super::env_game::{Applied, EnvGame};
use super::start::Start;
use crate::base::alloc;
use crate::base::error::{FamilyError, Result};

/// Why the tables of a code's game do not fit together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeGameError {
    #[error("a game of heaps under a code starts at fixed heaps, not random ones")]
    RandomStart,
    #[error("the start has {got} places for heaps, not {want}")]
    Places { got: usize, want: usize },
    #[error("a heap of the start ({heap}) is past the largest size the tables cover ({largest})")]
    Past { heap: u64, largest: usize },
    #[error("the game's {what} has {got} entries, not {want}")]
    Size {
        what: &'static str,
        got: usize,
        want: usize,
    },
    #[error("the move ({n}, {take}, {a}) is not a move of a heap of at most {largest}")]
    Move {
        n: usize,
        take: usize,
        a: usize,
        largest: usize,
    },
    #[error("the misère quotient's {what} names element {element} of {order}")]
    Element {
        what: &'static str,
        element: u32,
        order: usize,
    },
    #[error("the game has {actions} actions, more than {most}")]
    TooMany { actions: usize, most: usize },
    #[error("more than {limit} positions are reachable from the start (raise max_positions to allow more)")]
    Positions { limit: u64 },
}

impl FamilyError for CodeGameError {}

/// The most action ids a game of heaps under a code has (as `nimkit.rl.jax`).
pub const MOST_ACTIONS: usize = 1 << 16;

/// A code's misère quotient, as far as the game's heaps need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotient {
    /// The product of elements `x` and `y` at `x * order + y`.
    pub table: Vec<u32>,
    /// The element of each heap size (size 0: the identity).
    pub elements: Vec<u32>,
    /// Whether each element is in the P-portion.
    pub p: Vec<bool>,
}

impl Quotient {
    fn order(&self) -> usize {
        self.p.len()
    }

    fn times(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.order() + y as usize]
    }
}

/// The game: the heaps' tables and the ending played.
#[derive(Debug)]
pub struct CodeGame {
    slots: usize,
    /// Heap sizes 0..sizes are covered (the largest at the start, plus one).
    sizes: usize,
    max_take: usize,
    values: Vec<u32>,
    /// The moves `(take, a)` of a heap of each size.
    moves: Vec<Vec<(u32, u32)>>,
    /// Whether `(n, take, a)` is a move, at `(n * (max_take + 1) + take) * sizes + a`.
    allowed: Vec<bool>,
    /// The misère quotient, in misère play.
    quotient: Option<Quotient>,
}

impl CodeGame {
    /// The game of heaps in `slots` places whose sizes are at most `values.len() - 1`:
    /// `values` holds each size's Grundy value, `moves` each move `(n, take, a)` of a
    /// heap of size `n`, and `quotient` is given for misère play.
    pub fn new(
        slots: usize,
        values: Vec<u32>,
        moves: &[(usize, usize, usize)],
        quotient: Option<Quotient>,
    ) -> Result<Self> {
        let sizes = values.len();
        let largest = sizes.saturating_sub(1);
        let max_take = moves.iter().map(|&(_, t, _)| t).max().unwrap_or(0);
        let actions = (max_take + 1)
            .checked_mul(sizes)
            .and_then(|x| x.checked_mul(slots))
            .unwrap_or(usize::MAX);
        if actions > MOST_ACTIONS {
            return Err(CodeGameError::TooMany {
                actions,
                most: MOST_ACTIONS,
            }
            .into());
        }
        let mut allowed = alloc::filled(sizes * (max_take + 1) * sizes, false)?;
        let mut by_size = vec![Vec::new(); sizes];
        for &(n, take, a) in moves {
            let fits = n >= 1 && n < sizes && take + 2 * a <= n;
            if !fits {
                return Err(CodeGameError::Move {
                    n,
                    take,
                    a,
                    largest,
                }
                .into());
            }
            allowed[(n * (max_take + 1) + take) * sizes + a] = true;
            by_size[n].push((take as u32, a as u32));
        }
        if let Some(q) = &quotient {
            check_quotient(q, sizes)?;
        }
        Ok(CodeGame {
            slots,
            sizes,
            max_take,
            values,
            moves: by_size,
            allowed,
            quotient,
        })
    }

    /// The move an action names, if it is one in `row`: the place, the heap `a` it
    /// leaves apart and the heap `b` left in the place.
    fn named(&self, row: &[u64], action: i64) -> Option<(usize, u32, u32)> {
        let id = usize::try_from(action).ok()?;
        if id >= self.actions() {
            return None;
        }
        let (slot, rest) = (id % self.slots, id / self.slots);
        let (take, a) = (rest / self.sizes, rest % self.sizes);
        let n = row[slot] as usize;
        let b = n.checked_sub(take + a)?;
        let legal =
            n > 0 && b >= a && self.allowed[(n * (self.max_take + 1) + take) * self.sizes + a];
        legal.then_some((slot, a as u32, b as u32))
    }

    /// Whether the player to move loses `row`, of elements or values `each` (one a place).
    fn loses_with(&self, each: impl Iterator<Item = u32>) -> bool {
        match &self.quotient {
            None => each.fold(0, |x, v| x ^ v) == 0,
            Some(q) => q.p[each.fold(q.elements[0], |x, e| q.times(x, e)) as usize],
        }
    }

    /// The value (normal play) or element (misère) of a heap of size `n`.
    fn of(&self, n: u64) -> u32 {
        match &self.quotient {
            None => self.values[n as usize],
            Some(q) => q.elements[n as usize],
        }
    }
}

impl CodeGame {
    /// Every position reachable from `start` (itself included), one row each, its
    /// heaps largest first and the empty places last, the rows in increasing order;
    /// an error past `limit` of them.
    pub fn every_position(&self, start: &[u64], limit: u64) -> Result<Vec<u64>> {
        self.fits(&Start::Fixed(start.to_vec()))?;
        let canonical = |row: &mut [u64]| row.sort_unstable_by(|a, b| b.cmp(a));
        let mut first = start.to_vec();
        canonical(&mut first);
        let mut seen: FxHashSet<Vec<u64>> = FxHashSet::default();
        let mut queue = vec![first.clone()];
        seen.insert(first);
        let mut poll = crate::base::interrupt::Poll::default();
        while let Some(row) = queue.pop() {
            poll.tick()?;
            for (slot, &n) in row.iter().enumerate() {
                // Heaps of one size lead to the same positions: the first of them only
                // (the row is sorted, largest first).
                if slot > 0 && row[slot - 1] == n {
                    continue;
                }
                for &(take, a) in &self.moves[n as usize] {
                    let mut next = row.clone();
                    next[slot] = n - u64::from(take + a);
                    if a > 0 {
                        if let Some(empty) = next.iter_mut().find(|h| **h == 0) {
                            *empty = u64::from(a);
                        }
                    }
                    canonical(&mut next);
                    if seen.contains(&next) {
                        continue;
                    }
                    if seen.len() as u64 >= limit {
                        return Err(CodeGameError::Positions { limit }.into());
                    }
                    seen.try_reserve(1)
                        .map_err(|_| alloc::too_large::<Vec<u64>>(seen.len() + 1))?;
                    alloc::grow(&mut queue)?;
                    queue.push(next.clone());
                    seen.insert(next);
                }
            }
        }
        let mut rows: Vec<Vec<u64>> = alloc::with_capacity(seen.len())?;
        rows.extend(seen);
        rows.sort_unstable();
        let mut out = alloc::with_capacity(rows.len() * self.slots)?;
        for row in rows {
            out.extend_from_slice(&row);
        }
        Ok(out)
    }
}

fn check_quotient(q: &Quotient, sizes: usize) -> Result<()> {
    let order = q.p.len();
    let size = |what, got, want| {
        if got == want {
            Ok(())
        } else {
            Err(CodeGameError::Size { what, got, want })
        }
    };
    size("quotient's table", q.table.len(), order * order)?;
    size("heaps' elements", q.elements.len(), sizes)?;
    for (what, list) in [("table", &q.table), ("heaps' elements", &q.elements)] {
        if let Some(&element) = list.iter().find(|&&e| e as usize >= order) {
            return Err(CodeGameError::Element {
                what,
                element,
                order,
            }
            .into());
        }
    }
    Ok(())
}

impl EnvGame for CodeGame {
    fn width(&self) -> usize {
        self.slots
    }
    fn actions(&self) -> usize {
        if self.sizes <= 1 {
            return 0;
        }
        (self.max_take + 1) * self.sizes * self.slots
    }
    fn is_misere(&self) -> bool {
        self.quotient.is_some()
    }
    fn fits(&self, start: &Start) -> Result<()> {
        let Start::Fixed(row) = start else {
            return Err(CodeGameError::RandomStart.into());
        };
        if row.len() != self.slots {
            return Err(CodeGameError::Places {
                got: row.len(),
                want: self.slots,
            }
            .into());
        }
        let largest = self.sizes.saturating_sub(1);
        match row.iter().find(|&&n| n as usize > largest || n >= 1 << 32) {
            Some(&heap) => Err(CodeGameError::Past { heap, largest }.into()),
            None => Ok(()),
        }
    }
    fn has_move(&self, row: &[u64]) -> bool {
        row.iter().any(|&n| !self.moves[n as usize].is_empty())
    }
    fn apply(&self, row: &mut [u64], action: i64) -> Applied {
        let Some((slot, a, b)) = self.named(row, action) else {
            return Applied::Illegal;
        };
        row[slot] = u64::from(b);
        if a > 0 {
            // Heaps never outnumber the objects, nor the objects the places.
            if let Some(empty) = row.iter_mut().find(|n| **n == 0) {
                *empty = u64::from(a);
            }
        }
        Applied::Moved {
            ended: !self.has_move(row),
        }
    }
    fn label(&self, row: &[u64], legal: &mut [bool], winning: &mut [bool]) -> bool {
        legal.fill(false);
        winning.fill(false);
        let each: SmallVec<[u32; 64]> = row.iter().map(|&n| self.of(n)).collect();
        // What every place but one makes: the XOR of the others' values, or the
        // product of the others' elements (before times after).
        let mut others: SmallVec<[u32; 64]> = SmallVec::from_elem(0, row.len());
        match &self.quotient {
            None => {
                let x = each.iter().fold(0, |x, v| x ^ v);
                for (o, v) in others.iter_mut().zip(&each) {
                    *o = x ^ v;
                }
            }
            Some(q) => {
                let mut before = q.elements[0];
                for (o, &e) in others.iter_mut().zip(&each) {
                    *o = before;
                    before = q.times(before, e);
                }
                let mut after = q.elements[0];
                for (o, &e) in others.iter_mut().zip(&each).rev() {
                    *o = q.times(*o, after);
                    after = q.times(after, e);
                }
            }
        }
        for (slot, &n) in row.iter().enumerate() {
            for &(take, a) in &self.moves[n as usize] {
                let b = n as u32 - take - a;
                let action = (take as usize * self.sizes + a as usize) * self.slots + slot;
                legal[action] = true;
                let (ea, eb) = (self.of(u64::from(a)), self.of(u64::from(b)));
                winning[action] = match &self.quotient {
                    None => others[slot] ^ ea ^ eb == 0,
                    Some(q) => q.p[q.times(q.times(others[slot], ea), eb) as usize],
                };
            }
        }
        self.loses_with(each.into_iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kayles (`0.77`) on heaps up to 3: take 1 or 2 from a row, from its end or
    /// its middle. Values 0 1 2 3.
    fn kayles(slots: usize) -> CodeGame {
        let moves = [
            (1, 1, 0),
            (2, 1, 0),
            (2, 2, 0),
            (3, 1, 0),
            (3, 1, 1),
            (3, 2, 0),
        ];
        CodeGame::new(slots, vec![0, 1, 2, 3], &moves, None).unwrap()
    }

    /// Misère Kayles on heaps up to 2: misère Nim on heaps of 1 and 2, whose quotient
    /// is {1, a, b, ab, b², ab²} with a² = 1, b³ = b and P-portion {a, b²}
    /// (Plambeck–Siegel); element `a^i b^j` is numbered `i + 2 j`.
    fn misere_kayles(slots: usize) -> CodeGame {
        let times = |x: u32, y: u32| {
            let (i, j) = ((x % 2 + y % 2) % 2, x / 2 + y / 2);
            i + 2 * if j >= 3 { j - 2 } else { j }
        };
        let table = (0..36).map(|k| times(k / 6, k % 6)).collect();
        let quotient = Quotient {
            table,
            elements: vec![0, 1, 2],
            p: vec![false, true, false, false, true, false],
        };
        let moves = [(1, 1, 0), (2, 1, 0), (2, 2, 0)];
        CodeGame::new(slots, vec![0, 1, 2], &moves, Some(quotient)).unwrap()
    }

    #[test]
    fn a_split_leaves_the_smaller_heap_in_the_first_empty_place() {
        let g = kayles(3);
        let mut row = [3, 0, 0];
        // take 1, leave 1 and 1: (1 * 4 + 1) * 3 + 0.
        assert_eq!(g.apply(&mut row, 15), Applied::Moved { ended: false });
        assert_eq!(row, [1, 1, 0]);
        assert_eq!(g.apply(&mut row, 15), Applied::Illegal);
        assert_eq!(g.apply(&mut row, -1), Applied::Illegal);
        assert_eq!(g.apply(&mut row, 1_000_000), Applied::Illegal);
        assert_eq!(g.apply(&mut row, 12 + 1), Applied::Moved { ended: false });
        assert_eq!(g.apply(&mut row, 12), Applied::Moved { ended: true });
        assert_eq!(row, [0, 0, 0]);
    }

    #[test]
    fn labels_in_both_endings() {
        let (mut l, mut w) = ([false; 36], [false; 36]);
        // Normal play: 3 + 1 has value 2; of its four moves only 3 -> 1 wins.
        let g = kayles(3);
        assert!(!g.label(&[3, 1, 0], &mut l, &mut w));
        assert_eq!(l.iter().filter(|&&b| b).count(), 4);
        let wins: Vec<usize> = (0..36).filter(|&a| w[a]).collect();
        assert_eq!(wins, vec![2 * 12]); // take 2 from place 0
                                        // Misère play: 2 + 2 loses; 2 + 1 wins by taking the whole 2 (leaving 1); a
                                        // lone 1 loses; with nothing left the player to move has won.
        let g = misere_kayles(3);
        let (l, w) = (&mut l[..27], &mut w[..27]);
        assert!(g.label(&[2, 2, 0], l, w));
        assert!(!g.label(&[2, 1, 0], l, w));
        assert_eq!(l.iter().filter(|&&b| b).count(), 3);
        let wins: Vec<usize> = (0..27).filter(|&a| w[a]).collect();
        assert_eq!(wins, vec![(2 * 3) * 3]); // take 2 from place 0
        assert!(g.label(&[1, 0, 0], l, w));
        assert!(!g.label(&[0, 0, 0], l, w));
    }

    #[test]
    fn every_position_of_a_row_of_three() {
        // From 3: 3, 2, 1 + 1, 1, 0 (as rows of three places, largest first).
        let g = kayles(3);
        let rows = g.every_position(&[0, 3, 0], 100).unwrap();
        assert_eq!(rows, [0, 0, 0, 1, 0, 0, 1, 1, 0, 2, 0, 0, 3, 0, 0]);
        assert!(g.every_position(&[0, 3, 0], 4).is_err());
    }

    #[test]
    fn bad_tables_are_refused() {
        assert!(CodeGame::new(2, vec![0, 1], &[(1, 2, 0)], None).is_err());
        let q = Quotient {
            table: vec![0],
            elements: vec![0, 1],
            p: vec![false],
        };
        assert!(CodeGame::new(2, vec![0, 1], &[(1, 1, 0)], Some(q)).is_err());
        let g = kayles(2);
        assert!(g.fits(&Start::Fixed(vec![4, 0])).is_err());
        assert!(g.fits(&Start::Fixed(vec![3])).is_err());
        assert!(g.fits(&Start::Fixed(vec![3, 2])).is_ok());
    }
}
