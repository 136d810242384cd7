//! A computed misère quotient and what it answers: the outcome of any position of
//! the heaps it covers (every heap once the heap-to-element map is proven periodic).
use super::monoid::Monoid;
use crate::base::error::{Error, Result};
use crate::heap::code::{Scan, TakeAndBreak};
use crate::heap::position::Move;
use crate::heap::{periodic, HeapMove};

#[derive(Clone, Debug, PartialEq)]
pub struct MisereQuotient {
    pub monoid: Monoid,
    /// Whether each element is in the P-portion.
    pub p: Vec<bool>,
    /// Each heap's element, heaps `0..=max_heap`.
    pub heap: Vec<u32>,
    /// Heaps at which the quotient grew.
    pub changes: Vec<usize>,
    /// `(preperiod, period)` of the heap-to-element map, once proven.
    pub period: Option<(usize, usize)>,
}

impl MisereQuotient {
    pub fn order(&self) -> usize {
        self.monoid.size()
    }

    pub fn max_heap(&self) -> usize {
        self.heap.len() - 1
    }

    /// The elements in the P-portion.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order() as u32)
            .filter(|&x| self.p[x as usize])
            .collect()
    }

    /// The element of a heap of `n`.
    pub fn element(&self, n: u64) -> Result<u32> {
        if let Some(&x) = usize::try_from(n).ok().and_then(|n| self.heap.get(n)) {
            return Ok(x);
        }
        let (pre, p) = self.period.ok_or(Error::BeyondQuotient {
            heap: n,
            max_heap: self.max_heap(),
        })?;
        Ok(self.heap[pre + ((n - pre as u64) % p as u64) as usize])
    }

    /// The element of a position (the product of its heaps' elements).
    pub fn element_of(&self, heaps: &[u64]) -> Result<u32> {
        heaps
            .iter()
            .try_fold(0, |x, &n| Ok(self.monoid.product(x, self.element(n)?)))
    }

    /// Whether the position is a misère P-position.
    pub fn is_p(&self, heaps: &[u64]) -> Result<bool> {
        Ok(self.p[self.element_of(heaps)? as usize])
    }

    /// Preperiod plus period of the heap-to-element map, once proven: where the scan
    /// of a heap's options may go by classes of equal elements.
    pub fn reach(&self) -> Option<u64> {
        self.period.map(|(pre, p)| periodic::reach(pre, p))
    }

    /// Whether every heap of `heaps` has an element (computed, or from the period).
    pub fn covers(&self, heaps: &[u64]) -> bool {
        self.period.is_some() || heaps.iter().all(|&n| n <= self.max_heap() as u64)
    }

    /// Every move of `heaps` under `rule` (the quotient's code) to a P-position: the
    /// product of the other heaps' elements and the option's is in the P-portion.
    /// In heap order, then in the order of the code's options, of those `scan` looks
    /// through (by classes of options with equal elements, where the period gives
    /// them: `TakeAndBreak::scanned_options`). The caller bounds the options scanned
    /// (`TakeAndBreak::check_scan` with `reach`).
    pub fn winning_moves(
        &self,
        heaps: &[u64],
        rule: &TakeAndBreak,
        scan: Scan,
    ) -> Result<Vec<Move>> {
        let elements = heaps
            .iter()
            .map(|&n| self.element(n))
            .collect::<Result<Vec<u32>>>()?;
        // rest[i]: the product of every heap but heap i (prefix times suffix).
        let mut suffix = vec![0u32; heaps.len() + 1];
        for i in (0..heaps.len()).rev() {
            suffix[i] = self.monoid.product(elements[i], suffix[i + 1]);
        }
        let mut moves = Vec::new();
        let mut prefix = 0;
        for (i, &n) in heaps.iter().enumerate() {
            let rest = self.monoid.product(prefix, suffix[i + 1]);
            for option in rule.scanned_options(n, self.reach(), scan) {
                let left = self.option_element(n, &option)?;
                if self.p[self.monoid.product(rest, left) as usize] {
                    moves.push(option.on(i));
                }
            }
            prefix = self.monoid.product(prefix, elements[i]);
        }
        Ok(moves)
    }

    /// The element of what `option` leaves of a heap of `n`.
    fn option_element(&self, n: u64, option: &HeapMove) -> Result<u32> {
        match option.into.sizes() {
            [] => self.element(n - option.take),
            parts => self.element_of(parts),
        }
    }
}
