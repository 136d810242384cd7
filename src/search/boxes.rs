//! The brute-force reference: Ferguson's labelling by retrograde analysis over a box.
//!
//! A position with no move is P in normal play and N in misère play; any other
//! position is N exactly when some move reaches a P-position. Every move lowers a
//! heap, so one pass in increasing mixed-radix order labels the whole box.
use super::{advance, box_moves, layout, moves_text, MAX_BOX_MOVES};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::base::outcome::Outcome;
use crate::heap::position::Move;
use crate::heap::rules::Rules;
use crate::heap::HeapRule;

/// The outcome of every position with heap `i` in `0..=bounds[i]`.
#[derive(Debug, Clone)]
pub struct BoxSolution {
    bounds: Vec<u64>,
    strides: Vec<usize>,
    rules: Rules,
    is_p: Vec<bool>,
}

impl BoxSolution {
    /// Label every position of the box; refuse boxes of more than `max_positions`,
    /// or whose moves (which the labelling and the remoteness weigh) are more than
    /// `MAX_BOX_MOVES`.
    pub fn solve(bounds: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        let (size, strides) = layout(bounds, rules, max_positions)?;
        let moves = box_moves(bounds, rules);
        if moves > MAX_BOX_MOVES {
            return Err(Error::BoxTooManyMoves {
                heaps: bounds.to_vec(),
                moves,
                limit: MAX_BOX_MOVES,
                why: moves_text(bounds, rules),
            });
        }
        let mut is_p = alloc::filled(size, false)?;
        let mut heaps = vec![0u64; bounds.len()];
        let mut poll = Poll::default();
        for index in 0..size {
            poll.tick()?;
            let mut has_move = false;
            let mut reaches_p = false;
            'heaps: for (i, &n) in heaps.iter().enumerate() {
                for take in rules.take_for(i).takes(n) {
                    has_move = true;
                    if is_p[index - take as usize * strides[i]] {
                        reaches_p = true;
                        break 'heaps;
                    }
                }
            }
            is_p[index] = if has_move {
                !reaches_p
            } else {
                !rules.is_misere()
            };
            advance(&mut heaps, bounds);
        }
        Ok(BoxSolution {
            bounds: bounds.to_vec(),
            strides,
            rules: rules.clone(),
            is_p,
        })
    }

    pub fn bounds(&self) -> &[u64] {
        &self.bounds
    }

    /// P or N for every position, in lexicographic order (last heap fastest).
    pub fn is_p(&self) -> &[bool] {
        &self.is_p
    }

    /// The remoteness of every position, in the order of `is_p`: how many moves the
    /// game lasts when the winner hurries and the loser delays (Steinhaus). A position
    /// with no move has remoteness 0; an N-position is one more than its smallest
    /// P-child; a P-position is one more than its largest child.
    pub fn remoteness(&self) -> Result<Vec<u32>> {
        let mut remoteness = alloc::filled(self.is_p.len(), 0u32)?;
        let mut heaps = vec![0u64; self.bounds.len()];
        let mut poll = Poll::default();
        for index in 0..self.is_p.len() {
            poll.tick()?;
            let winning = !self.is_p[index];
            let mut best: Option<u32> = None;
            for (i, &n) in heaps.iter().enumerate() {
                for take in self.rules.take_for(i).takes(n) {
                    let child = index - take as usize * self.strides[i];
                    if winning && !self.is_p[child] {
                        continue; // the winner only moves to P-positions
                    }
                    let r = remoteness[child];
                    best = Some(match best {
                        None => r,
                        Some(b) if winning => b.min(r),
                        Some(b) => b.max(r),
                    });
                }
            }
            remoteness[index] = best.map_or(0, |b| b + 1);
            advance(&mut heaps, &self.bounds);
        }
        Ok(remoteness)
    }

    /// P or N for every position, as `is_p`, given up.
    pub fn into_is_p(self) -> Vec<bool> {
        self.is_p
    }

    /// The outcome of one position inside the box.
    pub fn outcome(&self, heaps: &[u64]) -> Outcome {
        if self.is_p[self.index(heaps)] {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// Every move from `heaps` to a P-position, in heap order.
    pub fn winning_moves(&self, heaps: &[u64]) -> Vec<Move> {
        let index = self.index(heaps);
        let mut moves = Vec::new();
        for (heap, &n) in heaps.iter().enumerate() {
            for take in self.rules.take_for(heap).takes(n) {
                if self.is_p[index - take as usize * self.strides[heap]] {
                    moves.push(Move::new(heap, take));
                }
            }
        }
        moves
    }

    /// The position's index in `is_p` and `remoteness`.
    pub fn index(&self, heaps: &[u64]) -> usize {
        assert_eq!(heaps.len(), self.bounds.len(), "wrong number of heaps");
        heaps
            .iter()
            .zip(&self.bounds)
            .zip(&self.strides)
            .map(|((&h, &b), &s)| {
                assert!(h <= b, "heap {h} is outside the box (bound {b})");
                h as usize * s
            })
            .sum()
    }
}

/// Whether each position of the box is P, fast: a position's verdict costs O(heaps),
/// not a look per legal move. For every heap and every line of positions that differ
/// only in that heap, it keeps the largest heap size below the current one at which
/// a P-position lies; a position is N exactly when, on one of its lines, that P-position
/// is within one move (any distance without a take limit, at most k with one).
/// Lines are visited in increasing heap size, because the box is walked in
/// lexicographic order. A heap with a subtraction set has no such shortcut: each of
/// its moves is looked up. Returns the same as `BoxSolution::solve(..).is_p()`.
pub fn solve_outcomes(bounds: &[u64], rules: &Rules, max_positions: u64) -> Result<Vec<bool>> {
    if rules.splits() {
        return super::solve_box(bounds, rules, max_positions, false).map(|(is_p, _)| is_p);
    }
    let (size, strides) = layout(bounds, rules, max_positions)?;
    let m = bounds.len();
    let takes: Vec<&HeapRule> = (0..m).map(|i| rules.take_for(i)).collect();
    // How far below a P-position may lie on a line; `None` where a rule's takes are not
    // 1..k (sets and codes: their moves are looked up).
    let reach: Vec<Option<u64>> = takes.iter().map(|take| take.interval()).collect();
    let last_p: Result<Vec<Vec<u64>>> = (0..m)
        .map(|i| match reach[i] {
            Some(_) => alloc::filled(size / (bounds[i] as usize + 1), NONE),
            None => Ok(Vec::new()),
        })
        .collect();
    let (mut last_p, mut is_p) = (last_p?, alloc::filled(size, false)?);
    // The line of the current position for each heap: its index with that heap removed.
    let line_of = |index: usize, i: usize| {
        let block = strides[i] * (bounds[i] as usize + 1);
        index / block * strides[i] + index % strides[i]
    };
    let walk = Walk {
        bounds,
        strides: &strides,
        takes: &takes,
        reach: &reach,
        misere: rules.is_misere(),
    };
    // Without sets the verdict loop needs no per-heap branch on the rule kind.
    if reach.iter().any(Option::is_none) {
        walk.run::<true>(&mut is_p, &mut last_p, line_of)?;
    } else {
        walk.run::<false>(&mut is_p, &mut last_p, line_of)?;
    }
    Ok(is_p)
}

/// No P-position seen on the line yet.
const NONE: u64 = u64::MAX;

/// What `solve_outcomes` walks the box with.
struct Walk<'a> {
    bounds: &'a [u64],
    strides: &'a [usize],
    takes: &'a [&'a HeapRule],
    reach: &'a [Option<u64>],
    misere: bool,
}

impl Walk<'_> {
    fn run<const SETS: bool>(
        &self,
        is_p: &mut [bool],
        last_p: &mut [Vec<u64>],
        line_of: impl Fn(usize, usize) -> usize,
    ) -> Result<()> {
        let (bounds, strides, m) = (self.bounds, self.strides, self.bounds.len());
        let mut lines = vec![0usize; m];
        let mut heaps = vec![0u64; m];
        let size = is_p.len();
        let mut poll = Poll::default();
        for index in 0..size {
            poll.tick()?;
            let mut reaches_p = false;
            // Without sets only the empty position has no move.
            let mut has_move = index != 0;
            for i in 0..m {
                match self.reach[i] {
                    Some(reach) => {
                        let below = last_p[i][lines[i]];
                        reaches_p |= below != NONE && heaps[i] - below <= reach;
                    }
                    None if SETS && !reaches_p => {
                        let mut moves = self.takes[i].takes(heaps[i]);
                        reaches_p = moves.any(|s| is_p[index - s as usize * strides[i]]);
                    }
                    None => {}
                }
            }
            if SETS {
                // With sets, heaps below the smallest element allow no move either.
                has_move = reaches_p || (0..m).any(|i| self.takes[i].count(heaps[i]) > 0);
            }
            // A position with no move: P in normal play, N in misère.
            let p = if has_move { !reaches_p } else { !self.misere };
            is_p[index] = p;
            if p {
                for i in 0..m {
                    if !SETS || self.reach[i].is_some() {
                        last_p[i][lines[i]] = heaps[i];
                    }
                }
            }
            match m.checked_sub(1) {
                Some(last) if heaps[last] < bounds[last] => {
                    // The common step: the last heap grows; every other heap's line moves on.
                    heaps[last] += 1;
                    for line in &mut lines[..last] {
                        *line += 1;
                    }
                }
                Some(_) => {
                    advance(&mut heaps, bounds);
                    for (i, line) in lines.iter_mut().enumerate() {
                        *line = line_of(index + 1, i);
                    }
                }
                None => {}
            }
        }
        Ok(())
    }
}
