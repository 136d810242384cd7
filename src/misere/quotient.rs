//! A computed misère quotient and what it answers: the outcome of any position of
//! the heaps it covers (every heap once the heap-to-element map is proven periodic).
use super::monoid::Monoid;
use crate::error::{Error, Result};

#[derive(Clone, Debug)]
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
}
