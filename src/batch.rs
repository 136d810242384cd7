//! Batch kernels: many positions at once, read in place from any integer type and any
//! layout, split over all cores with rayon.
//!
//! An input is an n-dimensional view whose last axis holds the heaps of one position;
//! every output has the leading shape. C-contiguous inputs take a slice fast path
//! (specialised for common heap counts so that the compiler vectorises it); every
//! other layout goes through ndarray's parallel `Zip` over lanes. Results never
//! depend on the thread count: each position is computed on its own.
use std::ops::{BitOr, BitXor};

use ndarray::{ArrayView1, ArrayViewD, ArrayViewMutD, Axis, Dimension, Zip};
use rayon::prelude::*;
use smallvec::SmallVec;
use strength_reduce::{StrengthReducedU32, StrengthReducedU64};

use crate::error::{Error, Result};
use crate::rules::{Rules, TakeLimit};
use crate::theory;

/// Positions per parallel task on the slice path: large enough to amortise
/// scheduling, small enough to balance two or more cores.
const CHUNK: usize = 1 << 14;

/// An unsigned heap type that the kernels compute in, with its fast remainder.
pub trait UInt:
    Copy + Send + Sync + Eq + Ord + BitXor<Output = Self> + BitOr<Output = Self> + 'static
{
    type Modulus: Copy + Send + Sync;
    const ZERO: Self;
    const ONE: Self;
    fn to_u64(self) -> u64;
    /// The remainder by `k + 1`, or `None` when `k + 1` exceeds every value of the type
    /// (then the Grundy value is the heap itself).
    fn modulus(limit: u64) -> Option<Self::Modulus>;
    fn rem(self, modulus: Self::Modulus) -> Self;
}

macro_rules! uint {
    ($t:ty, $reduced:ty) => {
        impl UInt for $t {
            type Modulus = $reduced;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            fn modulus(limit: u64) -> Option<$reduced> {
                let m = limit.checked_add(1)?;
                <$t>::try_from(m).ok().map(|m| <$reduced>::new(m.into()))
            }
            #[inline(always)]
            fn rem(self, modulus: $reduced) -> Self {
                self % modulus
            }
        }
    };
}
uint!(u8, Mod8);
uint!(u16, Mod16);
uint!(u32, StrengthReducedU32);
uint!(u64, StrengthReducedU64);

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

/// An element type of a heap array: any primitive integer. Signed arrays are checked
/// for negative values first and then read as their unsigned twins.
pub trait HeapInt: Copy + Send + Sync + 'static {
    type U: UInt;
    const SIGNED: bool;
    fn is_negative(self) -> bool;
    fn unsigned(self) -> Self::U;
    fn to_i128(self) -> i128;
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

/// How a heap's Grundy value is computed: three strategies, each its own
/// monomorphised kernel so that plain Nim pays for no remainder at all.
trait Grundy<U: UInt>: Sync {
    fn grundy(&self, heap: usize, n: U) -> U;
}

struct NoLimit;
impl<U: UInt> Grundy<U> for NoLimit {
    #[inline(always)]
    fn grundy(&self, _heap: usize, n: U) -> U {
        n
    }
}

struct Uniform<U: UInt>(U::Modulus);
impl<U: UInt> Grundy<U> for Uniform<U> {
    #[inline(always)]
    fn grundy(&self, _heap: usize, n: U) -> U {
        n.rem(self.0)
    }
}

struct PerHeap<U: UInt>(Vec<Option<U::Modulus>>);
impl<U: UInt> Grundy<U> for PerHeap<U> {
    #[inline(always)]
    fn grundy(&self, heap: usize, n: U) -> U {
        match self.0[heap] {
            Some(m) => n.rem(m),
            None => n,
        }
    }
}

/// XOR and OR of the Grundy values of one position. The OR exceeds 1 exactly when
/// some Grundy value does, which is all misère play needs to know.
#[inline(always)]
fn fold<'a, T: HeapInt, G: Grundy<T::U>>(
    heaps: impl IntoIterator<Item = &'a T>,
    g: &G,
) -> (T::U, T::U) {
    let (mut xor, mut or) = (T::U::ZERO, T::U::ZERO);
    for (i, &n) in heaps.into_iter().enumerate() {
        let v = g.grundy(i, n.unsigned());
        xor = xor ^ v;
        or = or | v;
    }
    (xor, or)
}

/// A kernel, generic over the Grundy strategy (a closure cannot be).
trait Kernel<T: HeapInt> {
    fn run<G: Grundy<T::U>>(self, g: &G);
}

/// Check the shapes and the signs, then run `kernel` with the right Grundy strategy.
fn dispatch<T: HeapInt>(
    heaps: &ArrayViewD<'_, T>,
    rules: &Rules,
    out_shapes: &[&[usize]],
    kernel: impl Kernel<T>,
) -> Result<()> {
    let (&m, lead) = heaps.shape().split_last().ok_or(Error::NoHeapAxis)?;
    rules.check_heaps(m)?;
    for &shape in out_shapes {
        if shape != lead {
            return Err(Error::OutShape {
                expected: lead.to_vec(),
                got: shape.to_vec(),
            });
        }
    }
    check_signs(heaps)?;
    match rules.take_limit() {
        TakeLimit::None => kernel.run(&NoLimit),
        TakeLimit::All(k) => match T::U::modulus(*k) {
            Some(modulus) => kernel.run(&Uniform::<T::U>(modulus)),
            None => kernel.run(&NoLimit),
        },
        TakeLimit::PerHeap(ks) => kernel.run(&PerHeap::<T::U>(
            ks.iter().map(|k| k.and_then(T::U::modulus)).collect(),
        )),
    }
    Ok(())
}

/// Signed input: refuse negative heaps, naming the first bad position.
fn check_signs<T: HeapInt>(heaps: &ArrayViewD<'_, T>) -> Result<()> {
    if !T::SIGNED || !heaps.view().into_par_iter().any(|v| v.is_negative()) {
        return Ok(());
    }
    let (index, value) = heaps
        .indexed_iter()
        .find(|(_, v)| v.is_negative())
        .expect("a negative value was seen");
    let mut position = index.slice().to_vec();
    let heap = position.pop().expect("the heap axis exists");
    Err(Error::NegativeHeap {
        position,
        heap,
        value: value.to_i128(),
    })
}

/// Apply `per_position` to every position, writing `out`: the slice path when both
/// are C-contiguous, else a parallel zip over lanes (strided lanes are gathered into
/// a small buffer on the stack).
fn map_positions<T, O, F>(
    heaps: &ArrayViewD<'_, T>,
    out: &mut ArrayViewMutD<'_, O>,
    per_position: F,
) where
    T: HeapInt,
    O: Send,
    F: Fn(&[T]) -> O + Sync,
{
    let m = heaps.shape().last().copied().unwrap_or(0);
    if let (Some(input), Some(output), true) = (heaps.as_slice(), out.as_slice_mut(), m > 0) {
        input
            .par_chunks(CHUNK * m)
            .zip(output.par_chunks_mut(CHUNK))
            .for_each(|(rows, outs)| {
                for (row, o) in rows.chunks_exact(m).zip(outs) {
                    *o = per_position(row);
                }
            });
        return;
    }
    let last = Axis(heaps.ndim() - 1);
    Zip::from(out)
        .and(heaps.lanes(last))
        .par_for_each(|o, lane| *o = with_row(&lane, &per_position));
}

/// The slice path specialised on a compile-time heap count `M`: the fixed inner loop
/// lets the compiler vectorise across positions.
fn map_fixed<T, O, const M: usize, F>(input: &[T], output: &mut [O], per_position: F)
where
    T: HeapInt,
    O: Send,
    F: Fn(&[T; M]) -> O + Sync,
{
    input
        .par_chunks(CHUNK * M)
        .zip(output.par_chunks_mut(CHUNK))
        .for_each(|(rows, outs)| {
            let (rows, _) = rows.as_chunks::<M>();
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has just been seen to support AVX2.
                return unsafe { fixed_rows_avx2(rows, outs, &per_position) };
            }
            fixed_rows(rows, outs, &per_position);
        });
}

#[inline(always)]
fn fixed_rows<T, O, const M: usize, F: Fn(&[T; M]) -> O>(rows: &[[T; M]], outs: &mut [O], f: &F) {
    for (row, o) in rows.iter().zip(outs) {
        *o = f(row);
    }
}

/// `fixed_rows` compiled for AVX2, chosen at run time: the portable build targets
/// SSE2, where byte-wide heaps of odd count do not vectorise.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fixed_rows_avx2<T, O, const M: usize, F: Fn(&[T; M]) -> O>(
    rows: &[[T; M]],
    outs: &mut [O],
    f: &F,
) {
    fixed_rows(rows, outs, f)
}

/// The summary kernels (nim-sum, P or not): `finish` turns a position's XOR and OR
/// of Grundy values into its output.
struct Summary<'a, 'b, T, O, F> {
    heaps: ArrayViewD<'a, T>,
    out: ArrayViewMutD<'b, O>,
    finish: F,
}

impl<T, O, F> Kernel<T> for Summary<'_, '_, T, O, F>
where
    T: HeapInt,
    O: Send,
    F: Fn(T::U, T::U) -> O + Sync,
{
    fn run<G: Grundy<T::U>>(self, g: &G) {
        let Summary {
            heaps,
            mut out,
            finish,
        } = self;
        let m = heaps.shape().last().copied().unwrap_or(0);
        if let (Some(input), Some(output)) = (heaps.as_slice(), out.as_slice_mut()) {
            macro_rules! fixed {
                ($m:literal) => {
                    return map_fixed::<T, O, $m, _>(input, output, |row| {
                        let (x, o) = fold(row, g);
                        finish(x, o)
                    })
                };
            }
            match m {
                1 => fixed!(1),
                2 => fixed!(2),
                3 => fixed!(3),
                4 => fixed!(4),
                8 => fixed!(8),
                _ => {}
            }
        }
        map_positions(&heaps, &mut out, |row| {
            let (x, o) = fold(row, g);
            finish(x, o)
        });
    }
}

/// XOR of the Grundy values of every position.
pub fn nim_sum<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    out: ArrayViewMutD<'_, u64>,
) -> Result<()> {
    let shape = out.shape().to_vec();
    dispatch(
        &heaps.clone(),
        rules,
        &[&shape],
        Summary {
            heaps,
            out,
            finish: |x: T::U, _| x.to_u64(),
        },
    )
}

/// Whether the player to move loses, for every position.
pub fn is_p_position<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    out: ArrayViewMutD<'_, bool>,
) -> Result<()> {
    let shape = out.shape().to_vec();
    let misere = rules.is_misere();
    dispatch(
        &heaps.clone(),
        rules,
        &[&shape],
        Summary {
            heaps,
            out,
            finish: move |x: T::U, or: T::U| theory::is_p(x.to_u64(), or > T::U::ONE, misere),
        },
    )
}

/// The winning moves of one position: the per-position kernel of `winning_move` and
/// `count_winning_moves`, built on the closed forms of theory.rs.
struct Moves<'r, G> {
    g: &'r G,
    /// `k + 1` per heap, where a limit binds.
    moduli: Vec<Option<u64>>,
    misere: bool,
}

impl<'r, G> Moves<'r, G> {
    fn new(g: &'r G, rules: &Rules, heaps: usize) -> Self {
        let moduli = (0..heaps)
            .map(|i| rules.limit_for(i).and_then(|k| k.checked_add(1)))
            .collect();
        Moves {
            g,
            moduli,
            misere: rules.is_misere(),
        }
    }

    /// Every winning move of `row` as (heap, take), in heap order.
    #[inline]
    fn each<'s, T: HeapInt>(&'s self, row: &'s [T]) -> impl Iterator<Item = (usize, u64)> + 's
    where
        G: Grundy<T::U>,
    {
        let grundy = move |i: usize, n: T| self.g.grundy(i, n.unsigned()).to_u64();
        let (mut x, mut big) = (0u64, 0usize);
        for (i, &n) in row.iter().enumerate() {
            let g = grundy(i, n);
            x ^= g;
            big += usize::from(g > 1);
        }
        row.iter().enumerate().filter_map(move |(i, &n)| {
            let g = grundy(i, n);
            let target = theory::target_grundy(x ^ g, big > usize::from(g > 1), self.misere);
            theory::take_from(n.unsigned().to_u64(), g, self.moduli[i], target).map(|t| (i, t))
        })
    }
}

struct FirstMove<'a, 'b, T> {
    heaps: ArrayViewD<'a, T>,
    rules: &'a Rules,
    heap_out: ArrayViewMutD<'b, i64>,
    take_out: ArrayViewMutD<'b, u64>,
}

impl<T: HeapInt> Kernel<T> for FirstMove<'_, '_, T> {
    fn run<G: Grundy<T::U>>(self, g: &G) {
        let m = self.heaps.shape().last().copied().unwrap_or(0);
        let moves = Moves::new(g, self.rules, m);
        let first = |row: &[T]| {
            moves
                .each(row)
                .next()
                .map_or((-1, 0), |(h, t)| (h as i64, t))
        };
        let (mut heap_out, mut take_out) = (self.heap_out, self.take_out);
        if let (Some(input), Some(heaps), Some(takes), true) = (
            self.heaps.as_slice(),
            heap_out.as_slice_mut(),
            take_out.as_slice_mut(),
            m > 0,
        ) {
            input
                .par_chunks(CHUNK * m)
                .zip(heaps.par_chunks_mut(CHUNK).zip(takes.par_chunks_mut(CHUNK)))
                .for_each(|(rows, (heaps, takes))| {
                    for ((row, heap), take) in rows.chunks_exact(m).zip(heaps).zip(takes) {
                        (*heap, *take) = first(row);
                    }
                });
            return;
        }
        let last = Axis(self.heaps.ndim() - 1);
        Zip::from(heap_out)
            .and(take_out)
            .and(self.heaps.lanes(last))
            .par_for_each(|heap, take, lane| (*heap, *take) = with_row(&lane, first));
    }
}

struct CountMoves<'a, 'b, T> {
    heaps: ArrayViewD<'a, T>,
    rules: &'a Rules,
    out: ArrayViewMutD<'b, i64>,
}

impl<T: HeapInt> Kernel<T> for CountMoves<'_, '_, T> {
    fn run<G: Grundy<T::U>>(self, g: &G) {
        let m = self.heaps.shape().last().copied().unwrap_or(0);
        let moves = Moves::new(g, self.rules, m);
        let mut out = self.out;
        map_positions(&self.heaps, &mut out, |row| moves.each(row).count() as i64);
    }
}

/// Run `f` on a lane as a slice, gathering a strided lane into a stack buffer.
#[inline]
fn with_row<T: HeapInt, R>(lane: &ArrayView1<'_, T>, f: impl FnOnce(&[T]) -> R) -> R {
    match lane.as_slice() {
        Some(row) => f(row),
        None => f(&lane.iter().copied().collect::<SmallVec<[T; 16]>>()),
    }
}

/// For every position, its first winning move (lowest heap): the heap index, or -1
/// where there is none, and how many to take (0 where there is none).
pub fn winning_move<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    heap_out: ArrayViewMutD<'_, i64>,
    take_out: ArrayViewMutD<'_, u64>,
) -> Result<()> {
    let shapes = [heap_out.shape().to_vec(), take_out.shape().to_vec()];
    dispatch(
        &heaps.clone(),
        rules,
        &[&shapes[0], &shapes[1]],
        FirstMove {
            heaps,
            rules,
            heap_out,
            take_out,
        },
    )
}

/// For every position, how many winning moves it has (at most one per heap).
pub fn count_winning_moves<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    out: ArrayViewMutD<'_, i64>,
) -> Result<()> {
    let shape = out.shape().to_vec();
    dispatch(
        &heaps.clone(),
        rules,
        &[&shape],
        CountMoves { heaps, rules, out },
    )
}

#[cfg(test)]
mod tests {
    use super::{Mod16, Mod8};

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
