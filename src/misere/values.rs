//! Misère Grundy values of single heaps (CGSuite's `MisereNimValue`) by one search
//! over every multiset of heaps below them, numbered by rank (`ranks`). A heap's
//! misère value is the mex of its options' (1 for no move), and an option, a sum of
//! heaps, is valued as a game of its own, so every multiset below is labelled. A
//! move replaces a part by smaller ones, so every option comes before its position
//! in rank order, and one pass in that order labels them all. (Consecutive positions
//! have options near one another there, which keeps the pass in cache; an order by
//! levels, for every core at once, cost 2.5 times the work.)
use std::sync::Arc;

use super::ranks::{too_large, Space, Summary, Walk};
use crate::alloc;
use crate::code::TakeAndBreak;
use crate::error::Result;
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
    let out = match label::<u8>(&space, done)? {
        Some(values) => heap_values(&space, &values, count)?,
        // A value past 255: again with room for any.
        None => {
            let values = label::<u32>(&space, done)?.expect("u32 holds any mex");
            heap_values(&space, &values, count)?
        }
    };
    done(count as usize);
    Ok(out)
}

/// The values of heaps `0 .. count` among every position's.
fn heap_values<V: Value>(space: &Space, values: &[V], count: u64) -> Result<Vec<u32>> {
    let mut out = alloc::with_capacity(count as usize)?;
    out.extend((0..count).map(|n| match space.part_of(n) {
        Some(part) => values[space.single(part)].to_u32(),
        None => 1,
    }));
    Ok(out)
}

/// Every position's misère value, by rank; `None` if one does not fit in `V`.
fn label<V: Value>(space: &Space, done: &mut dyn FnMut(usize)) -> Result<Option<Vec<V>>> {
    let mut values: Vec<V> = alloc::with_capacity(space.len() as usize)?;
    let mut walk = Walk::new(space);
    let mut summary = Summary::default();
    let mut seen = Seen::default();
    let mut poll = Poll::default();
    loop {
        poll.tick()?;
        let value = if walk.parts.is_empty() {
            1
        } else {
            space.summarise(&walk, &mut summary)?;
            seen.clear();
            let parts = &walk.parts;
            for k in 0..parts.len() {
                // Equal parts have the same options: the last of a run stands for all.
                if k + 1 < parts.len() && parts[k + 1] == parts[k] {
                    continue;
                }
                for leaves in space.options(parts[k]) {
                    let rank = space.rank_after(&walk, &summary, k, leaves);
                    seen.mark(values[rank as usize].to_u32());
                }
            }
            seen.mex()
        };
        let Some(value) = V::from_u32(value) else {
            return Ok(None);
        };
        debug_assert_eq!(walk.rank(), values.len() as u64);
        values.push(value);
        if let [part] = walk.parts[..] {
            done(space.heap(part) as usize + 1);
        }
        if !walk.advance(space)? {
            return Ok(Some(values));
        }
    }
}

/// Which values the options of one position reach (values past 255 in a list).
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
