//! What a vertex-deletion game is: what a move deletes, how copies of a component
//! are told apart, and why a graph cannot be played on.
use std::fmt::Debug;

use crate::base::error::FamilyError;

/// The most vertices a graph may have: its neighbour sets then take 32 MB, and no
/// search of such a graph ends anyway.
pub(super) const MAX_VERTICES: usize = 1 << 14;

/// Why a graph cannot be played on.
#[derive(Debug, thiserror::Error)]
pub enum VertexError {
    #[error("vertex {vertex} is out of range: the graph has {vertices} vertices")]
    NoSuchVertex { vertex: u64, vertices: usize },
    #[error("a board has rows and columns, at least 1 each and at most 2**14 cells in all; got {rows} x {cols}")]
    BoardSize { rows: usize, cols: usize },
    #[error("a graph of {0} vertices is more than these games are searched on (at most 2**14)")]
    TooManyVertices(usize),
}

impl FamilyError for VertexError {}

/// What a move deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Moves {
    /// A vertex and its neighbours (Node Kayles).
    Neighbourhood,
    /// The two ends of an edge (Arc Kayles, Cram).
    Edge,
}

impl Moves {
    /// The most moves of a component of `cells` vertices of a grid: one per vertex
    /// (Node Kayles), or two per cell (the domino to its right and the one below).
    pub fn most_on_grid(self, cells: u32) -> u64 {
        match self {
            Moves::Neighbourhood => u64::from(cells),
            Moves::Edge => 2 * u64::from(cells),
        }
    }
}

/// How copies of a component are told to be the same game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Canon {
    /// By vertex set, and before a search up to isomorphism (`canon`: a canonical
    /// labelling).
    Labels,
    /// Vertex `r * cols + c` is the cell (r, c) of a board whose edges join cells side
    /// by side: by the shape of the cells, up to translation and the square's 8
    /// symmetries.
    Grid { rows: usize, cols: usize },
}
