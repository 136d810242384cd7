//! Components that are paths or cycles, valued by the octal games they are rather
//! than searched: on a path of n vertices Node Kayles is Dawson's Chess (`0.137`, a
//! heap of n) and Arc Kayles (Cram on a strip) Dawson's Kayles (`0.07`); every move
//! on a cycle of n leaves a path of n - 3 (Node Kayles) or n - 2 (Arc Kayles). The
//! values come from the heap rule's Grundy sequence (`heap::code`), which proves
//! their period, so a strip of 16384 cells costs no search.
use super::kinds::Moves;
use super::sets::members;
use crate::base::error::Result;
use crate::heap::code::TakeAndBreak;

/// A connected component of at most two neighbours a vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    Path(u64),
    Cycle(u64),
}

/// The shape of the connected `component` of the graph of neighbourhoods
/// `adjacency`, if it is a path or a cycle.
pub fn line(component: &[u64], adjacency: &[impl AsRef<[u64]>]) -> Option<Line> {
    let (mut vertices, mut ends) = (0u64, 0u64);
    for v in members(component) {
        let within = adjacency[v].as_ref().iter().zip(component);
        match within.map(|(a, s)| (a & s).count_ones()).sum::<u32>() {
            0 | 1 => ends += 1,
            2 => {}
            _ => return None,
        }
        vertices += 1;
    }
    // Connected with every degree at most 2: a cycle has no end, a path two (or one
    // lone vertex).
    Some(if ends == 0 && vertices >= 3 {
        Line::Cycle(vertices)
    } else {
        Line::Path(vertices)
    })
}

/// The values of paths and cycles under one kind of move, for components of up to
/// `most` vertices.
#[derive(Debug)]
pub struct Lines {
    paths: Vec<u32>,
    /// What a move on a cycle deletes.
    cut: u64,
}

impl Lines {
    /// The values for a graph of `most` vertices whose moves delete as `moves` says.
    pub fn new(moves: Moves, most: usize) -> Result<Self> {
        let (code, cut) = match moves {
            Moves::Neighbourhood => ("0.137", 3),
            Moves::Edge => ("0.07", 2),
        };
        let rule = TakeAndBreak::shared(code)?;
        let paths = rule.first(most + 1)?;
        Ok(Lines { paths, cut })
    }

    /// The value of `line` (of at most the vertices `new` was given).
    pub fn value(&self, line: Line) -> u32 {
        match line {
            Line::Path(n) => self.paths[n as usize],
            // Every option is the one path left: its value's mex.
            Line::Cycle(n) => u32::from(self.paths[(n - self.cut) as usize] == 0),
        }
    }
}
