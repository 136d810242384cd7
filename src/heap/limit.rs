//! A take limit `k`: a move takes 1 to `k` objects from one heap, so a heap of `n` is
//! worth `n mod (k + 1)` (its options `n - 1 .. n - k` have every other remainder).
use super::nim;

/// The Grundy value of a heap of `n` under the take limit `k`.
#[inline]
pub fn grundy(n: u64, k: u64) -> u64 {
    // A limit of u64::MAX never binds: every heap is smaller than k + 1 = 2^64.
    match k.checked_add(1) {
        Some(modulus) => n % modulus,
        None => n,
    }
}

/// How many to take from a heap of `n` with Grundy value `g` to leave Grundy value
/// `target`, if one move does it; `modulus` is `k + 1` (`None`: no binding limit,
/// Nim). The reachable heaps `n-k..n-1` have distinct remainders, so at most one
/// move reaches each target.
#[inline]
pub fn take_from(n: u64, g: u64, modulus: Option<u64>, target: u64) -> Option<u64> {
    let Some(modulus) = modulus else {
        return nim::take_to(n, target);
    };
    if target < g {
        Some(g - target)
    } else if target > g && target < modulus {
        // Wrap down through a multiple of k + 1: take g + 1 + (k - target).
        let take = modulus - (target - g);
        (take <= n).then_some(take)
    } else {
        None
    }
}
