//! Turning Corners (Ferguson, Part I, 5.4; Winning Ways ch. 14): coins on a board; a
//! move turns over the four corners of a rectangle, `(a, b)`, `(a, y)`, `(x, b)` and
//! `(x, y)` with `a < x` and `b < y`, the corner `(x, y)` going from heads to tails.
//!
//! It is the product of Twins with Twins, and the Tartan theorem (Ferguson 5.4) gives a
//! product game's single-coin values as the nim products of its factors': Twins' are
//! `x`, so coin `(x, y)` is worth `x ⊗ y`, and a board the XOR of its heads'.
use super::heaps::MAX_OPTIONS;
use super::{Game, Limits, Memo, Value};
use crate::base::error::{Error, FamilyError, Result};
use crate::base::outcome::Outcome;
use crate::nimber::multiply;

/// Why misère Turning Corners refuses a search.
#[derive(Debug, thiserror::Error)]
pub enum CornersError {
    #[error(
        "misère Turning Corners has no theorem and is searched over the boards its moves \
         reach, at least {positions} from here, more than max_positions = {limit} (raise \
         max_positions to allow more; normal play has the Tartan theorem)"
    )]
    SearchTooLarge { positions: u128, limit: u64 },
}

impl FamilyError for CornersError {}

/// A board of coins, row by row; `true` is heads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    pub cols: usize,
    pub cells: Vec<bool>,
}

impl Board {
    fn heads(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let cols = self.cols.max(1);
        (0..self.cells.len())
            .filter(|&i| self.cells[i])
            .map(move |i| (i / cols, i % cols))
    }

    /// The board's value: the XOR of its heads' `x ⊗ y`.
    pub fn value(&self) -> u64 {
        self.heads()
            .fold(0, |acc, (x, y)| acc ^ multiply(x as u64, y as u64))
    }

    /// Every move: the rectangles `(a, b, x, y)`, `(x, y)` the corner going to tails.
    pub fn moves(&self) -> Result<Vec<[usize; 4]>> {
        let count: u128 = self.heads().map(|(x, y)| (x * y) as u128).sum();
        if count > MAX_OPTIONS {
            return Err(Error::TooManyGameOptions {
                options: count,
                limit: MAX_OPTIONS,
            });
        }
        let mut found = Vec::new();
        for (x, y) in self.heads() {
            for a in 0..x {
                found.extend((0..y).map(|b| [a, b, x, y]));
            }
        }
        Ok(found)
    }

    /// The moves to a board of value 0.
    pub fn winning_moves(&self) -> Result<Vec<[usize; 4]>> {
        let total = self.value();
        if total == 0 {
            return Ok(Vec::new());
        }
        let mut moves = self.moves()?;
        let worth = |x: usize, y: usize| multiply(x as u64, y as u64);
        moves
            .retain(|&[a, b, x, y]| worth(a, b) ^ worth(a, y) ^ worth(x, b) ^ worth(x, y) == total);
        Ok(moves)
    }

    /// A lower bound on the boards a misère search would store: the start and its
    /// options (distinct boards), and for a lone head at `(x, y)` the boards `k` moves
    /// away (`k >= 2`) by chains of rectangles whose far corners climb column `y`
    /// (`(a1, b1, x, y)`, then `(a2, b2, a1, y)`, ... with `x > a1 > a2 > ...` and the
    /// `b`s different): one board per chain, `C(x, k) * y! / (y - k)!` of them, since
    /// the board tells the rows and columns back.
    pub fn search_floor(&self) -> u128 {
        let options: u128 = self.heads().map(|(x, y)| (x * y) as u128).sum();
        let mut heads = self.heads();
        let (Some((x, y)), None) = (heads.next(), heads.next()) else {
            return 1 + options;
        };
        let (x, y) = (x as u128, y as u128);
        let (mut chains, mut best) = (1u128, 0u128);
        for k in 0..x.min(y) {
            // C(x, k + 1) * P(y, k + 1) from C(x, k) * P(y, k).
            chains = (chains.saturating_mul(x - k) / (k + 1)).saturating_mul(y - k);
            // Chains of one move are the options, counted already.
            if k >= 1 {
                best = best.max(chains);
            }
            if chains == u128::MAX {
                break;
            }
        }
        (1 + options).saturating_add(best)
    }

    /// The board after the move on rectangle `[a, b, x, y]`.
    pub fn turned(&self, [a, b, x, y]: [usize; 4]) -> Board {
        let mut next = self.clone();
        for (r, c) in [(a, b), (a, y), (x, b), (x, y)] {
            next.cells[r * self.cols + c] ^= true;
        }
        next
    }
}

/// Turning Corners.
#[derive(Debug, Default)]
pub struct Corners {
    memo: Memo<Board>,
}

impl Game for Corners {
    type Position = Board;
    const FAMILY: &'static str = "corners";

    fn options(&self, p: &Board, out: &mut Vec<Board>) -> Result<()> {
        out.extend(p.moves()?.into_iter().map(|m| p.turned(m)));
        Ok(())
    }

    fn value(&self, p: &Board, _limits: &Limits) -> Result<Option<Value>> {
        Ok(Some(Value::Finite(p.value())))
    }

    /// No theorem: the state graph is searched, refused at once when the boards it
    /// must hold are known to pass the limit.
    fn misere(&self, p: &Board, limits: &Limits) -> Result<Option<Outcome>> {
        let floor = p.search_floor();
        if floor > u128::from(limits.max_positions) {
            return Err(CornersError::SearchTooLarge {
                positions: floor,
                limit: limits.max_positions,
            }
            .into());
        }
        Ok(None)
    }

    fn options_with(
        &self,
        p: &Board,
        outcome: Outcome,
        misere: bool,
        _limits: &Limits,
    ) -> Result<Option<Vec<Board>>> {
        if misere || outcome != Outcome::P {
            return Ok(None);
        }
        Ok(Some(
            p.winning_moves()?
                .into_iter()
                .map(|m| p.turned(m))
                .collect(),
        ))
    }

    fn loopy(&self, _p: &Board, _limits: &Limits) -> Result<Option<bool>> {
        // The corner going to tails is the last of the four in reading order: the
        // board, read as a binary number with later cells higher, falls every move.
        Ok(Some(false))
    }

    /// The number of columns, then the cells row by row (1 for heads).
    fn numbers(&self, p: &Board) -> Option<Vec<u64>> {
        let mut numbers = vec![p.cols as u64];
        numbers.extend(p.cells.iter().map(|&c| u64::from(c)));
        Some(numbers)
    }

    fn memo(&self) -> &Memo<Board> {
        &self.memo
    }

    fn same_game(&self, _other: &Self) -> bool {
        true
    }

    fn hash_game(&self, _state: &mut dyn std::hash::Hasher) {}
}

#[cfg(test)]
mod tests {
    use super::Board;
    use std::collections::HashSet;

    /// Every board reachable from `start`, by walking the moves.
    fn reachable(start: Board) -> usize {
        let mut seen = HashSet::from([start.clone()]);
        let mut todo = vec![start];
        while let Some(board) = todo.pop() {
            for m in board.moves().unwrap() {
                let next = board.turned(m);
                if seen.insert(next.clone()) {
                    todo.push(next);
                }
            }
        }
        seen.len()
    }

    #[test]
    fn the_search_floor_is_a_lower_bound() {
        for (rows, cols) in [(2, 2), (3, 3), (3, 4), (4, 3), (4, 4), (2, 5)] {
            for head in 0..rows * cols {
                let mut cells = vec![false; rows * cols];
                cells[head] = true;
                let board = Board { cols, cells };
                let floor = board.search_floor();
                let count = reachable(board.clone());
                assert!(
                    floor <= count as u128,
                    "{rows}x{cols} head {head}: {floor} > {count}"
                );
            }
        }
        // two heads: the start and its options
        let board = Board {
            cols: 3,
            cells: vec![false, false, false, false, true, false, false, false, true],
        };
        assert!(board.search_floor() <= reachable(board) as u128);
    }
}
