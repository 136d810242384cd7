//! A board for learning agents: positions of a fixed number of heaps, none larger than
//! its bound, with actions numbered as OpenSpiel's `nim` numbers them
//! (`(take - 1) * heaps + heap`, taking 1 to the largest bound) and the exact label of
//! every action: whether it is legal, and whether it wins.
use smallvec::SmallVec;

use super::caps::CapBytes;
use super::env_game::{Applied, EnvGame};
use super::start::Start;
use crate::base::alloc;
use crate::base::error::{Error, FamilyError, Result};
use crate::base::outcome::Outcome;
use crate::heap::rules::Rules;
use crate::heap::{limit, HeapMove};
use crate::solve::solver::Solver;
use crate::solve::theory;

/// The most actions a board may number: every position's labels are this many bytes.
pub const MAX_ACTIONS: usize = 1 << 16;

/// Why a board cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("a board needs at least one heap")]
    NoHeaps,
    #[error(
        "{heaps} heaps of up to {largest} number {actions} actions, past the limit of \
         {MAX_ACTIONS}: every position's labels hold one entry per action"
    )]
    TooManyActions {
        heaps: usize,
        largest: u64,
        actions: u128,
    },
    #[error(
        "the rules split heaps ({code}): OpenSpiel's action ids name a heap and a take, not \
         the heaps a split leaves"
    )]
    Splits { code: String },
    #[error("position {position} has {got} heaps; the board has {heaps}")]
    Width {
        position: usize,
        got: usize,
        heaps: usize,
    },
    #[error("heap {heap} of position {position} is {size}, past the board's bound of {bound}")]
    OverBound {
        position: usize,
        heap: usize,
        size: u64,
        bound: u64,
    },
    #[error("{what} has {got} entries; {wanted} were expected")]
    Length {
        what: &'static str,
        got: usize,
        wanted: usize,
    },
}

impl FamilyError for BoardError {}

/// How a board tells P-positions: the heaps' Grundy values where the rules have a
/// closed form, else a search of the box the bounds span.
enum Oracle {
    /// Each heap's Grundy values `0..=bound`, one run per heap from `offsets[heap]`.
    Grundy {
        values: Vec<u64>,
        offsets: Vec<usize>,
    },
    Search(Box<Solver>),
}

/// The heaps, the rules and the labels of a board. Positions are rows of `heaps()`
/// sizes, each at most its heap's bound (a move never grows a heap: the rules do not
/// split).
pub struct Board {
    rules: Rules,
    bounds: Vec<u64>,
    max_take: u64,
    /// Per heap and take `t` (at `heap * max_take + t - 1`): bit 0, whether taking `t`
    /// may empty the heap; bit 1, whether it may leave some of it.
    allowed: Vec<u8>,
    /// Per heap, `Some(k)` when a move takes any of 1..=k (Nim, take limits): every
    /// such take is legal and the winning one comes in O(1).
    intervals: Vec<Option<u64>>,
    /// Every heap's `k` when every heap's rule is such an interval.
    all_intervals: Option<Vec<u64>>,
    /// The legal actions by a vector compare, where every heap's rule is an interval
    /// and the CPU has one.
    caps: Option<CapBytes>,
    /// Each heap's legal actions at each size as bits, when the table is small.
    masks: Option<LegalMasks>,
    oracle: Oracle,
}

/// The legal actions of heap `i` at size `n` as bits over the action ids (word `w` at
/// `w * sizes + offsets[i] + n`): a row's legal actions are the union of its
/// heaps', a few loads and ORs where testing every take is a loop over all actions.
struct LegalMasks {
    sizes: usize,
    offsets: Vec<usize>,
    bits: Vec<u64>,
}

impl LegalMasks {
    /// The most bytes the table may take: beyond it, labelling tests every take.
    const MAX_BYTES: usize = 1 << 20;

    fn new(board: &Board) -> Result<Option<Self>> {
        let (m, words) = (board.heaps(), board.actions().div_ceil(64));
        let sizes: usize = board.bounds.iter().map(|&b| b as usize + 1).sum();
        if sizes.saturating_mul(words).saturating_mul(8) > Self::MAX_BYTES {
            return Ok(None);
        }
        let mut bits = alloc::filled(sizes * words, 0u64)?;
        let (mut offsets, mut row) = (Vec::with_capacity(m), vec![0; m]);
        let mut at = 0;
        for (i, &bound) in board.bounds.iter().enumerate() {
            offsets.push(at);
            for n in 0..=bound {
                row[i] = n;
                for t in (1..=n).filter(|&t| board.legal(&row, i, t)) {
                    let a = (t as usize - 1) * m + i;
                    bits[a / 64 * sizes + at + n as usize] |= 1 << (a % 64);
                }
            }
            row[i] = 0;
            at += bound as usize + 1;
        }
        Ok(Some(LegalMasks {
            sizes,
            offsets,
            bits,
        }))
    }

    /// Whether `row` has a legal action.
    #[inline]
    fn any(&self, row: &[u64]) -> bool {
        let words = self.bits.chunks_exact(self.sizes);
        row.iter()
            .zip(&self.offsets)
            .any(|(&n, &o)| words.clone().any(|plane| plane[o + n as usize] != 0))
    }

    /// Write `row`'s legal actions into `legal`.
    #[inline]
    fn write(&self, row: &[u64], legal: &mut [bool]) {
        // SAFETY: a bool is one byte, and only 0 and 1 are written.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(legal.as_mut_ptr().cast::<u8>(), legal.len()) };
        for (plane, chunk) in self.bits.chunks_exact(self.sizes).zip(bytes.chunks_mut(64)) {
            let word = row
                .iter()
                .zip(&self.offsets)
                .fold(0, |acc, (&n, &o)| acc | plane[o + n as usize]);
            let spread = |j: usize| {
                SPREAD[word.checked_shr(8 * j as u32).unwrap_or(0) as usize & 255].to_le_bytes()
            };
            let full = chunk.len() / 8;
            let mut eights = chunk.chunks_exact_mut(8);
            for (j, eight) in eights.by_ref().enumerate() {
                eight.copy_from_slice(&spread(j));
            }
            let rest = eights.into_remainder();
            let last = spread(full);
            rest.copy_from_slice(&last[..rest.len()]);
        }
    }
}

/// Byte `k` of `SPREAD[b]` is bit `k` of `b`.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            table[b] |= ((b as u64 >> k) & 1) << (8 * k);
            k += 1;
        }
        b += 1;
    }
    table
};

impl Board {
    /// A board of `bounds.len()` heaps, heap `i` never larger than `bounds[i]`. Rules
    /// with no closed form are solved over the box of the bounds, refused past
    /// `max_positions` positions.
    pub fn new(bounds: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        let heaps = bounds.len();
        if heaps == 0 {
            return Err(BoardError::NoHeaps.into());
        }
        rules.check_heaps(heaps)?;
        if let Some(code) =
            (0..heaps).find_map(|i| rules.take_for(i).as_code().filter(|c| c.splits()))
        {
            return Err(BoardError::Splits { code: code.code() }.into());
        }
        let max_take = bounds.iter().copied().max().unwrap_or(0).max(1);
        let actions = heaps as u128 * u128::from(max_take) + 1;
        if actions > MAX_ACTIONS as u128 {
            return Err(BoardError::TooManyActions {
                heaps,
                largest: max_take,
                actions,
            }
            .into());
        }
        let mut allowed = alloc::filled(heaps * max_take as usize, 0u8)?;
        for (i, row) in allowed.chunks_exact_mut(max_take as usize).enumerate() {
            let rule = rules.take_for(i);
            // Without splits, a take's legality depends only on whether it empties
            // the heap: try it on a heap of its own size and on one more.
            let allows = |n: u64, t: u64| {
                rule.check_take(i, t).is_ok() && rule.check_option(i, n, &HeapMove::take(t)).is_ok()
            };
            for (t, flags) in (1..=max_take).zip(row.iter_mut()) {
                *flags = u8::from(allows(t, t)) | (u8::from(allows(t + 1, t)) << 1);
            }
        }
        let oracle = if rules.has_closed_form() {
            let total = bounds.iter().map(|&b| b as usize + 1).sum();
            let (mut values, mut offsets) = (alloc::with_capacity(total)?, Vec::new());
            for (i, &bound) in bounds.iter().enumerate() {
                offsets.push(values.len());
                let rule = rules.take_for(i);
                rule.ensure(bound)?;
                values.extend((0..=bound).map(|n| rule.grundy(n)));
            }
            Oracle::Grundy { values, offsets }
        } else {
            Oracle::Search(Box::new(Solver::new(bounds, rules, max_positions)?))
        };
        let intervals: Vec<Option<u64>> =
            (0..heaps).map(|i| rules.take_for(i).interval()).collect();
        let all_intervals: Option<Vec<u64>> = intervals.iter().copied().collect();
        let caps = all_intervals
            .as_ref()
            .and_then(|limits| CapBytes::new(max_take, limits));
        let mut board = Board {
            rules: rules.clone(),
            bounds: bounds.to_vec(),
            max_take,
            allowed,
            intervals,
            all_intervals,
            caps,
            masks: None,
            oracle,
        };
        board.masks = LegalMasks::new(&board)?;
        Ok(board)
    }

    pub fn heaps(&self) -> usize {
        self.bounds.len()
    }

    pub fn bounds(&self) -> &[u64] {
        &self.bounds
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The largest take an action names (OpenSpiel's `max_num_per_pile`).
    pub fn max_take(&self) -> u64 {
        self.max_take
    }

    /// How many action ids there are: OpenSpiel's `num_distinct_actions`, one more
    /// than the moves it numbers (its last id names no move).
    pub fn actions(&self) -> usize {
        self.heaps() * self.max_take as usize + 1
    }

    /// The heap and take action `a` names, if it names one.
    #[inline]
    pub fn decode(&self, action: i64) -> Option<(usize, u64)> {
        let a = usize::try_from(action).ok()?;
        let m = self.heaps();
        (a < self.actions() - 1).then(|| (a % m, (a / m) as u64 + 1))
    }

    /// Whether taking `take` from heap `heap` of `row` is legal.
    #[inline]
    fn legal(&self, row: &[u64], heap: usize, take: u64) -> bool {
        let n = row[heap];
        take <= n && {
            let flags = self.allowed[heap * self.max_take as usize + take as usize - 1];
            flags & if take == n { 1 } else { 2 } != 0
        }
    }

    /// Refuse rows of the wrong width or past the bounds (the labels and moves read
    /// tables that end at the bounds).
    pub fn check(&self, rows: &[u64]) -> Result<()> {
        let m = self.heaps();
        if !rows.len().is_multiple_of(m) {
            return Err(BoardError::Width {
                position: rows.len() / m,
                got: rows.len() % m,
                heaps: m,
            }
            .into());
        }
        for (position, row) in rows.chunks_exact(m).enumerate() {
            for (heap, (&size, &bound)) in row.iter().zip(&self.bounds).enumerate() {
                if size > bound {
                    return Err(BoardError::OverBound {
                        position,
                        heap,
                        size,
                        bound,
                    }
                    .into());
                }
            }
        }
        Ok(())
    }

    /// Whether the player to move in `row` loses against perfect play.
    #[inline]
    pub fn is_p(&self, row: &[u64]) -> bool {
        match &self.oracle {
            Oracle::Grundy { values, offsets } => {
                let (x, big) = row
                    .iter()
                    .zip(offsets)
                    .fold((0, false), |(x, big), (&n, &o)| {
                        let v = values[o + n as usize];
                        (x ^ v, big || v > 1)
                    });
                theory::is_p(x, big, self.rules.is_misere())
            }
            Oracle::Search(solver) => solver.outcome(row) == Outcome::P,
        }
    }

    /// Write the labels of one position: for each action, whether it is legal and
    /// whether it wins (leaves a P-position); returns whether the position is P.
    /// `legal` and `winning` hold `actions()` entries.
    pub fn label(&self, row: &[u64], legal: &mut [bool], winning: &mut [bool]) -> bool {
        match &self.caps {
            Some(caps) => caps.write(row, legal, winning),
            None => winning.fill(false),
        }
        let m = self.heaps();
        match &self.oracle {
            Oracle::Grundy { values, offsets } => {
                let misere = self.rules.is_misere();
                let t_max = self.max_take as usize;
                let (mut x, mut big) = (0, 0u32);
                for (&n, &o) in row.iter().zip(offsets) {
                    let v = values[o + n as usize];
                    x ^= v;
                    big += u32::from(v > 1);
                }
                if let Some(limits) = &self.all_intervals {
                    // Take t from heap i is legal up to min(n, k): the mask written in
                    // order, one row of heaps per take; at most one winning take a heap.
                    if self.caps.is_some() {
                        // Written above.
                    } else if let Some(masks) = &self.masks {
                        masks.write(row, legal);
                    } else {
                        let caps: SmallVec<[u64; 16]> =
                            row.iter().zip(limits).map(|(&n, &k)| n.min(k)).collect();
                        for (t, takes) in (1..).zip(legal[..m * t_max].chunks_exact_mut(m)) {
                            for (b, &cap) in takes.iter_mut().zip(&caps) {
                                *b = t <= cap;
                            }
                        }
                        legal[m * t_max] = false;
                    }
                    let p = theory::is_p(x, big > 0, misere);
                    if p {
                        return p; // no move wins
                    }
                    for (i, ((&n, &o), &k)) in row.iter().zip(offsets).zip(limits).enumerate() {
                        let v = values[o + n as usize];
                        let others_big = big - u32::from(v > 1) > 0;
                        let target = theory::target_grundy(x ^ v, others_big, misere);
                        if let Some(t) = limit::take_from(n, v, k.checked_add(1), target) {
                            winning[(t as usize - 1) * m + i] = true;
                        }
                    }
                    return p;
                }
                legal.fill(false);
                for (i, (&n, &o)) in row.iter().zip(offsets).enumerate() {
                    // Heap i's values up to its size and the flags of takes 1..=n.
                    let n = n as usize;
                    let values = &values[o..=o + n];
                    let flags = &self.allowed[i * t_max..i * t_max + n];
                    let v = values[n];
                    let (others, others_big) = (x ^ v, big - u32::from(v > 1));
                    // Action (t - 1) * m + i takes t from heap i: heap i's actions are
                    // every m-th entry from i.
                    if let Some(k) = self.intervals[i] {
                        let top = (n as u64).min(k) as usize;
                        legal[i..]
                            .iter_mut()
                            .step_by(m)
                            .take(top)
                            .for_each(|b| *b = true);
                        let target = theory::target_grundy(others, others_big > 0, misere);
                        if let Some(t) = limit::take_from(n as u64, v, k.checked_add(1), target) {
                            winning[(t as usize - 1) * m + i] = true;
                        }
                        continue;
                    }
                    let heap_legal = legal[i..].iter_mut().step_by(m);
                    let heap_winning = winning[i..].iter_mut().step_by(m);
                    // Takes 1..=n leave n - 1 down to 0.
                    let left = values[..n].iter().rev();
                    for (t, (((l, win), &f), &w)) in
                        (1..=n).zip(heap_legal.zip(heap_winning).zip(flags).zip(left))
                    {
                        let ok = f & if t == n { 1 } else { 2 } != 0;
                        *l = ok;
                        *win = ok & theory::is_p(others ^ w, others_big > 0 || w > 1, misere);
                    }
                }
                theory::is_p(x, big > 0, misere)
            }
            Oracle::Search(solver) => {
                legal.fill(false);
                let mut after = row.to_vec();
                for (i, &n) in row.iter().enumerate() {
                    for take in 1..=n {
                        if self.legal(row, i, take) {
                            let a = (take as usize - 1) * m + i;
                            after[i] = n - take;
                            legal[a] = true;
                            winning[a] = solver.outcome(&after) == Outcome::P;
                        }
                    }
                    after[i] = n;
                }
                solver.outcome(row) == Outcome::P
            }
        }
    }

    /// Make the move `action` names in `row`, if it is legal.
    #[inline]
    pub fn apply(&self, row: &mut [u64], action: i64) -> Applied {
        match self.decode(action) {
            Some((heap, take)) if self.legal(row, heap, take) => {
                row[heap] -= take;
                Applied::Moved {
                    ended: !self.has_move(row),
                }
            }
            _ => Applied::Illegal,
        }
    }

    /// Whether some move is left in `row`.
    #[inline]
    pub fn has_move(&self, row: &[u64]) -> bool {
        if self.all_intervals.is_some() {
            // Every rule takes 1..=k with k >= 1: any nonempty heap has a move.
            return row.iter().any(|&n| n != 0);
        }
        if let Some(masks) = &self.masks {
            return masks.any(row);
        }
        row.iter()
            .enumerate()
            .any(|(i, &n)| (1..=n).any(|t| self.legal(row, i, t)))
    }

    /// Every position reachable from `start` (each heap independently: the sizes its
    /// moves reach), in row-major order (the last heap changes fastest), refused past
    /// `limit` positions.
    pub fn reachable(&self, start: &[u64], limit: u64) -> Result<Vec<u64>> {
        self.check(start)?;
        if start.len() != self.heaps() {
            return Err(BoardError::Width {
                position: 0,
                got: start.len(),
                heaps: self.heaps(),
            }
            .into());
        }
        let mut sizes: Vec<Vec<u64>> = Vec::with_capacity(start.len());
        for (i, &top) in start.iter().enumerate() {
            let mut reached = alloc::filled(top as usize + 1, false)?;
            reached[top as usize] = true;
            let mut row = start.to_vec();
            for n in (1..=top).rev() {
                if !reached[n as usize] {
                    continue;
                }
                row[i] = n;
                for t in (1..=n).filter(|&t| self.legal(&row, i, t)) {
                    reached[(n - t) as usize] = true;
                }
            }
            sizes.push((0..=top).filter(|&n| reached[n as usize]).collect());
        }
        let count = sizes
            .iter()
            .try_fold(1u128, |c, s| c.checked_mul(s.len() as u128))
            .unwrap_or(u128::MAX);
        if count > u128::from(limit) {
            return Err(Error::BoxTooLarge {
                positions: count,
                limit,
            });
        }
        let m = self.heaps();
        let mut rows = alloc::with_capacity(count as usize * m)?;
        let mut index = vec![0usize; m];
        let mut poll = crate::base::interrupt::Poll::default();
        for _ in 0..count {
            poll.tick()?;
            rows.extend(index.iter().zip(&sizes).map(|(&k, s)| s[k]));
            for i in (0..m).rev() {
                index[i] += 1;
                if index[i] < sizes[i].len() {
                    break;
                }
                index[i] = 0;
            }
        }
        Ok(rows)
    }
}

/// A board is stepped by its own methods (inherent ones, which the hot loops of
/// `learn` call without the trait).
impl EnvGame for Board {
    fn width(&self) -> usize {
        self.heaps()
    }
    fn actions(&self) -> usize {
        Board::actions(self)
    }
    fn is_misere(&self) -> bool {
        self.rules.is_misere()
    }
    fn fits(&self, start: &Start) -> Result<()> {
        if start.bounds() == self.bounds() {
            Ok(())
        } else {
            Err(BoardError::Length {
                what: "start",
                got: start.bounds().len(),
                wanted: self.heaps(),
            }
            .into())
        }
    }
    fn has_move(&self, row: &[u64]) -> bool {
        Board::has_move(self, row)
    }
    fn apply(&self, row: &mut [u64], action: i64) -> Applied {
        Board::apply(self, row, action)
    }
    fn label(&self, row: &[u64], legal: &mut [bool], winning: &mut [bool]) -> bool {
        Board::label(self, row, legal, winning)
    }
}
