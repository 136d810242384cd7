//! Keys of the components of a graph. A component is looked up by its vertex set (a
//! copy of a few words); one about to be searched is looked up again by its
//! canonical key, so that copies of a component under other vertex labels share one
//! value: for a component of at most 64 vertices, its size and the rows of its
//! adjacency matrix under a canonical labelling (individualisation and refinement,
//! by the `canonical-form` crate), which two components share exactly when they are
//! isomorphic. A labelling costs tens of times a look-up, so it is not asked at each
//! look-up. Keys by vertex set start with a word no canonical key starts with, so
//! that the two kinds share a table and never meet.
use canonical_form::Canonize;
use smallvec::SmallVec;

use super::vertex::members;

/// The largest component keyed up to isomorphism (one word a row).
pub const MOST: usize = 64;

/// The first word of a key by vertex set: a canonical key starts with its size.
const BY_SET: u64 = u64::MAX;

/// A graph of at most 64 vertices: the rows of its adjacency matrix.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Small(SmallVec<[u64; 16]>);

impl Canonize for Small {
    fn size(&self) -> usize {
        self.0.len()
    }

    fn apply_morphism(&self, p: &[usize]) -> Self {
        let mut rows = SmallVec::from_elem(0u64, self.0.len());
        for (u, &row) in self.0.iter().enumerate() {
            rows[p[u]] = bits(row).fold(0, |image, v| image | 1 << p[v]);
        }
        Small(rows)
    }

    fn invariant_color(&self, u: usize) -> u64 {
        u64::from(self.0[u].count_ones())
    }

    fn invariant_neighborhood(&self, u: usize) -> impl Iterator<Item = (usize, u64)> {
        bits(self.0[u]).map(|v| (v, 0))
    }
}

fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            bit
        })
    })
}

/// The key of a component by its vertex set.
pub fn by_set<K: FromIterator<u64>>(set: &[u64]) -> K {
    std::iter::once(BY_SET).chain(set.iter().copied()).collect()
}

/// The canonical key of the component `set` of the graph whose neighbourhoods are
/// `adjacency`: the same for every component isomorphic to it, None past 64
/// vertices.
pub fn canonical<K: FromIterator<u64>>(set: &[u64], adjacency: &[impl AsRef<[u64]>]) -> Option<K> {
    if set.iter().map(|w| w.count_ones() as usize).sum::<usize>() > MOST {
        return None;
    }
    let vertices: SmallVec<[usize; MOST]> = members(set).collect();
    // The component's own numbering: its vertices in increasing order.
    let mut rows: SmallVec<[u64; 16]> = SmallVec::with_capacity(vertices.len());
    for &v in &vertices {
        let mut row = 0u64;
        for (w, (&a, &s)) in adjacency[v].as_ref().iter().zip(set).enumerate() {
            for bit in bits(a & s) {
                let i = vertices
                    .binary_search(&(w * 64 + bit))
                    .expect("a neighbour in the set is a member");
                row |= 1 << i;
            }
        }
        rows.push(row);
    }
    let canonical = Small(rows).canonical();
    Some(
        std::iter::once(vertices.len() as u64)
            .chain(canonical.0)
            .collect(),
    )
}
