//! Remainders of heaps by a small invariant divisor, written as bytes, a vector at a
//! time (AVX2, looked up at run time). Bytes are what the fold after them reads
//! fastest, and take limits are nearly always below 256.
//!
//! A byte `n = 16 h + l` has `n mod d = (16 h mod d) + (l mod d)`, less `d` if that sum
//! (below `2d`) reaches it: two nibble lookups by byte shuffle and an unsigned
//! minimum, for divisors up to 128. A 16-bit value is divided by Granlund and
//! Montgomery's multiply-high with an add (Hacker's Delight, 10-8), exact for every
//! value and divisor, in seven instructions for sixteen values; the remainders below
//! 256 are then packed to bytes. 32-bit values (and 64-bit ones below 2^32) go by
//! their two 16-bit halves (`quads_avx2`).
use super::lemire::{Mod16, Mod8};
use crate::base::cpu;

/// `out[i] = values[i] mod d` for divisors up to 128, where the CPU has AVX2 (not
/// forced off by `NIMKIT_SIMD`); false, with `out` unspecified, otherwise.
pub fn rem_bytes(values: &[u8], out: &mut [u8], m: Mod8) -> bool {
    #[cfg(target_arch = "x86_64")]
    if m.divisor() <= 128 && cpu::avx2() {
        // SAFETY: the CPU has just been seen to support AVX2.
        unsafe { bytes_avx2(values, out, m) };
        return true;
    }
    let _ = (values, out, m);
    false
}

/// `out[i] = values[i] mod d` for divisors up to 256, where the CPU has AVX2 (not
/// forced off); false, with `out` unspecified, otherwise.
pub fn rem_pairs(values: &[u16], out: &mut [u8], m: Mod16) -> bool {
    #[cfg(target_arch = "x86_64")]
    if m.divisor() <= 256 && cpu::avx2() {
        // SAFETY: the CPU has just been seen to support AVX2.
        unsafe { pairs_avx2(values, out, m) };
        return true;
    }
    let _ = (values, out, m);
    false
}

/// `out[i] = values[i] mod d` for divisors up to 256, where the CPU has AVX2 (not
/// forced off); false, with `out` unspecified, otherwise.
pub fn rem_quads(values: &[u32], out: &mut [u8], d: u32) -> bool {
    #[cfg(target_arch = "x86_64")]
    if (1..=256).contains(&d) && cpu::avx2() {
        // SAFETY: the CPU has just been seen to support AVX2.
        unsafe { quads_avx2(values, out, d) };
        return true;
    }
    let _ = (values, out, d);
    false
}

/// `out[i] = values[i] mod d` for divisors up to 256 where every value is below
/// 2^32 (as heaps nearly always are; they then go as 32-bit values) and the CPU has
/// AVX2 (not forced off); false, with `out` unspecified, otherwise.
pub fn rem_octs(values: &[u64], out: &mut [u8], d: u64) -> bool {
    #[cfg(target_arch = "x86_64")]
    if (1..=256).contains(&d) && cpu::avx2() && values.iter().fold(0, |or, &n| or | n) >> 32 == 0 {
        // SAFETY: the CPU has just been seen to support AVX2.
        unsafe { quads_avx2(values, out, d as u32) };
        return true;
    }
    let _ = (values, out, d);
    false
}

/// Values that go to `quads_avx2` as 32 bits (64-bit ones already known to fit).
#[cfg(target_arch = "x86_64")]
trait Quad: Copy {
    /// The 8 values at the start of `v` (which holds at least 8) as 32-bit lanes.
    fn load8(v: &[Self]) -> std::arch::x86_64::__m256i;
    fn low(self) -> u32;
}

#[cfg(target_arch = "x86_64")]
impl Quad for u32 {
    #[inline(always)]
    fn load8(v: &[u32]) -> std::arch::x86_64::__m256i {
        assert!(v.len() >= 8);
        // SAFETY: 32 bytes are read from 8 values.
        unsafe { std::arch::x86_64::_mm256_loadu_si256(v.as_ptr().cast()) }
    }
    fn low(self) -> u32 {
        self
    }
}

#[cfg(target_arch = "x86_64")]
impl Quad for u64 {
    /// The low halves of two vectors, in order.
    #[inline(always)]
    fn load8(v: &[u64]) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        assert!(v.len() >= 8);
        // SAFETY: 64 bytes are read from 8 values; AVX2 is what `quads_avx2`, the
        // only caller, is compiled for.
        unsafe {
            let a = _mm256_castsi256_ps(_mm256_loadu_si256(v.as_ptr().cast()));
            let b = _mm256_castsi256_ps(_mm256_loadu_si256(v[4..].as_ptr().cast()));
            let lows = _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(a, b));
            _mm256_permute4x64_epi64::<0b11_01_10_00>(lows)
        }
    }
    fn low(self) -> u32 {
        self as u32
    }
}

/// `(i * place) mod d` for the sixteen nibbles `i`, in both lanes; counted up rather
/// than divided, as a block is only 2048 values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn table(place: u32, d: u32) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let (step, mut t, mut table) = (place % d, 0, [0u8; 16]);
    for entry in &mut table {
        *entry = t as u8;
        t = if t + step >= d {
            t + step - d
        } else {
            t + step
        };
    }
    // SAFETY: 16 bytes are read from a 16-byte array.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(table.as_ptr().cast()) })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn bytes_avx2(values: &[u8], out: &mut [u8], m: Mod8) {
    use std::arch::x86_64::*;
    let d = u32::from(m.divisor());
    let (low, high) = (table(1, d), table(16, d));
    let (nibble, divisor) = (_mm256_set1_epi8(0x0f), _mm256_set1_epi8(d as u8 as i8));
    let mut vectors = values.chunks_exact(32);
    for (v, o) in vectors.by_ref().zip(out.chunks_exact_mut(32)) {
        // SAFETY: 32 bytes are read from and written to 32-byte chunks.
        unsafe {
            let v = _mm256_loadu_si256(v.as_ptr().cast());
            let l = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
            let h = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
            let sum = _mm256_add_epi8(l, _mm256_shuffle_epi8(high, h));
            let rem = _mm256_min_epu8(sum, _mm256_sub_epi8(sum, divisor));
            _mm256_storeu_si256(o.as_mut_ptr().cast(), rem);
        }
    }
    let done = values.len() - vectors.remainder().len();
    for (o, &n) in out[done..].iter_mut().zip(vectors.remainder()) {
        *o = m.remainder(n);
    }
}

/// Remainders of sixteen 16-bit lanes by `d` in 2..=256 (Granlund and Montgomery).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Divide16 {
    magic: std::arch::x86_64::__m256i,
    divisor: std::arch::x86_64::__m256i,
    shift: std::arch::x86_64::__m128i,
}

#[cfg(target_arch = "x86_64")]
impl Divide16 {
    #[target_feature(enable = "avx2")]
    fn new(d: u32) -> Self {
        use std::arch::x86_64::*;
        debug_assert!((2..=256).contains(&d));
        // l = ceil(log2 d); the multiplier is 2^16 (2^l - d) / d + 1, below 2^16.
        let l = 32 - (d - 1).leading_zeros();
        let magic = ((1u64 << 16) * ((1u64 << l) - u64::from(d)) / u64::from(d) + 1) as u16;
        Divide16 {
            magic: _mm256_set1_epi16(magic as i16),
            divisor: _mm256_set1_epi16(d as i16),
            shift: _mm_cvtsi32_si128(l as i32 - 1),
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn rem(self, n: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        // `_mm256_mulhi_epu16` is written out: the compiler turns the intrinsic into a
        // widened multiply, which it splits in two, widening both operands and packing
        // the products (three times the instructions).
        let t: __m256i;
        // SAFETY: one AVX2 instruction on registers; the CPU has AVX2.
        unsafe {
            std::arch::asm!(
                "vpmulhuw {t}, {n}, {m}",
                t = lateout(ymm_reg) t,
                n = in(ymm_reg) n,
                m = in(ymm_reg) self.magic,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        let half = _mm256_srli_epi16::<1>(_mm256_sub_epi16(n, t));
        let q = _mm256_srl_epi16(_mm256_add_epi16(t, half), self.shift);
        _mm256_sub_epi16(n, _mm256_mullo_epi16(q, self.divisor))
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn pairs_avx2(values: &[u16], out: &mut [u8], m: Mod16) {
    use std::arch::x86_64::*;
    let d = m.divisor();
    if d == 1 {
        out[..values.len()].fill(0);
        return;
    }
    let divide = Divide16::new(d);
    // SAFETY: 32 bytes are read from 16-value chunks.
    let rem = |v: &[u16]| divide.rem(unsafe { _mm256_loadu_si256(v.as_ptr().cast()) });
    let mut vectors = values.chunks_exact(32);
    for (v, o) in vectors.by_ref().zip(out.chunks_exact_mut(32)) {
        // Remainders below 256 pack to bytes exactly; the pack interleaves the two
        // vectors' 128-bit halves, which the permutation puts back in order.
        let (a, b) = (rem(&v[..16]), rem(&v[16..]));
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b));
        // SAFETY: 32 bytes are written to a 32-byte chunk.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), packed) };
    }
    let done = values.len() - vectors.remainder().len();
    for (o, &n) in out[done..].iter_mut().zip(vectors.remainder()) {
        *o = m.remainder(n) as u8;
    }
}

/// 32-bit values: `n = 2^16 h + l` has `n = (h mod d) (2^16 mod d) + (l mod d)` modulo
/// `d`, below 65281: both halves' remainders at once, that sum, and its remainder,
/// two vectors' sums packed into one.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn quads_avx2<T: Quad>(values: &[T], out: &mut [u8], d: u32) {
    use std::arch::x86_64::*;
    if d == 1 {
        out[..values.len()].fill(0);
        return;
    }
    let divide = Divide16::new(d);
    let (weight, low) = (
        _mm256_set1_epi32(((1 << 16) % d) as i32),
        _mm256_set1_epi32(0xffff),
    );
    // Eight values' sums, each below 65281 in a 32-bit lane.
    let sums = |v: &[T]| {
        let halves = divide.rem(T::load8(v));
        // A 16-bit product (below 2^16): the compiler rewrites `madd` of known
        // small values into slower shuffles.
        let high = _mm256_mullo_epi16(_mm256_srli_epi32::<16>(halves), weight);
        _mm256_add_epi32(_mm256_and_si256(halves, low), high)
    };
    // Sixteen values' remainders in 16-bit lanes: the sums pack exactly to 16 bits,
    // so that one division serves both vectors.
    let rem = |v: &[T]| divide.rem(_mm256_packus_epi32(sums(v), sums(&v[8..])));
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    let mut vectors = values.chunks_exact(32);
    for (v, o) in vectors.by_ref().zip(out.chunks_exact_mut(32)) {
        // Remainders below 256 pack to bytes exactly. The two packs leave each 128-bit
        // half with its four values of each of the four loads in turn, which the
        // permutation interleaves.
        let packed = _mm256_packus_epi16(rem(v), rem(&v[16..]));
        let packed = _mm256_permutevar8x32_epi32(packed, order);
        // SAFETY: 32 bytes are written to a 32-byte chunk.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), packed) };
    }
    let done = values.len() - vectors.remainder().len();
    for (o, &n) in out[done..].iter_mut().zip(vectors.remainder()) {
        *o = (n.low() % d) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::{rem_bytes, rem_octs, rem_pairs, rem_quads};
    use crate::batch::lemire::{Mod16, Mod8};

    /// Whether the vector kernels must run: the CPU has AVX2 and it is not forced off.
    fn vectors() -> bool {
        crate::base::cpu::avx2()
    }

    #[test]
    fn byte_remainders_are_exact() {
        let values: Vec<u8> = (0..=u8::MAX).chain(0..77).collect();
        for d in 1..=u8::MAX {
            let mut out = vec![0; values.len()];
            let taken = rem_bytes(&values, &mut out, Mod8::new(d));
            assert_eq!(taken, vectors() && d <= 128, "mod {d}");
            if taken {
                let expected: Vec<u8> = values.iter().map(|n| n % d).collect();
                assert_eq!(out, expected, "mod {d}");
            }
        }
    }

    /// Every 16-bit value by every divisor the kernel takes, and a tail past the
    /// last whole vector.
    #[test]
    fn pair_remainders_are_exact() {
        let values: Vec<u16> = (0..=u16::MAX).chain(0..77).collect();
        let mut out = vec![0; values.len()];
        for d in 1..=300 {
            let taken = rem_pairs(&values, &mut out, Mod16::new(d));
            assert_eq!(taken, vectors() && d <= 256, "mod {d}");
            if taken {
                for (&n, &r) in values.iter().zip(&out) {
                    assert_eq!(u16::from(r), n % d, "{n} mod {d}");
                }
            }
        }
    }

    /// 32-bit values (and the same as 64 bits) with every pair of halves' extremes and
    /// a pseudo-random spread, by every divisor the kernels take.
    #[test]
    fn quad_remainders_are_exact() {
        let edges = [0u32, 1, 2, 255, 256, 0x7fff, 0x8000, 0xfffe, 0xffff];
        let mut values: Vec<u32> = edges
            .iter()
            .flat_map(|&h| edges.iter().map(move |&l| h << 16 | l))
            .collect();
        let mut x = 0x9e37_79b9u32;
        values.extend((0..20_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        }));
        let wide: Vec<u64> = values.iter().map(|&n| u64::from(n)).collect();
        let mut out = vec![0; values.len()];
        for d in 1..=300 {
            let taken = rem_quads(&values, &mut out, d);
            assert_eq!(taken, vectors() && d <= 256, "mod {d}");
            if taken {
                for (&n, &r) in values.iter().zip(&out) {
                    assert_eq!(u32::from(r), n % d, "{n} mod {d}");
                }
            }
            out.fill(0);
            let taken = rem_octs(&wide, &mut out, d.into());
            assert_eq!(taken, vectors() && d <= 256, "mod {d}");
            if taken {
                for (&n, &r) in values.iter().zip(&out) {
                    assert_eq!(u32::from(r), n % d, "{n} mod {d} from 64 bits");
                }
            }
        }
        // A 64-bit value past 2^32 leaves the block to the caller.
        let mut past = wide.clone();
        past[5] = 1 << 32;
        assert!(!rem_octs(&past, &mut out, 5));
    }
}
