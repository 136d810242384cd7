//! The state graph of any game, loopy ones included: explored from a start, then
//! labelled by retrograde analysis with counters. Every function here works on node
//! numbers and successor lists, knowing nothing of what a node is.
//!
//! - `Graph::explore`: every position a start reaches, numbered breadth-first (the
//!   start is 0), with the options of each as a successor list; bounded, polled.
//! - `values`: Smith's generalised Sprague–Grundy function γ (Smith 1966; Fraenkel
//!   and Yesha 1986): a finite value, or ∞ with the set K of finite values among the
//!   options. One pass per value level, O((largest finite value + 2) · edges).
//! - `outcomes`: P, N or D (a draw) in normal or misère play, by one retrograde pass.
use std::collections::hash_map::Entry;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::base::outcome::Outcome;
use crate::base::value::Value;

/// Successor lists of nodes `0..len`, in one flat array.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Graph {
    /// `targets[ends[u - 1]..ends[u]]` are the successors of `u` (`ends[-1]` is 0).
    ends: Vec<usize>,
    targets: Vec<u32>,
}

impl Graph {
    /// A graph from successor lists (node numbers below the list's length).
    pub fn from_lists(lists: &[Vec<u32>]) -> Result<Self> {
        let mut graph = Graph::default();
        for list in lists {
            graph.push(list)?;
        }
        Ok(graph)
    }

    /// A graph of `nodes` nodes from `(from, to)` edges (both below `nodes`).
    pub fn from_edges(nodes: usize, edges: &[(u32, u32)]) -> Result<Self> {
        let mut counts = alloc::filled(nodes, 0usize)?;
        for &(from, _) in edges {
            counts[from as usize] += 1;
        }
        let mut ends = alloc::with_capacity(nodes)?;
        let mut sum = 0;
        for count in counts {
            sum += count;
            ends.push(sum);
        }
        let mut next: Vec<usize> = alloc::with_capacity(nodes)?;
        next.extend((0..nodes).map(|u| if u == 0 { 0 } else { ends[u - 1] }));
        let mut targets = alloc::filled(edges.len(), 0u32)?;
        for &(from, to) in edges {
            targets[next[from as usize]] = to;
            next[from as usize] += 1;
        }
        Ok(Graph { ends, targets })
    }

    /// Add a node with these successors; its number.
    pub fn push(&mut self, successors: &[u32]) -> Result<u32> {
        alloc::grow_by(&mut self.targets, successors.len())?;
        alloc::grow(&mut self.ends)?;
        self.targets.extend_from_slice(successors);
        self.ends.push(self.targets.len());
        Ok((self.ends.len() - 1) as u32)
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn edges(&self) -> usize {
        self.targets.len()
    }

    /// The successors of `u`.
    #[inline]
    pub fn successors(&self, u: u32) -> &[u32] {
        let u = u as usize;
        let start = if u == 0 { 0 } else { self.ends[u - 1] };
        &self.targets[start..self.ends[u]]
    }

    /// The predecessors of every node (each edge once, as given).
    pub fn reversed(&self) -> Result<Graph> {
        let mut edges = alloc::with_capacity(self.edges())?;
        for u in 0..self.len() as u32 {
            edges.extend(self.successors(u).iter().map(|&v| (v, u)));
        }
        Graph::from_edges(self.len(), &edges)
    }

    /// Whether some position can come back (a cycle, a node its own successor too).
    pub fn has_cycle(&self) -> Result<bool> {
        // Kahn's algorithm: every node is removed exactly when the graph is acyclic.
        let mut remaining = alloc::filled(self.len(), 0u32)?;
        for u in 0..self.len() as u32 {
            remaining[u as usize] = self.successors(u).len() as u32;
        }
        let reversed = self.reversed()?;
        let mut ready: Vec<u32> = (0..self.len() as u32)
            .filter(|&u| remaining[u as usize] == 0)
            .collect();
        let mut removed = 0;
        while let Some(v) = ready.pop() {
            removed += 1;
            for &u in reversed.successors(v) {
                remaining[u as usize] -= 1;
                if remaining[u as usize] == 0 {
                    ready.push(u);
                }
            }
        }
        Ok(removed < self.len())
    }
}

/// A game's positions numbered as `Graph::explore` found them.
#[derive(Debug, Clone)]
pub struct Explored<P> {
    pub graph: Graph,
    /// The position of each node.
    pub positions: Vec<P>,
    index: FxHashMap<P, u32>,
}

impl<P: Clone + Eq + Hash> Explored<P> {
    /// Every position `start` reaches, breadth-first, by `options` (which appends the
    /// options of a position to a buffer); refused past `max_positions` positions.
    /// `report` hears the count found now and then; Ctrl-C stops it.
    pub fn explore(
        start: P,
        max_positions: u64,
        options: &mut dyn FnMut(&P, &mut Vec<P>) -> Result<()>,
        report: &mut dyn FnMut(usize),
    ) -> Result<Self> {
        let too_many = || Error::GraphTooLarge {
            limit: max_positions,
        };
        let most_moves = max_moves(max_positions);
        let mut explored = Explored {
            graph: Graph::default(),
            positions: Vec::new(),
            index: FxHashMap::default(),
        };
        explored.add(start)?;
        let (mut found, mut successors) = (Vec::new(), Vec::new());
        let mut poll = Poll::default();
        let mut next = 0;
        while next < explored.positions.len() {
            poll.tick()?;
            found.clear();
            options(&explored.positions[next], &mut found)?;
            successors.clear();
            for option in found.drain(..) {
                let id = match explored.index.get(&option) {
                    Some(&id) => id,
                    None if explored.positions.len() as u64 >= max_positions => {
                        return Err(too_many())
                    }
                    None => explored.add(option)?,
                };
                alloc::grow(&mut successors)?;
                successors.push(id);
            }
            explored.graph.push(&successors)?;
            if explored.graph.edges() as u128 > most_moves {
                // A heap of n without a take limit has n (n + 1) / 2 moves below it.
                return Err(Error::GraphTooManyMoves { limit: most_moves });
            }
            next += 1;
            if next.is_multiple_of(1 << 12) {
                report(explored.positions.len());
            }
        }
        report(explored.positions.len());
        Ok(explored)
    }

    fn add(&mut self, position: P) -> Result<u32> {
        let id = self.positions.len() as u32;
        alloc::grow(&mut self.positions)?;
        self.index
            .try_reserve(1)
            .map_err(|_| alloc::too_large::<(P, u32)>(self.positions.len() + 1))?;
        match self.index.entry(position.clone()) {
            Entry::Vacant(slot) => {
                slot.insert(id);
            }
            Entry::Occupied(_) => unreachable!("added only when not found"),
        }
        self.positions.push(position);
        Ok(id)
    }

    /// The node of `position`, if explored.
    pub fn id(&self, position: &P) -> Option<u32> {
        self.index.get(position).copied()
    }
}

/// What the retrograde outcome labelling needs of a graph: each node's number of
/// options, and the nodes with a move to a given node.
pub trait Adjacency {
    /// The number of nodes.
    fn nodes(&self) -> usize;
    fn out_degree(&self, u: u64) -> u32;
    fn for_each_predecessor(&self, v: u64, visit: &mut dyn FnMut(u64));
}

/// A graph with its predecessor lists, for `outcomes`.
pub struct Both<'a> {
    pub graph: &'a Graph,
    pub reversed: Graph,
}

impl<'a> Both<'a> {
    pub fn new(graph: &'a Graph) -> Result<Self> {
        Ok(Both {
            graph,
            reversed: graph.reversed()?,
        })
    }
}

impl Adjacency for Both<'_> {
    fn nodes(&self) -> usize {
        self.graph.len()
    }

    fn out_degree(&self, u: u64) -> u32 {
        self.graph.successors(u as u32).len() as u32
    }

    fn for_each_predecessor(&self, v: u64, visit: &mut dyn FnMut(u64)) {
        for &u in self.reversed.successors(v as u32) {
            visit(u64::from(u));
        }
    }
}

/// The most moves a search of a state graph weighs (seconds of work): 16 a position
/// of `max_positions`, and never fewer than 2**24.
pub fn max_moves(max_positions: u64) -> u128 {
    (u128::from(max_positions) * 16).max(1 << 24)
}

/// The positions of a sum of games as tuples of their parts' nodes, numbered in
/// mixed radix (the first part slowest): every tuple is reachable, since the parts
/// move independently. Nothing is built per tuple.
pub struct Product {
    graphs: Vec<Graph>,
    reversed: Vec<Graph>,
    /// Node `u` of the sum is `sum(t_i * strides[i])`.
    strides: Vec<u64>,
    len: u64,
}

impl Product {
    /// The sum of the parts' graphs, refused past `max_positions` tuples.
    pub fn new(graphs: Vec<Graph>, max_positions: u64) -> Result<Self> {
        let positions = graphs
            .iter()
            .fold(1u128, |n, g| n.saturating_mul(g.len() as u128));
        if positions > u128::from(max_positions) {
            return Err(Error::SumTooLarge {
                positions,
                limit: max_positions,
            });
        }
        // Each part's moves, once for every tuple of the other parts' positions.
        let moves = graphs
            .iter()
            .map(|g| g.edges() as u128 * (positions / (g.len().max(1) as u128)))
            .sum::<u128>();
        if moves > max_moves(max_positions) {
            return Err(Error::SumTooManyMoves {
                moves,
                limit: max_moves(max_positions),
            });
        }
        let mut strides = vec![1u64; graphs.len()];
        for i in (0..graphs.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * graphs[i + 1].len() as u64;
        }
        let reversed = graphs.iter().map(Graph::reversed).collect::<Result<_>>()?;
        Ok(Product {
            graphs,
            reversed,
            strides,
            len: positions as u64,
        })
    }

    /// The graph of part `i`.
    pub fn part_graph(&self, i: usize) -> &Graph {
        &self.graphs[i]
    }

    /// The tuple with every part at its start but part `i` at node `s`.
    pub fn tuple(&self, i: usize, s: u32) -> u64 {
        u64::from(s) * self.strides[i]
    }

    /// The node of part `i` in tuple `u`.
    fn part(&self, u: u64, i: usize) -> u32 {
        (u / self.strides[i] % self.graphs[i].len() as u64) as u32
    }
}

impl Adjacency for Product {
    fn nodes(&self) -> usize {
        self.len as usize
    }

    fn out_degree(&self, u: u64) -> u32 {
        (0..self.graphs.len())
            .map(|i| self.graphs[i].successors(self.part(u, i)).len() as u32)
            .sum()
    }

    fn for_each_predecessor(&self, v: u64, visit: &mut dyn FnMut(u64)) {
        for i in 0..self.graphs.len() {
            let t = u64::from(self.part(v, i));
            for &s in self.reversed[i].successors(t as u32) {
                visit(v - t * self.strides[i] + u64::from(s) * self.strides[i]);
            }
        }
    }
}

/// The outcome of every node in normal play (a node with no move is P) or misère play
/// (it is N), draws included: retrograde analysis with a counter of the options not
/// yet known to lose for the mover. A node is N once an option is P, P once every
/// option is N; what is neither when nothing changes is a draw.
pub fn outcomes(graph: &dyn Adjacency, misere: bool) -> Result<Vec<Outcome>> {
    label(graph, misere, None)
}

/// The outcomes and the remoteness of every node: how many moves the game lasts when
/// the winner wins as fast as possible and the loser loses as slowly (0 where no move
/// is left; `u32::MAX` for a draw). In a loopy game only moves that lower it make
/// progress: a move to any P-position keeps the win but may come back.
pub fn remoteness(graph: &dyn Adjacency, misere: bool) -> Result<(Vec<Outcome>, Vec<u32>)> {
    let mut remote = alloc::filled(graph.nodes(), u32::MAX)?;
    let outcome = label(graph, misere, Some(&mut remote))?;
    Ok((outcome, remote))
}

/// Retrograde labelling in first-in first-out order: nodes leave the queue in order
/// of remoteness, so an N node is reached first from its nearest P option and a P
/// node last from its farthest N option, which gives the remoteness at no extra cost.
fn label(
    graph: &dyn Adjacency,
    misere: bool,
    mut remote: Option<&mut Vec<u32>>,
) -> Result<Vec<Outcome>> {
    let n = graph.nodes();
    let mut poll = Poll::default();
    let mut outcome = alloc::filled(n, Outcome::D)?;
    let mut left = alloc::with_capacity(n)?;
    for u in 0..n as u64 {
        poll.tick()?; // billions of tuples of a sum take seconds to count
        left.push(graph.out_degree(u));
    }
    // Each node enters once: the queue is the labelled nodes in order, read from `head`.
    let mut queue: Vec<u64> = alloc::with_capacity(n)?;
    for u in 0..n {
        poll.tick()?;
        if left[u] == 0 {
            outcome[u] = if misere { Outcome::N } else { Outcome::P };
            queue.push(u as u64);
            if let Some(remote) = remote.as_deref_mut() {
                remote[u] = 0;
            }
        }
    }
    let mut stop = Ok(());
    let mut head = 0;
    while let Some(&v) = queue.get(head) {
        head += 1;
        if let Err(err) = poll.tick() {
            stop = Err(err);
            break;
        }
        let lost = outcome[v as usize] == Outcome::P;
        let next = remote.as_deref().map_or(0, |r| r[v as usize] + 1);
        graph.for_each_predecessor(v, &mut |u| {
            let u = u as usize;
            if outcome[u] != Outcome::D {
                return;
            }
            if lost {
                outcome[u] = Outcome::N;
            } else {
                left[u] -= 1;
                if left[u] > 0 {
                    return;
                }
                outcome[u] = Outcome::P;
            }
            queue.push(u as u64);
            if let Some(remote) = remote.as_deref_mut() {
                remote[u] = next;
            }
        });
    }
    stop.map(|()| outcome)
}

/// The Grundy value of every node of an acyclic graph, sinks first (Kahn's order);
/// `None` when some node lies on a cycle.
fn acyclic_values(graph: &Graph, reversed: &Graph) -> Result<Option<Vec<u32>>> {
    let n = graph.len();
    let mut remaining = alloc::with_capacity(n)?;
    remaining.extend((0..n as u32).map(|u| graph.successors(u).len() as u32));
    let mut ready: Vec<u32> = alloc::with_capacity(n)?;
    ready.extend((0..n as u32).filter(|&u| remaining[u as usize] == 0));
    let mut grundy = alloc::filled(n, 0u32)?;
    // Which values the options of the node at hand take (a mex is at most its degree).
    let mut seen: Vec<bool> = Vec::new();
    let mut poll = Poll::default();
    let mut done = 0;
    while let Some(v) = ready.pop() {
        poll.tick()?;
        done += 1;
        let options = graph.successors(v);
        seen.clear();
        seen.resize(options.len() + 1, false);
        for &w in options {
            if let Some(slot) = seen.get_mut(grundy[w as usize] as usize) {
                *slot = true;
            }
        }
        grundy[v as usize] = seen.iter().position(|&s| !s).unwrap_or(options.len()) as u32;
        for &u in reversed.successors(v) {
            remaining[u as usize] -= 1;
            if remaining[u as usize] == 0 {
                ready.push(u);
            }
        }
    }
    Ok((done == n).then_some(grundy))
}

/// No label yet (at the current level).
const OPEN: u32 = u32::MAX;
/// γ = ∞.
const INFINITE: u32 = u32::MAX - 1;

/// Smith's generalised Sprague–Grundy value of every node.
///
/// Level by level, `i = 0, 1, 2, ...`: among the nodes still open (no finite value
/// below `i`, not ∞), a *candidate* has options of every value below `i`. Restricted
/// to open and ∞ nodes, level `i` is a retrograde labelling with counters: a candidate
/// all of whose open-or-∞ options are answered (have an option of value `i`) gets `i`;
/// a node with an option of value `i` is answered. The counter of a node is its
/// open-or-∞ options not yet answered. After the level, an open node with no option
/// of value `i` can take no finite value above `i` (its mex would be `i`): it is ∞.
/// Each level costs O(edges). An ∞ node's K is the set of finite values among its
/// options. An acyclic graph (the common case) takes one pass instead: each node's
/// mex once its options have theirs.
pub fn values(graph: &Graph) -> Result<Vec<Value>> {
    let n = graph.len();
    let reversed = graph.reversed()?;
    if let Some(grundy) = acyclic_values(graph, &reversed)? {
        return Ok(grundy
            .into_iter()
            .map(|g| Value::Finite(u64::from(g)))
            .collect());
    }
    let mut label = alloc::filled(n, OPEN)?;
    // How many values `0..i` each node's options hold: a candidate has them all.
    let mut below = alloc::filled(n, 0u32)?;
    let mut counter = alloc::filled(n, 0u32)?;
    let mut answered = alloc::filled(n, false)?;
    let mut queue: Vec<u32> = alloc::with_capacity(n)?;
    // For the count of distinct values: which level last counted a node.
    let mut counted = alloc::filled(n, u32::MAX)?;
    let mut poll = Poll::default();
    let mut open = n;
    let mut level = 0u32;
    while open > 0 {
        // Counters: options that are open or ∞ (values below `level` do not count).
        for u in 0..n as u32 {
            poll.tick()?;
            answered[u as usize] = false;
            if label[u as usize] == OPEN {
                counter[u as usize] = graph
                    .successors(u)
                    .iter()
                    .filter(|&&v| label[v as usize] >= INFINITE)
                    .count() as u32;
                if counter[u as usize] == 0 && below[u as usize] == level {
                    queue.push(u);
                }
            }
        }
        let mut found = Vec::new();
        while let Some(v) = queue.pop() {
            poll.tick()?;
            if label[v as usize] != OPEN {
                continue;
            }
            label[v as usize] = level;
            found.push(v);
            for &u in reversed.successors(v) {
                poll.tick()?;
                // Every predecessor (open or ∞) of a node of value `level` is answered.
                if label[u as usize] < INFINITE || answered[u as usize] {
                    continue;
                }
                answered[u as usize] = true;
                for &w in reversed.successors(u) {
                    if label[w as usize] == OPEN {
                        counter[w as usize] -= 1;
                        if counter[w as usize] == 0 && below[w as usize] == level {
                            queue.push(w);
                        }
                    }
                }
            }
        }
        open -= found.len();
        // The nodes with an option of value `level` count one more value below.
        for &v in &found {
            for &u in reversed.successors(v) {
                if counted[u as usize] != level {
                    counted[u as usize] = level;
                    if below[u as usize] == level {
                        below[u as usize] += 1;
                    }
                }
            }
        }
        // Open nodes missing `level` among their options' values are ∞.
        for u in 0..n {
            if label[u] == OPEN && below[u] == level {
                label[u] = INFINITE;
                open -= 1;
            }
        }
        level += 1;
    }
    let mut values = alloc::with_capacity(n)?;
    for u in 0..n as u32 {
        values.push(match label[u as usize] {
            INFINITE => {
                let mut k: Vec<u64> = graph
                    .successors(u)
                    .iter()
                    .filter(|&&v| label[v as usize] < INFINITE)
                    .map(|&v| u64::from(label[v as usize]))
                    .collect();
                k.sort_unstable();
                k.dedup();
                Value::Infinite(k)
            }
            finite => Value::Finite(u64::from(finite)),
        });
    }
    Ok(values)
}
