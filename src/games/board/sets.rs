//! Sets of vertices as bitsets, and the keys of components.

use smallvec::SmallVec;

/// A set of vertices, bit `v % 64` of word `v / 64` for vertex `v`.
/// Inline up to 128 vertices (no allocation per option on boards of that size).
pub type Bits = SmallVec<[u64; 2]>;

/// A component's key: equal keys, equal games.
pub(super) type Key = SmallVec<[u64; 3]>;

/// Iterate the vertices of a set.
pub fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + bit
            })
        })
    })
}

pub(super) fn is_empty(set: &[u64]) -> bool {
    set.iter().all(|&w| w == 0)
}

pub(super) fn has(set: &[u64], v: usize) -> bool {
    set[v / 64] >> (v % 64) & 1 == 1
}

/// The bits a component's key sets: a measure that grows with the component.
pub(super) fn key_bits(key: &Key) -> u32 {
    key.iter().map(|w| w.count_ones()).sum()
}

/// The vertices of a whole position by its key (a board's keys hold a few more bits:
/// a measure that grows with the position, for eviction).
pub(super) fn vertices_of(key: &[Key]) -> u32 {
    key.iter().flatten().map(|w| w.count_ones()).sum()
}

/// The bytes `key` holds on the heap (none while it fits in place).
pub(super) fn heap_of(key: &Key) -> usize {
    if key.spilled() {
        key.capacity() * 8
    } else {
        0
    }
}
