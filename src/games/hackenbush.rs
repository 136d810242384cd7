//! Green Hackenbush (Ferguson, Part I, ch. 7; Winning Ways ch. 7): a graph some of
//! whose nodes are on the ground; a move chops an edge, and every edge no longer
//! joined to the ground falls with it.
//!
//! Values by the fusion principle (Ferguson 7.3: the nodes of a cycle may be fused
//! into one, each of its edges becoming a loop, without changing the value) and the
//! colon principle (7.2: a branch may be replaced by a stalk of its value). The ground
//! nodes are one node; fusing every 2-edge-connected block (found with the bridges by
//! one depth-first search without recursion) leaves a tree of bridges whose nodes
//! carry loops, each loop a stalk of one edge; a node is then worth the parity of its
//! loops XOR the values of its child branches, each one more than its child's value.
//! Linear in the graph's size, exact for every finite graph.
use std::hash::Hasher;

use super::defined::Tag;
use super::heaps::MAX_OPTIONS;
use super::{Game, Limits, Memo, Value};
use crate::base::alloc;
use crate::base::error::{Error, FamilyError, Result};
use crate::base::interrupt::Poll;
use crate::base::outcome::Outcome;

/// Why a Hackenbush graph cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum HackenbushError {
    #[error("an edge or the ground names node {node}, but the graph has {nodes} nodes")]
    NoSuchNode { node: u32, nodes: usize },
}

impl FamilyError for HackenbushError {}

/// A graph with its ground; a position is the edges still standing (sorted numbers
/// into `edges`).
#[derive(Debug)]
pub struct Hackenbush {
    nodes: usize,
    edges: Vec<(u32, u32)>,
    ground: Vec<bool>,
    hash: u64,
    /// What the caller keeps with the graph (the binding layer: its edges' names).
    tag: Option<Tag>,
    memo: Memo<Vec<u32>>,
}

impl Hackenbush {
    /// The graph of `nodes` nodes and `edges`, with the nodes of `ground` on the ground.
    pub fn new(nodes: usize, edges: Vec<(u32, u32)>, ground: &[u32]) -> Result<Self> {
        let bad = |node: u32| (node as usize >= nodes).then_some(node);
        if let Some(node) = edges.iter().find_map(|&(u, v)| bad(u).or(bad(v))) {
            return Err(HackenbushError::NoSuchNode { node, nodes }.into());
        }
        if let Some(node) = ground.iter().find_map(|&g| bad(g)) {
            return Err(HackenbushError::NoSuchNode { node, nodes }.into());
        }
        let mut on_ground = alloc::filled(nodes, false)?;
        for &g in ground {
            on_ground[g as usize] = true;
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(&(nodes, &edges, &on_ground), &mut hasher);
        Ok(Hackenbush {
            nodes,
            hash: hasher.finish(),
            edges,
            ground: on_ground,
            tag: None,
            memo: Memo::default(),
        })
    }

    /// The graph with what the caller keeps with it.
    pub fn tagged(self, tag: Tag) -> Self {
        Hackenbush {
            tag: Some(tag),
            ..self
        }
    }

    /// What the caller attached.
    pub fn tag(&self) -> Option<&Tag> {
        self.tag.as_ref()
    }

    /// The edges of the whole graph joined to the ground: the game's start.
    pub fn start(&self) -> Result<Vec<u32>> {
        let all: Vec<u32> = (0..self.edges.len() as u32).collect();
        self.standing(&all, None)
    }

    /// The edges of `edges` still joined to the ground once `chopped` is gone.
    fn standing(&self, edges: &[u32], chopped: Option<u32>) -> Result<Vec<u32>> {
        let kept: Vec<u32> = edges
            .iter()
            .copied()
            .filter(|&e| Some(e) != chopped)
            .collect();
        let adjacency = self.adjacency(&kept)?;
        let mut reached = alloc::filled(self.nodes, false)?;
        let mut stack: Vec<u32> = (0..self.nodes as u32)
            .filter(|&v| self.ground[v as usize])
            .collect();
        for &v in &stack {
            reached[v as usize] = true;
        }
        while let Some(v) = stack.pop() {
            for &(w, _) in adjacency.of(v) {
                if !reached[w as usize] {
                    reached[w as usize] = true;
                    stack.push(w);
                }
            }
        }
        Ok(kept
            .into_iter()
            .filter(|&e| reached[self.edges[e as usize].0 as usize])
            .collect())
    }

    /// Each node's (neighbour, edge) pairs over `edges`, in one flat array.
    fn adjacency(&self, edges: &[u32]) -> Result<Adjacency> {
        let mut start = alloc::filled(self.nodes + 1, 0u32)?;
        for &e in edges {
            let (u, v) = self.edges[e as usize];
            start[u as usize + 1] += 1;
            start[v as usize + 1] += 1;
        }
        for v in 0..self.nodes {
            start[v + 1] += start[v];
        }
        let mut next = start.clone();
        let mut pairs = alloc::filled(2 * edges.len(), (0u32, 0u32))?;
        for &e in edges {
            let (u, v) = self.edges[e as usize];
            for (a, b) in [(u, v), (v, u)] {
                pairs[next[a as usize] as usize] = (b, e);
                next[a as usize] += 1;
            }
        }
        Ok(Adjacency { start, pairs })
    }

    /// The value of the standing `edges` (all joined to the ground): fusion, then the
    /// colon principle. Ground nodes count as one node: node `self.nodes` stands for
    /// all of them.
    pub fn value_of(&self, edges: &[u32]) -> Result<u64> {
        let mut poll = Poll::default();
        let ground = self.nodes as u32;
        let node = |v: u32| if self.ground[v as usize] { ground } else { v };
        let fused: Vec<(u32, u32)> = edges
            .iter()
            .map(|&e| {
                let (u, v) = self.edges[e as usize];
                (node(u), node(v))
            })
            .collect();
        let (bridge, order, parent) = bridges(self.nodes + 1, &fused, ground, &mut poll)?;
        // Each block's loops: every edge that is not a bridge lies in one block, with
        // both ends in it; the block is named by its first node in the search order.
        let mut block = alloc::filled(self.nodes + 1, u32::MAX)?;
        for &v in &order {
            block[v as usize] = match parent[v as usize] {
                Some((p, e)) if !bridge[e as usize] => block[p as usize],
                _ => v,
            };
        }
        let mut value = alloc::filled(self.nodes + 1, 0u64)?;
        for (i, &(u, _)) in fused.iter().enumerate() {
            if !bridge[i] {
                value[block[u as usize] as usize] ^= 1;
            }
        }
        // Children before parents: each bridge adds its child block's value plus one.
        for &v in order.iter().rev() {
            poll.tick()?;
            if let Some((p, e)) = parent[v as usize] {
                if bridge[e as usize] {
                    let child = value[block[v as usize] as usize];
                    value[block[p as usize] as usize] ^= child + 1;
                }
            }
        }
        Ok(value[block[ground as usize] as usize])
    }

    /// The standing edges whose chop leaves a position of value 0.
    pub fn winning_chops(&self, edges: &[u32]) -> Result<Vec<u32>> {
        if self.value_of(edges)? == 0 {
            return Ok(Vec::new());
        }
        self.check_listing(edges)?;
        let mut found = Vec::new();
        for &e in edges {
            if self.value_of(&self.standing(edges, Some(e))?)? == 0 {
                found.push(e);
            }
        }
        Ok(found)
    }

    /// Refuses to list the options of a graph of more than √MAX_OPTIONS edges: each
    /// option is a list of edges, found by a pass over the graph.
    fn check_listing(&self, edges: &[u32]) -> Result<()> {
        let work = (edges.len() as u128).pow(2);
        if work > MAX_OPTIONS {
            return Err(Error::TooManyGameOptions {
                options: work,
                limit: MAX_OPTIONS,
            });
        }
        Ok(())
    }

    /// The edge of number `e`.
    pub fn edge(&self, e: u32) -> (u32, u32) {
        self.edges[e as usize]
    }
}

/// Each node's (neighbour, edge) pairs: `pairs[start[v]..start[v + 1]]`.
struct Adjacency {
    start: Vec<u32>,
    pairs: Vec<(u32, u32)>,
}

impl Adjacency {
    fn of(&self, v: u32) -> &[(u32, u32)] {
        &self.pairs[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}

/// What the depth-first search from `root` finds: which edges are bridges, the nodes in
/// the order found, and the tree edge each node was found by (node, edge number).
type Bridges = (Vec<bool>, Vec<u32>, Vec<Option<(u32, u32)>>);

/// The bridges of the multigraph `edges` over `nodes` nodes, among those `root`
/// reaches, by Tarjan's low-link numbers, with an explicit stack. A parallel edge is
/// not a bridge: only the tree edge itself is skipped on the way back, not its twins.
fn bridges(nodes: usize, edges: &[(u32, u32)], root: u32, poll: &mut Poll) -> Result<Bridges> {
    let mut start = alloc::filled(nodes + 1, 0u32)?;
    for &(u, v) in edges {
        start[u as usize + 1] += 1;
        start[v as usize + 1] += 1;
    }
    for v in 0..nodes {
        start[v + 1] += start[v];
    }
    let mut next = start.clone();
    let mut pairs = alloc::filled(2 * edges.len(), (0u32, 0u32))?;
    for (e, &(u, v)) in edges.iter().enumerate() {
        for (a, b) in [(u, v), (v, u)] {
            pairs[next[a as usize] as usize] = (b, e as u32);
            next[a as usize] += 1;
        }
    }
    let adjacency = Adjacency { start, pairs };
    let mut found = alloc::filled(nodes, u32::MAX)?;
    let mut low = alloc::filled(nodes, 0u32)?;
    let mut parent: Vec<Option<(u32, u32)>> = alloc::filled(nodes, None)?;
    let mut bridge = alloc::filled(edges.len(), false)?;
    let mut order = Vec::new();
    // The stack holds (node, the next of its pairs to look at).
    let mut stack = vec![(root, 0usize)];
    found[root as usize] = 0;
    order.push(root);
    while let Some(&mut (v, ref mut at)) = stack.last_mut() {
        poll.tick()?;
        let list = adjacency.of(v);
        if let Some(&(w, e)) = list.get(*at) {
            *at += 1;
            if parent[v as usize].is_some_and(|(_, pe)| pe == e) {
                continue;
            }
            if found[w as usize] == u32::MAX {
                found[w as usize] = order.len() as u32;
                low[w as usize] = found[w as usize];
                parent[w as usize] = Some((v, e));
                order.push(w);
                stack.push((w, 0));
            } else {
                low[v as usize] = low[v as usize].min(found[w as usize]);
            }
        } else {
            stack.pop();
            if let Some((p, e)) = parent[v as usize] {
                low[p as usize] = low[p as usize].min(low[v as usize]);
                if low[v as usize] > found[p as usize] {
                    bridge[e as usize] = true;
                }
            }
        }
    }
    Ok((bridge, order, parent))
}

impl Game for Hackenbush {
    type Position = Vec<u32>;
    const FAMILY: &'static str = "hackenbush";

    fn options(&self, p: &Vec<u32>, out: &mut Vec<Vec<u32>>) -> Result<()> {
        self.check_listing(p)?;
        for &e in p {
            out.push(self.standing(p, Some(e))?);
        }
        Ok(())
    }

    fn value(&self, p: &Vec<u32>, _limits: &Limits) -> Result<Option<Value>> {
        Ok(Some(Value::Finite(self.value_of(p)?)))
    }

    fn options_with(
        &self,
        p: &Vec<u32>,
        outcome: Outcome,
        misere: bool,
        _limits: &Limits,
    ) -> Result<Option<Vec<Vec<u32>>>> {
        if misere || outcome != Outcome::P {
            return Ok(None);
        }
        let chops = self.winning_chops(p)?;
        let options = chops.iter().map(|&e| self.standing(p, Some(e)));
        Ok(Some(options.collect::<Result<_>>()?))
    }

    fn loopy(&self, _p: &Vec<u32>, _limits: &Limits) -> Result<Option<bool>> {
        Ok(Some(false)) // every move removes an edge
    }

    fn numbers(&self, p: &Vec<u32>) -> Option<Vec<u64>> {
        Some(p.iter().map(|&e| u64::from(e)).collect())
    }

    fn memo(&self) -> &Memo<Vec<u32>> {
        &self.memo
    }

    fn same_game(&self, other: &Self) -> bool {
        self.hash == other.hash
            && self.nodes == other.nodes
            && self.edges == other.edges
            && self.ground == other.ground
    }

    fn hash_game(&self, state: &mut dyn Hasher) {
        state.write_u64(self.hash);
    }
}
