//! Keys of the components of a graph. A component is looked up by its vertex set (a
//! copy of a few words); one about to be searched is looked up again by its
//! canonical key, so that copies of a component under other vertex labels share one
//! value: its size and the rows of its adjacency matrix under a canonical labelling
//! (individualisation and refinement, by the `canonical-form` crate), which two
//! components share exactly when they are isomorphic. A labelling costs tens of times a look-up, so it is not asked at each
//! look-up. Keys by vertex set start with a word no canonical key starts with, so
//! that the two kinds share a table and never meet.
use canonical_form::Canonize;
use smallvec::SmallVec;

use super::sets::members;

/// The first word of a key by vertex set: a canonical key starts with its size.
pub const BY_SET: u64 = u64::MAX;

/// A graph: the rows of its adjacency matrix, `words` words each.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Rows {
    words: usize,
    bits: SmallVec<[u64; 16]>,
}

impl Rows {
    fn row(&self, u: usize) -> &[u64] {
        &self.bits[u * self.words..(u + 1) * self.words]
    }
}

impl Canonize for Rows {
    fn size(&self) -> usize {
        self.bits.len() / self.words
    }

    fn apply_morphism(&self, p: &[usize]) -> Self {
        let mut bits = SmallVec::from_elem(0u64, self.bits.len());
        for (u, &image) in p.iter().enumerate() {
            for v in members(self.row(u)) {
                bits[image * self.words + p[v] / 64] |= 1 << (p[v] % 64);
            }
        }
        Rows {
            words: self.words,
            bits,
        }
    }

    fn invariant_color(&self, u: usize) -> u64 {
        self.row(u).iter().map(|w| u64::from(w.count_ones())).sum()
    }

    fn invariant_neighborhood(&self, u: usize) -> impl Iterator<Item = (usize, u64)> {
        members(self.row(u)).map(|v| (v, 0))
    }
}

/// The key of a component by its vertex set.
pub fn by_set<K: FromIterator<u64>>(set: &[u64]) -> K {
    std::iter::once(BY_SET).chain(set.iter().copied()).collect()
}

/// The words of the canonical key of a component of `n` vertices.
pub fn key_words(n: usize) -> usize {
    1 + n * n.div_ceil(64)
}

/// The canonical key of the component `set` of the graph whose neighbourhoods are
/// `adjacency`: the same for every component isomorphic to it (its size, then the
/// rows of its adjacency matrix under a canonical labelling, `n.div_ceil(64)` words
/// a row).
pub fn canonical<K: FromIterator<u64>>(set: &[u64], adjacency: &[impl AsRef<[u64]>]) -> K {
    let vertices: Vec<usize> = members(set).collect();
    let words = vertices.len().div_ceil(64).max(1);
    // The component's own numbering: its vertices in increasing order.
    let mut rows = Rows {
        words,
        bits: SmallVec::from_elem(0u64, vertices.len() * words),
    };
    for (u, &v) in vertices.iter().enumerate() {
        for (w, (&a, &s)) in adjacency[v].as_ref().iter().zip(set).enumerate() {
            for bit in members(&[a & s]) {
                let i = vertices
                    .binary_search(&(w * 64 + bit))
                    .expect("a neighbour in the set is a member");
                rows.bits[u * words + i / 64] |= 1 << (i % 64);
            }
        }
    }
    let canonical = rows.canonical();
    std::iter::once(vertices.len() as u64)
        .chain(canonical.bits)
        .collect()
}
