//! Nim: a move takes any number of objects from one heap, so a heap of `n` is worth
//! `n` (its options are worth `0..n`, each once).

/// How many to take from a heap of `n` to leave Grundy value `target`: the one move
/// that leaves a heap of `target`, if `target < n`.
#[inline]
pub fn take_to(n: u64, target: u64) -> Option<u64> {
    (target < n).then(|| n - target)
}
