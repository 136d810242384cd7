//! Exact search over the positions reachable from a start when moves split heaps.
//!
//! A split changes the number of heaps, so positions do not fill a box: they are
//! multisets of heap sizes (order never matters in a sum of games, and a heap with no
//! move never matters either). Every position reachable from the start is labelled
//! by Ferguson's rule (no move: P in normal play, N in misère; else N exactly when
//! some move reaches P), children before parents, by a depth-first walk with an
//! explicit stack. Moves lower the total or, taking nothing, raise the heap count
//! at the same total, so the walk has no cycles.
use std::collections::HashMap;
use std::sync::Arc;

use crate::alloc;
use crate::error::{Error, Result};
use crate::interrupt::Poll;
use crate::position::{HeapMove, Move};
use crate::rules::{Rules, Take};
use crate::search::{advance, checked_box_size};
use crate::theory::Outcome;

/// Outcomes of every position reachable from a start, under one rule for all heaps.
#[derive(Debug, Clone)]
pub struct MultisetSolution {
    rules: Rules,
    index: HashMap<Arc<[u64]>, u32>,
    /// Positions by id, and whether each is P.
    keys: Vec<Arc<[u64]>>,
    is_p: Vec<bool>,
    /// Ids with every child before its parents.
    order: Vec<u32>,
}

/// One position being labelled: the next option to look at, and what is known.
struct Frame {
    id: u32,
    heap: usize,
    option: u64,
    has_move: bool,
    reaches_p: bool,
}

impl MultisetSolution {
    /// Label every position reachable from `start`; refuse to hold more than
    /// `max_positions`. The rules must give every heap the same rule.
    pub fn solve(start: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        Self::solve_all([start.to_vec()], rules, max_positions)
    }

    /// Label every position reachable from any of `starts` (which need not reach one
    /// another), as `solve` does.
    pub fn solve_all(
        starts: impl IntoIterator<Item = Vec<u64>>,
        rules: &Rules,
        max_positions: u64,
    ) -> Result<Self> {
        let mut solution = MultisetSolution {
            rules: rules.clone(),
            index: HashMap::new(),
            keys: Vec::new(),
            is_p: Vec::new(),
            order: Vec::new(),
        };
        let mut resolved: Vec<bool> = Vec::new();
        for start in starts {
            rules.check_position(&start)?;
            let key = canonical(start.iter().copied(), rules.take_for(0));
            if solution.index.contains_key(&key[..]) {
                continue;
            }
            let too_large = || Error::MultisetSearchTooLarge {
                start: start.clone(),
                limit: max_positions,
            };
            if solution.keys.len() as u64 >= max_positions {
                return Err(too_large());
            }
            let root = solution.insert(key, &mut resolved)?;
            solution
                .label_from(root, &mut resolved, max_positions)
                .map_err(|e| e.unwrap_or_else(too_large))?;
        }
        Ok(solution)
    }

    /// Label `root` and every unlabelled position below it, children first. `Err(None)`
    /// when that would hold more than `max_positions` positions.
    fn label_from(
        &mut self,
        root: u32,
        resolved: &mut Vec<bool>,
        max_positions: u64,
    ) -> std::result::Result<(), Option<Error>> {
        // A handle on the rules (cheap: they are shared) while positions are added.
        let rules = self.rules.clone();
        let (take, misere) = (rules.take_for(0), rules.is_misere());
        let mut stack = vec![Frame::new(root)];
        let mut poll = Poll::default();
        while let Some(frame) = stack.last_mut() {
            poll.tick().map_err(Some)?;
            let heaps = Arc::clone(&self.keys[frame.id as usize]);
            let Some((heap, option)) = next_option(&heaps, take, frame) else {
                let p = if frame.has_move {
                    !frame.reaches_p
                } else {
                    !misere
                };
                self.is_p[frame.id as usize] = p;
                resolved[frame.id as usize] = true;
                self.order.push(frame.id);
                stack.pop();
                continue;
            };
            frame.has_move = true;
            let child = canonical(after(&heaps, heap, &option), take);
            match self.index.get(&child[..]) {
                Some(&id) if resolved[id as usize] => {
                    frame.reaches_p |= self.is_p[id as usize];
                    frame.option += 1;
                }
                Some(_) => unreachable!("moves never return to a position being labelled"),
                None => {
                    if self.keys.len() as u64 >= max_positions {
                        return Err(None);
                    }
                    let id = self.insert(child, resolved).map_err(Some)?;
                    alloc::grow(&mut stack).map_err(Some)?;
                    stack.push(Frame::new(id));
                }
            }
        }
        Ok(())
    }

    /// Add a position. Every table grows fallibly: the search's size follows the input.
    fn insert(&mut self, key: Vec<u64>, resolved: &mut Vec<bool>) -> Result<u32> {
        let id = self.keys.len() as u32;
        self.index
            .try_reserve(1)
            .map_err(|_| alloc::too_large::<(Arc<[u64]>, u32)>(self.keys.len() + 1))?;
        alloc::grow(&mut self.keys)?;
        alloc::grow(&mut self.is_p)?;
        alloc::grow(&mut self.order)?;
        alloc::grow(resolved)?;
        let key: Arc<[u64]> = key.into();
        self.index.insert(Arc::clone(&key), id);
        self.keys.push(key);
        self.is_p.push(false);
        resolved.push(false);
        Ok(id)
    }

    /// How many positions were labelled.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether `heaps` is one of the positions searched.
    pub fn contains(&self, heaps: &[u64]) -> bool {
        let key = canonical(heaps.iter().copied(), self.rules.take_for(0));
        self.index.contains_key(&key[..])
    }

    fn id(&self, heaps: impl IntoIterator<Item = u64>) -> u32 {
        let key = canonical(heaps, self.rules.take_for(0));
        *self
            .index
            .get(&key[..])
            .expect("the position is reachable from the start")
    }

    /// P or N of a position reachable from the start.
    pub fn outcome(&self, heaps: &[u64]) -> Outcome {
        if self.is_p[self.id(heaps.iter().copied()) as usize] {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// Every move from `heaps` (in its own heap order) to a P-position.
    pub fn winning_moves(&self, heaps: &[u64]) -> Vec<Move> {
        let take = self.rules.take_for(0);
        let mut moves = Vec::new();
        for (heap, &n) in heaps.iter().enumerate() {
            for option in take.options(n) {
                if self.is_p[self.id(after(heaps, heap, &option)) as usize] {
                    moves.push(option.on(heap));
                }
            }
        }
        moves
    }

    /// The remoteness of every labelled position, by id (see `BoxSolution::remoteness`).
    pub fn remoteness(&self) -> Result<Vec<u32>> {
        let take = self.rules.take_for(0);
        let mut remoteness = alloc::filled(self.keys.len(), 0u32)?;
        let mut poll = Poll::default();
        for &id in &self.order {
            poll.tick()?;
            let heaps = &self.keys[id as usize];
            let winning = !self.is_p[id as usize];
            let mut best: Option<u32> = None;
            for (heap, &n) in heaps.iter().enumerate() {
                for option in take.options(n) {
                    let child = self.id(after(heaps, heap, &option)) as usize;
                    if winning && !self.is_p[child] {
                        continue;
                    }
                    let r = remoteness[child];
                    best = Some(match best {
                        None => r,
                        Some(b) if winning => b.min(r),
                        Some(b) => b.max(r),
                    });
                }
            }
            remoteness[id as usize] = best.map_or(0, |b| b + 1);
        }
        Ok(remoteness)
    }

    /// Visit every labelled position, children before parents, with the ids of its
    /// options (each once): for values that follow from the options' values.
    pub fn children_first(&self, mut visit: impl FnMut(u32, &[u32])) -> Result<()> {
        let take = self.rules.take_for(0);
        let mut poll = Poll::default();
        let mut children = Vec::new();
        for &id in &self.order {
            poll.tick()?;
            let heaps = &self.keys[id as usize];
            children.clear();
            for (heap, &n) in heaps.iter().enumerate() {
                if heap > 0 && heaps[heap - 1] == n {
                    continue;
                }
                children.extend(take.options(n).map(|o| self.id(after(heaps, heap, &o))));
            }
            children.sort_unstable();
            children.dedup();
            visit(id, &children);
        }
        Ok(())
    }

    /// The id of a labelled position (as `children_first` numbers them).
    pub fn id_of(&self, heaps: &[u64]) -> u32 {
        self.id(heaps.iter().copied())
    }

    /// The remoteness of one position, given the table from `remoteness`.
    pub fn remoteness_of(&self, table: &[u32], heaps: &[u64]) -> u32 {
        table[self.id(heaps.iter().copied()) as usize]
    }
}

impl Frame {
    fn new(id: u32) -> Self {
        Frame {
            id,
            heap: 0,
            option: 0,
            has_move: false,
            reaches_p: false,
        }
    }
}

/// The frame's next option to look at, skipping heaps equal to the one before (the
/// heaps are sorted: equal heaps have the same options).
fn next_option(heaps: &[u64], take: Take<'_>, frame: &mut Frame) -> Option<(usize, HeapMove)> {
    while frame.heap < heaps.len() {
        let n = heaps[frame.heap];
        let repeat = frame.heap > 0 && heaps[frame.heap - 1] == n;
        if !repeat && frame.option < take.count(n) {
            return Some((frame.heap, take.nth(n, frame.option)));
        }
        frame.heap += 1;
        frame.option = 0;
    }
    None
}

/// The heaps after `option` is played on heap number `heap` (in any order).
fn after<'a>(heaps: &'a [u64], heap: usize, option: &HeapMove) -> impl Iterator<Item = u64> + 'a {
    let parts = option.into.sizes().to_vec();
    let single = (!option.into.is_split()).then(|| heaps[heap] - option.take);
    let others = heaps
        .iter()
        .enumerate()
        .filter(move |&(i, _)| i != heap)
        .map(|(_, &n)| n);
    others.chain(single).chain(parts)
}

/// Outcomes, and with `remoteness` remoteness, of every position of the box
/// `0..=bounds[i]` (in lexicographic order, last heap fastest) under rules that split
/// heaps: one search from every position of the box, refused past `max_positions`
/// positions of the box or positions searched.
pub fn solve_box(
    bounds: &[u64],
    rules: &Rules,
    max_positions: u64,
    remoteness: bool,
) -> Result<(Vec<bool>, Option<Vec<u32>>)> {
    let positions = box_positions(bounds, rules, max_positions)?;
    let solution = MultisetSolution::solve_all(positions.clone(), rules, max_positions)?;
    let distances = remoteness.then(|| solution.remoteness()).transpose()?;
    let mut is_p = alloc::with_capacity(positions.len())?;
    let mut found = match distances {
        Some(_) => Some(alloc::with_capacity(positions.len())?),
        None => None,
    };
    for heaps in positions {
        is_p.push(solution.outcome(&heaps) == Outcome::P);
        if let (Some(found), Some(table)) = (&mut found, &distances) {
            found.push(solution.remoteness_of(table, &heaps));
        }
    }
    Ok((is_p, found))
}

/// Every position of the box `0..=bounds[i]`, in lexicographic order (last heap
/// fastest); refused past `max_positions`.
fn box_positions<'a>(
    bounds: &'a [u64],
    rules: &Rules,
    max_positions: u64,
) -> Result<impl ExactSizeIterator<Item = Vec<u64>> + Clone + 'a> {
    let size = checked_box_size(bounds, rules, max_positions)?;
    let mut heaps = vec![0u64; bounds.len()];
    Ok((0..size).map(move |_| {
        let current = heaps.clone();
        advance(&mut heaps, bounds);
        current
    }))
}

/// The position's key: its heaps that have a move, sorted.
fn canonical(heaps: impl IntoIterator<Item = u64>, take: Take<'_>) -> Vec<u64> {
    let mut key: Vec<u64> = heaps.into_iter().filter(|&n| take.count(n) > 0).collect();
    key.sort_unstable();
    key
}
