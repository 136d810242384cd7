//! The labels' legal actions where every heap takes any of `1..=k_i`: action
//! `(t - 1) * m + i` is legal when `t <= min(n_i, k_i)`. With AVX2, thirty-two
//! actions at a time: a byte shuffle gathers each action's heap's cap, one compare
//! against its take. A learning environment writes these bytes at every step, where
//! reading a table of bits per heap and spreading them into bytes cost a third of it.
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use crate::base::cpu;

/// Bytes a step of the loop writes.
const LANES: usize = 32;

/// Each action's heap and take as bytes, for boards of at most 16 heaps (the shuffle
/// reads one 16-byte lane), takes of at most 255 and at least 32 actions.
pub struct CapBytes {
    /// The action's heap, or 0x80 (the shuffle's zero) for the last id, which names
    /// no move.
    heap: Vec<u8>,
    take: Vec<u8>,
    limits: Vec<u64>,
}

impl CapBytes {
    /// `None` where the CPU lacks AVX2, `NIMKIT_SIMD=scalar` asks for the portable
    /// path or the board is outside the bounds above.
    pub fn new(max_take: u64, limits: &[u64]) -> Option<Self> {
        let m = limits.len();
        let actions = m * max_take as usize + 1;
        if !available() || m > 16 || max_take > 255 || actions < LANES {
            return None;
        }
        let (mut heap, mut take): (Vec<u8>, Vec<u8>) = (0..actions - 1)
            .map(|a| ((a % m) as u8, (a / m + 1) as u8))
            .unzip();
        heap.push(0x80);
        take.push(1);
        Some(CapBytes {
            heap,
            take,
            limits: limits.to_vec(),
        })
    }

    /// Write `row`'s legal actions into `legal` and clear `winning` (both hold one
    /// entry per action).
    #[inline]
    pub fn write(&self, row: &[u64], legal: &mut [bool], winning: &mut [bool]) {
        assert!(legal.len() == self.heap.len() && winning.len() == self.heap.len());
        let mut caps = [0u8; 16];
        for ((c, &n), &k) in caps.iter_mut().zip(row).zip(&self.limits) {
            *c = n.min(k).min(255) as u8;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `new` made this only where the CPU has AVX2; the lengths are checked.
        unsafe {
            write_avx2(&caps, &self.heap, &self.take, legal, winning)
        }
    }
}

fn available() -> bool {
    cpu::avx2()
}

/// `legal[a] = take[a] <= caps[heap[a]]`, `winning[a] = false`; all four slices have
/// the same length, at least `LANES`. The last block overlaps the one before it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn write_avx2(
    caps: &[u8; 16],
    heap: &[u8],
    take: &[u8],
    legal: &mut [bool],
    winning: &mut [bool],
) {
    let len = heap.len();
    let caps = _mm256_broadcastsi128_si256(_mm_loadu_si128(caps.as_ptr().cast()));
    let (one, zero) = (_mm256_set1_epi8(1), _mm256_setzero_si256());
    let starts = (0..len - LANES).step_by(LANES).chain([len - LANES]);
    for at in starts {
        let h = _mm256_loadu_si256(heap.as_ptr().add(at).cast());
        let t = _mm256_loadu_si256(take.as_ptr().add(at).cast());
        let cap = _mm256_shuffle_epi8(caps, h);
        let ok = _mm256_cmpeq_epi8(_mm256_max_epu8(cap, t), cap);
        // Only 0 and 1 are stored: valid bools.
        _mm256_storeu_si256(legal.as_mut_ptr().add(at).cast(), _mm256_and_si256(ok, one));
        _mm256_storeu_si256(winning.as_mut_ptr().add(at).cast(), zero);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn agrees_with_the_rule(
            limits in prop::collection::vec(1u64..300, 1..=16),
            max_take in 1u64..=255,
            seed in any::<u64>(),
        ) {
            let Some(caps) = CapBytes::new(max_take, &limits) else {
                return Ok(());
            };
            let m = limits.len();
            let actions = m * max_take as usize + 1;
            let mut state = seed;
            let row: Vec<u64> = (0..m)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (state >> 33) % 400
                })
                .collect();
            let (mut legal, mut winning) = (vec![false; actions], vec![true; actions]);
            caps.write(&row, &mut legal, &mut winning);
            for (a, &l) in legal.iter().enumerate() {
                let (i, t) = (a % m, (a / m + 1) as u64);
                let wanted = a < actions - 1 && t <= row[i].min(limits[i]);
                prop_assert_eq!(l, wanted, "action {}", a);
            }
            prop_assert!(winning.iter().all(|&w| !w));
        }
    }
}
