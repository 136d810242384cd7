//! Arc Kayles (Schaefer, 1978): a move picks an edge of a graph and deletes both its
//! ends. On a path it is Dawson's Kayles, the octal game `0.07` (checked in the
//! tests); Cram is Arc Kayles on a board's grid graph (`cram`). Searched by the
//! vertex-deletion engine (`vertex`).
use super::board::kinds::Moves;
use super::board::on_graph::{OnGraph, Rule};

#[derive(Debug)]
pub struct ArcKaylesRule;

impl Rule for ArcKaylesRule {
    const FAMILY: &'static str = "arc_kayles";
    const MOVES: Moves = Moves::Edge;
}

/// Arc Kayles on one graph; a position is the set of vertices left.
pub type ArcKayles = OnGraph<ArcKaylesRule>;
