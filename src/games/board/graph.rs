//! The vertex-deletion engine under Node Kayles, Arc Kayles and Cram: a position is a
//! set of vertices of a graph (a bitset as wide as the graph needs), and a move
//! deletes a set of them (a closed neighbourhood; the two ends of an edge).
//!
//! A position falls apart into connected components, and the options of a component
//! never join two. In normal play a position's value is the XOR of its components'
//! (Sprague–Grundy), each component valued under a key that is the same for every
//! copy of it, by the pruned search (`pruned`): a board's cells go to bitboards
//! (`grid`), keyed by their shape up to the square's symmetries; any other graph is
//! searched here, keyed by its vertex set, and plainly (the mex of every option's
//! value) when a value of 64 or more comes up. In misère play the sum rule fails, so
//! outcomes are searched over whole positions: the multiset of their components'
//! keys, components with no move dropped (a game with no option adds nothing in
//! either ending). Each option is looked up before any is searched (a known P-option
//! settles a misère position at once). Every search is iterative (its depth is the
//! number of vertices) and polls for Ctrl-C.
use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::bitboards::Tables;
use super::canon;
use super::kinds::{Canon, Moves, VertexError, MAX_VERTICES};
use super::lines::{self, Lines};
use super::sets::{has, heap_of, is_empty, key_bits, members, Bits, Key};
use crate::base::alloc;
use crate::base::error::Result;
use crate::split::budget::Evictions;
use crate::split::misere::Table;
use crate::split::pruned::Split;

/// A graph, the moves played on it and the values learned so far.
#[derive(Debug)]
pub struct Deletion {
    pub(super) vertices: usize,
    pub(super) adjacency: Vec<Bits>,
    pub(super) moves: Moves,
    pub(super) canon: Canon,
    pub(super) values: Mutex<FxHashMap<Key, u32>>,
    pub(super) boards: Tables,
    pub(super) misere: Mutex<Table<Key>>,
    /// The values of paths and cycles (`lines`), made by the first search.
    pub(super) lines: OnceLock<Lines>,
    /// How the evictions of a search went (`evicting`), kept across the steps of a
    /// search run in steps (`Budget::until`) until it ends.
    pub(super) evictions: Mutex<Evictions>,
}

impl Deletion {
    /// A graph of `vertices` vertices with `edges` (loops and repeats ignored).
    pub fn new(vertices: usize, edges: &[(u64, u64)], moves: Moves, canon: Canon) -> Result<Self> {
        if vertices > MAX_VERTICES {
            return Err(VertexError::TooManyVertices(vertices).into());
        }
        let words = vertices.div_ceil(64);
        let mut adjacency = alloc::with_capacity(vertices)?;
        adjacency.resize(vertices, SmallVec::from_elem(0u64, words));
        for &(u, v) in edges {
            for end in [u, v] {
                if end >= vertices as u64 {
                    return Err(VertexError::NoSuchVertex {
                        vertex: end,
                        vertices,
                    }
                    .into());
                }
            }
            let (u, v) = (u as usize, v as usize);
            if u != v {
                adjacency[u][v / 64] |= 1 << (v % 64);
                adjacency[v][u / 64] |= 1 << (u % 64);
            }
        }
        Ok(Deletion {
            vertices,
            adjacency,
            moves,
            canon,
            values: Mutex::default(),
            boards: Tables::new(canon, moves),
            misere: Mutex::default(),
            lines: OnceLock::new(),
            evictions: Mutex::default(),
        })
    }

    /// The cells of a `rows` x `cols` board, joined side by side.
    pub fn board(rows: usize, cols: usize, moves: Moves) -> Result<Self> {
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_VERTICES {
            return Err(VertexError::BoardSize { rows, cols }.into());
        }
        let cell = |r: usize, c: usize| (r * cols + c) as u64;
        let mut edges = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if c + 1 < cols {
                    edges.push((cell(r, c), cell(r, c + 1)));
                }
                if r + 1 < rows {
                    edges.push((cell(r, c), cell(r + 1, c)));
                }
            }
        }
        Deletion::new(rows * cols, &edges, moves, Canon::Grid { rows, cols })
    }

    pub fn moves(&self) -> Moves {
        self.moves
    }

    pub fn canon(&self) -> Canon {
        self.canon
    }

    /// Every vertex.
    pub fn all(&self) -> Bits {
        let mut set: Bits = SmallVec::from_elem(0u64, self.vertices.div_ceil(64));
        for v in 0..self.vertices {
            set[v / 64] |= 1 << (v % 64);
        }
        set
    }

    /// The edges `(u, v)`, `u < v`, of the graph.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        (0..self.vertices)
            .flat_map(|u| {
                members(&self.adjacency[u])
                    .filter(move |&v| u < v)
                    .map(move |v| (u, v))
            })
            .collect()
    }

    /// The set of `vertices`, refused if one is not a vertex of the graph.
    pub fn set_of(&self, vertices: impl IntoIterator<Item = u64>) -> Result<Bits> {
        let mut set: Bits = SmallVec::from_elem(0u64, self.vertices.div_ceil(64));
        for v in vertices {
            if v >= self.vertices as u64 {
                return Err(VertexError::NoSuchVertex {
                    vertex: v,
                    vertices: self.vertices,
                }
                .into());
            }
            set[v as usize / 64] |= 1 << (v % 64);
        }
        Ok(set)
    }

    /// The options of `set`: the set less what each move deletes, in the order of
    /// the move's lowest vertex.
    pub fn options(&self, set: &[u64]) -> Vec<Bits> {
        let mut options = Vec::new();
        for v in members(set) {
            match self.moves {
                Moves::Neighbourhood => {
                    let mut option = Bits::from_slice(set);
                    for (o, a) in option.iter_mut().zip(self.adjacency[v].iter()) {
                        *o &= !a;
                    }
                    option[v / 64] &= !(1 << (v % 64));
                    options.push(option);
                }
                Moves::Edge => {
                    for u in members(&self.adjacency[v]).filter(|&u| u > v && has(set, u)) {
                        let mut option = Bits::from_slice(set);
                        option[v / 64] &= !(1 << (v % 64));
                        option[u / 64] &= !(1 << (u % 64));
                        options.push(option);
                    }
                }
            }
        }
        options
    }

    /// The connected components of `set`, components with no move left out.
    pub fn components(&self, set: &[u64]) -> Vec<Bits> {
        let mut rest = Bits::from_slice(set);
        let mut found = Vec::new();
        loop {
            let Some(seed) = members(&rest).next() else {
                break;
            };
            let mut component: Bits = SmallVec::from_elem(0u64, set.len());
            let mut frontier = component.clone();
            frontier[seed / 64] |= 1 << (seed % 64);
            let mut next: Bits = SmallVec::from_elem(0u64, set.len());
            while !is_empty(&frontier) {
                next.fill(0);
                for v in members(&frontier) {
                    for (n, a) in next.iter_mut().zip(self.adjacency[v].iter()) {
                        *n |= a;
                    }
                }
                for w in 0..set.len() {
                    component[w] |= frontier[w];
                    rest[w] &= !frontier[w];
                    frontier[w] = next[w] & rest[w];
                }
            }
            let lone = members(&component).nth(1).is_none();
            if !(lone && self.moves == Moves::Edge) {
                found.push(component);
            }
        }
        found
    }

    /// The key shared by every copy of `component`.
    pub(super) fn key(&self, component: &[u64]) -> Key {
        match self.canon {
            Canon::Labels => canon::by_set(component),
            Canon::Grid { cols, .. } => grid_key(component, cols),
        }
    }

    /// The graph as the pruned search sees it, the values of its paths and cycles
    /// made first.
    pub(super) fn graph(&self) -> Result<Graph<'_>> {
        if self.lines.get().is_none() {
            let made = Lines::new(self.moves, self.vertices)?;
            let _ = self.lines.set(made);
        }
        Ok(Graph(self))
    }

    /// A closed form for `component`: a path or a cycle (`lines`), or on a board
    /// too large for its bitboards, a full rectangle two cells wide, whose Cram
    /// value is the parity of its dominoes (one domino answers every other, by the
    /// half-turn, on an even one).
    pub(super) fn closed_form(&self, component: &[u64]) -> Option<u32> {
        if let Some(line) = lines::line(component, &self.adjacency) {
            return self.lines.get().map(|lines| lines.value(line));
        }
        let Canon::Grid { cols, .. } = self.canon else {
            return None;
        };
        if self.moves != Moves::Edge {
            return None;
        }
        let (mut top, mut bottom, mut left, mut right, mut cells) =
            (usize::MAX, 0, usize::MAX, 0, 0);
        for v in members(component) {
            let (r, c) = (v / cols, v % cols);
            (top, bottom, left, right) = (top.min(r), bottom.max(r), left.min(c), right.max(c));
            cells += 1;
        }
        let (height, width) = (bottom - top + 1, right - left + 1);
        (height.min(width) == 2 && cells == height * width).then_some((cells / 2 % 2) as u32)
    }
}

/// The canonical form of a set of cells of a board `cols` wide: of the 8 images under
/// the square's symmetries, each moved to the corner, the least as (height, width,
/// row-major bits of its bounding box).
pub(super) fn grid_key(component: &[u64], cols: usize) -> Key {
    // On the stack while the shape is small (most are, deep in a search).
    let mut cells: SmallVec<[(usize, usize); 32]> =
        members(component).map(|v| (v / cols, v % cols)).collect();
    let (r0, c0) = cells
        .iter()
        .fold((usize::MAX, usize::MAX), |(r, c), &(a, b)| {
            (r.min(a), c.min(b))
        });
    for cell in &mut cells {
        *cell = (cell.0 - r0, cell.1 - c0);
    }
    let h = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let w = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    // The key starts with (height, width): only the images that are no taller than
    // wide can be least (all 8 for a square bounding box, else 4).
    let (th, tw) = (h.min(w), h.max(w));
    let words = 1 + (th * tw).div_ceil(64);
    let mut best: Key = SmallVec::from_elem(u64::MAX, words);
    let mut image: Key = SmallVec::from_elem(0u64, words);
    for symmetry in 0..8 {
        let transpose = symmetry & 4 != 0;
        if (if transpose { w } else { h }) != th {
            continue;
        }
        image.fill(0);
        image[0] = (th as u64) << 32 | tw as u64;
        for &(r, c) in &cells {
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            let r = if symmetry & 1 == 0 { r } else { th - 1 - r };
            let c = if symmetry & 2 == 0 { c } else { tw - 1 - c };
            let bit = r * tw + c;
            image[1 + bit / 64] |= 1 << (bit % 64);
        }
        if image < best {
            std::mem::swap(&mut image, &mut best);
        }
    }
    best
}

/// A general graph searched by components, each keyed as `Deletion::key` says.
pub(super) struct Graph<'a>(pub(super) &'a Deletion);

impl Split for Graph<'_> {
    type Part = Bits;
    type Key = Key;

    fn key(&self, part: &Bits) -> Key {
        self.0.key(part)
    }

    fn known(&self, part: &Bits) -> Option<u32> {
        self.0.closed_form(part)
    }

    fn options(&mut self, part: &Bits, out: &mut Vec<Bits>) {
        out.extend(self.0.options(part));
    }

    fn split(&mut self, option: &Bits, parts: &mut Vec<Bits>) -> u32 {
        parts.extend(self.0.components(option));
        0
    }

    fn size(&self, part: &Bits) -> u32 {
        part.iter().map(|w| w.count_ones()).sum()
    }

    fn key_size(&self, key: &Key) -> u32 {
        key_bits(key)
    }

    fn key_heap(&self) -> usize {
        self.0.component_key_heap()
    }

    fn heap_of(&self, key: &Key) -> usize {
        heap_of(key)
    }

    fn alias(&mut self, part: &Bits) -> Option<Key> {
        Some(canon::canonical(part, &self.0.adjacency))
    }
}
