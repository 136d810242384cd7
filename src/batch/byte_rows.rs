//! The XOR and the OR of every row of 4 or 8 bytes, 32 rows at a time (AVX2, looked
//! up at run time). Compilers fold such a row as one 64-bit word and then narrow each
//! word's result by a chain of packs, four rows a vector; here each row is folded in
//! its lane by shifts, and the lanes' result bytes are gathered by byte shuffles into
//! one vector of 32 results.

/// For the first `done` rows, a multiple of 32: `outs[i] = finish(x, or)`, the XOR
/// and the OR of the bytes of `rows[i]`. `done` is as many rows as fill whole vectors
/// where `M` is 4 or 8 and the CPU has AVX2 (not forced off by `NIMKIT_SIMD`), else 0.
#[inline(always)]
pub fn fold<const M: usize, O>(
    rows: &[[u8; M]],
    outs: &mut [O],
    finish: &impl Fn(u8, u8) -> O,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if (M == 4 || M == 8) && crate::base::cpu::avx2() {
            // SAFETY: the CPU has just been seen to support AVX2.
            return unsafe { fold_avx2::<M, O>(rows.as_flattened(), outs, finish) };
        }
    }
    let _ = (rows, outs, finish);
    0
}

/// `fold` on a CPU with AVX2, for `M` of 4 or 8.
///
/// Rows of 8 bytes are first folded to 4 (the two halves of each 64-bit lane), two
/// vectors blended into one; then every 32-bit lane holds a row of 4 bytes, folded
/// onto its byte 0 by two shifts. Byte shuffles gather those bytes: vector `k` of the
/// four sends its half-lanes' four results to dword `k` of each half. The halves then
/// interleave back into row order: by dwords for 4-byte rows, by words for 8-byte
/// rows (whose blend put rows 0, 4, 1, 5 in a half, which the shuffle orders 0, 1, 4, 5).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fold_avx2<const M: usize, O>(
    bytes: &[u8],
    outs: &mut [O],
    finish: &impl Fn(u8, u8) -> O,
) -> usize {
    use std::arch::x86_64::*;
    let offsets: [i8; 4] = if M == 4 { [0, 4, 8, 12] } else { [0, 8, 4, 12] };
    let gather: [__m256i; 4] = std::array::from_fn(|k| {
        let mut mask = [-1i8; 16];
        mask[4 * k..4 * k + 4].copy_from_slice(&offsets);
        // SAFETY: 16 bytes are read from a 16-byte array.
        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(mask.as_ptr().cast()) })
    });
    // SAFETY (`load`): 32 bytes are read from a chunk of at least 32.
    let load = |v: &[u8]| unsafe { _mm256_loadu_si256(v.as_ptr().cast()) };
    // A vector of rows of 4 bytes, XOR and OR, from 32 (M = 4) or 64 (M = 8) bytes.
    let dwords = |v: &[u8]| {
        if M == 4 {
            let v = load(v);
            return (v, v);
        }
        let (a, b) = (load(v), load(&v[32..]));
        let (ax, bx) = (_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
        let x = _mm256_blend_epi32::<0b1010_1010>(
            _mm256_xor_si256(a, ax),
            _mm256_slli_epi64::<32>(_mm256_xor_si256(b, bx)),
        );
        let o = _mm256_blend_epi32::<0b1010_1010>(
            _mm256_or_si256(a, ax),
            _mm256_slli_epi64::<32>(_mm256_or_si256(b, bx)),
        );
        (x, o)
    };
    let store = |v: __m256i, out: &mut [u8; 32]| {
        let (low, high) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let (first, second) = if M == 4 {
            (_mm_unpacklo_epi32(low, high), _mm_unpackhi_epi32(low, high))
        } else {
            (_mm_unpacklo_epi16(low, high), _mm_unpackhi_epi16(low, high))
        };
        // SAFETY: 32 bytes are written to a 32-byte array.
        unsafe {
            _mm_storeu_si128(out.as_mut_ptr().cast(), first);
            _mm_storeu_si128(out[16..].as_mut_ptr().cast(), second);
        }
    };
    let mut done = 0;
    for (group, outs) in bytes.chunks_exact(32 * M).zip(outs.chunks_exact_mut(32)) {
        let (mut xa, mut oa) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for (k, v) in group.chunks_exact(8 * M).enumerate() {
            let (x, o) = dwords(v);
            let x = _mm256_xor_si256(x, _mm256_srli_epi32::<16>(x));
            let x = _mm256_xor_si256(x, _mm256_srli_epi32::<8>(x));
            let o = _mm256_or_si256(o, _mm256_srli_epi32::<16>(o));
            let o = _mm256_or_si256(o, _mm256_srli_epi32::<8>(o));
            xa = _mm256_or_si256(xa, _mm256_shuffle_epi8(x, gather[k]));
            oa = _mm256_or_si256(oa, _mm256_shuffle_epi8(o, gather[k]));
        }
        let (mut xs, mut ors) = ([0; 32], [0; 32]);
        store(xa, &mut xs);
        store(oa, &mut ors);
        for ((out, &x), &or) in outs.iter_mut().zip(&xs).zip(&ors) {
            *out = finish(x, or);
        }
        done += 32;
    }
    done
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    fn agrees<const M: usize>(flat: &[u8]) {
        let rows = flat.as_chunks::<M>().0;
        let mut outs = vec![(0, 0); rows.len()];
        let done = super::fold(rows, &mut outs, &|x, or| (x, or));
        assert_eq!(done % 32, 0);
        assert!(done <= rows.len());
        for (i, row) in rows[..done].iter().enumerate() {
            let x = row.iter().fold(0, |a, &b| a ^ b);
            let or = row.iter().fold(0, |a, &b| a | b);
            assert_eq!(outs[i], (x, or), "row {i}");
        }
    }

    /// Where the CPU has AVX2 (not forced off), every whole vector of rows is done.
    #[test]
    fn whole_vectors_are_done_where_the_cpu_has_avx2() {
        let vectors = cfg!(target_arch = "x86_64") && crate::base::cpu::avx2();
        let mut outs = [0; 70];
        let done = super::fold(&[[1u8; 4]; 70], &mut outs, &|x, _| x);
        assert_eq!(done, if vectors { 64 } else { 0 });
        assert_eq!(super::fold(&[[1u8; 3]; 70], &mut outs, &|x, _| x), 0);
    }

    proptest! {
        #[test]
        fn rows_of_four_and_eight_bytes(flat in proptest::collection::vec(any::<u8>(), 0..2000)) {
            agrees::<4>(&flat);
            agrees::<8>(&flat);
        }
    }
}
