//! The normal-play values of a board's positions on its bitboards (`grid`), at the
//! width its cells take: the board's tables of values, their checkpoints and
//! eviction, and a position asked as the sum of its components.
use std::sync::{Mutex, PoisonError};

use rustc_hash::FxHashMap;

use super::kinds::{Canon, Moves};
use super::sets::members;
use crate::base::alloc;
use crate::base::error::Result;
use crate::base::interrupt::Poll;
use crate::split::budget::Budget;
use crate::split::parallel;
use crate::split::pruned::{Search, Split, Wide};
use crate::split::saved::Saved;
use crate::split::table::{self, Private};

use super::cells::Cells;
use super::grid::Grid;

/// The bitboards of one engine's board, and the values learned on them, made on
/// first use: a board this module takes is at most 4 words of cells, taken with no
/// more rows than columns (at most 64).
#[derive(Debug)]
pub struct Tables {
    board: Option<Board>,
    moves: Moves,
    learned: Mutex<Option<Learned>>,
}

/// A board and the values learned on it, at the width its cells take.
enum Learned {
    W1(Widthed<1>),
    W2(Widthed<2>),
    W3(Widthed<3>),
    W4(Widthed<4>),
}

impl std::fmt::Debug for Learned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Learned")
    }
}

struct Widthed<const W: usize> {
    grid: Grid<W>,
    table: FxHashMap<Cells<W>, u32>,
}

/// Run `$body` with `$learned` bound to the tables' board at its width (made on
/// first use); `None` when the board is not one this module takes.
macro_rules! at_width {
    ($tables:expr, $learned:ident => $body:expr) => {{
        let tables: &Tables = $tables;
        match tables.board {
            None => None,
            Some(board) => {
                let mut guard = tables
                    .learned
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                let made = guard.get_or_insert_with(|| board.learned(tables.moves));
                Some(match made {
                    Learned::W1($learned) => $body,
                    Learned::W2($learned) => $body,
                    Learned::W3($learned) => $body,
                    Learned::W4($learned) => $body,
                })
            }
        }
    }};
}

impl Tables {
    /// The tables for a graph told apart by `canon` (a board only for `Canon::Grid`).
    pub fn new(canon: Canon, moves: Moves) -> Self {
        Tables {
            board: Board::of(canon),
            moves,
            learned: Mutex::new(None),
        }
    }

    /// The normal-play value of `set`, or None when the board is not one this module
    /// takes (or a value of 64 or more came up).
    pub fn value(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<Option<u64>> {
        self.ask(set, Ask::Value, budget, report)
    }

    /// Whether the normal-play value of `set` is `target` (asked as
    /// `pruned::Search::sum_is` asks it), or None as for `value`.
    pub fn value_is(
        &self,
        set: &[u64],
        target: u32,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<Option<bool>> {
        Ok(self
            .ask(set, Ask::Is(target), budget, report)?
            .map(|is| is == 1))
    }

    fn ask(
        &self,
        set: &[u64],
        ask: Ask,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<Option<u64>> {
        let Some(board) = self.board else {
            return Ok(None);
        };
        at_width!(self, learned => ask_in(learned, board, set, ask, budget, report))
            .transpose()
            .map(Option::flatten)
    }

    /// What the searches on the board learned (None if the board is not one this
    /// module takes).
    pub fn saved(&self) -> Result<Option<Saved>> {
        at_width!(self, learned => Saved::of(
            learned.table.iter().map(|(k, &v)| (&k.0[..], v)),
            learned.table.len(),
        ))
        .transpose()
    }

    /// Enter in the board's table what `saved` holds; false if the board is not one
    /// this module takes.
    pub fn restore(&self, saved: &Saved) -> Result<bool> {
        let moves = self.moves;
        Ok(
            at_width!(self, learned => restore_in(learned, moves, saved))
                .transpose()?
                .is_some(),
        )
    }

    /// Room in the board's table for searches bounded by `bound` bytes
    /// (`table::evict`, the components by their cells): the sizes of the values kept,
    /// summed (0 if the board is not one this module takes).
    pub fn evict(&self, bound: u64) -> Result<u64> {
        at_width!(self, learned => table::evict(
            &mut learned.table,
            bound,
            0,
            Cells::count,
            &mut Poll::default(),
        ))
        .unwrap_or(Ok(0))
    }
}

/// What a search is asked of a position: its value, or whether it has one value
/// (answered 1 or 0).
#[derive(Clone, Copy)]
enum Ask {
    Value,
    Is(u32),
}

/// How the engine's cells (vertex `r * cols + c`) lie on the bitboard: as they are,
/// or with rows and columns exchanged.
#[derive(Clone, Copy, Debug)]
pub(super) struct Board {
    rows: usize,
    cols: usize,
    turned: bool,
}

impl Board {
    pub(super) fn of(canon: Canon) -> Option<Self> {
        let Canon::Grid { rows, cols } = canon else {
            return None;
        };
        let board = Board {
            rows,
            cols,
            turned: rows > cols,
        };
        (rows.max(cols) <= 64 && board.words() <= 4).then_some(board)
    }

    pub(super) fn words(self) -> usize {
        (self.rows * self.cols).div_ceil(64)
    }

    /// The rows and columns as the bitboard lays them: no more rows than columns.
    pub(super) fn lying(self) -> (usize, usize) {
        (self.rows.min(self.cols), self.rows.max(self.cols))
    }

    /// The engine's vertices `set` on the bitboard.
    pub(super) fn cells<const W: usize>(self, set: &[u64]) -> Cells<W> {
        let mut cells = Cells::<W>::EMPTY;
        for v in members(set) {
            let (r, c) = (v / self.cols, v % self.cols);
            let bit = if self.turned { c * self.rows + r } else { v };
            cells.0[bit / 64] |= 1 << (bit % 64);
        }
        cells
    }

    /// The bitboards of this board at the width its cells take, nothing learned yet.
    fn learned(self, moves: Moves) -> Learned {
        let (rows, cols) = self.lying();
        fn made<const W: usize>(rows: usize, cols: usize, moves: Moves) -> Widthed<W> {
            Widthed {
                grid: Grid::new(rows, cols, moves),
                table: FxHashMap::default(),
            }
        }
        match self.words() {
            1 => Learned::W1(made(rows, cols, moves)),
            2 => Learned::W2(made(rows, cols, moves)),
            3 => Learned::W3(made(rows, cols, moves)),
            _ => Learned::W4(made(rows, cols, moves)),
        }
    }
}

fn restore_in<const W: usize>(learned: &mut Widthed<W>, moves: Moves, saved: &Saved) -> Result<()> {
    let table = &mut learned.table;
    table
        .try_reserve(saved.len())
        .map_err(|_| alloc::too_large::<(Cells<W>, u32)>(saved.len()))?;
    for (key, value) in saved.entries() {
        let words: [u64; W] = key
            .try_into()
            .map_err(|_| Saved::wrong_width(key.len(), W))?;
        let cells = words.iter().map(|w| w.count_ones()).sum();
        Saved::plausible(value, moves.most_on_grid(cells))?;
        table.insert(Cells(words), value);
    }
    Ok(())
}

fn ask_in<const W: usize>(
    learned: &mut Widthed<W>,
    board: Board,
    set: &[u64],
    ask: Ask,
    budget: Budget,
    report: &(dyn Fn(usize) + Sync),
) -> Result<Option<u64>> {
    let cells = board.cells::<W>(set);
    let Widthed { grid, table } = learned;
    let mut parts = Vec::new();
    let mut small = 0;
    grid.each_component(cells, |c| parts.push(c), &mut small);
    let mut mine = Private::new(table)?;
    let threads = parallel::threads();
    let shared =
        |grid: &Grid<W>, part: &Cells<W>| threads > 1 && grid.size(part) >= parallel::FROM_SIZE;
    if let Ask::Is(target) = ask {
        let hardest = (0..parts.len()).max_by_key(|&i| grid.size(&parts[i]));
        match hardest {
            // Asked on the threads, last.
            Some(i) if shared(grid, &parts[i]) => {
                let last = parts.len() - 1;
                parts.swap(i, last);
            }
            _ => {
                let mut search = Search::new(grid, &mut mine, budget, report)?;
                return Ok(match search.sum_is(&parts, target ^ small)? {
                    Ok(is) => Some(u64::from(is)),
                    Err(Wide) => None,
                });
            }
        }
    }
    // Every part valued; asked whether the sum is `target`, the last only whether
    // it has the one value that makes it so.
    let mut value = small;
    for (i, part) in parts.iter().enumerate() {
        let upto = match ask {
            Ask::Is(target) if i + 1 == parts.len() => target ^ value,
            _ => u32::MAX,
        };
        let found = if shared(grid, part) {
            parallel::value(grid, mine.values(), part, upto, threads, budget, report)?
        } else {
            Search::new(grid, &mut mine, budget, report)?
                .value(part)?
                .map(Some)
        };
        match found {
            Ok(Some(v)) => value ^= v,
            Ok(None) => return Ok(Some(0)),
            Err(Wide) => return Ok(None),
        }
    }
    Ok(Some(match ask {
        Ask::Value => u64::from(value),
        Ask::Is(target) => u64::from(value == target),
    }))
}
