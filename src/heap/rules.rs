//! The rules of a take-away game: how it ends, and what a move may do to each heap.
use crate::base::error::{Error, Result};
use crate::heap::HeapRule;

/// The heap rule of every heap: one for all, or one per heap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TakeLimit {
    /// The same rule for every heap.
    Uniform(HeapRule),
    /// One rule per heap (none of which splits: the heaps a split makes need a rule).
    PerHeap(Vec<HeapRule>),
}

impl Default for TakeLimit {
    fn default() -> Self {
        TakeLimit::Uniform(HeapRule::Nim)
    }
}

impl TakeLimit {
    /// One rule per heap, from anything that converts (e.g. `Option<u64>` limits).
    pub fn per_heap<T: Into<HeapRule>>(takes: impl IntoIterator<Item = T>) -> Self {
        TakeLimit::PerHeap(takes.into_iter().map(Into::into).collect())
    }

    /// A take limit `k` for every heap.
    pub fn limit(k: u64) -> Self {
        TakeLimit::Uniform(HeapRule::Limit(k))
    }
}

/// Normal play (taking the last object wins) or misère play (it loses), and a take limit.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    misere: bool,
    limit: TakeLimit,
}

impl Rules {
    /// Validated rules: every take limit is at least 1, and a rule that splits is the
    /// rule of every heap.
    pub fn new(misere: bool, limit: TakeLimit) -> Result<Self> {
        match &limit {
            TakeLimit::Uniform(rule) => rule.check(None)?,
            TakeLimit::PerHeap(rules) => {
                for (heap, rule) in rules.iter().enumerate() {
                    rule.check(Some(heap))?;
                    if let Some(code) = rule.as_code().filter(|code| code.splits()) {
                        return Err(Error::SplitPerHeap { code: code.code() });
                    }
                }
            }
        }
        Ok(Rules { misere, limit })
    }

    /// Plain Nim, normal play.
    pub fn normal() -> Self {
        Rules::default()
    }

    /// Plain Nim, misère play.
    pub fn misere() -> Self {
        Rules {
            misere: true,
            limit: TakeLimit::default(),
        }
    }

    pub fn is_misere(&self) -> bool {
        self.misere
    }

    pub fn take_limit(&self) -> &TakeLimit {
        &self.limit
    }

    /// The rule of every heap, when the heaps share one.
    pub fn uniform(&self) -> Option<&HeapRule> {
        match &self.limit {
            TakeLimit::Uniform(rule) => Some(rule),
            TakeLimit::PerHeap(_) => None,
        }
    }

    /// What a move may do to heap `heap`. Call `check_heaps` first.
    #[inline]
    pub fn take_for(&self, heap: usize) -> &HeapRule {
        match &self.limit {
            TakeLimit::Uniform(rule) => rule,
            TakeLimit::PerHeap(rules) => &rules[heap],
        }
    }

    /// Every distinct heap rule.
    fn each(&self) -> &[HeapRule] {
        match &self.limit {
            TakeLimit::Uniform(rule) => std::slice::from_ref(rule),
            TakeLimit::PerHeap(rules) => rules,
        }
    }

    /// Whether some move may split a heap (positions then change their heap count,
    /// and searches run over multisets of heaps, not boxes).
    pub fn splits(&self) -> bool {
        self.each().iter().any(HeapRule::splits)
    }

    /// Whether some heap follows a take-and-break code.
    pub fn has_code(&self) -> bool {
        self.each().iter().any(|rule| rule.as_code().is_some())
    }

    /// Check a position against the rules: the heap count, and for codes, that the
    /// Grundy value of every heap is within reach (computed or given by a period).
    pub fn check_position(&self, heaps: &[u64]) -> Result<()> {
        self.check_heaps(heaps.len())?;
        self.check_heaps_up_to(heaps.iter().copied().max().unwrap_or(0))
    }

    /// For codes: refuse to search the options of heaps up to `top` for every winning
    /// move when a heap has more than `code::MAX_SCANNED_OPTIONS`.
    pub fn check_scan_up_to(&self, top: u64) -> Result<()> {
        self.each()
            .iter()
            .try_for_each(|rule| rule.check_scan(top, false))
    }

    /// As `check_scan_up_to`, for a search for the first winning move in normal play,
    /// which may go by classes of equal Grundy values once a period is proven.
    pub fn check_scan_by_class_up_to(&self, top: u64) -> Result<()> {
        self.each()
            .iter()
            .try_for_each(|rule| rule.check_scan(top, true))
    }

    /// For codes: make the Grundy value of every heap up to `top` within reach.
    pub fn check_heaps_up_to(&self, top: u64) -> Result<()> {
        self.each().iter().try_for_each(|rule| rule.ensure(top))
    }

    /// Whether the closed forms decide outcomes: always in normal play (Grundy values
    /// and their XOR), in misère play only for Nim with take limits (and sets that
    /// are {1..k}). Misère play of general subtraction sets is not governed by the
    /// XOR rule: it needs search. Take-and-break codes in misère play need search too.
    pub fn has_closed_form(&self) -> bool {
        !self.misere
            || !self
                .each()
                .iter()
                .any(|rule| rule.is_general_set() || rule.as_code().is_some())
    }

    /// Per-heap rules must come one per heap.
    pub fn check_heaps(&self, heaps: usize) -> Result<()> {
        match &self.limit {
            TakeLimit::PerHeap(rules) if rules.len() != heaps => Err(Error::LimitCount {
                limits: rules.len(),
                heaps,
            }),
            _ => Ok(()),
        }
    }
}
