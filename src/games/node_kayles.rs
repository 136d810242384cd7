//! Node Kayles (Schaefer, 1978; Winning Ways ch. 4): a move picks a vertex of a graph
//! and deletes it with its neighbours. On a path it is Dawson's Chess, the octal game
//! `0.137` (checked in the tests); on general graphs it is PSPACE-complete. Searched
//! by the vertex-deletion engine (`vertex`).
use super::board::kinds::Moves;
use super::board::on_graph::{OnGraph, Rule};

#[derive(Debug)]
pub struct NodeKaylesRule;

impl Rule for NodeKaylesRule {
    const FAMILY: &'static str = "node_kayles";
    const MOVES: Moves = Moves::Neighbourhood;
}

/// Node Kayles on one graph; a position is the set of vertices left.
pub type NodeKayles = OnGraph<NodeKaylesRule>;
