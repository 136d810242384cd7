//! Exact search over the positions reachable from a start when moves split heaps.
//!
//! A split changes the number of heaps, so positions do not fill a box: they are
//! multisets of heap sizes (order never matters in a sum of games, and a heap with no
//! move never matters either). Every position reachable from the start is labelled
//! by Ferguson's rule (no move: P in normal play, N in misère; else N exactly when
//! some move reaches P), children before parents, by a depth-first walk with an
//! explicit stack. Moves lower the total or, taking nothing, raise the heap count
//! at the same total, so the walk has no cycles.
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::{advance, checked_box_size};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::base::outcome::Outcome;
use crate::heap::position::Move;
use crate::heap::rules::Rules;
use crate::heap::{HeapMove, HeapRule};

/// The most moves one search weighs: about 40 s of work (release build, 3.4 million
/// moves a second), where `max_positions` alone would allow hours when positions have
/// many options (a split of a heap of n has about n / 2 ways).
pub const MAX_MULTISET_MOVES: u64 = 1 << 27;

/// Why a walk stopped early.
enum Stop {
    /// More positions than `max_positions`.
    Positions,
    /// More moves than `MAX_MULTISET_MOVES`.
    Moves,
    Failed(Error),
}

impl From<Error> for Stop {
    fn from(err: Error) -> Self {
        Stop::Failed(err)
    }
}

/// Outcomes of every position reachable from a start, under one rule for all heaps.
#[derive(Debug, Clone)]
pub struct MultisetSolution {
    rules: Rules,
    index: FxHashMap<Arc<[u64]>, u32>,
    /// Positions by id, and whether each is P.
    keys: Vec<Arc<[u64]>>,
    is_p: Vec<bool>,
    /// Ids with every child before its parents.
    order: Vec<u32>,
}

/// One position being labelled: its children (keys `first..end` of the walk's
/// `Children`), the next to look at, and what is known.
struct Frame {
    id: u32,
    first: usize,
    next: usize,
    end: usize,
    reaches_p: bool,
}

/// The child keys of the positions on the walk's stack, one flat list: a frame's
/// children are pushed when it starts and dropped when it ends.
#[derive(Default)]
struct Children {
    heaps: Vec<u64>,
    /// Where each key ends in `heaps`.
    ends: Vec<usize>,
}

impl Children {
    fn key(&self, i: usize) -> &[u64] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.heaps[start..self.ends[i]]
    }

    fn truncate(&mut self, len: usize) {
        self.ends.truncate(len);
        self.heaps.truncate(self.ends.last().copied().unwrap_or(0));
    }
}

impl MultisetSolution {
    /// Label every position reachable from `start`; refuse to hold more than
    /// `max_positions`. The rules must give every heap the same rule.
    pub fn solve(start: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        Self::solve_each([start.to_vec()], start, rules, max_positions, &mut |_| {})
    }

    /// Label every position reachable from any of `starts` (which need not reach one
    /// another), as `solve` does; refusals name the largest heap among them.
    pub fn solve_all(
        starts: impl IntoIterator<Item = Vec<u64>>,
        rules: &Rules,
        max_positions: u64,
    ) -> Result<Self> {
        let starts: Vec<Vec<u64>> = starts.into_iter().collect();
        let top = starts.iter().flatten().copied().max().unwrap_or(0);
        Self::solve_each(starts, &[top], rules, max_positions, &mut |_| {})
    }

    /// Label every position reachable from any of `starts`, as `solve_all` does,
    /// calling `done(k)` once the first `k` starts are labelled (for a progress bar:
    /// later starts usually cost more). `asked` is what the caller asked about (a
    /// start, or the bounds of a box of starts): refusals name it, and a search that
    /// its heaps show to be too large (`Take::search_floor`) is refused before any
    /// work.
    pub fn solve_each(
        starts: impl IntoIterator<Item = Vec<u64>>,
        asked: &[u64],
        rules: &Rules,
        max_positions: u64,
        done: &mut dyn FnMut(usize),
    ) -> Result<Self> {
        rules.check_position(asked)?;
        let too_large = || Error::MultisetSearchTooLarge {
            start: asked.to_vec(),
            limit: max_positions,
            misere: rules.is_misere(),
        };
        let too_many_moves = || Error::MultisetTooManyMoves {
            start: asked.to_vec(),
            limit: MAX_MULTISET_MOVES,
            misere: rules.is_misere(),
        };
        let take = rules.take_for(0);
        for &n in asked {
            let (positions, moves) = take.search_floor(n);
            if positions > max_positions {
                return Err(too_large());
            }
            if moves > MAX_MULTISET_MOVES {
                return Err(too_many_moves());
            }
        }
        let mut solution = MultisetSolution {
            rules: rules.clone(),
            index: FxHashMap::default(),
            keys: Vec::new(),
            is_p: Vec::new(),
            order: Vec::new(),
        };
        let mut resolved: Vec<bool> = Vec::new();
        let mut moves_left = MAX_MULTISET_MOVES;
        for (k, start) in starts.into_iter().enumerate() {
            rules.check_position(&start)?;
            let key = canonical(start.iter().copied(), take);
            if solution.index.contains_key(&key[..]) {
                done(k + 1);
                continue;
            }
            if solution.keys.len() as u64 >= max_positions {
                return Err(too_large());
            }
            let root = solution.insert(key, &mut resolved)?;
            solution
                .label_from(root, &mut resolved, max_positions, &mut moves_left)
                .map_err(|stop| match stop {
                    Stop::Positions => too_large(),
                    Stop::Moves => too_many_moves(),
                    Stop::Failed(err) => err,
                })?;
            done(k + 1);
        }
        Ok(solution)
    }

    /// Label `root` and every unlabelled position below it, children first, weighing
    /// at most `moves_left` moves (counted down) and holding at most `max_positions`.
    fn label_from(
        &mut self,
        root: u32,
        resolved: &mut Vec<bool>,
        max_positions: u64,
        moves_left: &mut u64,
    ) -> std::result::Result<(), Stop> {
        // A handle on the rules (cheap: they are shared) while positions are added.
        let rules = self.rules.clone();
        let (take, misere) = (rules.take_for(0), rules.is_misere());
        let mut children = Children::default();
        let mut stack = vec![self.frame(root, take, &mut children, moves_left)?];
        let mut poll = Poll::default();
        while let Some(frame) = stack.last_mut() {
            poll.tick()?;
            if frame.next == frame.end {
                // No move: P in normal play, N in misère.
                let p = if frame.end > frame.first {
                    !frame.reaches_p
                } else {
                    !misere
                };
                self.is_p[frame.id as usize] = p;
                resolved[frame.id as usize] = true;
                self.order.push(frame.id);
                children.truncate(frame.first);
                stack.pop();
                continue;
            }
            let key = children.key(frame.next);
            match self.index.get(key) {
                Some(&id) if resolved[id as usize] => {
                    frame.reaches_p |= self.is_p[id as usize];
                    frame.next += 1;
                }
                Some(_) => unreachable!("moves never return to a position being labelled"),
                None => {
                    if self.keys.len() as u64 >= max_positions {
                        return Err(Stop::Positions);
                    }
                    let mut owned = alloc::with_capacity(key.len())?;
                    owned.extend_from_slice(key);
                    let id = self.insert(owned, resolved)?;
                    let frame = self.frame(id, take, &mut children, moves_left)?;
                    alloc::grow(&mut stack)?;
                    stack.push(frame);
                }
            }
        }
        Ok(())
    }

    /// A frame for position `id`, its children pushed on `children`.
    fn frame(
        &self,
        id: u32,
        take: &HeapRule,
        children: &mut Children,
        moves_left: &mut u64,
    ) -> std::result::Result<Frame, Stop> {
        let heaps = &self.keys[id as usize];
        // Weighed before they are listed: one heap may have very many options.
        let moves = distinct(heaps).fold(0u64, |sum, n| sum.saturating_add(take.count(n)));
        *moves_left = moves_left.checked_sub(moves).ok_or(Stop::Moves)?;
        let first = children.ends.len();
        for_each_child(heaps, take, |key| {
            alloc::grow_by(&mut children.heaps, key.len())?;
            alloc::grow(&mut children.ends)?;
            children.heaps.extend_from_slice(key);
            children.ends.push(children.heaps.len());
            Ok(())
        })?;
        Ok(Frame {
            id,
            first,
            next: first,
            end: children.ends.len(),
            reaches_p: false,
        })
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

    /// Every labelled position: its heaps that have a move, sorted.
    pub fn positions(&self) -> impl Iterator<Item = &[u64]> {
        self.keys.iter().map(|key| &key[..])
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
            for_each_child(heaps, take, |key| {
                let child = self.index[key] as usize;
                if winning && !self.is_p[child] {
                    return Ok(());
                }
                let r = remoteness[child];
                best = Some(match best {
                    None => r,
                    Some(b) if winning => b.min(r),
                    Some(b) => b.max(r),
                });
                Ok(())
            })?;
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
        // Which position last listed each child: options reaching it again are skipped.
        let mut listed_by = alloc::filled(self.keys.len(), u32::MAX)?;
        for &id in &self.order {
            poll.tick()?;
            let heaps = &self.keys[id as usize];
            children.clear();
            for_each_child(heaps, take, |key| {
                let child = self.index[key];
                if std::mem::replace(&mut listed_by[child as usize], id) != id {
                    alloc::grow(&mut children)?;
                    children.push(child);
                }
                Ok(())
            })?;
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

/// The distinct sizes of sorted heaps (equal heaps have the same options).
fn distinct(heaps: &[u64]) -> impl Iterator<Item = u64> + '_ {
    heaps
        .iter()
        .enumerate()
        .filter(|&(i, &n)| i == 0 || heaps[i - 1] != n)
        .map(|(_, &n)| n)
}

/// Call `visit` with the key of the position after each option of `heaps` (a key:
/// sorted, heaps without moves left out), equal heaps' options once. Keys are built
/// in one buffer from the sorted parent, with no allocation per move.
fn for_each_child(
    heaps: &[u64],
    take: &HeapRule,
    mut visit: impl FnMut(&[u64]) -> Result<()>,
) -> Result<()> {
    // Room for the parent's heaps and the parts of any option (at most three).
    let mut key: Vec<u64> = alloc::with_capacity(heaps.len() + 3)?;
    for (i, &n) in heaps.iter().enumerate() {
        if i > 0 && heaps[i - 1] == n {
            continue;
        }
        for option in take.options(n) {
            key.clear();
            key.extend_from_slice(&heaps[..i]);
            key.extend_from_slice(&heaps[i + 1..]);
            let single = (!option.into.is_split()).then(|| n - option.take);
            for part in single
                .into_iter()
                .chain(option.into.sizes().iter().copied())
            {
                if take.has_move(part) {
                    let at = key.partition_point(|&h| h < part);
                    key.insert(at, part);
                }
            }
            visit(&key)?;
        }
    }
    Ok(())
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
    let solution =
        MultisetSolution::solve_each(positions.clone(), bounds, rules, max_positions, &mut |_| {})?;
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
fn canonical(heaps: impl IntoIterator<Item = u64>, take: &HeapRule) -> Vec<u64> {
    let mut key: Vec<u64> = heaps.into_iter().filter(|&n| take.has_move(n)).collect();
    key.sort_unstable();
    key
}
