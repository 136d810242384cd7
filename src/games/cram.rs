//! Cram (Gardner, 1974; Winning Ways ch. 23): players place dominoes, either way, on
//! the empty cells of a board. It is Arc Kayles on the grid graph of the empty cells:
//! the vertex-deletion engine (`vertex`) plays it on a rectangle's cells, and tells
//! copies of a component apart only by their shape, up to translation and the
//! square's 8 symmetries. Known facts, checked in the tests rather than assumed: a
//! rectangle with both sides even is a P-position (the second player answers each
//! domino with its image through the centre), 2 x n has value 0 for n even and 1
//! for n odd, 1 x n is Dawson's Kayles.
use super::board::kinds::Moves;
use super::board::on_graph::{OnGraph, Rule};
use crate::base::error::Result;
use crate::split::budget::Budget;

#[derive(Debug)]
pub struct CramRule;

impl Rule for CramRule {
    const FAMILY: &'static str = "cram";
    const MOVES: Moves = Moves::Edge;
}

/// Cram on one rectangle (`OnGraph::board`); a position is the set of empty cells,
/// cell (r, c) being vertex `r * cols + c`.
pub type Cram = OnGraph<CramRule>;

/// The values of the `rows` x n rectangles for n = 1..=`max_cols`, on one board
/// `max_cols` wide, so that every shape met is searched once for the whole row,
/// within `budget`; `report(n)` hears each width done.
pub fn table(
    rows: usize,
    max_cols: usize,
    budget: Budget,
    report: &mut dyn FnMut(usize),
) -> Result<Vec<u64>> {
    let cram = Cram::board(rows, max_cols)?;
    let engine = cram.engine();
    let mut values = crate::base::alloc::with_capacity(max_cols)?;
    for n in 1..=max_cols {
        let cells = (0..rows).flat_map(|r| (0..n).map(move |c| (r * max_cols + c) as u64));
        values.push(engine.value(&engine.set_of(cells)?, budget, &|_| {})?);
        report(n);
    }
    Ok(values)
}
