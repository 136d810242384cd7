//! The misère quotient of a take-and-break game (Plambeck, "Taming the wild in
//! impartial combinatorial games", INTEGERS 5, 2005; Plambeck and Siegel, "Misère
//! quotients for impartial games", JCTA 115, 2008), heap by heap as Siegel's
//! MisereSolver computes it (CGSuite, core/misere/solver).
//!
//! A presentation is a finite commutative monoid, its P-portion and each heap's
//! element. It is right for the heaps up to `n` when every position of those heaps is
//! a P-position exactly when the product of its heaps' elements is in the P-portion;
//! `walk` checks that over every position, exactly. Reduced (elements that no
//! position tells apart merged) a right presentation is the quotient.
//!
//! Heap `n + 1` first tries each element of the current quotient (the quotient stays
//! the same). If none is right, the quotient grows: a new generator for the heap,
//! the P-portion read off the first position reaching each element, and while some
//! position disagrees, the heaps of the least such position are given generators of
//! their own ("recalibration"), fewest first, until that position comes out right.

use super::bits::Bits;
use super::interpolation::Interpolation;
use super::monoid::{product_size, reduced, Monoid, Multiply, Product, MAX_PRODUCT};
use super::options::HeapOptions;
use super::quotient::MisereQuotient;
use super::walk::{walk_order, Least, Marker, NChecker, Walk, Word};
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::heap::code::TakeAndBreak;
use crate::heap::periodic::{period_search, PeriodSearch};

/// The most states a check of one presentation may meet.
pub const MAX_CHECK_STATES: usize = 1 << 22;

/// What checking a presentation over every position finds.
enum Checked {
    /// The least position whose outcome disagrees.
    Fails(Word),
    /// None does.
    Right(Interpolation),
}

/// A monoid, its P-portion and each heap's element (heaps `0..heap.len()`).
#[derive(Clone, Debug)]
struct Presentation {
    monoid: Monoid,
    p: Vec<bool>,
    heap: Vec<u32>,
}

impl Presentation {
    fn trivial() -> Self {
        Presentation {
            monoid: Monoid::trivial(),
            p: vec![false],
            heap: vec![0],
        }
    }

    fn element(&self, word: &Word) -> u32 {
        word.iter().fold(0, |x, &(h, c)| {
            (0..c).fold(x, |x, _| self.monoid.product(x, self.heap[h]))
        })
    }

    /// The elements of each heap's options.
    fn transitions(&self, options: &[HeapOptions], poll: &mut Poll) -> Result<Vec<Vec<u32>>> {
        transitions(&self.monoid, &self.heap, options, poll)
    }

    /// The least position whose outcome disagrees, or, when it is right, the quick
    /// check for the next heap from the same walk.
    fn check(&self, options: &[HeapOptions], poll: &mut Poll) -> Result<Checked> {
        let transitions = self.transitions(options, poll)?;
        let walk = self.walk(&transitions);
        let mut least = Least::new(self.monoid.size());
        walk.run(false, &mut least, poll)?;
        let p_failure = self.p_failure(&transitions, &least.word);
        let mut checker = self.n_check(&walk, false, poll)?;
        Ok(match (p_failure, checker.failure.take()) {
            (Some(a), Some(b)) => Checked::Fails(std::cmp::min_by(a, b, walk_order)),
            (Some(a), None) | (None, Some(a)) => Checked::Fails(a),
            (None, None) => Checked::Right(Interpolation::new(
                &self.monoid,
                &self.p,
                checker.into_least(),
                poll,
            )?),
        })
    }

    /// Whether the presentation is right with the largest heap, given that it is
    /// without it (the same monoid and P-portion; `transitions` its `transitions`).
    fn right_with_top(&self, transitions: &[Vec<u32>], poll: &mut Poll) -> Result<bool> {
        let top = self.heap.len() - 1;
        let e = self.heap[top];
        let p = |x: u32| self.p[x as usize];
        // Every element is reached without the top heap: a position in P that wins
        // by a move in the top heap is one more top heap on any element.
        let wins_from_p = (0..self.monoid.size() as u32).any(|y| {
            let row = self.monoid.row(y);
            p(row[e as usize]) && transitions[top].iter().any(|&t| p(row[t as usize]))
        });
        Ok(!wins_from_p
            && self
                .n_check(&self.walk(transitions), true, poll)?
                .failure
                .is_none())
    }

    /// The quick check for the next heap (`transitions` has its options last), or
    /// `None` when the positions are too many to collect what it needs.
    fn interpolation(
        &self,
        transitions: &[Vec<u32>],
        poll: &mut Poll,
    ) -> Result<Option<Interpolation>> {
        let mut checker = NChecker::new(&self.p, MAX_CHECK_STATES);
        self.walk(transitions).run(false, &mut checker, poll)?;
        if checker.too_large || checker.failure.is_some() {
            return Ok(None);
        }
        Interpolation::new(&self.monoid, &self.p, checker.into_least(), poll).map(Some)
    }

    fn walk<'a>(&'a self, transitions: &'a [Vec<u32>]) -> Walk<'a, Monoid> {
        Walk {
            monoid: &self.monoid,
            heap: &self.heap,
            transitions,
        }
    }

    /// The least position in the P-portion with an option in it: one heap `h` more
    /// than the least word of an element `x` where `x e_h` and some `x t` (`t` an
    /// option of `h` alone) are both in P (the empty position when 1 is).
    fn p_failure(&self, transitions: &[Vec<u32>], least: &[Option<Word>]) -> Option<Word> {
        if self.p[0] {
            return Some(Word::new());
        }
        let p = |x: u32| self.p[x as usize];
        let mut failures = (0..self.monoid.size() as u32).flat_map(|x| {
            let row = self.monoid.row(x);
            let word = least[x as usize].as_ref();
            (0..self.heap.len()).filter_map(move |h| {
                let wins = p(row[self.heap[h] as usize])
                    && transitions[h].iter().any(|&t| p(row[t as usize]));
                word.filter(|_| wins).map(|word| with_heap(word, h))
            })
        });
        let first = failures.next()?;
        Some(failures.fold(first, |a, b| std::cmp::min_by(a, b, walk_order)))
    }

    /// The walk looking for the least N-position that loses (`NChecker`), done.
    fn n_check(&self, walk: &Walk<Monoid>, with_top: bool, poll: &mut Poll) -> Result<NChecker> {
        let mut checker = NChecker::new(&self.p, MAX_CHECK_STATES);
        walk.run(with_top, &mut checker, poll)?;
        if checker.too_large {
            return Err(Error::QuotientCheckTooLarge {
                heap: self.heap.len() - 1,
                limit: MAX_CHECK_STATES,
            });
        }
        Ok(checker)
    }

    /// The presentation on the direct product of `factors` (restricted to what the
    /// heaps generate; `heap` in mixed radix) with the P-portion of first positions,
    /// reduced: only the reduction gets a table.
    fn marked(
        factors: Vec<Monoid>,
        heap: &[u32],
        options: &[HeapOptions],
        limit: usize,
        poll: &mut Poll,
    ) -> Result<Self> {
        let product = Product::generated(factors, &distinct(heap), limit, poll)?;
        let heap: Vec<u32> = heap.iter().map(|&e| product.number(e)).collect();
        let transitions = transitions(&product, &heap, options, poll)?;
        let walk = Walk {
            monoid: &product,
            heap: &heap,
            transitions: &transitions,
        };
        let mut marker = Marker::new(product.size())?;
        walk.run(false, &mut marker, poll)?;
        let (monoid, class, p) = reduced(&product, &marker.p, &distinct(&heap), poll)?;
        Ok(Presentation {
            monoid,
            p,
            heap: heap.iter().map(|&e| class[e as usize]).collect(),
        })
    }
}

/// The elements of each heap's options (each once), in `monoid` with the heaps'
/// elements `heap`.
fn transitions(
    monoid: &impl Multiply,
    heap: &[u32],
    options: &[HeapOptions],
    poll: &mut Poll,
) -> Result<Vec<Vec<u32>>> {
    let mut seen = Bits::new(monoid.size());
    let mut all = Vec::new();
    for words in options {
        let mut t = Vec::new();
        for w in words.iter() {
            poll.tick()?;
            let x = w
                .iter()
                .fold(0, |x, &h| monoid.product(x, heap[h as usize]));
            if !seen.contains(x) {
                seen.insert(x);
                t.push(x);
            }
        }
        for &x in &t {
            seen.remove(x);
        }
        all.push(t);
    }
    Ok(all)
}

/// `word` with one heap `h` more.
fn with_heap(word: &Word, h: usize) -> Word {
    let mut word = word.clone();
    match word.binary_search_by_key(&h, |&(heap, _)| heap) {
        Ok(i) => word[i].1 += 1,
        Err(i) => word.insert(i, (h, 1)),
    }
    word
}

fn distinct(elements: &[u32]) -> Vec<u32> {
    let mut d: Vec<u32> = elements.iter().copied().filter(|&e| e != 0).collect();
    d.sort_unstable();
    d.dedup();
    d
}

/// The quotient of a take-and-break game's heaps `0..=max_heap`, computed heap by heap
/// (the rule is given to `compute`: a rule keeps its solver, `misere::Kept`).
pub struct QuotientSolver {
    /// The heaps that each heap's moves leave, as words of heap sizes.
    options: Vec<HeapOptions>,
    presentation: Presentation,
    /// Heaps at which the quotient grew.
    changes: Vec<usize>,
    period: Option<(usize, usize)>,
    /// The most elements of a candidate (`set_limit`).
    limit: usize,
    /// The quick check for the presentation as it is (`None`: not made yet; inner
    /// `None`: its walk was too large).
    interpolation: Option<Option<Interpolation>>,
    /// Whether to try the quick check before the walks (`set_quick_check`).
    quick: bool,
    /// The elements of each heap's options in the presentation as it is, once made.
    transitions: Option<Vec<Vec<u32>>>,
}

impl Default for QuotientSolver {
    fn default() -> Self {
        QuotientSolver::new()
    }
}

impl QuotientSolver {
    pub fn new() -> Self {
        QuotientSolver {
            options: vec![HeapOptions::default()],
            presentation: Presentation::trivial(),
            changes: Vec::new(),
            period: None,
            limit: MAX_PRODUCT,
            interpolation: None,
            quick: true,
            transitions: None,
        }
    }

    /// The quotient as computed so far.
    pub fn quotient(&self) -> MisereQuotient {
        MisereQuotient {
            monoid: self.presentation.monoid.clone(),
            p: self.presentation.p.clone(),
            heap: self.presentation.heap.clone(),
            changes: self.changes.clone(),
            period: self.period,
        }
    }

    /// The quotient of heaps up to `max_heap` when this computation holds it: it
    /// reached `max_heap` (or stopped earlier at a proven period), or it went further
    /// and the quotient did not grow after `max_heap` (the heaps past it took
    /// elements it had).
    pub fn quotient_at(&self, max_heap: usize) -> Option<MisereQuotient> {
        let reached = self.max_heap();
        if max_heap == reached || (max_heap > reached && self.period.is_some()) {
            return Some(self.quotient());
        }
        if max_heap > reached || self.changes.iter().any(|&c| c > max_heap) {
            return None;
        }
        let mut q = self.quotient();
        q.heap.truncate(max_heap + 1);
        // The period's proof needs the heaps past `max_heap`.
        q.period = None;
        Some(q)
    }

    /// Refuse candidates of more than `limit` elements from now on (`MAX_PRODUCT`
    /// unless told: about what memory holds).
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    /// Whether a heap first tries the quick check (MisereSolver's mex interpolation,
    /// `interpolation`) before the walks over every position; on unless told (the
    /// tests compare both ways).
    pub fn set_quick_check(&mut self, on: bool) {
        self.quick = on;
    }

    /// The largest heap computed.
    pub fn max_heap(&self) -> usize {
        self.presentation.heap.len() - 1
    }

    /// Compute the quotient of `rule` up to `max_heap` (the rule this solver has
    /// computed for so far), stopping early once a period is proven. `report` hears
    /// each heap done.
    pub fn compute(
        &mut self,
        rule: &TakeAndBreak,
        max_heap: usize,
        report: &mut dyn FnMut(usize),
    ) -> Result<()> {
        let mut poll = Poll::default();
        while self.max_heap() < max_heap && self.period.is_none() {
            poll.tick()?;
            let heap = self.max_heap() + 1;
            self.next(rule, &mut poll).map_err(|err| match err {
                Error::QuotientTooLarge { size, limit, .. } => {
                    Error::QuotientTooLarge { heap, size, limit }
                }
                other => other,
            })?;
            self.check_period(rule);
            report(self.max_heap());
        }
        Ok(())
    }

    /// The heaps' elements are periodic from some heap on, with the quotient fixed,
    /// by the same bound as the octal periodicity theorem (MisereSolver hands its
    /// heap-to-element map to CGSuite's normal-play periodicity checker).
    fn check_period(&mut self, rule: &TakeAndBreak) {
        let Some(bound) = rule.theorem_bound() else {
            return;
        };
        if let PeriodSearch::Proven(pre, p) =
            period_search(&self.presentation.heap, rule.max_take() as usize, bound)
        {
            self.period = Some((pre, p));
        }
    }

    /// The elements of the options of heaps up to `n`, from those kept for the
    /// presentation as it is (heaps added do not change the others').
    fn transitions_to(&mut self, n: usize, poll: &mut Poll) -> Result<Vec<Vec<u32>>> {
        let mut kept = self.transitions.take().unwrap_or_default();
        kept.truncate(n);
        let more = self
            .presentation
            .transitions(&self.options[kept.len()..=n], poll)?;
        kept.extend(more);
        Ok(kept)
    }

    /// Extend the quotient to the next heap.
    fn next(&mut self, rule: &TakeAndBreak, poll: &mut Poll) -> Result<()> {
        let n = self.presentation.heap.len();
        self.options.push(HeapOptions::of(rule, n)?);
        let extended = self.extend(n, poll);
        if extended.is_err() {
            // Stopped (Ctrl-C, or too large): as before the heap, to resume later.
            self.options.truncate(n);
        }
        extended
    }

    /// Give heap `n` (its options listed) an element.
    fn extend(&mut self, n: usize, poll: &mut Poll) -> Result<()> {
        // The options of heap `n` are heaps below it: their elements do not depend
        // on the element `n` is given.
        let transitions = self.transitions_to(n, poll)?;
        if self.options[n].is_empty() {
            self.presentation.heap.push(0);
            self.transitions = Some(transitions);
            return Ok(());
        }
        let alone_lost = transitions[n]
            .iter()
            .all(|&x| !self.presentation.p[x as usize]);
        if self.interpolation.is_none() && self.quick {
            self.interpolation = Some(self.presentation.interpolation(&transitions, poll)?);
        }
        if let (true, Some(Some(check))) = (self.quick, &self.interpolation) {
            if let Some(x) = check.element(&self.presentation.p, &transitions[n], alone_lost) {
                self.presentation.heap.push(x);
                self.transitions = Some(transitions);
                return Ok(());
            }
        }
        let mut trial = self.presentation.clone();
        trial.heap.push(0);
        for x in 0..self.presentation.monoid.size() as u32 {
            if self.presentation.p[x as usize] != alone_lost {
                continue;
            }
            trial.heap[n] = x;
            if trial.right_with_top(&transitions, poll)? {
                self.presentation = trial;
                self.transitions = Some(transitions);
                // Made again with heap `n`'s positions, as MisereSolver does: the
                // next heaps find more option sets to compare with.
                self.interpolation = None;
                return Ok(());
            }
        }
        let (grown, check) = self.grown(n, poll)?;
        self.presentation = grown;
        self.interpolation = Some(Some(check));
        self.changes.push(n);
        Ok(())
    }

    /// The quotient with a new generator for heap `n`, recalibrated until right,
    /// and its quick check for the next heap.
    fn grown(&self, n: usize, poll: &mut Poll) -> Result<(Presentation, Interpolation)> {
        let old = &self.presentation;
        let cyclic = Monoid::cyclic(2, 2)?;
        let mut heap: Vec<u32> = old.heap.iter().map(|&e| e * cyclic.size() as u32).collect();
        heap.push(1);
        let factors = vec![old.monoid.clone(), cyclic];
        let mut trial = Presentation::marked(factors, &heap, &self.options, self.limit, poll)?;
        loop {
            match trial.check(&self.options, poll)? {
                Checked::Fails(failure) => trial = self.recalibrated(&trial, n, &failure, poll)?,
                Checked::Right(check) => return Ok((trial, check)),
            }
        }
    }

    /// Give the heaps of `failure` (fewest first) generators of their own, until the
    /// position `failure` gets the other outcome.
    fn recalibrated(
        &self,
        trial: &Presentation,
        n: usize,
        failure: &Word,
        poll: &mut Poll,
    ) -> Result<Presentation> {
        let should_be_p = !trial.p[trial.element(failure) as usize];
        let involved: Vec<(usize, u32)> = failure.clone();
        for size in 1..=involved.len() {
            for chosen in combinations(involved.len(), size) {
                let mut heap = trial.heap.clone();
                for &i in &chosen {
                    heap[involved[i].0] = 0;
                }
                let (base, number) = trial.monoid.generated(&distinct(&heap))?;
                let mut factors = vec![base];
                for &i in &chosen {
                    let (h, count) = involved[i];
                    let index = trial.monoid.index_of(trial.heap[h]).max(count as usize - 1);
                    let period = 2usize.max(2 * (index.saturating_sub(4) / 2));
                    factors.push(Monoid::cyclic(index, period)?);
                }
                // In mixed radix (the base most significant): the chosen heaps'
                // generators, then the others' elements scaled past the cyclic parts.
                let scale = product_size(&factors, self.limit)? / factors[0].size();
                let mut heap: Vec<u32> = heap
                    .iter()
                    .map(|&e| number[e as usize].expect("in the submonoid") * scale as u32)
                    .collect();
                let mut after = scale;
                for (&i, cyclic) in chosen.iter().zip(&factors[1..]) {
                    after /= cyclic.size();
                    heap[involved[i].0] = after as u32;
                }
                let candidate =
                    Presentation::marked(factors, &heap, &self.options, self.limit, poll)?;
                if candidate.p[candidate.element(failure) as usize] == should_be_p {
                    return Ok(candidate);
                }
            }
        }
        Err(Error::QuotientNotFound { heap: n })
    }
}

/// Every `size`-subset of `0..len`, in lexicographic order.
fn combinations(len: usize, size: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut chosen: Vec<usize> = (0..size).collect();
    loop {
        out.push(chosen.clone());
        let Some(i) = (0..size).rev().find(|&i| chosen[i] < len - size + i) else {
            return out;
        };
        chosen[i] += 1;
        for j in i + 1..size {
            chosen[j] = chosen[j - 1] + 1;
        }
    }
}
