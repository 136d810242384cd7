//! What proves the normal-play value of a position on a board (Cram, Node Kayles on
//! a grid): every fact the pruned search established on the way, written out for a
//! checker that shares nothing with it (`nimkit.verify`). The search runs on one
//! thread over a table that forgets nothing (`split::recorded`), with the board's
//! shortcuts a checker would have to take on trust left out: no end-game databases
//! and no reductions of Cram's shapes. What remains are the closed forms a checker
//! can state itself (paths, 2 x n Cram, Cram shapes the half-turn maps onto
//! themselves), kept: entered as facts, they are checked as such.
use super::bitboards::Board;
use super::cells::Cells;
use super::graph::Deletion;
use super::grid::Grid;
use super::sets::members;
use crate::base::alloc;
use crate::base::error::Result;
use crate::split::budget::Budget;
use crate::split::pruned::{Search, Wide};
use crate::split::recorded::Recorded;

/// The value of a position and the facts that prove it.
#[derive(Debug)]
pub struct Certificate {
    pub value: u32,
    /// The rows and columns the facts' shapes are laid out on (no more rows than
    /// columns: a board with more is turned).
    pub rows: usize,
    pub cols: usize,
    /// The position's cells on that board (`r * cols + c`).
    pub position: Vec<u16>,
    /// Smallest shapes first.
    pub facts: Vec<Fact>,
}

/// What the search proved of one component: its cells (`r * cols + c` for the cell
/// (r, c), the shape moved to the corner), its value if it found it, and the values
/// below 64 it showed it has not (bits).
#[derive(Debug, PartialEq, Eq)]
pub struct Fact {
    pub cells: Vec<u16>,
    pub value: Option<u32>,
    pub not: u64,
}

impl Deletion {
    /// The normal-play value of `set` with its certificate, searched within `budget`
    /// (never evicting: a fact dropped is a step the checker cannot follow); None if
    /// the graph is no board the bitboards take, or a value of 64 or more came up.
    pub fn certificate(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<Option<Certificate>> {
        let Some(board) = Board::of(self.canon) else {
            return Ok(None);
        };
        let budget = Budget {
            evict: false,
            until: None,
            ..budget
        };
        match board.words() {
            1 => certify::<1>(board, self, set, budget, report),
            2 => certify::<2>(board, self, set, budget, report),
            3 => certify::<3>(board, self, set, budget, report),
            _ => certify::<4>(board, self, set, budget, report),
        }
    }
}

fn certify<const W: usize>(
    board: Board,
    engine: &Deletion,
    set: &[u64],
    budget: Budget,
    report: &(dyn Fn(usize) + Sync),
) -> Result<Option<Certificate>> {
    let (rows, cols) = board.lying();
    let mut grid = Grid::<W>::certifying(rows, cols, engine.moves);
    let (mut parts, mut value) = (Vec::new(), 0);
    let position = board.cells::<W>(set);
    grid.each_component(position, |c| parts.push(c), &mut value);
    let mut table = Recorded::default();
    for part in &parts {
        match Search::new(&mut grid, &mut table, budget, report)?.value(part)? {
            Ok(v) => value ^= v,
            Err(Wide) => return Ok(None),
        }
    }
    let mut facts = alloc::with_capacity(table.values.len() + table.refuted.len())?;
    let cells = |key: &Cells<W>| members(&key.0).map(|v| v as u16).collect::<Vec<_>>();
    let position = cells(&position);
    for (key, &v) in &table.values {
        let not = table.refuted.get(key).copied().unwrap_or(0);
        facts.push(Fact {
            cells: cells(key),
            value: Some(v),
            not,
        });
    }
    for (key, &not) in &table.refuted {
        if !table.values.contains_key(key) {
            facts.push(Fact {
                cells: cells(key),
                value: None,
                not,
            });
        }
    }
    facts.sort_unstable_by(|a, b| (a.cells.len(), &a.cells).cmp(&(b.cells.len(), &b.cells)));
    Ok(Some(Certificate {
        value,
        rows,
        cols,
        position,
        facts,
    }))
}
