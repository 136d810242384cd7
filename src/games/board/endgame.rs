//! The end-game database of a board: the normal-play value of every set of cells
//! that fits in a small box (at most 2**16 sets, 64 KB), built once per process by a
//! pass over the sets in increasing order (every option of a set is a smaller set)
//! and shared by every board whose components fit in it. A component found in a box
//! is valued by one read: no canonical form, no table look-up, no search.
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rustc_hash::FxHashMap;

use super::kinds::Moves;

/// The databases built so far, by moves and box.
type Built = FxHashMap<(Moves, usize, usize), Arc<[u8]>>;

/// The most cells a box holds.
pub const MOST_CELLS: usize = 16;

/// The values of the sets of cells of a `height` x `width` box, cell (r, c) as bit
/// `r * width + c`.
#[derive(Debug, Clone)]
pub struct Endgame {
    height: usize,
    width: usize,
    values: Arc<[u8]>,
}

impl Endgame {
    /// The box's database, built on first use in the process.
    pub fn of(moves: Moves, height: usize, width: usize) -> Self {
        assert!(
            height * width <= MOST_CELLS,
            "a box of at most MOST_CELLS cells"
        );
        static BUILT: OnceLock<Mutex<Built>> = OnceLock::new();
        let mut built = BUILT
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let values = built
            .entry((moves, height, width))
            .or_insert_with(|| build(moves, height, width).into())
            .clone();
        Endgame {
            height,
            width,
            values,
        }
    }

    /// The value of the cells `rows` (each a row's bits, first column lowest), if
    /// they fit in the box.
    #[inline]
    pub fn value(&self, rows: &[u64], width: usize) -> Option<u32> {
        if rows.len() > self.height || width > self.width {
            return None;
        }
        let index = rows
            .iter()
            .enumerate()
            .fold(0, |index, (i, &row)| index | row << (i * self.width));
        Some(u32::from(self.values[index as usize]))
    }
}

/// The values of every set of cells of the box: each the least value none of its
/// options has. A set has fewer than 64 options (at most 24 dominoes in 16 cells),
/// so the values are below 64.
fn build(moves: Moves, height: usize, width: usize) -> Vec<u8> {
    let cells = height * width;
    let bit = |r: usize, c: usize| 1u32 << (r * width + c);
    let mut takes: Vec<(u32, u32)> = Vec::new();
    for r in 0..height {
        for c in 0..width {
            match moves {
                // A domino is a move on the sets that hold both its cells.
                Moves::Edge => {
                    if c + 1 < width {
                        let d = bit(r, c) | bit(r, c + 1);
                        takes.push((d, d));
                    }
                    if r + 1 < height {
                        let d = bit(r, c) | bit(r + 1, c);
                        takes.push((d, d));
                    }
                }
                // A cell is a move on the sets that hold it, and takes its neighbours.
                Moves::Neighbourhood => {
                    let mut around = bit(r, c);
                    if c > 0 {
                        around |= bit(r, c - 1);
                    }
                    if c + 1 < width {
                        around |= bit(r, c + 1);
                    }
                    if r > 0 {
                        around |= bit(r - 1, c);
                    }
                    if r + 1 < height {
                        around |= bit(r + 1, c);
                    }
                    takes.push((bit(r, c), around));
                }
            }
        }
    }
    let mut values = vec![0u8; 1 << cells];
    for set in 1..1u32 << cells {
        let mut seen = 0u64;
        for &(needs, gone) in &takes {
            if set & needs == needs {
                seen |= 1 << values[(set & !gone) as usize];
            }
        }
        values[set as usize] = seen.trailing_ones() as u8;
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of a set by plain recursion over its moves, memoised.
    fn naive(
        moves: Moves,
        height: usize,
        width: usize,
        set: u32,
        memo: &mut FxHashMap<u32, u32>,
    ) -> u32 {
        if let Some(&v) = memo.get(&set) {
            return v;
        }
        let has = |r: usize, c: usize| set >> (r * width + c) & 1 == 1;
        let mut seen = Vec::new();
        for r in 0..height {
            for c in 0..width {
                if !has(r, c) {
                    continue;
                }
                let mut gone = vec![(r, c)];
                match moves {
                    Moves::Edge => {
                        for (dr, dc) in [(0, 1), (1, 0)] {
                            if r + dr < height && c + dc < width && has(r + dr, c + dc) {
                                let next = set
                                    & !(1 << (r * width + c))
                                    & !(1 << ((r + dr) * width + c + dc));
                                seen.push(naive(moves, height, width, next, memo));
                            }
                        }
                        continue;
                    }
                    Moves::Neighbourhood => {
                        gone.extend([
                            (r.wrapping_sub(1), c),
                            (r + 1, c),
                            (r, c.wrapping_sub(1)),
                            (r, c + 1),
                        ]);
                    }
                }
                let mut next = set;
                for (a, b) in gone {
                    if a < height && b < width {
                        next &= !(1 << (a * width + b));
                    }
                }
                seen.push(naive(moves, height, width, next, memo));
            }
        }
        let v = (0..).find(|v| !seen.contains(v)).expect("a value");
        memo.insert(set, v);
        v
    }

    #[test]
    fn every_set_of_small_boxes_equals_the_recursion() {
        for moves in [Moves::Edge, Moves::Neighbourhood] {
            // Every box a board uses (`grid::Grid::new`).
            for (height, width) in [(1, 16), (2, 8), (3, 5), (4, 4), (5, 3)] {
                let table = Endgame::of(moves, height, width);
                let mut memo = FxHashMap::default();
                for set in 0..1u32 << (height * width) {
                    let rows: Vec<u64> = (0..height)
                        .map(|r| u64::from(set >> (r * width) & ((1 << width) - 1)))
                        .collect();
                    assert_eq!(
                        table.value(&rows, width),
                        Some(naive(moves, height, width, set, &mut memo)),
                        "{moves:?} {height} x {width}: set {set:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn published_values() {
        // Cram 4 x 4 and 2 x 8 are 0 (even by even: the symmetry strategy) and 3 x 5
        // is 1 (Schneider, "Das Spiel Juvavum", 2009); Node Kayles on the 3 x 5 grid
        // is 3 (OEIS A316632).
        let full = |h: usize, w: usize| vec![(1u64 << w) - 1; h];
        assert_eq!(
            Endgame::of(Moves::Edge, 4, 4).value(&full(4, 4), 4),
            Some(0)
        );
        assert_eq!(
            Endgame::of(Moves::Edge, 2, 8).value(&full(2, 8), 8),
            Some(0)
        );
        assert_eq!(
            Endgame::of(Moves::Edge, 3, 5).value(&full(3, 5), 5),
            Some(1)
        );
        assert_eq!(
            Endgame::of(Moves::Neighbourhood, 3, 5).value(&full(3, 5), 5),
            Some(3)
        );
        assert_eq!(Endgame::of(Moves::Edge, 3, 5).value(&full(4, 5), 5), None);
        assert_eq!(Endgame::of(Moves::Edge, 3, 5).value(&full(3, 6), 6), None);
    }
}
