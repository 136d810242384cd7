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
        rules.check_position(start)?;
        let take = rules.take_for(0);
        let mut solution = MultisetSolution {
            rules: rules.clone(),
            index: HashMap::new(),
            keys: Vec::new(),
            is_p: Vec::new(),
            order: Vec::new(),
        };
        let too_large = || Error::MultisetSearchTooLarge {
            start: start.to_vec(),
            limit: max_positions,
        };
        let mut resolved: Vec<bool> = Vec::new();
        let root = solution.insert(canonical(start.iter().copied(), take), &mut resolved);
        let mut stack = vec![Frame::new(root)];
        let mut poll = Poll::default();
        while let Some(frame) = stack.last_mut() {
            poll.tick()?;
            let heaps = Arc::clone(&solution.keys[frame.id as usize]);
            let Some((heap, option)) = next_option(&heaps, take, frame) else {
                let p = if frame.has_move {
                    !frame.reaches_p
                } else {
                    !rules.is_misere()
                };
                solution.is_p[frame.id as usize] = p;
                resolved[frame.id as usize] = true;
                solution.order.push(frame.id);
                stack.pop();
                continue;
            };
            frame.has_move = true;
            let child = canonical(after(&heaps, heap, &option), take);
            match solution.index.get(&child[..]) {
                Some(&id) if resolved[id as usize] => {
                    frame.reaches_p |= solution.is_p[id as usize];
                    frame.option += 1;
                }
                Some(_) => unreachable!("moves never return to a position being labelled"),
                None => {
                    if solution.keys.len() as u64 >= max_positions {
                        return Err(too_large());
                    }
                    let id = solution.insert(child, &mut resolved);
                    stack.push(Frame::new(id));
                }
            }
        }
        Ok(solution)
    }

    fn insert(&mut self, key: Vec<u64>, resolved: &mut Vec<bool>) -> u32 {
        let id = self.keys.len() as u32;
        let key: Arc<[u64]> = key.into();
        self.index.insert(Arc::clone(&key), id);
        self.keys.push(key);
        self.is_p.push(false);
        resolved.push(false);
        id
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

/// The position's key: its heaps that have a move, sorted.
fn canonical(heaps: impl IntoIterator<Item = u64>, take: Take<'_>) -> Vec<u64> {
    let mut key: Vec<u64> = heaps.into_iter().filter(|&n| take.count(n) > 0).collect();
    key.sort_unstable();
    key
}
