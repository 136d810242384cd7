//! A token on a directed graph (Ferguson, Part I, ch. 3): a move slides it along an
//! edge; the player who cannot move loses (normal play) or wins (misère play). The
//! graph may have cycles: values are Smith's (∞ for positions where play can go on
//! forever), outcomes include draws. Every node's value and outcome are labelled
//! once, over the whole graph.
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use super::defined::Tag;
use super::{Game, Limits, Memo, Value};
use crate::base::error::Result;
use crate::base::outcome::Outcome;
use crate::search::graph::{self, Graph};

/// A directed graph whose nodes are positions.
#[derive(Debug)]
pub struct Digraph {
    graph: Graph,
    /// A hash of the graph (games on equal graphs are equal).
    hash: u64,
    /// What the caller keeps with the graph (the binding layer: its node names).
    tag: Option<Tag>,
    values: OnceLock<Vec<Value>>,
    misere: OnceLock<Vec<Outcome>>,
    memo: Memo<u32>,
}

impl Digraph {
    pub fn new(graph: Graph) -> Self {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        graph.hash(&mut hasher);
        Digraph {
            hash: hasher.finish(),
            graph,
            tag: None,
            values: OnceLock::new(),
            misere: OnceLock::new(),
            memo: Memo::default(),
        }
    }

    /// The graph with what the caller keeps with it.
    pub fn tagged(graph: Graph, tag: Tag) -> Self {
        Digraph {
            tag: Some(tag),
            ..Digraph::new(graph)
        }
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// What the caller attached.
    pub fn tag(&self) -> Option<&Tag> {
        self.tag.as_ref()
    }

    /// Smith's value of every node, labelled on first demand.
    pub fn values(&self) -> Result<&[Value]> {
        if let Some(values) = self.values.get() {
            return Ok(values);
        }
        let values = graph::values(&self.graph)?;
        Ok(self.values.get_or_init(|| values))
    }

    /// The misère outcome of every node, on first demand.
    pub fn misere_outcomes(&self) -> Result<&[Outcome]> {
        if let Some(outcomes) = self.misere.get() {
            return Ok(outcomes);
        }
        let outcomes = graph::outcomes(&graph::Both::new(&self.graph)?, true)?;
        Ok(self.misere.get_or_init(|| outcomes))
    }

    /// The kernel of an acyclic graph: the nodes of value 0 (the P-positions), every
    /// other node one move from it and no two of it one move apart.
    pub fn kernel(&self) -> Result<Vec<u32>> {
        let values = self.values()?;
        Ok((0..self.graph.len() as u32)
            .filter(|&u| values[u as usize] == Value::Finite(0))
            .collect())
    }
}

impl Game for Digraph {
    type Position = u32;
    const FAMILY: &'static str = "digraph";

    fn options(&self, p: &u32, out: &mut Vec<u32>) -> Result<()> {
        out.extend_from_slice(self.graph.successors(*p));
        Ok(())
    }

    fn value(&self, p: &u32, _limits: &Limits) -> Result<Option<Value>> {
        Ok(Some(self.values()?[*p as usize].clone()))
    }

    fn misere(&self, p: &u32, _limits: &Limits) -> Result<Option<Outcome>> {
        Ok(Some(self.misere_outcomes()?[*p as usize]))
    }

    fn memo(&self) -> &Memo<u32> {
        &self.memo
    }

    /// Tokens on equal graphs (the same nodes, numbered alike, and edges) are the same
    /// game, whatever the graphs' names.
    fn same_game(&self, other: &Self) -> bool {
        std::ptr::eq(self, other) || self.graph == other.graph
    }

    fn hash_game(&self, state: &mut dyn Hasher) {
        state.write_u64(self.hash);
    }
}
