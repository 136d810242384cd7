//! A code's Grundy values: computed on demand (the definition, or the sparse-space
//! method), cached in the rule, checked for a period as they grow, and read off the
//! period once it is proven.
use std::path::{Path, PathBuf};
use std::sync::PoisonError;
use std::time::Instant;

use super::{Method, Sequence, TakeAndBreak, MAX_SCANNED_OPTIONS, NONE, ONE, THREE, TWO};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::base::mex;
use crate::heap::periodic::{period_search, reach, PeriodSearch, Periodic};
use crate::heap::sparse::{self, with_helper, Helper};
use crate::heap::store::Store;
use crate::heap::width::{Value, Width};
use crate::heap::HeapMove;

/// Runs of at least this many values get a second thread (`sparse::with_helper`).
const HELPED_RUN: usize = 1 << 16;

/// What a computation reports and polls with as it goes, and the mex's scratch.
struct Ticks<'a> {
    report: &'a mut dyn FnMut(usize),
    reported: Instant,
    poll: Poll,
    seen: Vec<u64>,
}

impl Sequence {
    /// The values were replaced or extended from outside: the sparse space counts
    /// them (now, or before the next computation if Ctrl-C stops it), and a period
    /// is looked for at the next computation.
    fn replayed(&mut self) -> Result<()> {
        self.next_check = self.next_check.min(self.values.len());
        self.catch_up(&mut Poll::default())
    }

    /// Count the values the sparse space has not counted yet (`replayed`).
    fn catch_up(&mut self, poll: &mut Poll) -> Result<()> {
        match &mut self.sparse {
            Some(sparse) => sparse.replay(&self.values, poll),
            None => Ok(()),
        }
    }
}

/// Whether two paths name one file (a path that cannot be resolved names none).
fn is_same_file(a: &Path, b: &Path) -> bool {
    matches!(
        (std::fs::canonicalize(a), std::fs::canonicalize(b)),
        (Ok(a), Ok(b)) if a == b
    )
}

impl TakeAndBreak {
    /// Whether values come from the sparse-space method (`sparse_space`) rather than
    /// from the definition alone.
    pub fn uses_sparse_space(&self) -> bool {
        self.read().sparse.is_some()
    }

    /// The sparse space found so far: the mask, whether heap parity joins it, and
    /// the heaps whose values are rare. `None` for codes computed by the definition.
    pub fn sparse_space(&self) -> Option<(u32, bool, Vec<usize>)> {
        let sequence = self.read();
        let sparse = sequence.sparse.as_ref()?;
        let (mask, parity) = sparse.mask();
        Some((mask, parity, sparse.rare_heaps().to_vec()))
    }

    /// The Grundy value of a heap of `n`. Computes by the definition up to `n` when no
    /// period is proven: call `ensure(n)` first to bound that work.
    pub fn grundy(&self, n: u64) -> u32 {
        if let Some(periodic) = self.periodic.get() {
            return periodic.value(n);
        }
        if let Some(v) = self.read().values.get(n as usize) {
            return v;
        }
        // Callers bound this work with `ensure` first, which polls for Ctrl-C.
        let _ = self.grow(n as usize + 1, &mut |_| {});
        match self.periodic.get() {
            Some(periodic) => periodic.value(n),
            None => self.read().values.get(n as usize).expect("computed"),
        }
    }

    /// The value of an option: the XOR of the parts' values.
    pub fn option_value(&self, n: u64, option: &HeapMove) -> u32 {
        match option.into.sizes() {
            [] => self.grundy(n - option.take),
            parts => parts.iter().fold(0, |x, &p| x ^ self.grundy(p)),
        }
    }

    /// Make the value of a heap of `n` available: computed (up to `naive_limit`) or
    /// given by a proven period; else `Error::CodeHeapTooLarge`.
    pub fn ensure(&self, n: u64) -> Result<()> {
        if self.periodic.get().is_some() || (n as usize) < self.read().values.len() {
            return Ok(());
        }
        let limit = self.naive_limit();
        self.grow(n.min(limit) as usize + 1, &mut |_| {})?;
        if n <= limit || self.periodic.get().is_some() {
            Ok(())
        } else {
            Err(Error::CodeHeapTooLarge {
                code: self.code(),
                heap: n,
                limit,
                provable: self.period_provable(),
            })
        }
    }

    /// Refuse to look through the options of a heap of `n` for winning moves when
    /// they are more than `MAX_SCANNED_OPTIONS` (a split of a heap of `n` has about
    /// `n / 2` options, so the scan is bounded, not the heap), unless `reach` is given
    /// and the scan may go by classes (`scanned_options`).
    pub fn check_scan(&self, n: u64, reach: Option<u64>) -> Result<()> {
        let options = self.count(n);
        if options > MAX_SCANNED_OPTIONS && !(reach.is_some() && self.has_classes()) {
            return Err(Error::TooManyOptions {
                heap: n,
                options,
                limit: MAX_SCANNED_OPTIONS,
            });
        }
        Ok(())
    }

    /// The first `count` values (`ensure(count - 1)` first).
    pub fn first(&self, count: usize) -> Result<Vec<u32>> {
        self.grow(count, &mut |_| {})?;
        self.values_as(count)
    }

    /// Whether `values` (this code's first values) prove `(preperiod, period)` by the
    /// periodicity theorem, checked directly from its statement: enough values, and
    /// `G(n + period) = G(n)` for every `n` from `preperiod` up to what the theorem
    /// asks, and no smaller preperiod for this period.
    pub fn proves(&self, values: &[u32], preperiod: usize, period: usize) -> bool {
        // Past what can be counted, no list of values is long enough.
        let Ok(Some(needed)) = self.values_to_prove(preperiod, period) else {
            return false;
        };
        period > 0
            && values.len() >= needed
            && (preperiod..needed - period).all(|n| values[n] == values[n + period])
            && (preperiod == 0 || values[preperiod - 1] != values[preperiod - 1 + period])
    }

    /// Preperiod plus period of the Grundy values, once proven: where the scan of
    /// a heap's options may go by classes of equal values (`scanned_options`).
    pub fn grundy_reach(&self) -> Option<u64> {
        self.periodic.get().map(|p| reach(p.preperiod, p.period))
    }

    /// `(preperiod, period)` once proven (`ensure` grows the values and tries).
    pub fn period(&self) -> Option<(usize, usize)> {
        self.periodic.get().map(|p| (p.preperiod, p.period))
    }

    /// Whether the periodicity theorem applies to this code at all.
    pub fn period_provable(&self) -> bool {
        !self.distinct
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Sequence> {
        self.sequence.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Compute the values of heaps `0..len`, whatever the size (the caller asked for
    /// them: no `naive_limit`), stopping early once a period is proven. `report`
    /// hears how many values are known, about every 0.1 s. Stops at Ctrl-C, keeping
    /// what it computed; memory for the values is reserved fallibly.
    pub fn compute(&self, len: usize, report: &mut dyn FnMut(usize)) -> Result<()> {
        self.grow(len, report)?;
        // The values asked for may prove a period before the next checkpoint.
        let mut sequence = self
            .sequence
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let reached = sequence.values.len() >= len && len > 1;
        if sequence.seeks_period && self.periodic.get().is_none() && reached {
            sequence.next_check = self.check_period(&sequence.values)?;
        }
        Ok(())
    }

    /// Take `values` as the values of heaps `0..values.len()` when fewer are known: a
    /// computation resuming from stored values (a checkpoint, whose integrity the
    /// caller checked). They must be this code's: the first ones, up to 1000, are
    /// checked against the definition, and `Error::NotTheseValues` names the first
    /// heap that differs. Memory is reserved fallibly.
    pub fn resume(&self, values: &[u32]) -> Result<()> {
        self.check_first(&values[..values.len().min(1000)])?;
        let mut guard = self
            .sequence
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let sequence = &mut *guard;
        if self.periodic.get().is_some() || sequence.values.len() >= values.len() {
            return Ok(());
        }
        let known = sequence.values.len();
        sequence.values.extend_from_slice(&values[known..])?;
        sequence.replayed()
    }

    /// `Error::NotTheseValues` unless `values` are this code's first ones, by the
    /// definition.
    fn check_first(&self, values: &[u32]) -> Result<()> {
        let check = values.len();
        let fresh = self.fresh(Method::Naive);
        fresh.compute(check, &mut |_| {})?;
        let expected = fresh.values_as::<u32>(check)?;
        match (0..check).find(|&n| expected[n] != values[n]) {
            Some(heap) => Err(Error::NotTheseValues { heap }),
            None => Ok(()),
        }
    }

    /// Keep the values in the file at `path` (little-endian, memory-mapped, its
    /// extension `.u8`, `.u16` or `.u32` the width), taking its first `count` as this
    /// code's (checked as `resume` does) and writing there the values known past
    /// them; what the file holds past them is dropped. Computations then write to
    /// the file: values past memory go to the disk. Values too wide for it go to a
    /// new file named by their width next to it (`values_file`). Nothing changes
    /// when the values are in that file already.
    pub fn keep_in_file(&self, path: &Path, count: usize) -> Result<()> {
        let mut guard = self
            .sequence
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let sequence = &mut *guard;
        if sequence
            .values
            .path()
            .is_some_and(|kept| is_same_file(kept, path))
        {
            return Ok(());
        }
        let mut store = Store::file(path, count)?;
        let first: Vec<u32> = (0..count.min(1000)).filter_map(|n| store.get(n)).collect();
        self.check_first(&first)?;
        let known = &sequence.values;
        if known.len() > count {
            crate::by_width!(known, |values: &[V]| store
                .extend_from_slice::<V>(&values[count..]))?;
        }
        sequence.values = store;
        sequence.replayed()
    }

    /// The file the values are kept in (`keep_in_file`), if any.
    pub fn values_file(&self) -> Option<PathBuf> {
        self.read().values.path().map(Path::to_path_buf)
    }

    /// Write the values of heaps `start..stop` kept in a file to the disk.
    pub fn flush_values(&self, start: usize, stop: usize) -> Result<()> {
        self.read().values.flush(start, stop)
    }

    /// How many values are computed (a periodic rule knows every other one too).
    pub fn known(&self) -> usize {
        self.read().values.len()
    }

    /// The first `count` values in the integer type `T` (the caller has made sure
    /// the largest fits, see `max_value`); `compute(count)` first.
    pub fn values_as<T: TryFrom<u32> + Copy>(&self, count: usize) -> Result<Vec<T>> {
        let mut out = alloc::with_capacity(count)?;
        let narrow = |v: &u32| {
            T::try_from(*v)
                .ok()
                .expect("the caller checked the largest value")
        };
        // Billions of values take seconds: copied in pieces, polling between them.
        const PIECE: usize = 1 << 16;
        let mut poll = Poll::default();
        match self.periodic.get() {
            Some(periodic) => {
                let known = count.min(periodic.values.len());
                crate::by_width!(periodic.values, |values| out
                    .extend(values[..known].iter().map(|&v| narrow(&v.to_u32()))));
                // Past the first period, each value repeats the one a period before.
                while out.len() < count {
                    poll.tick()?;
                    let from = out.len() - periodic.period;
                    let piece = (count - out.len()).min(periodic.period).min(PIECE);
                    out.extend_from_within(from..from + piece);
                }
            }
            None => {
                let sequence = self.read();
                crate::by_width!(sequence.values, |values| {
                    for piece in values[..count].chunks(PIECE) {
                        poll.tick()?;
                        out.extend(piece.iter().map(|&v| narrow(&v.to_u32())));
                    }
                });
            }
        }
        Ok(out)
    }

    /// The largest of the first `count` values; `compute(count)` first.
    pub fn max_value(&self, count: usize) -> u32 {
        match self.periodic.get() {
            Some(periodic) => periodic.values.max(count),
            None => self.read().values.max(count),
        }
    }

    /// How many values the periodicity theorem needs to prove `(preperiod, period)`
    /// for this code, or `None` when it proves nothing for it (`!`);
    /// `Error::ProofTooLong` past `usize`.
    pub fn values_to_prove(&self, preperiod: usize, period: usize) -> Result<Option<usize>> {
        let Some(bound) = self.theorem_bound() else {
            return Ok(None);
        };
        preperiod
            .max(1)
            .checked_add(period)
            .and_then(|span| span.checked_mul(bound))
            .and_then(|values| values.checked_add(self.max_take() as usize))
            .map(Some)
            .ok_or(Error::ProofTooLong { preperiod, period })
    }

    /// The periodicity theorem's `bound` (see `proven_period`), or `None` when it
    /// proves nothing for this code (`!`).
    pub fn theorem_bound(&self) -> Option<usize> {
        let bound = if self.leaves_three() { 3 } else { 2 };
        self.period_provable().then_some(bound)
    }

    /// Compute values until `len` are known or a period is proven, looking for one
    /// at checkpoints (doubling counts, or the count a candidate period needs). Values
    /// kept in a file are all written there, from the period once it is proven.
    fn grow(&self, len: usize, report: &mut dyn FnMut(usize)) -> Result<()> {
        let mut guard = self
            .sequence
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let sequence = &mut *guard;
        // A second thread for long sparse-space runs, where rayon has two.
        let long = len.saturating_sub(sequence.values.len()) >= HELPED_RUN;
        let helped = long && sequence.sparse.is_some() && rayon::current_num_threads() > 1;
        let mut ticks = Ticks {
            report,
            reported: Instant::now(),
            poll: Poll::default(),
            seen: Vec::new(),
        };
        while sequence.values.len() < len && self.periodic.get().is_none() {
            sequence.catch_up(&mut ticks.poll)?;
            let stop = len.min(sequence.next_check);
            sequence.values.reserve(stop)?;
            let wider = if helped {
                let prefix = sequence.values.prefix();
                // SAFETY: the room for `stop` values is reserved, and `run` only
                // appends; a job's values are written before it is posted
                // (`SparseSpace::extend`).
                unsafe {
                    with_helper(prefix, |helper| {
                        self.run(sequence, stop, &mut ticks, Some(helper))
                    })
                }?
            } else {
                self.run(sequence, stop, &mut ticks, None)?
            };
            if let Some(width) = wider {
                sequence.values.widen(width)?;
            }
            if sequence.values.len() >= sequence.next_check {
                sequence.next_check = self.check_period(&sequence.values)?;
            }
        }
        if let Some(periodic) = self
            .periodic
            .get()
            .filter(|_| sequence.values.path().is_some())
        {
            let values = &mut sequence.values;
            values.reserve(len)?;
            while values.len() < len {
                ticks.poll.tick()?;
                values.push_value(periodic.value(values.len() as u64))?;
            }
        }
        (ticks.report)(sequence.values.len());
        Ok(())
    }

    /// Compute the values of heaps up to `stop` (the room is reserved), or up to a
    /// value too wide for the store: then the width it needs.
    fn run(
        &self,
        sequence: &mut Sequence,
        stop: usize,
        ticks: &mut Ticks<'_>,
        helper: Option<&Helper>,
    ) -> Result<Option<Width>> {
        match sequence.values.width() {
            Width::U8 => self.run_at::<u8>(sequence, stop, ticks, helper),
            Width::U16 => self.run_at::<u16>(sequence, stop, ticks, helper),
            Width::U32 => self.run_at::<u32>(sequence, stop, ticks, helper),
        }
    }

    /// `run` with values of type `V`, the store's width.
    fn run_at<V: Value>(
        &self,
        sequence: &mut Sequence,
        stop: usize,
        ticks: &mut Ticks<'_>,
        helper: Option<&Helper>,
    ) -> Result<Option<Width>> {
        while sequence.values.len() < stop {
            ticks.poll.tick()?;
            match &mut sequence.sparse {
                Some(sparse) => {
                    let wider = sparse.extend::<V>(&mut sequence.values, stop, helper);
                    if wider.is_some() {
                        return Ok(wider);
                    }
                }
                None => {
                    let values = sequence.values.slice::<V>();
                    let v = self.mex(values, &mut ticks.seen, &mut ticks.poll)?;
                    if v > V::WIDTH.largest() {
                        return Ok(Some(Width::of(v)));
                    }
                    sequence.values.push(V::narrow(v));
                }
            }
            if ticks.reported.elapsed().as_millis() >= 100 {
                (ticks.report)(sequence.values.len());
                ticks.reported = Instant::now();
            }
        }
        Ok(None)
    }

    /// Look for a proven period in `values`; set it and return `usize::MAX` when
    /// found, else the count of values at which to look again. `Error::Interrupted`
    /// at Ctrl-C while the period's values are copied.
    fn check_period(&self, values: &Store) -> Result<usize> {
        crate::by_width!(values, |values| self.check_period_at(values))
    }

    fn check_period_at<V: Value>(&self, values: &[V]) -> Result<usize> {
        let len = values.len();
        let doubled = len.saturating_mul(2);
        if !self.period_provable() {
            return Ok(doubled);
        }
        let bound = if self.leaves_three() { 3 } else { 2 };
        match period_search(values, self.max_take() as usize, bound) {
            PeriodSearch::Proven(preperiod, period) => {
                // Without memory for the copy, values simply go on being computed;
                // Ctrl-C during the copy stops the computation.
                let mut kept = Store::from_values(&[]);
                match kept.extend_from_slice(&values[..preperiod + period]) {
                    Err(Error::Interrupted) => return Err(Error::Interrupted),
                    Err(_) => return Ok(doubled),
                    Ok(()) => {}
                }
                let periodic = Periodic {
                    preperiod,
                    period,
                    values: kept,
                };
                // Another thread cannot have set it: the caller holds the write lock.
                let _ = self.periodic.set(periodic);
                Ok(usize::MAX)
            }
            // Not before an eighth more values: a check costs a pass over them all.
            PeriodSearch::Needs(count) => Ok(count.clamp(len + len / 8 + 1, doubled)),
            PeriodSearch::Nothing => Ok(doubled),
        }
    }

    /// The value of heap `values.len()` by the definition (polling as it goes: a heap
    /// of n that leaves three heaps has about n**2 / 12 options).
    fn mex<V: Value>(&self, values: &[V], seen: &mut Vec<u64>, poll: &mut Poll) -> Result<u32> {
        let n = values.len();
        // Every XOR of earlier values is below the next power of two above them all.
        let top: u32 = values.iter().max().map_or(0, |&v| v.into());
        let bits = (top as usize + 1).next_power_of_two() + 1;
        seen.clear();
        seen.resize(bits.div_ceil(64), 0);
        let mut mark = |v: V| seen[v.index() / 64] |= 1 << (v.index() % 64);
        let step = usize::from(self.distinct);
        for (t, &d) in self.digits.iter().enumerate().take(n + 1) {
            let m = n - t;
            if d & NONE != 0 && m == 0 {
                mark(V::default());
            }
            if d & ONE != 0 && m >= 1 {
                mark(values[m]);
            }
            if d & TWO != 0 {
                poll.tick()?;
                for a in 1..=m / 2 {
                    if !(self.distinct && 2 * a == m) {
                        mark(values[a] ^ values[m - a]);
                    }
                }
            }
            if d & THREE != 0 {
                for a in 1..=m / 3 {
                    poll.tick()?;
                    for b in a + step..=(m - a) / 2 {
                        let c = m - a - b;
                        if c >= b + step {
                            mark(values[a] ^ values[b] ^ values[c]);
                        }
                    }
                }
            }
        }
        Ok(mex::of_bits(seen.iter().copied()))
    }
}

/// The statistics researchers publish for a Grundy sequence (as in Czajka's
/// UnsolvedGames.md): the largest value and the first heap with it, and for codes
/// with a sparse space its mask, whether heap parity joins it, how many heaps are
/// rare and the last one (`sparse::published_space`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statistics {
    pub count: usize,
    pub largest: u32,
    pub largest_at: usize,
    pub sparse: Option<(u32, bool, usize, Option<usize>)>,
}

impl TakeAndBreak {
    /// The statistics of heaps `0..count`; `compute(count)` first.
    pub fn statistics(&self, count: usize) -> Result<Statistics> {
        // Values past memory are read where they are; a period's are written out.
        let sequence = self.read();
        let moves = sequence.sparse.is_some().then(|| self.moves());
        Ok(match self.periodic.get() {
            Some(_) if sequence.values.len() < count => {
                statistics_of(&self.values_as::<u32>(count)?, moves.as_ref())
            }
            _ => crate::by_width!(sequence.values, |values| statistics_of(
                &values[..count],
                moves.as_ref()
            )),
        })
    }
}

/// The statistics of `values`; the sparse space's with the moves of codes that have
/// one.
fn statistics_of<V: Value>(values: &[V], moves: Option<&sparse::Moves>) -> Statistics {
    // The first heap with the largest value.
    let (largest_at, largest) = values.iter().enumerate().fold((0, 0), |best, (n, &v)| {
        let v: u32 = v.into();
        if v > best.1 {
            (n, v)
        } else {
            best
        }
    });
    Statistics {
        count: values.len(),
        largest,
        largest_at,
        sparse: moves.map(|moves| sparse::published_space(values, moves)),
    }
}
