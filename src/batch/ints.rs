//! The integer types a heap array may hold, and fast remainders by an invariant divisor.
use std::ops::{BitOr, BitXor};

use strength_reduce::{StrengthReducedU32, StrengthReducedU64};

use super::lemire::{Mod16, Mod8};
use super::narrow;
use super::wide::{self, Lane, Wide};

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
    /// `out[i] = values[i].rem(modulus)` for a whole block at once as bytes, where
    /// the divisor is small and a vector unit does it (`narrow`, `wide`); false,
    /// leaving `out` unspecified, otherwise.
    fn rem_byte_block(values: &[Self], out: &mut [u8], modulus: Self::Modulus) -> bool;
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
    ($t:ty, $reduced:ty, $vector:literal, $block:expr, $bytes:expr) => {
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
            fn rem_byte_block(values: &[$t], out: &mut [u8], modulus: $reduced) -> bool {
                let block: fn(&[$t], &mut [u8], $reduced) -> bool = $bytes;
                block(values, out, modulus)
            }
        }
    };
}
// 8- and 16-bit remainders vectorise as they are (the Lemire remainders below); 32-
// and 64-bit ones in double precision where the CPU has AVX-512 or AVX2 and FMA.
// Under divisors up to 256 every width goes as bytes by `narrow` (64-bit heaps
// below 2^32; others by `wide`).
uint!(
    u8,
    Mod8,
    true,
    |_, _: &mut [u32], _| false,
    narrow::rem_bytes
);
uint!(
    u16,
    Mod16,
    true,
    |_, _: &mut [u32], _| false,
    narrow::rem_pairs
);
uint!(
    u32,
    StrengthReducedU32,
    false,
    |values, out: &mut [u32], m| wide_rem(values, out, u64::from(m.get())),
    |values, out: &mut [u8], m| narrow::rem_quads(values, out, m.get())
);
uint!(
    u64,
    StrengthReducedU64,
    false,
    |values, out: &mut [u32], m| wide_rem(values, out, m.get()),
    |values, out: &mut [u8], m| narrow::rem_octs(values, out, m.get())
        || wide_rem(values, out, m.get())
);

fn wide_rem<T: Wide, R: Lane>(values: &[T], out: &mut [R], divisor: u64) -> bool {
    wide::unit().is_some_and(|u| T::rem_block(u, values, out, divisor))
}

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
