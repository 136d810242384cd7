//! How the kernels compute Grundy values: one strategy per kind of take limit, each
//! monomorphised, so that plain Nim pays for no remainder at all.
use super::byte_rows;
use super::ints::{HeapInt, UInt};
use crate::heap::rules::Rules;
use crate::heap::HeapRule;

/// Per-heap Grundy values, and the summary of a block of positions of `M` heaps:
/// the XOR and the OR of their Grundy values (the OR exceeds 1 exactly when some
/// Grundy value does, which is all misère play needs).
pub trait Grundy<U: UInt>: Sync {
    fn grundy(&self, heap: usize, n: U) -> U;

    /// `out[i]`: the Grundy value of `heaps[i]`, for heaps that all take this
    /// strategy's one rule, where the vector unit computes them all at once; false,
    /// with `out` unspecified, where the caller is to ask `grundy` one by one.
    #[inline(always)]
    fn values_block(&self, _heaps: &[U], _out: &mut [u32]) -> bool {
        false
    }

    #[inline(always)]
    fn summarize<T, O, F, const M: usize>(&self, rows: &[[T; M]], outs: &mut [O], finish: &F)
    where
        T: HeapInt<U = U>,
        F: Fn(U, U) -> O,
    {
        fold_rows(self, rows, outs, finish);
    }
}

/// `summarize` one row at a time.
#[inline(always)]
fn fold_rows<U, T, O, F, G, const M: usize>(g: &G, rows: &[[T; M]], outs: &mut [O], finish: &F)
where
    U: UInt,
    T: HeapInt<U = U>,
    F: Fn(U, U) -> O,
    G: Grundy<U> + ?Sized,
{
    for (row, o) in rows.iter().zip(outs) {
        let (x, or) = fold(row, g);
        *o = finish(x, or);
    }
}

/// XOR and OR of the Grundy values of one position.
#[inline(always)]
pub fn fold<T: HeapInt, G: Grundy<T::U> + ?Sized>(heaps: &[T], g: &G) -> (T::U, T::U) {
    let (mut xor, mut or) = (T::U::ZERO, T::U::ZERO);
    for (i, &n) in heaps.iter().enumerate() {
        let v = g.grundy(i, n.unsigned());
        xor = xor ^ v;
        or = or | v;
    }
    (xor, or)
}

/// No take limit: a heap is its own Grundy value.
pub struct NoLimit;

impl<U: UInt> Grundy<U> for NoLimit {
    #[inline(always)]
    fn grundy(&self, _heap: usize, n: U) -> U {
        n
    }

    /// Rows of 4 or 8 bytes go to `byte_rows`, 32 at a time. Other rows that fill
    /// whole 64-bit words are folded word by word (SWAR): XOR the words, then fold the
    /// lanes of each word onto the lowest. This needs no shuffles, so it vectorises
    /// across positions where de-interleaving would not.
    #[inline(always)]
    fn summarize<T, O, F, const M: usize>(&self, rows: &[[T; M]], outs: &mut [O], finish: &F)
    where
        T: HeapInt<U = U>,
        F: Fn(U, U) -> O,
    {
        let mut done = 0;
        if size_of::<T>() == 1 && (M == 4 || M == 8) {
            let flat: &[u8] = bytemuck::cast_slice(rows.as_flattened());
            let widen = |x: u8, or: u8| finish(U::truncate(x.into()), U::truncate(or.into()));
            done = byte_rows::fold(flat.as_chunks::<M>().0, outs, &widen);
        }
        fold_words(&rows[done..], &mut outs[done..], finish);
    }
}

/// `NoLimit::summarize` by 64-bit words where rows fill them, else row by row.
#[inline(always)]
fn fold_words<U, T, O, F, const M: usize>(rows: &[[T; M]], outs: &mut [O], finish: &F)
where
    U: UInt,
    T: HeapInt<U = U>,
    F: Fn(U, U) -> O,
{
    let width = 8 * size_of::<T>() as u32;
    if !size_of::<[T; M]>().is_multiple_of(8) || width == 64 {
        return fold_rows(&NoLimit, rows, outs, finish);
    }
    for (row, o) in rows.iter().zip(outs) {
        let (mut x, mut or) = (0u64, 0u64);
        for word in bytemuck::cast_slice::<T, u8>(row).chunks_exact(8) {
            let word = u64::from_ne_bytes(word.try_into().expect("8 bytes"));
            x ^= word;
            or |= word;
        }
        let mut shift = 32;
        while shift >= width {
            x ^= x >> shift;
            or |= or >> shift;
            shift /= 2;
        }
        *o = finish(U::truncate(x), U::truncate(or));
    }
}

/// One take limit `k` for every heap: Grundy value `n mod (k + 1)`.
pub struct Uniform<U: UInt>(pub U::Modulus);

/// Elements per block of the uniform strategy's scratch buffer (stays in L1).
const SCRATCH: usize = 2048;

impl<U: UInt> Grundy<U> for Uniform<U> {
    #[inline(always)]
    fn grundy(&self, _heap: usize, n: U) -> U {
        n.rem(self.0)
    }

    #[inline(always)]
    fn values_block(&self, heaps: &[U], out: &mut [u32]) -> bool {
        !U::VECTOR_REM && U::rem_block(heaps, out, self.0)
    }

    /// Every element gets the same remainder, so take it over the flat block first
    /// (no de-interleaving: it vectorises, or goes to a vector unit), then fold as
    /// plain Nim. Remainders go as bytes where the divisor allows (`rem_byte_block`),
    /// else as the heap's own type (8 and 16 bits) or as 32 bits (`rem_block`).
    #[inline(always)]
    fn summarize<T, O, F, const M: usize>(&self, rows: &[[T; M]], outs: &mut [O], finish: &F)
    where
        T: HeapInt<U = U>,
        F: Fn(U, U) -> O,
    {
        if M == 0 {
            return fold_rows(self, rows, outs, finish);
        }
        let per_block = SCRATCH / M;
        let mut bytes = [0u8; SCRATCH];
        let from_byte = |x: u8, or: u8| finish(U::truncate(x.into()), U::truncate(or.into()));
        let mut start = 0;
        while start < rows.len() {
            let end = rows.len().min(start + per_block);
            let flat: &[U] = bytemuck::cast_slice(rows[start..end].as_flattened());
            let reduced = &mut bytes[..flat.len()];
            if !U::rem_byte_block(flat, reduced, self.0) {
                return self.summarize_wider(&rows[start..], &mut outs[start..], finish);
            }
            NoLimit.summarize(
                reduced.as_chunks::<M>().0,
                &mut outs[start..end],
                &from_byte,
            );
            start = end;
        }
    }
}

impl<U: UInt> Uniform<U> {
    /// `summarize` where remainders do not go as bytes: as the heap's own type (8 and
    /// 16 bits), or as 32 bits where a vector unit takes them (`rem_block`), or one
    /// row at a time.
    #[inline(never)]
    fn summarize_wider<T, O, F, const M: usize>(&self, rows: &[[T; M]], outs: &mut [O], finish: &F)
    where
        T: HeapInt<U = U>,
        F: Fn(U, U) -> O,
    {
        let per_block = SCRATCH / M;
        if U::VECTOR_REM {
            let mut scratch = [U::ZERO; SCRATCH];
            for (rows, outs) in rows.chunks(per_block).zip(outs.chunks_mut(per_block)) {
                let reduced = &mut scratch[..rows.len() * M];
                for (r, &n) in reduced.iter_mut().zip(rows.as_flattened()) {
                    *r = n.unsigned().rem(self.0);
                }
                NoLimit.summarize(reduced.as_chunks::<M>().0, outs, finish);
            }
            return;
        }
        let mut scratch = [0u32; SCRATCH];
        let widen = |x: u32, or: u32| finish(U::truncate(x.into()), U::truncate(or.into()));
        for (rows, outs) in rows.chunks(per_block).zip(outs.chunks_mut(per_block)) {
            let reduced = &mut scratch[..rows.len() * M];
            if U::rem_block(bytemuck::cast_slice(rows.as_flattened()), reduced, self.0) {
                NoLimit.summarize(reduced.as_chunks::<M>().0, outs, &widen);
            } else {
                fold_rows(self, rows, outs, finish);
            }
        }
    }
}

/// A rule per heap: takes 1..k (`k + 1` as the modulus, or none past the type's
/// range), or any other rule, which gives its value itself.
pub struct PerHeap<'a, U: UInt>(Vec<HeapGrundy<'a, U>>);

enum HeapGrundy<'a, U: UInt> {
    Own,
    Rem(U::Modulus),
    Rule(&'a HeapRule),
}

impl<'a, U: UInt> PerHeap<'a, U> {
    pub fn new(rules: &'a Rules, heaps: usize) -> Self {
        PerHeap(
            (0..heaps)
                .map(|i| {
                    let rule = rules.take_for(i);
                    match rule.interval() {
                        Some(k) => U::modulus(k).map_or(HeapGrundy::Own, HeapGrundy::Rem),
                        None => HeapGrundy::Rule(rule),
                    }
                })
                .collect(),
        )
    }
}

impl<U: UInt> Grundy<U> for PerHeap<'_, U> {
    #[inline(always)]
    fn grundy(&self, heap: usize, n: U) -> U {
        match &self.0[heap] {
            HeapGrundy::Own => n,
            HeapGrundy::Rem(m) => n.rem(*m),
            // A Grundy value is at most the heap: it fits in the heap's type.
            HeapGrundy::Rule(rule) => U::truncate(rule.grundy(n.to_u64())),
        }
    }
}
