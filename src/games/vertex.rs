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
use std::hash::Hasher;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::budget::{Budget, Spend, STALLS};
use super::canon;
use super::defined::Tag;
use super::grid::{self, Tables};
use super::lines::{self, Lines};
use super::parallel;
use super::pruned::{Search, Split, Wide};
use super::values::{self, Private};
use super::{Game, Limits, Memo, Value};
use crate::base::outcome::Outcome;

use crate::base::alloc;
use crate::base::error::{Error, FamilyError, Result};
use crate::base::interrupt::{self, Poll};

/// The most vertices a graph may have: its neighbour sets then take 32 MB, and no
/// search of such a graph ends anyway.
const MAX_VERTICES: usize = 1 << 14;

/// How many new table entries between two reports of progress.
const REPORT_EVERY: usize = 1 << 12;

/// The misère table: whether the player to move wins, by whole position.
type Misere = FxHashMap<Box<[Key]>, bool>;

/// A set of vertices, bit `v % 64` of word `v / 64` for vertex `v`.
/// Inline up to 128 vertices (no allocation per option on boards of that size).
pub type Bits = SmallVec<[u64; 2]>;

/// A component's key: equal keys, equal games.
type Key = SmallVec<[u64; 3]>;

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

/// A graph, the moves played on it and the values learned so far.
#[derive(Debug)]
pub struct Deletion {
    vertices: usize,
    adjacency: Vec<Bits>,
    moves: Moves,
    canon: Canon,
    values: Mutex<FxHashMap<Key, u32>>,
    boards: Tables,
    misere: Mutex<Misere>,
    /// The values of paths and cycles (`lines`), made by the first search.
    lines: OnceLock<Lines>,
    /// How the evictions of a search went (`evicting`), kept across the steps of a
    /// search run in steps (`Budget::until`) until it ends.
    evictions: Mutex<Evictions>,
}

/// The most the evictions of a search have kept (the sizes of the values kept,
/// summed), and how many since kept no more; and how many of its steps paused after
/// making room in place, each of which doubles the steps after it.
#[derive(Debug, Default, Clone, Copy)]
struct Evictions {
    most: u64,
    stalls: u32,
    doublings: u32,
}

impl Evictions {
    /// `budget` with its step (`Budget::until`, counted from now) doubled once for
    /// each step that paused after making room in place: a pause drops the search's
    /// stack, which a table that had to make room cannot give back, so steps no
    /// longer than the last might never see the search end, and steps that grow do
    /// (a run with a checkpoint still saves between them). A step of no time (a
    /// checkpoint's `every=0`) grows from a millisecond.
    fn stretch(&self, budget: Budget) -> Budget {
        let Some(until) = budget.until.filter(|_| self.doublings > 0) else {
            return budget;
        };
        let now = Instant::now();
        let step = until
            .saturating_duration_since(now)
            .max(Duration::from_millis(1));
        let longer = 2u32
            .checked_pow(self.doublings)
            .and_then(|times| step.checked_mul(times))
            .and_then(|step| now.checked_add(step));
        Budget {
            until: longer,
            ..budget
        }
    }
}

/// A table of what the normal-play searches learned, as a checkpoint holds it: the
/// keys' words one after another (`lengths[i]` words for key i), and their values.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Saved {
    pub lengths: Vec<u16>,
    pub words: Vec<u64>,
    pub values: Vec<u32>,
}

impl Saved {
    /// The `len` entries of a table.
    pub fn of<'k>(entries: impl Iterator<Item = (&'k [u64], u32)>, len: usize) -> Result<Self> {
        let mut saved = Saved {
            lengths: alloc::with_capacity(len)?,
            words: Vec::new(),
            values: alloc::with_capacity(len)?,
        };
        for (key, value) in entries {
            alloc::grow_by(&mut saved.words, key.len())?;
            saved.words.extend_from_slice(key);
            saved.lengths.push(key.len() as u16);
            saved.values.push(value);
        }
        Ok(saved)
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether the three arrays agree (else the error to give).
    pub fn check(&self) -> Result<()> {
        let words: usize = self.lengths.iter().map(|&n| usize::from(n)).sum();
        if self.lengths.len() != self.values.len() || words != self.words.len() {
            return Err(Error::Checkpoint(format!(
                "{} key lengths, {} values and {} words (the lengths add up to {words})",
                self.lengths.len(),
                self.values.len(),
                self.words.len()
            )));
        }
        Ok(())
    }

    /// Each key's words and its value.
    pub fn entries(&self) -> impl Iterator<Item = (&[u64], u32)> + '_ {
        let mut at = 0;
        self.lengths.iter().zip(&self.values).map(move |(&n, &v)| {
            let key = &self.words[at..at + usize::from(n)];
            at += usize::from(n);
            (key, v)
        })
    }

    pub fn wrong_width(found: usize, wanted: usize) -> Error {
        Error::Checkpoint(format!(
            "a key of {found} words where this board's have {wanted}"
        ))
    }
}

/// Iterate the vertices of a set.
pub fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + bit
            })
        })
    })
}

fn is_empty(set: &[u64]) -> bool {
    set.iter().all(|&w| w == 0)
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
            boards: Tables::default(),
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

    /// The values learned on a board's bitboards (`grid`).
    pub fn boards(&self) -> &Tables {
        &self.boards
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
    fn key(&self, component: &[u64]) -> Key {
        match self.canon {
            Canon::Labels => canon::by_set(component),
            Canon::Grid { cols, .. } => grid_key(component, cols),
        }
    }

    /// The normal-play Grundy value of `set` within `budget`; `report` hears now and
    /// then how many components are valued. Boards go to their bitboards (`grid`);
    /// other graphs are searched with pruning (`pruned`), or plainly if a value of 64
    /// or more comes up.
    pub fn value(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<u64> {
        self.evicting(budget, |budget| self.value_once(set, budget, report))
    }

    /// `ask`, and with `budget.evict` asked again each time it stops at the bound
    /// (searches on several threads, whose shared tables are not pruned under them;
    /// one search makes room in place, `pruned::Search::make_room`, and its error
    /// past the bound is final: its stack does not fit), once room is made (`evict`);
    /// the bound's error after `STALLS` rounds in a row that kept no more than before
    /// (the search cannot go on within it), the count going on
    /// across the steps of a search paused and asked again, whose steps grow once
    /// one has made room in place (`Evictions::stretch`).
    fn evicting<T>(&self, budget: Budget, mut ask: impl FnMut(Budget) -> Result<T>) -> Result<T> {
        let lock = || {
            self.evictions
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        let mut went = *lock();
        let budget = went.stretch(budget);
        let done = loop {
            match ask(budget) {
                Err(
                    error @ Error::MemoryBound {
                        made_room: false, ..
                    },
                ) if budget.evict => {
                    let kept = match self.evict(budget.max_memory) {
                        Ok(kept) => kept,
                        Err(error) => break Err(error),
                    };
                    if kept > went.most {
                        went = Evictions {
                            most: kept,
                            stalls: 0,
                            ..went
                        };
                    } else {
                        went.stalls += 1;
                        if went.stalls == STALLS {
                            break Err(error);
                        }
                    }
                }
                done => break done,
            }
        };
        // A paused search goes on where it was; any other end starts the count anew.
        *lock() = match done {
            Err(Error::Paused { made_room }) => Evictions {
                doublings: went.doublings + u32::from(made_room),
                ..went
            },
            _ => Evictions::default(),
        };
        done
    }

    /// Room in the tables, for searches bounded by `bound` bytes: the values of the
    /// smallest components dropped (`values::evict`; a graph's by the bits of their
    /// keys, which grow with the component). The sizes of the values kept, summed.
    fn evict(&self, bound: u64) -> Result<u64> {
        let board = grid::evict(self, bound)?;
        let mut graph = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        let poll = &mut Poll::default();
        Ok(board + values::evict(&mut graph, bound, self.key_heap(), key_bits, poll)?)
    }

    fn value_once(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<u64> {
        if let Some(value) = grid::value(self, set, budget, report)? {
            return Ok(value);
        }
        let mut graph = self.graph()?;
        let mut table = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        let mut value = 0;
        for component in self.components(set) {
            let found = Search::new(&mut graph, &mut Private::new(&mut table)?, budget, report)?
                .value(&component)?;
            value ^= u64::from(match found {
                Ok(v) => v,
                Err(Wide) => self.plain_value(component, &mut table, budget, report)?,
            });
        }
        Ok(value)
    }

    /// Whether the normal-play value of `set` is `target` (as `pruned::Search::sum_is`
    /// asks it: an outcome, or whether an option wins, costs a fraction of a value).
    pub fn value_is(
        &self,
        set: &[u64],
        target: u32,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        self.evicting(budget, |budget| {
            self.value_is_once(set, target, budget, report)
        })
    }

    fn value_is_once(
        &self,
        set: &[u64],
        target: u32,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        if let Some(is) = grid::value_is(self, set, target, budget, report)? {
            return Ok(is);
        }
        let parts = self.components(set);
        let mut graph = self.graph()?;
        let found = {
            let mut table = self.values.lock().unwrap_or_else(PoisonError::into_inner);
            Search::new(&mut graph, &mut Private::new(&mut table)?, budget, report)?
                .sum_is(&parts, target)?
        };
        match found {
            Ok(is) => Ok(is),
            // A value of 64 or more came up: the plain search values it.
            Err(Wide) => Ok(self.value_once(set, budget, report)? == u64::from(target)),
        }
    }

    /// The graph as the pruned search sees it, the values of its paths and cycles
    /// made first.
    fn graph(&self) -> Result<Graph<'_>> {
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
    fn closed_form(&self, component: &[u64]) -> Option<u32> {
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

    /// What the normal-play searches learned: the board's table (`grid`, for boards it
    /// takes) and the graph's (keys of vertex sets or shapes).
    pub fn saved(&self) -> Result<Vec<(&'static str, Saved)>> {
        let mut tables = Vec::new();
        if let Some(board) = grid::saved(self)? {
            tables.push(("board", board));
        }
        let graph = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        let entries = graph.iter().map(|(k, &v)| (&k[..], v));
        tables.push(("graph", Saved::of(entries, graph.len())?));
        Ok(tables)
    }

    /// Enter a table `saved` gave back (checked first: a key of the wrong width for
    /// a board, a table this game has not, are errors).
    pub fn restore(&self, name: &str, saved: &Saved) -> Result<()> {
        saved.check()?;
        match name {
            "board" if grid::restore(self, saved)? => Ok(()),
            "graph" => {
                let mut graph = self.values.lock().unwrap_or_else(PoisonError::into_inner);
                graph
                    .try_reserve(saved.len())
                    .map_err(|_| alloc::too_large::<(Key, u32)>(saved.len()))?;
                for (key, value) in saved.entries() {
                    self.plausible(value, self.graph_moves(key)?)?;
                    graph.insert(Key::from_slice(key), value);
                }
                Ok(())
            }
            _ => Err(Error::Checkpoint(format!(
                "this game has no table {name:?}"
            ))),
        }
    }

    /// Refuse a saved `value` that no component with `moves` moves can have (a value
    /// is at most the number of options): a checkpoint is not believed blindly.
    pub fn plausible(&self, value: u32, moves: u64) -> Result<()> {
        if u64::from(value) > moves {
            return Err(Error::Checkpoint(format!(
                "a component with {moves} moves saved with the value {value} (at most {moves})"
            )));
        }
        Ok(())
    }

    /// The most moves of a component of `cells` vertices of a grid: one per vertex
    /// (Node Kayles), or two per cell (the domino to its right and the one below).
    pub fn most_moves(&self, cells: u32) -> u64 {
        match self.moves {
            Moves::Neighbourhood => u64::from(cells),
            Moves::Edge => 2 * u64::from(cells),
        }
    }

    /// The most moves of the component a saved key of the graph's table stands for:
    /// a board's shape (`grid_key`), a vertex set (`canon::by_set`) or a size and
    /// canonical adjacency rows (`canon::canonical`).
    fn graph_moves(&self, key: &[u64]) -> Result<u64> {
        let damaged = || Error::Checkpoint("a key that is no component of this graph".into());
        let (&head, rest) = key.split_first().ok_or_else(damaged)?;
        let ones = |words: &[u64]| words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        if let Canon::Grid { .. } = self.canon {
            // (height << 32 | width), then the bits of the shape's box (`grid_key`)
            let area = (head >> 32).saturating_mul(head & 0xFFFF_FFFF);
            if area > self.vertices as u64 || rest.len() as u64 != area.div_ceil(64) {
                return Err(damaged());
            }
            return Ok(self.most_moves(ones(rest) as u32));
        }
        if head == canon::BY_SET {
            if rest.len() != self.vertices.div_ceil(64) || members(rest).any(|v| v >= self.vertices)
            {
                return Err(damaged());
            }
            return Ok(match self.moves {
                Moves::Neighbourhood => ones(rest),
                Moves::Edge => {
                    let degrees: u64 = members(rest)
                        .map(|v| {
                            let within = self.adjacency[v].iter().zip(rest).map(|(a, s)| a & s);
                            within.map(|w| u64::from(w.count_ones())).sum::<u64>()
                        })
                        .sum();
                    degrees / 2
                }
            });
        }
        if head > self.vertices as u64 || rest.len() != canon::key_words(head as usize) - 1 {
            return Err(damaged());
        }
        Ok(match self.moves {
            Moves::Neighbourhood => head,
            Moves::Edge => ones(rest) / 2,
        })
    }

    /// The normal-play value of `set` by the plain search alone, in a table of its
    /// own: the reference the pruned search is checked against.
    pub fn plain_value_of(&self, set: &[u64]) -> Result<u64> {
        let mut table = FxHashMap::default();
        let mut value = 0;
        for component in self.components(set) {
            let budget = Budget::default();
            value ^= u64::from(self.plain_value(component, &mut table, budget, &|_| {})?);
        }
        Ok(value)
    }

    /// The value of a connected component, as the mex of its options' values,
    /// searched without recursion: each frame is a component whose options are being
    /// valued; an option with a component not yet valued pushes that component and
    /// is taken up again when it is.
    fn plain_value(
        &self,
        component: Bits,
        values: &mut FxHashMap<Key, u32>,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<u32> {
        let key = self.key(&component);
        if let Some(&v) = values.get(&key) {
            return Ok(v);
        }
        let first = Frame::new(self, component, key);
        let mut spend = Spend::new(budget);
        spend.count(values, self.key_heap());
        spend.charge(self.bytes(first.options.len()))?;
        let mut stack = vec![first];
        while let Some(frame) = stack.last_mut() {
            spend.tick()?;
            let Some(option) = frame.options.get(frame.next) else {
                let frame = stack.pop().expect("the loop holds a frame");
                spend.release(self.bytes(frame.options.len()));
                let value = mex(&frame.seen);
                spend.room(values, self.key_heap())?;
                remember(values, frame.key, value, report);
                if stack.is_empty() {
                    return Ok(value);
                }
                continue;
            };
            let mut sum = 0u32;
            let mut missing = None;
            for part in self.components(option) {
                let key = self.key(&part);
                match values.get(&key) {
                    Some(&v) => sum ^= v,
                    None => {
                        missing = Some((part, key));
                        break;
                    }
                }
            }
            match missing {
                Some((part, key)) => {
                    let child = Frame::new(self, part, key);
                    spend.charge(self.bytes(child.options.len()))?;
                    alloc::grow(&mut stack)?;
                    stack.push(child);
                }
                None => {
                    frame.see(sum);
                    frame.next += 1;
                }
            }
        }
        unreachable!("the last frame returns")
    }

    /// Whether the player to move wins `set` in misère play, within `budget` (with
    /// `budget.evict`, room made past it: `misere_room`); `report` hears now and then
    /// how many positions are settled. A large position is searched on
    /// `parallel::threads()` threads.
    pub fn misere_wins(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        if !self.has_move(set) {
            return Ok(true); // no move at all wins misère play, without a table
        }
        let size: u32 = set.iter().map(|w| w.count_ones()).sum();
        let mut recent = Recent::new(size)?;
        let start = self.position(set, &mut recent);
        let threads = parallel::threads();
        if threads > 1 && size >= parallel::FROM_SIZE {
            return self.misere_wins_on(threads, start, size, &mut recent, budget, report);
        }
        self.misere_search(start, &mut recent, Spend::new(budget), report)
    }

    /// What the table knows of `position`, by its key or its canonical key (`alias`,
    /// made here).
    fn misere_known(&self, position: &Whole) -> (Option<bool>, Option<Box<[Key]>>) {
        let table = || self.misere.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&won) = table().get(&position.key[..]) {
            return (Some(won), None);
        }
        let alias = self.misere_alias(position);
        let won = alias.as_ref().and_then(|a| table().get(a).copied());
        (won, alias)
    }

    /// `misere_wins` on `threads` threads: they take the options of `start` one at
    /// a time, each searching its own, all sharing the table; an option that is lost
    /// ends the search for all. The table's bound holds to within the stacks of the
    /// threads but one (each thread counts the table and its own stack).
    fn misere_wins_on(
        &self,
        threads: usize,
        start: Whole,
        size: u32,
        recent: &mut Recent,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        if let (Some(won), _) = self.misere_known(&start) {
            return Ok(won);
        }
        let root = MisereFrame::new(self, start, recent);
        if root.options.is_empty() {
            return Ok(true); // no move at all wins misère play
        }
        // Each position once (a board's symmetric moves lead to one), the known ones
        // not at all: one known loss settles it.
        let mut options: Vec<&Whole> = Vec::new();
        {
            let known = self.misere.lock().unwrap_or_else(PoisonError::into_inner);
            let mut seen = std::collections::HashSet::new();
            for option in &root.options {
                match known.get(&option.key[..]) {
                    Some(false) => return Ok(true),
                    Some(true) => {}
                    None if seen.insert(&option.key) => options.push(option),
                    None => {}
                }
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (next, lost) = (AtomicUsize::new(0), AtomicBool::new(false));
        let failure = Mutex::new(None);
        let work = |asks: bool| -> Result<()> {
            let mut recent = Recent::new(size)?;
            let report: &(dyn Fn(usize) + Sync) = if asks { report } else { &|_| {} };
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= options.len() || stop.load(Ordering::SeqCst) {
                    return Ok(());
                }
                let spend = Spend::new(budget).watching(stop.clone(), asks);
                if !self.misere_search(options[i].clone(), &mut recent, spend, report)? {
                    lost.store(true, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        };
        let fail = |error| {
            // An error after the search ended is that thread's abandoning it; the
            // user's Ctrl-C is never lost to another thread's error.
            if !stop.swap(true, Ordering::SeqCst) || error == Error::Interrupted {
                *failure.lock().unwrap_or_else(PoisonError::into_inner) = Some(error);
            }
        };
        std::thread::scope(|scope| {
            let caller = std::thread::current();
            let handles: Vec<_> = (1..threads)
                .map(|_| {
                    let (work, fail, caller) = (&work, &fail, caller.clone());
                    scope.spawn(move || {
                        if let Err(error) = work(false) {
                            fail(error);
                        }
                        caller.unpark();
                    })
                })
                .collect();
            if let Err(error) = work(true) {
                fail(error);
            }
            // Ctrl-C while the others finish the options in their hands.
            if interrupt::wait_until(|| handles.iter().all(|h| h.is_finished())) {
                fail(Error::Interrupted);
            }
            for handle in handles {
                if let Err(panic) = handle.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
        if let Some(error) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(error);
        }
        let won = lost.load(Ordering::SeqCst);
        let mut spend = Spend::new(budget);
        let mut known = self.misere.lock().unwrap_or_else(PoisonError::into_inner);
        self.misere_room(&mut spend, &mut known, root.key.len())?;
        remember(&mut known, root.key, won, report);
        Ok(won)
    }

    /// `misere_wins` of `start` on this thread, its account `spend`.
    fn misere_search(
        &self,
        start: Whole,
        recent: &mut Recent,
        mut spend: Spend,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        let (known, alias) = self.misere_known(&start);
        if let Some(won) = known {
            return Ok(won);
        }
        let table = || self.misere.lock().unwrap_or_else(PoisonError::into_inner);
        let mut first = MisereFrame::new(self, start, recent);
        first.alias = alias;
        spend.count(&table(), self.misere_key_heap(first.key.len()));
        self.misere_charge(&mut spend, first.size(), first.key.len())?;
        let mut stack = vec![first];
        // What the search of the option `next` of the frame on top found: the frame
        // learns it from the search, not from the table (which may have dropped it).
        let mut answer = None;
        while let Some(frame) = stack.last_mut() {
            spend.tick()?;
            // Every option looked up before any is searched: one known loss settles it.
            let mut settled = frame.options.is_empty() || answer == Some(false);
            if answer.take() == Some(true) {
                frame.next += 1;
            }
            let mut unknown = None;
            if !settled {
                let known = table();
                for (i, option) in frame.options.iter().enumerate().skip(frame.next) {
                    match known.get(&option.key[..]) {
                        Some(false) => {
                            settled = true;
                            break;
                        }
                        Some(true) if unknown.is_none() => frame.next = i + 1,
                        Some(true) => {}
                        None => unknown = unknown.or(Some(i)),
                    }
                }
            }
            let won = if settled {
                // No move at all wins misère play; a move to a loss wins.
                Some(true)
            } else if let Some(i) = unknown {
                // Looked up again by its canonical key before it is searched.
                let option = &frame.options[i];
                let alias = self.misere_alias(option);
                let aliased = alias.as_ref().and_then(|a| table().get(a).copied());
                if let Some(won) = aliased {
                    let mut known = table();
                    self.misere_room(&mut spend, &mut known, option.key.len())?;
                    remember(&mut known, Box::from(&option.key[..]), won, report);
                    answer = Some(won);
                    continue;
                }
                let mut child = MisereFrame::new(self, option.clone(), recent);
                child.alias = alias;
                self.misere_charge(&mut spend, child.size(), child.key.len())?;
                alloc::grow(&mut stack)?;
                stack.push(child);
                None
            } else {
                Some(false)
            };
            if let Some(won) = won {
                let frame = stack.pop().expect("the loop holds a frame");
                spend.release(self.bytes(frame.size()));
                let mut known = table();
                self.misere_room(&mut spend, &mut known, frame.key.len())?;
                remember(&mut known, frame.key, won, report);
                if let Some(alias) = frame.alias {
                    let typical = self.misere_key_heap(alias.len());
                    self.misere_room(&mut spend, &mut known, alias.len())?;
                    let heap = alias
                        .iter()
                        .map(|k| std::mem::size_of::<Key>() + heap_of(k));
                    spend.keep(heap.sum::<usize>().saturating_sub(typical))?;
                    remember(&mut known, alias, won, report);
                }
                if stack.is_empty() {
                    return Ok(won);
                }
                answer = Some(won);
            }
        }
        unreachable!("the last frame returns")
    }

    /// Room in the misère table (`known`) for one more position, of `parts`
    /// components, within `spend`'s bound (made past it with `spend.evicts()`:
    /// `misere_evict`).
    fn misere_room(&self, spend: &mut Spend, known: &mut Misere, parts: usize) -> Result<()> {
        let key_heap = self.misere_key_heap(parts);
        match spend.room(known, key_heap) {
            Err(Error::MemoryBound { .. }) if spend.evicts() => {
                self.misere_evict(spend, known, parts)?;
                spend.room(known, key_heap)
            }
            done => done,
        }
    }

    /// `spend` charged with a frame of `sets` sets of vertices, the position's key of
    /// `parts` components (room made past the bound with `spend.evicts()`).
    fn misere_charge(&self, spend: &mut Spend, sets: usize, parts: usize) -> Result<()> {
        let bytes = self.bytes(sets);
        match spend.charge(bytes) {
            Err(Error::MemoryBound { .. }) if spend.evicts() => {
                spend.release(bytes);
                let mut known = self.misere.lock().unwrap_or_else(PoisonError::into_inner);
                self.misere_evict(spend, &mut known, parts)?;
                spend.charge(bytes)
            }
            done => done,
        }
    }

    /// Drop from the misère table (`known`) the positions of the fewest vertices
    /// (`values::evict`, each key counted as holding the heap of the most components
    /// a key there or the next, of `parts`, has: as a search counts it), and count it
    /// anew in `spend`. In the middle of a search: no frame relies on the table for
    /// what it learned (`answer`), so any entry may go.
    fn misere_evict(&self, spend: &mut Spend, known: &mut Misere, parts: usize) -> Result<()> {
        let most = known.keys().map(|k| k.len()).max().unwrap_or(0).max(parts);
        let key_heap = self.misere_key_heap(most);
        let bound = spend.bound();
        spend.making_room();
        values::evict(known, bound, key_heap, |key| vertices_of(key), spend.poll())?;
        spend.count(known, key_heap);
        Ok(())
    }

    /// A whole position's key by its components' canonical keys (general graphs;
    /// boards' keys are canonical already).
    fn misere_alias(&self, position: &Whole) -> Option<Box<[Key]>> {
        if self.canon != Canon::Labels {
            return None;
        }
        let mut keys: Vec<Key> = position
            .parts
            .iter()
            .map(|p| canon::canonical(p, &self.adjacency))
            .collect();
        keys.sort_unstable();
        Some(keys.into_boxed_slice())
    }

    /// The bytes a component's key holds on the heap (none while it fits in place).
    fn key_heap(&self) -> usize {
        let words = match self.canon {
            // Keys by vertex set, and canonical keys of components of up to 64
            // vertices; larger ones are counted as they are entered (`heap_of`).
            Canon::Labels => {
                (1 + self.vertices.div_ceil(64)).max(canon::key_words(self.vertices.min(64)))
            }
            Canon::Grid { rows, cols } => 1 + (rows * cols).div_ceil(64),
        };
        if words > 3 {
            words * 8
        } else {
            0
        }
    }

    /// The bytes a whole position's key of `parts` components holds on the heap.
    fn misere_key_heap(&self, parts: usize) -> usize {
        parts * (std::mem::size_of::<Key>() + self.key_heap())
    }

    /// The bytes of `sets` sets of vertices.
    fn bytes(&self, sets: usize) -> usize {
        sets.saturating_mul(self.vertices.div_ceil(64) * 8)
    }

    /// A whole position for misère search: the components of `set` and their keys.
    fn position(&self, set: &[u64], recent: &mut Recent) -> Whole {
        let mut keyed = Keyed::new();
        self.keyed(set, recent, &mut keyed);
        Whole::of(keyed)
    }

    /// The components of `set`, each with its key in misère play: a component that is
    /// * (every move ends it) keyed as * whatever its shape.
    fn keyed(&self, set: &[u64], recent: &mut Recent, out: &mut Keyed) {
        for part in self.components(set) {
            let key = recent.key(&part, || {
                if self.is_star(&part) {
                    SmallVec::from_elem(STAR, 1)
                } else {
                    self.key(&part)
                }
            });
            out.push((part, key));
        }
    }

    /// Whether `part` (a component with a move) is *: each of its moves leaves no
    /// move in it. Asked of small components only, where a check is cheap.
    fn is_star(&self, part: &[u64]) -> bool {
        members(part).nth(STAR_MOST).is_none()
            && self.options(part).iter().all(|o| !self.has_move(o))
    }

    /// Whether `set` has a move left.
    fn has_move(&self, set: &[u64]) -> bool {
        match self.moves {
            Moves::Neighbourhood => !is_empty(set),
            Moves::Edge => {
                members(set).any(|v| self.adjacency[v].iter().zip(set).any(|(a, s)| a & s != 0))
            }
        }
    }
}

/// The bytes `key` holds on the heap (none while it fits in place).
fn heap_of(key: &Key) -> usize {
    if key.spilled() {
        key.capacity() * 8
    } else {
        0
    }
}

/// The components of at most this many vertices are checked for being *.
const STAR_MOST: usize = 8;

/// The misère key of a component that is * (keys of components hold two words or
/// more).
const STAR: u64 = u64::MAX - 1;

/// Enter what a search learned (in room made by `Spend::room`), reporting the
/// table's size now and then.
fn remember<K: std::hash::Hash + Eq, V>(
    table: &mut FxHashMap<K, V>,
    key: K,
    value: V,
    report: &(dyn Fn(usize) + Sync),
) {
    table.insert(key, value);
    if table.len().is_multiple_of(REPORT_EVERY) {
        report(table.len());
    }
}

/// The vertices of a whole position by its key (a board's keys hold a few more bits:
/// a measure that grows with the position, for eviction).
fn vertices_of(key: &[Key]) -> u32 {
    key.iter().flatten().map(|w| w.count_ones()).sum()
}

fn has(set: &[u64], v: usize) -> bool {
    set[v / 64] >> (v % 64) & 1 == 1
}

/// The least value not seen.
fn mex(seen: &[u64]) -> u32 {
    let mut m = 0;
    for &word in seen {
        if word != u64::MAX {
            return m + word.trailing_ones();
        }
        m += 64;
    }
    m
}

/// The bits a component's key sets: a measure that grows with the component.
fn key_bits(key: &Key) -> u32 {
    key.iter().map(|w| w.count_ones()).sum()
}

/// A general graph searched by components, each keyed as `Deletion::key` says.
struct Graph<'a>(&'a Deletion);

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
        self.0.key_heap()
    }

    fn heap_of(&self, key: &Key) -> usize {
        heap_of(key)
    }

    fn alias(&mut self, part: &Bits) -> Option<Key> {
        Some(canon::canonical(part, &self.0.adjacency))
    }
}

/// A component whose options are being valued.
struct Frame {
    key: Key,
    options: Vec<Bits>,
    next: usize,
    seen: Vec<u64>,
}

impl Frame {
    fn new(engine: &Deletion, component: Bits, key: Key) -> Self {
        Frame {
            key,
            options: engine.options(&component),
            next: 0,
            seen: Vec::new(),
        }
    }

    fn see(&mut self, value: u32) {
        let word = value as usize / 64;
        if self.seen.len() <= word {
            self.seen.resize(word + 1, 0);
        }
        self.seen[word] |= 1 << (value % 64);
    }
}

/// A whole position: its components (as vertex sets) and its key, the components'
/// keys sorted, `parts[i]` the component keyed `key[i]`.
#[derive(Clone)]
struct Whole {
    parts: SmallVec<[Bits; 2]>,
    key: SmallVec<[Key; 2]>,
}

/// The misère keys of components met lately, by vertex set: the options of a
/// position's options overlap, so a component recurs far more often than it is new.
struct Recent(Vec<(Bits, Key)>);

impl Recent {
    /// Room for the components of a search from a position of `vertices`: a power of
    /// two, from 2**4 for the smallest (searched by the thousand by `winning_moves`
    /// and the tests) to 2**14 from 28 vertices.
    fn new(vertices: u32) -> Result<Self> {
        let slots = 1 << (vertices / 2).clamp(4, 14);
        Ok(Recent(alloc::filled(slots, (Bits::new(), Key::new()))?))
    }

    /// The key of `part`, made by `make` unless remembered.
    fn key(&mut self, part: &Bits, make: impl FnOnce() -> Key) -> Key {
        let hash = part
            .iter()
            .fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let slots = self.0.len();
        let slot = &mut self.0[(hash >> 50) as usize % slots];
        if slot.0 != *part {
            *slot = (part.clone(), make());
        }
        slot.1.clone()
    }
}

/// Components with their keys (on the stack while they are few).
type Keyed = SmallVec<[(Bits, Key); 4]>;

impl Whole {
    /// The position of the keyed components `keyed`, with the components that are *
    /// cancelled in pairs. In misère play too, G + * + * has the outcome of G:
    /// whoever wins G answers a move in one * by a move in the other, and if G ends
    /// first with both left, the loser of G must take one and the winner the other.
    fn of(mut keyed: Keyed) -> Self {
        let is_star = |key: &Key| key[..] == [STAR];
        let stars = keyed.iter().filter(|(_, key)| is_star(key)).count();
        let mut dropped = stars - stars % 2;
        keyed.retain(|(_, key)| {
            let drop = dropped > 0 && is_star(key);
            dropped -= usize::from(drop);
            !drop
        });
        keyed.sort_unstable_by(|a, b| a.1.cmp(&b.1));
        let (parts, key) = keyed.into_iter().unzip();
        Whole { parts, key }
    }
}

/// A whole position whose options are being looked at in misère play.
struct MisereFrame {
    key: Box<[Key]>,
    /// The key by canonical labels, when the position has one.
    alias: Option<Box<[Key]>>,
    options: Vec<Whole>,
    next: usize,
}

impl MisereFrame {
    /// How many sets of vertices its options hold.
    fn size(&self) -> usize {
        self.options.iter().map(|o| o.parts.len()).sum()
    }

    fn new(engine: &Deletion, position: Whole, recent: &mut Recent) -> Self {
        let mut options = Vec::new();
        let keyed = position.parts.iter().zip(position.key.iter());
        for (i, (part, key)) in keyed.enumerate() {
            // A copy of the part before it has the same options.
            if i > 0 && position.key[i - 1] == *key {
                continue;
            }
            for option in engine.options(part) {
                // Only the part moved in is split and keyed anew.
                let mut parts = Keyed::new();
                engine.keyed(&option, recent, &mut parts);
                let others = position.parts.iter().zip(position.key.iter());
                for (j, (other, key)) in others.enumerate() {
                    if j != i {
                        parts.push((other.clone(), key.clone()));
                    }
                }
                options.push(Whole::of(parts));
            }
        }
        MisereFrame {
            key: Box::from(&position.key[..]),
            alias: None,
            options,
            next: 0,
        }
    }
}

/// The canonical form of a set of cells of a board `cols` wide: of the 8 images under
/// the square's symmetries, each moved to the corner, the least as (height, width,
/// row-major bits of its bounding box).
fn grid_key(component: &[u64], cols: usize) -> Key {
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

/// A game played by deleting vertices: its name and what a move deletes.
pub trait Rule: Debug + Send + Sync + 'static {
    const FAMILY: &'static str;
    const MOVES: Moves;
}

/// A family of vertex-deletion games on one graph; a position is the set of vertices
/// left.
#[derive(Debug)]
pub struct OnGraph<R: Rule> {
    engine: Deletion,
    tag: Option<Tag>,
    memo: Memo<Bits>,
    rule: PhantomData<R>,
}

impl<R: Rule> OnGraph<R> {
    /// The game on a graph of `vertices` vertices and `edges`.
    pub fn new(vertices: usize, edges: &[(u64, u64)]) -> Result<Self> {
        Ok(Self::of(Deletion::new(
            vertices,
            edges,
            R::MOVES,
            Canon::Labels,
        )?))
    }

    /// The game on the cells of a `rows` x `cols` board (vertex `r * cols + c`).
    pub fn board(rows: usize, cols: usize) -> Result<Self> {
        Ok(Self::of(Deletion::board(rows, cols, R::MOVES)?))
    }

    fn of(engine: Deletion) -> Self {
        OnGraph {
            engine,
            tag: None,
            memo: Memo::default(),
            rule: PhantomData,
        }
    }

    /// The game with what the caller keeps with it (the vertices' names).
    pub fn tagged(self, tag: Tag) -> Self {
        OnGraph {
            tag: Some(tag),
            ..self
        }
    }

    pub fn tag(&self) -> Option<&Tag> {
        self.tag.as_ref()
    }

    pub fn engine(&self) -> &Deletion {
        &self.engine
    }
}

impl<R: Rule> Game for OnGraph<R> {
    type Position = Bits;
    const FAMILY: &'static str = R::FAMILY;

    fn options(&self, p: &Bits, out: &mut Vec<Bits>) -> Result<()> {
        out.extend(self.engine.options(p));
        Ok(())
    }

    fn value(&self, p: &Bits, limits: &Limits) -> Result<Option<Value>> {
        let value = self.engine.value(p, budget(limits), limits.report)?;
        Ok(Some(Value::Finite(value)))
    }

    fn normal(&self, p: &Bits, limits: &Limits) -> Result<Option<Outcome>> {
        let lost = self.engine.value_is(p, 0, budget(limits), limits.report)?;
        Ok(Some(if lost { Outcome::P } else { Outcome::N }))
    }

    fn misere(&self, p: &Bits, limits: &Limits) -> Result<Option<Outcome>> {
        let wins = self.engine.misere_wins(p, budget(limits), limits.report)?;
        Ok(Some(if wins { Outcome::N } else { Outcome::P }))
    }

    fn loopy(&self, _p: &Bits, _limits: &Limits) -> Result<Option<bool>> {
        Ok(Some(false)) // every move deletes a vertex
    }

    fn numbers(&self, p: &Bits) -> Option<Vec<u64>> {
        Some(members(p).map(|v| v as u64).collect())
    }

    fn memo(&self) -> &Memo<Bits> {
        &self.memo
    }

    fn same_game(&self, other: &Self) -> bool {
        let (a, b) = (&self.engine, &other.engine);
        (a.vertices, a.canon, &a.adjacency) == (b.vertices, b.canon, &b.adjacency)
    }

    fn hash_game(&self, state: &mut dyn Hasher) {
        state.write_usize(self.engine.vertices);
        state.write_usize(self.engine.edges().len());
    }
}

fn budget(limits: &Limits) -> Budget {
    Budget {
        max_memory: limits.max_memory,
        evict: limits.evict,
        ..Budget::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each step that paused after making room in place doubles the steps after it;
    /// past what an instant can hold, the step has no end.
    #[test]
    fn steps_grow_after_making_room() {
        let step = Duration::from_secs(10);
        let budget = Budget {
            until: Some(Instant::now() + step),
            ..Budget::default()
        };
        for (doublings, times) in [(0, 1), (1, 2), (3, 8)] {
            let went = Evictions {
                doublings,
                ..Evictions::default()
            };
            let until = went.stretch(budget).until.unwrap();
            let left = until.saturating_duration_since(Instant::now());
            // Within a second of the step asked for: the clock moved between the calls.
            assert!(left <= step * times && left + Duration::from_secs(1) > step * times);
        }
        let went = Evictions {
            doublings: 40,
            ..Evictions::default()
        };
        assert_eq!(went.stretch(budget).until, None);
        assert_eq!(went.stretch(Budget::default()).until, None);
        // A step of no time grows from a millisecond.
        let now = Budget {
            until: Some(Instant::now()),
            ..Budget::default()
        };
        let went = Evictions {
            doublings: 10,
            ..Evictions::default()
        };
        let left = went.stretch(now).until.unwrap() - Instant::now();
        assert!(left > Duration::from_millis(512) && left <= Duration::from_millis(1024));
    }

    /// A search stopped at the bound is asked again after room is made, until
    /// `STALLS` rounds keep no more; not one that had made room in place (its stack
    /// does not fit the bound: asking again cannot help).
    #[test]
    fn asked_again_at_the_bound_unless_room_was_made_in_place() {
        let engine = Deletion::board(2, 3, Moves::Edge).unwrap();
        let budget = Budget {
            max_memory: 1 << 10,
            evict: true,
            ..Budget::default()
        };
        for (made_room, rounds) in [(false, STALLS), (true, 1)] {
            let mut asked = 0;
            let found: Result<()> = engine.evicting(budget, |_| {
                asked += 1;
                Err(Error::MemoryBound {
                    needed: 2 << 10,
                    bound: 1 << 10,
                    entries: 0,
                    made_room,
                })
            });
            assert!(matches!(found, Err(Error::MemoryBound { .. })));
            assert_eq!(asked, rounds, "made room in place: {made_room}");
        }
    }
}
