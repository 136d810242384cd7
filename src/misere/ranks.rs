//! Multisets of heaps numbered by rank instead of hashed, for a search over every
//! position below a heap (`values`): a position's number is found by arithmetic, and
//! its label takes a byte.
//!
//! A position is a multiset of heaps that have a move. Give a heap of `n` the weight
//! `n + c`, with `c` as large as the code allows while no move raises a position's
//! total weight (Kayles: 1, since taking one pin may leave two heaps; a game that
//! never splits: as large as the largest heap, so that positions are single heaps).
//! The positions of total weight at most `N` (the weight of the largest heap asked)
//! then hold every position those heaps reach. Sorted by weight, largest first, and
//! ordered lexicographically (a prefix before its extensions), they are numbered by
//! their rank, which the counts of multisets of bounded weight give part by part.
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::heap::code::TakeAndBreak;

/// The multisets searched: parts are indices into `weights`, kept largest first.
pub struct Space {
    /// The weight of each heap size that has a move, increasing.
    pub weights: Vec<u64>,
    /// `n + offset` is the weight of a heap of `n`.
    pub offset: u64,
    /// The largest total weight.
    pub total: u64,
    /// `counts[r * stride + j]`: multisets of the first `j` weights of total `<= r`.
    counts: Vec<u64>,
    stride: usize,
    /// Each part's options, in `options[starts[p]..starts[p + 1]]`.
    options: Vec<Leaves>,
    starts: Vec<usize>,
}

/// What one option of a part leaves: parts, largest first, and the weight it drops.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Leaves {
    parts: [u32; 3],
    len: u8,
    drop: u64,
}

/// Drops below this have their tails' ranks summed once per position (Kayles drops
/// 0 to 3), so that a child's rank costs only the parts its own parts pass.
const SMALL_DROPS: usize = 4;

/// The heaps whose options bound the offset before every heap's are looked through.
const SMALL_HEAPS: u64 = 64;

/// A position being built part by part: its parts (largest first) and, for each
/// part, the rank shared by the positions that begin with the parts before it
/// (`prefix`) and the weight left (`room`); one more of each for the whole.
pub struct Walk {
    pub parts: Vec<u32>,
    pub prefix: Vec<u64>,
    pub room: Vec<u64>,
}

impl Walk {
    /// The empty position.
    pub fn new(space: &Space) -> Self {
        Walk {
            parts: Vec::new(),
            prefix: vec![0],
            room: vec![space.total],
        }
    }

    /// Go to the position of the single part `part`.
    pub fn start_at(&mut self, space: &Space, part: u32) -> Result<()> {
        while self.pop().is_some() {}
        self.push(space, part)
    }

    /// The position's rank.
    pub fn rank(&self) -> u64 {
        self.prefix[self.parts.len()]
    }

    fn push(&mut self, space: &Space, part: u32) -> Result<()> {
        let k = self.parts.len();
        let (base, left) = (self.prefix[k], self.room[k]);
        alloc::grow(&mut self.parts)?;
        alloc::grow(&mut self.prefix)?;
        alloc::grow(&mut self.room)?;
        self.parts.push(part);
        self.prefix.push(base + space.below(left, part));
        self.room.push(left - space.weights[part as usize]);
        Ok(())
    }

    fn pop(&mut self) -> Option<u32> {
        let part = self.parts.pop()?;
        self.prefix.pop();
        self.room.pop();
        Some(part)
    }

    /// Step to the next position in rank order; false after the last.
    pub fn advance(&mut self, space: &Space) -> Result<bool> {
        // An extension by the smallest part comes next, if it fits.
        if space
            .weights
            .first()
            .is_some_and(|&w| w <= self.room[self.parts.len()])
        {
            self.push(space, 0)?;
            return Ok(true);
        }
        // Otherwise the last part that can grow (no larger than the part before it)
        // grows by one step, and the parts after it go.
        while let Some(part) = self.pop() {
            let next = part + 1;
            let bound = self.parts.last().map_or(u32::MAX, |&p| p);
            let fits = space
                .weights
                .get(next as usize)
                .is_some_and(|&w| w <= self.room[self.parts.len()]);
            if next <= bound && fits {
                self.push(space, next)?;
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// What `Space::summarise` finds of a position, for the ranks of its options.
#[derive(Default)]
pub struct Summary {
    /// `tails[d * (len + 1) + i]`: what the parts from `i` on add to a rank when the
    /// parts before them weigh `d` less.
    tails: Vec<u64>,
    /// `ends[v]`: how many parts are at least part `v`.
    ends: Vec<usize>,
}

impl Space {
    /// The positions below heap `top`, refused past `max_positions` of them; `None`
    /// when the table of counts that numbers them would be larger than that (many
    /// heaps, few positions: a game that never splits, say).
    pub fn new(rule: &TakeAndBreak, top: u64, max_positions: u64) -> Result<Option<Self>> {
        let mut poll = Poll::default();
        // The offset the smallest heaps allow is at least the true one (a minimum
        // over fewer heaps), so it gives no more positions: a bound to refuse by
        // before the options of every heap up to `top` are looked through.
        let mut small = Vec::new();
        for n in (1..=top.min(SMALL_HEAPS)).filter(|&n| rule.has_move(n)) {
            alloc::grow(&mut small)?;
            small.push(n);
        }
        let most = largest_offset(rule, &small, &mut poll)?.min(top);
        check_pairs(rule, top, most, max_positions, &mut poll)?;
        let mut weights = Vec::new();
        for n in 1..=top {
            poll.tick()?;
            if rule.has_move(n) {
                alloc::grow(&mut weights)?;
                weights.push(n);
            }
        }
        // Counting costs a pass over the totals per heap: only where the table of
        // counts (as large) fits too.
        let table = |offset: u64| (top + offset + 1).saturating_mul(weights.len() as u64 + 1);
        if table(most) <= max_positions {
            let at_least: Vec<u64> = weights.iter().map(|&n| n + most).collect();
            if positions(&at_least, top + most, max_positions)? > max_positions {
                return Err(too_large(top, max_positions));
            }
        }
        let offset = largest_offset(rule, &weights, &mut poll)?.min(top);
        if table(offset) > max_positions {
            return Ok(None);
        }
        weights.iter_mut().for_each(|w| *w += offset);
        let total = top + offset;
        if positions(&weights, total, max_positions)? > max_positions {
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
        Ok(Some(space))
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
    pub fn part_of(&self, n: u64) -> Option<u32> {
        let w = n.checked_add(self.offset)?;
        self.weights.binary_search(&w).ok().map(|p| p as u32)
    }

    /// Multisets of parts below `part` of total weight at most `room`.
    #[inline]
    pub fn below(&self, room: u64, part: u32) -> u64 {
        self.counts[room as usize * self.stride + part as usize]
    }

    /// The rank of the single heap `part`.
    pub fn single(&self, part: u32) -> usize {
        self.below(self.total, part) as usize
    }

    /// How many positions there are.
    pub fn len(&self) -> u64 {
        self.below(self.total, self.weights.len() as u32)
    }

    /// The heap a part stands for.
    pub fn heap(&self, part: u32) -> u64 {
        self.weights[part as usize] - self.offset
    }

    /// The options of a part, each distinct multiset once.
    pub fn options(&self, part: u32) -> &[Leaves] {
        let p = part as usize;
        &self.options[self.starts[p]..self.starts[p + 1]]
    }

    /// Summarise the position `walk` for `rank_after`.
    pub fn summarise(&self, walk: &Walk, summary: &mut Summary) -> Result<()> {
        let (parts, room) = (&walk.parts[..], &walk.room[..]);
        let Summary { tails, ends } = summary;
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

    /// The rank of the position after part `k` of `walk` leaves `leaves`. The parts
    /// before `k` add what they added; each part after it adds what it added with
    /// the room before it grown by the weight of part `k` less that of the parts left
    /// so far, which sort in among them.
    #[inline(always)]
    pub fn rank_after(&self, walk: &Walk, summary: &Summary, k: usize, leaves: &Leaves) -> u64 {
        let (parts, prefix, room) = (&walk.parts[..], &walk.prefix[..], &walk.room[..]);
        let (tails, ends) = (&summary.tails[..], &summary.ends[..]);
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
/// at a time; once the count passes `limit` (it only grows), some count past it.
fn positions(weights: &[u64], total: u64, limit: u64) -> Result<u64> {
    let rows = usize::try_from(total + 1).map_err(|_| alloc::too_large::<u64>(usize::MAX))?;
    // ways[r]: multisets of the weights so far of total exactly r.
    let mut ways = alloc::filled(rows, 0u64)?;
    ways[0] = 1;
    let mut poll = Poll::default();
    let count = |ways: &[u64]| ways.iter().fold(0u64, |s, &x| s.saturating_add(x));
    for &w in weights {
        poll.tick()?;
        for r in w as usize..rows {
            ways[r] = ways[r].saturating_add(ways[r - w as usize]);
        }
        let so_far = count(&ways);
        if so_far > limit {
            return Ok(so_far);
        }
    }
    Ok(count(&ways))
}

/// Refuse when the pairs of heaps alone pass `max_positions`: two heaps of at most
/// `(top - offset) / 2` make a position for any offset up to `offset`. Stops
/// counting as soon as they do, so a heap far too large is refused at once.
fn check_pairs(
    rule: &TakeAndBreak,
    top: u64,
    offset: u64,
    max_positions: u64,
    poll: &mut Poll,
) -> Result<()> {
    let mut heaps = 0u64;
    for n in 1..=(top - offset) / 2 {
        poll.tick()?;
        if rule.has_move(n) {
            heaps += 1;
            if heaps.saturating_mul(heaps + 1) / 2 > max_positions {
                return Err(too_large(top, max_positions));
            }
        }
    }
    Ok(())
}

pub fn too_large(top: u64, limit: u64) -> Error {
    Error::MultisetSearchTooLarge {
        start: vec![top],
        limit,
        misere: true,
    }
}
