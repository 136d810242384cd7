//! The integer types a heap array may hold, and fast remainders by an invariant divisor.
use std::ops::{BitOr, BitXor};

use strength_reduce::{StrengthReducedU32, StrengthReducedU64};

use super::wide::{self, Wide};

/// An unsigned type the kernels compute in, with its fast remainder.
pub trait UInt:
    HeapInt<U = Self> + Eq + Ord + BitXor<Output = Self> + BitOr<Output = Self>
{
    type Modulus: Copy + Send + Sync;
    /// Whether `rem` is branch-free and vectorises (the Lemire remainders).
    const VECTOR_REM: bool;
    const ZERO: Self;
    const ONE: Self;
    fn to_u64(self) -> u64;
    /// The low bits of `v` (used where `v` is known to fit).
    fn truncate(v: u64) -> Self;
    /// The remainder by `limit + 1`, or `None` when `limit + 1` exceeds every value of
    /// the type (then every heap is its own Grundy value).
    fn modulus(limit: u64) -> Option<Self::Modulus>;
    fn rem(self, modulus: Self::Modulus) -> Self;
    /// `out[i] = values[i].rem(modulus)` for a whole block at once, as 32-bit values,
    /// where a vector unit does it (`wide`: 32- and 64-bit heaps); false, leaving
    /// `out` unspecified, where the caller is to take the remainders one by one.
    fn rem_block(values: &[Self], out: &mut [u32], modulus: Self::Modulus) -> bool;
    /// `out[i] = values[i].rem(modulus)` for a whole block at once where a faster
    /// way than `rem` element by element exists (8- and 16-bit heaps under small
    /// divisors: `nibbles`); false, leaving `out` unspecified, otherwise.
    fn rem_same_block(_values: &[Self], _out: &mut [Self], _modulus: Self::Modulus) -> bool {
        false
    }
}

/// An element type of a heap array: any primitive integer. Signed arrays are checked
/// for negative values first and then read as their unsigned twins.
pub trait HeapInt: bytemuck::Pod + Send + Sync {
    type U: UInt;
    const SIGNED: bool;
    fn is_negative(self) -> bool;
    fn unsigned(self) -> Self::U;
    fn to_i128(self) -> i128;
}

macro_rules! uint {
    ($t:ty, $reduced:ty, $vector:literal, $block:expr) => {
        uint!($t, $reduced, $vector, $block, |_, _, _| false);
    };
    ($t:ty, $reduced:ty, $vector:literal, $block:expr, $same:expr) => {
        impl UInt for $t {
            type Modulus = $reduced;
            const VECTOR_REM: bool = $vector;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn truncate(v: u64) -> Self {
                v as $t
            }
            fn modulus(limit: u64) -> Option<$reduced> {
                let m = limit.checked_add(1)?;
                <$t>::try_from(m).ok().map(|m| <$reduced>::new(m.into()))
            }
            #[inline(always)]
            fn rem(self, modulus: $reduced) -> Self {
                self % modulus
            }
            fn rem_block(values: &[$t], out: &mut [u32], modulus: $reduced) -> bool {
                let block: fn(&[$t], &mut [u32], $reduced) -> bool = $block;
                block(values, out, modulus)
            }
            fn rem_same_block(values: &[$t], out: &mut [$t], modulus: $reduced) -> bool {
                let block: fn(&[$t], &mut [$t], $reduced) -> bool = $same;
                block(values, out, modulus)
            }
        }
    };
}
// 8- and 16-bit remainders vectorise as they are (the Lemire remainders below); 32-
// and 64-bit ones in double precision where the CPU has AVX-512 or AVX2 and FMA.
uint!(u8, Mod8, true, |_, _, _| false, nibbles::rem_bytes);
uint!(u16, Mod16, true, |_, _, _| false, nibbles::rem_pairs);
uint!(u32, StrengthReducedU32, false, |values, out, m| {
    wide::unit().is_some_and(|u| Wide::rem_block(u, values, out, u64::from(m.get())))
});
uint!(u64, StrengthReducedU64, false, |values, out, m| {
    wide::unit().is_some_and(|u| Wide::rem_block(u, values, out, m.get()))
});

macro_rules! heap_int {
    ($t:ty, $u:ty) => {
        impl HeapInt for $t {
            type U = $u;
            const SIGNED: bool = <$t>::MIN != 0;
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn is_negative(self) -> bool {
                self < 0
            }
            #[inline(always)]
            fn unsigned(self) -> $u {
                self as $u
            }
            fn to_i128(self) -> i128 {
                self as i128
            }
        }
    };
}
heap_int!(u8, u8);
heap_int!(u16, u16);
heap_int!(u32, u32);
heap_int!(u64, u64);
heap_int!(i8, u8);
heap_int!(i16, u16);
heap_int!(i32, u32);
heap_int!(i64, u64);

/// Remainder by an invariant divisor without a division and without a branch, so
/// that it vectorises: Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation" (2019). For N-bit operands a 2N-bit fraction is exact: 8-bit heaps
/// work in 16-bit lanes, 16-bit heaps in 32-bit lanes.
macro_rules! lemire {
    ($name:ident, $t:ty, $wide:ty, $wider:ty, $bits:literal) => {
        #[derive(Debug, Clone, Copy)]
        pub struct $name {
            fraction: $wide,
            divisor: $wide,
        }

        impl $name {
            pub fn new(divisor: $t) -> Self {
                assert!(divisor > 0, "a modulus is at least 1");
                // ceil(2^F / d); wraps to 0 for d = 1, which rightly makes every remainder 0.
                let fraction = (<$wide>::MAX / <$wide>::from(divisor)).wrapping_add(1);
                $name {
                    fraction,
                    divisor: <$wide>::from(divisor),
                }
            }

            pub fn divisor(self) -> $wide {
                self.divisor
            }

            #[inline(always)]
            pub fn remainder(self, n: $t) -> $t {
                let low = self.fraction.wrapping_mul(<$wide>::from(n));
                ((<$wider>::from(low) * <$wider>::from(self.divisor)) >> $bits) as $t
            }
        }

        impl std::ops::Rem<$name> for $t {
            type Output = $t;
            #[inline(always)]
            fn rem(self, m: $name) -> $t {
                m.remainder(self)
            }
        }
    };
}
lemire!(Mod8, u8, u16, u32, 16);
lemire!(Mod16, u16, u32, u64, 32);

/// Remainders by table lookups of a nibble each (AVX2's byte shuffle). A byte
/// `n = 16 h + l` has `n mod d = (16 h mod d) + (l mod d)`, less `d` if that sum
/// (below `2d`) reaches it: an unsigned minimum, for divisors up to 128. A 16-bit
/// value's four nibbles give four such terms, the two bytes' sums added in 16-bit
/// lanes (below `4d`), then two minimums, for divisors up to 64. About eight and
/// fifteen vector instructions for 32 bytes, where the multiplications of `Mod8` and
/// `Mod16` widen every value to 32 or 64 bits.
mod nibbles {
    use super::{Mod16, Mod8};

    pub fn rem_bytes(values: &[u8], out: &mut [u8], m: Mod8) -> bool {
        #[cfg(target_arch = "x86_64")]
        if m.divisor() <= 128 && avx2() {
            // SAFETY: the CPU has just been seen to support AVX2.
            unsafe { bytes_avx2(values, out, m) };
            return true;
        }
        let _ = (values, out, m);
        false
    }

    pub fn rem_pairs(values: &[u16], out: &mut [u16], m: Mod16) -> bool {
        #[cfg(target_arch = "x86_64")]
        if m.divisor() <= 64 && avx2() {
            // SAFETY: the CPU has just been seen to support AVX2.
            unsafe { pairs_avx2(values, out, m) };
            return true;
        }
        let _ = (values, out, m);
        false
    }

    #[cfg(target_arch = "x86_64")]
    fn avx2() -> bool {
        use crate::heap::sparse::simd::{self, Path};
        simd::path() != Path::Scalar && std::arch::is_x86_feature_detected!("avx2")
    }

    /// `(i * place) mod d` for the sixteen nibbles `i`, in both lanes; counted up
    /// rather than divided, as a block is only 2048 values.
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

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn pairs_avx2(values: &[u16], out: &mut [u16], m: Mod16) {
        use std::arch::x86_64::*;
        let d = m.divisor();
        // Low bytes (even) take the places 1 and 16, high bytes (odd) 256 and 4096.
        let (low, high) = (table(1, d), table(16, d));
        let (low_up, high_up) = (table(256, d), table(4096, d));
        let nibble = _mm256_set1_epi8(0x0f);
        let odd = _mm256_set1_epi16(0xff00u16 as i16);
        let ones = _mm256_set1_epi8(1);
        let (d1, d2) = (_mm256_set1_epi16(d as i16), _mm256_set1_epi16(2 * d as i16));
        let mut vectors = values.chunks_exact(16);
        for (v, o) in vectors.by_ref().zip(out.chunks_exact_mut(16)) {
            // SAFETY: 32 bytes are read from and written to 16-value chunks.
            unsafe {
                let v = _mm256_loadu_si256(v.as_ptr().cast());
                let l = _mm256_and_si256(v, nibble);
                let h = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
                let even =
                    _mm256_add_epi8(_mm256_shuffle_epi8(low, l), _mm256_shuffle_epi8(high, h));
                let up = _mm256_add_epi8(
                    _mm256_shuffle_epi8(low_up, l),
                    _mm256_shuffle_epi8(high_up, h),
                );
                // Each byte's sum is below 2d <= 128; a pair's, below 4d <= 256.
                let sum = _mm256_maddubs_epi16(_mm256_blendv_epi8(even, up, odd), ones);
                let below_2d = _mm256_min_epu16(sum, _mm256_sub_epi16(sum, d2));
                let rem = _mm256_min_epu16(below_2d, _mm256_sub_epi16(below_2d, d1));
                _mm256_storeu_si256(o.as_mut_ptr().cast(), rem);
            }
        }
        let done = values.len() - vectors.remainder().len();
        for (o, &n) in out[done..].iter_mut().zip(vectors.remainder()) {
            *o = m.remainder(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Mod16, Mod8};

    /// `rem_same_block` against `%` on `values` for every divisor of `divisors`; where
    /// the CPU has AVX2 (not forced off) the nibble tables must take every divisor up
    /// to `tables_up_to`, so that they are what is checked.
    fn same_blocks_are_exact<T: super::UInt>(
        values: &[T],
        divisors: impl Iterator<Item = u64>,
        tables_up_to: u64,
    ) {
        use crate::heap::sparse::simd::{self, Path};
        let tables = cfg!(target_arch = "x86_64")
            && simd::path() != Path::Scalar
            && std::arch::is_x86_feature_detected!("avx2");
        for d in divisors {
            let mut out = vec![T::ZERO; values.len()];
            let modulus = T::modulus(d - 1).expect("a divisor within the type");
            let taken = T::rem_same_block(values, &mut out, modulus);
            assert_eq!(taken, tables && d <= tables_up_to, "mod {d}");
            if taken {
                let expected: Vec<T> = values.iter().map(|n| T::truncate(n.to_u64() % d)).collect();
                assert!(out == expected, "mod {d}");
            }
        }
    }

    #[test]
    fn byte_and_pair_blocks_are_exact() {
        let bytes: Vec<u8> = (0..=u8::MAX).chain(0..77).collect();
        same_blocks_are_exact(&bytes, 1..=255, 128);
        let pairs: Vec<u16> = (0..=u16::MAX).chain(0..77).collect();
        same_blocks_are_exact(&pairs, (1..=80).chain([255, 4096, 65535]), 64);
    }

    #[test]
    fn mod8_is_exact() {
        for d in 1..=u8::MAX {
            for n in 0..=u8::MAX {
                assert_eq!(Mod8::new(d).remainder(n), n % d, "{n} mod {d}");
            }
        }
    }

    #[test]
    fn mod16_is_exact() {
        for d in (1..=u16::MAX)
            .step_by(7)
            .chain([1, 2, 3, 255, 256, u16::MAX])
        {
            let m = Mod16::new(d);
            for n in (0..=u16::MAX).step_by(13).chain([0, d - 1, d, u16::MAX]) {
                assert_eq!(m.remainder(n), n % d, "{n} mod {d}");
            }
        }
        for n in 0..=u16::MAX {
            for d in [1, 2, 3, 5, 7, 100, 1000, 65534, u16::MAX] {
                assert_eq!(Mod16::new(d).remainder(n), n % d, "{n} mod {d}");
            }
        }
    }
}
