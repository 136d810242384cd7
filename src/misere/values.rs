//! Misère Grundy values of single heaps (CGSuite's `MisereNimValue`) by one search
//! over every multiset of heaps below them, each numbered by its rank instead of
//! hashed: one byte per position, and a child found by arithmetic.
//!
//! A position is a multiset of heaps that have a move. Give a heap of `n` the weight
//! `n + c`, with `c` as large as the code allows while no move raises a position's
//! total weight (Kayles: 1, since taking one pin may leave two heaps; a game that
//! never splits: as large as the largest heap, so that positions are single heaps). The positions
//! of total weight at most `N` (the weight of the largest heap asked) then hold every
//! position those heaps reach. Sorted by weight, largest first, and ordered
//! lexicographically (a prefix before its extensions), they are numbered by their
//! rank, which the counts of multisets of bounded weight give part by part; a move
//! replaces a part by smaller ones, so every child comes before its parent, and one
//! pass in rank order labels every position after its options. A heap's misère value
//! is the mex of its options' (1 for no move): an option, a sum of heaps, is valued
//! as a game of its own, so the values of every multiset are needed.
use std::sync::Arc;

use crate::alloc;
use crate::code::TakeAndBreak;
use crate::error::{Error, Result};
use crate::interrupt::Poll;

/// Positions searched by default: a GiB of values at most (a byte each while every
/// value is below 256). Kayles to heap 99 needs p(100), about 1.9 * 10**8.
pub const DEFAULT_MAX_POSITIONS: u64 = 1 << 30;

/// Misère values of heaps `0 .. count`, refused past `max_positions` positions;
/// `done(k)` once the first `k` heaps' values are known.
pub fn of_heaps(
    rule: &Arc<TakeAndBreak>,
    count: u64,
    max_positions: u64,
    done: &mut dyn FnMut(usize),
) -> Result<Vec<u32>> {
    let Some(top) = count.checked_sub(1) else {
        return Ok(Vec::new());
    };
    if count > max_positions {
        // Each heap is a position of the search: refused before any work.
        return Err(too_large(top, max_positions));
    }
    let space = Space::new(rule, top, max_positions)?;
    let out = match space.label::<u8>(done)? {
        Some(values) => space.heap_values(&values, count)?,
        // A value past 255: again with room for any.
        None => {
            let values = space.label::<u32>(done)?.expect("u32 holds any mex");
            space.heap_values(&values, count)?
        }
    };
    done(count as usize);
    Ok(out)
}

fn too_large(top: u64, limit: u64) -> Error {
    Error::MultisetSearchTooLarge {
        start: vec![top],
        limit,
    }
}

/// The multisets searched: parts are indices into `weights`, kept largest first.
struct Space {
    /// The weight of each heap size that has a move, increasing.
    weights: Vec<u64>,
    /// `n + offset` is the weight of a heap of `n`.
    offset: u64,
    /// The largest total weight.
    total: u64,
    /// `counts[r * stride + j]`: multisets of the first `j` weights of total `<= r`.
    counts: Vec<u64>,
    stride: usize,
    /// Each part's options, in `options[starts[p]..starts[p + 1]]`.
    options: Vec<Leaves>,
    starts: Vec<usize>,
}

/// The position being labelled, and what `Space::summarise` found of it.
#[derive(Clone, Copy)]
struct Here<'a> {
    parts: &'a [u32],
    prefix: &'a [u64],
    room: &'a [u64],
    tails: &'a [u64],
    ends: &'a [usize],
}

/// What one option of a part leaves: parts, largest first, and the weight it drops.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Leaves {
    parts: [u32; 3],
    len: u8,
    drop: u64,
}

/// Drops below this have their tails' ranks summed once per position (Kayles drops
/// 0 to 3), so that a child's rank costs only the parts its own parts pass.
const SMALL_DROPS: usize = 4;

impl Space {
    fn new(rule: &TakeAndBreak, top: u64, max_positions: u64) -> Result<Self> {
        let mut poll = Poll::default();
        let mut weights = Vec::new();
        for n in 1..=top {
            poll.tick()?;
            if rule.has_move(n) {
                alloc::grow(&mut weights)?;
                weights.push(n);
            }
        }
        let offset = largest_offset(rule, &weights, &mut poll)?.min(top);
        weights.iter_mut().for_each(|w| *w += offset);
        let total = top + offset;
        let size = positions(&weights, total)?;
        if size > max_positions {
            return Err(too_large(top, max_positions));
        }
        let stride = weights.len() + 1;
        // Rows past `total` serve only tails summed for drops no child has: they
        // may wrap, and are never read for a real rank.
        let rows = usize::try_from(total + 1 + SMALL_DROPS as u64)
            .map_err(|_| too_large(top, max_positions))?;
        let mut counts = alloc::filled(rows.saturating_mul(stride), 0u64)?;
        for r in 0..rows {
            counts[r * stride] = 1;
            for (j, &w) in weights.iter().enumerate() {
                let with = match (r as u64).checked_sub(w) {
                    Some(rest) => counts[rest as usize * stride + j + 1],
                    None => 0,
                };
                counts[r * stride + j + 1] = counts[r * stride + j].wrapping_add(with);
            }
        }
        let mut space = Space {
            weights,
            offset,
            total,
            counts,
            stride,
            options: Vec::new(),
            starts: vec![0],
        };
        space.list_options(rule)?;
        Ok(space)
    }

    /// Each part's options, each distinct multiset once.
    fn list_options(&mut self, rule: &TakeAndBreak) -> Result<()> {
        let mut poll = Poll::default();
        for p in 0..self.weights.len() {
            let n = self.weights[p] - self.offset;
            let first = self.options.len();
            for option in rule.options(n) {
                poll.tick()?;
                let single = (!option.into.is_split()).then(|| n - option.take);
                let mut leaves = Leaves {
                    parts: [0; 3],
                    len: 0,
                    drop: self.weights[p],
                };
                for size in single
                    .into_iter()
                    .chain(option.into.sizes().iter().copied())
                {
                    if let Some(part) = self.part_of(size) {
                        leaves.parts[leaves.len as usize] = part;
                        leaves.len += 1;
                        leaves.drop -= self.weights[part as usize];
                    }
                }
                leaves.parts[..leaves.len as usize].sort_unstable_by(|a, b| b.cmp(a));
                alloc::grow(&mut self.options)?;
                self.options.push(leaves);
            }
            self.options[first..].sort_unstable();
            let mut kept = first;
            for i in first..self.options.len() {
                if i == first || self.options[i] != self.options[kept - 1] {
                    self.options[kept] = self.options[i];
                    kept += 1;
                }
            }
            self.options.truncate(kept);
            alloc::grow(&mut self.starts)?;
            self.starts.push(kept);
        }
        Ok(())
    }

    /// The part of a heap of `n`, if it has a move.
    fn part_of(&self, n: u64) -> Option<u32> {
        let w = n.checked_add(self.offset)?;
        self.weights.binary_search(&w).ok().map(|p| p as u32)
    }

    /// Multisets of parts below `part` of total weight at most `room`.
    #[inline]
    fn below(&self, room: u64, part: u32) -> u64 {
        self.counts[room as usize * self.stride + part as usize]
    }

    /// The rank of the single heap `part`.
    fn single(&self, part: u32) -> usize {
        self.below(self.total, part) as usize
    }

    /// The values of heaps `0 .. count` among every position's.
    fn heap_values<V: Value>(&self, values: &[V], count: u64) -> Result<Vec<u32>> {
        let mut out = alloc::with_capacity(count as usize)?;
        out.extend((0..count).map(|n| match self.part_of(n) {
            Some(part) => values[self.single(part)].to_u32(),
            None => 1,
        }));
        Ok(out)
    }

    /// Every position's misère value, by rank; `None` if one does not fit in `V`.
    fn label<V: Value>(&self, done: &mut dyn FnMut(usize)) -> Result<Option<Vec<V>>> {
        let size = self.below(self.total, self.weights.len() as u32) as usize;
        let mut values: Vec<V> = alloc::with_capacity(size)?;
        // The current position's parts, and for each part the rank of the positions
        // that share the parts before it (`prefix`) and the weight left (`room`).
        let mut parts: Vec<u32> = Vec::new();
        let mut prefix: Vec<u64> = vec![0];
        let mut room: Vec<u64> = vec![self.total];
        let mut seen = Seen::default();
        let (mut tails, mut ends) = (Vec::new(), Vec::new());
        let mut poll = Poll::default();
        loop {
            poll.tick()?;
            let value = if parts.is_empty() {
                1
            } else {
                seen.clear();
                self.summarise(&parts, &room, &mut tails, &mut ends)?;
                let here = Here {
                    parts: &parts,
                    prefix: &prefix,
                    room: &room,
                    tails: &tails,
                    ends: &ends,
                };
                self.options_seen(&here, &values, &mut seen);
                seen.mex()
            };
            let Some(value) = V::from_u32(value) else {
                return Ok(None);
            };
            debug_assert_eq!(prefix[parts.len()], values.len() as u64);
            values.push(value);
            if let [part] = parts[..] {
                done((self.weights[part as usize] - self.offset + 1) as usize);
            }
            if !self.advance(&mut parts, &mut prefix, &mut room)? {
                return Ok(Some(values));
            }
        }
    }

    /// For this position: `tails[d * (len + 1) + i]`, what the parts from `i` on add
    /// to a rank when the parts before them weigh `d` less; `ends[v]`, how many parts
    /// are at least part `v`.
    fn summarise(
        &self,
        parts: &[u32],
        room: &[u64],
        tails: &mut Vec<u64>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        let len = parts.len();
        tails.clear();
        alloc::grow_by(tails, SMALL_DROPS * (len + 1))?;
        tails.resize(SMALL_DROPS * (len + 1), 0);
        for d in 0..SMALL_DROPS {
            let row = &mut tails[d * (len + 1)..(d + 1) * (len + 1)];
            for i in (0..len).rev() {
                row[i] = row[i + 1].wrapping_add(self.below(room[i] + d as u64, parts[i]));
            }
        }
        // Options leave parts below the largest part only.
        let largest = parts.first().map_or(0, |&p| p as usize);
        ends.clear();
        alloc::grow_by(ends, largest)?;
        let mut end = len;
        for v in 0..largest as u32 {
            while end > 0 && parts[end - 1] < v {
                end -= 1;
            }
            ends.push(end);
        }
        Ok(())
    }

    /// Mark the values of every option of the position `here`.
    #[inline]
    fn options_seen<V: Value>(&self, here: &Here<'_>, values: &[V], seen: &mut Seen) {
        let parts = here.parts;
        for k in 0..parts.len() {
            // Equal parts have the same options: the last of a run stands for all.
            if k + 1 < parts.len() && parts[k + 1] == parts[k] {
                continue;
            }
            let p = parts[k] as usize;
            for leaves in &self.options[self.starts[p]..self.starts[p + 1]] {
                let rank = self.rank_after(here, k, leaves);
                seen.mark(values[rank as usize].to_u32());
            }
        }
    }

    /// The rank of the position after part `k` of `here` leaves `leaves`. The parts
    /// before `k` add what they added; each part after it adds what it added with
    /// the room before it grown by the weight of part `k` less that of the parts left
    /// so far, which sort in among them.
    #[inline(always)]
    fn rank_after(&self, here: &Here<'_>, k: usize, leaves: &Leaves) -> u64 {
        let Here {
            parts,
            prefix,
            room,
            tails,
            ends,
        } = *here;
        let mut rank = prefix[k];
        let mut grown = self.weights[parts[k] as usize];
        let mut next = k + 1;
        for &part in &leaves.parts[..leaves.len as usize] {
            let end = ends[part as usize];
            for i in next..end {
                rank = rank.wrapping_add(self.below(room[i] + grown, parts[i]));
            }
            rank = rank.wrapping_add(self.below(room[end] + grown, part));
            grown -= self.weights[part as usize];
            next = end;
        }
        if (leaves.drop as usize) < SMALL_DROPS {
            rank.wrapping_add(tails[leaves.drop as usize * (parts.len() + 1) + next])
        } else {
            for i in next..parts.len() {
                rank = rank.wrapping_add(self.below(room[i] + grown, parts[i]));
            }
            rank
        }
    }

    /// Step `parts` to the next position in rank order; false after the last.
    fn advance(
        &self,
        parts: &mut Vec<u32>,
        prefix: &mut Vec<u64>,
        room: &mut Vec<u64>,
    ) -> Result<bool> {
        // An extension by the smallest part comes next, if it fits.
        let left = room[parts.len()];
        if !self.weights.is_empty() && self.weights[0] <= left {
            self.push(parts, prefix, room, 0)?;
            return Ok(true);
        }
        // Otherwise the last part that can grow (no larger than the part before it)
        // grows by one step, and the parts after it go.
        while let Some(part) = parts.pop() {
            prefix.pop();
            room.pop();
            let next = part + 1;
            let bound = parts.last().map_or(u32::MAX, |&p| p);
            let left = room[parts.len()];
            if next <= bound
                && (next as usize) < self.weights.len()
                && self.weights[next as usize] <= left
            {
                self.push(parts, prefix, room, next)?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn push(
        &self,
        parts: &mut Vec<u32>,
        prefix: &mut Vec<u64>,
        room: &mut Vec<u64>,
        part: u32,
    ) -> Result<()> {
        let k = parts.len();
        let (base, left) = (prefix[k], room[k]);
        alloc::grow(parts)?;
        alloc::grow(prefix)?;
        alloc::grow(room)?;
        parts.push(part);
        prefix.push(base + self.below(left, part));
        room.push(left - self.weights[part as usize]);
        Ok(())
    }
}

/// The largest `c` for which, with weights `n + c`, no move of the `heaps` raises the
/// total weight: a move leaving `k >= 2` heaps (with moves) of total `s` from a heap
/// of `n` asks `(k - 1) c <= n - s`. Without such moves any `c` will do.
fn largest_offset(rule: &TakeAndBreak, heaps: &[u64], poll: &mut Poll) -> Result<u64> {
    let mut c = u64::MAX;
    for &n in heaps {
        for option in rule.options(n) {
            poll.tick()?;
            let single = (!option.into.is_split()).then(|| n - option.take);
            let (mut k, mut s) = (0, 0);
            for m in single
                .into_iter()
                .chain(option.into.sizes().iter().copied())
            {
                if rule.has_move(m) {
                    k += 1;
                    s += m;
                }
            }
            if k >= 2 {
                c = c.min((n - s) / (k - 1));
            }
        }
    }
    Ok(c)
}

/// How many multisets of `weights` have total at most `total`, by adding one weight
/// at a time and stopping once the count passes `u64::MAX` (it only grows).
fn positions(weights: &[u64], total: u64) -> Result<u64> {
    let rows = usize::try_from(total + 1).map_err(|_| alloc::too_large::<u64>(usize::MAX))?;
    // ways[r]: multisets of the weights so far of total exactly r.
    let mut ways = alloc::filled(rows, 0u64)?;
    ways[0] = 1;
    let mut poll = Poll::default();
    for &w in weights {
        poll.tick()?;
        for r in w as usize..rows {
            ways[r] = ways[r].saturating_add(ways[r - w as usize]);
        }
        if ways.iter().fold(0u64, |s, &x| s.saturating_add(x)) == u64::MAX {
            return Ok(u64::MAX);
        }
    }
    Ok(ways.iter().fold(0u64, |s, &x| s.saturating_add(x)))
}

/// Which values the options of one position reach (values past 255 in a sorted list).
#[derive(Default)]
struct Seen {
    small: [u64; 4],
    large: Vec<u32>,
}

impl Seen {
    fn clear(&mut self) {
        self.small = [0; 4];
        self.large.clear();
    }

    #[inline]
    fn mark(&mut self, v: u32) {
        if v < 256 {
            self.small[(v / 64) as usize] |= 1 << (v % 64);
        } else {
            self.large.push(v);
        }
    }

    fn mex(&mut self) -> u32 {
        for (i, word) in self.small.iter().enumerate() {
            if *word != u64::MAX {
                return i as u32 * 64 + word.trailing_ones();
            }
        }
        self.large.sort_unstable();
        self.large.dedup();
        let mut mex = 256;
        for &v in &self.large {
            if v != mex {
                break;
            }
            mex += 1;
        }
        mex
    }
}

/// How a value is stored: a byte while values stay small.
trait Value: Copy {
    fn from_u32(v: u32) -> Option<Self>;
    fn to_u32(self) -> u32;
}

impl Value for u8 {
    fn from_u32(v: u32) -> Option<Self> {
        u8::try_from(v).ok()
    }
    fn to_u32(self) -> u32 {
        u32::from(self)
    }
}

impl Value for u32 {
    fn from_u32(v: u32) -> Option<Self> {
        Some(v)
    }
    fn to_u32(self) -> u32 {
        self
    }
}
