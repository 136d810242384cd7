//! The first winning move of every position when every heap has the same rule of
//! takes 1..k (or any take). No per-heap rule is consulted, so a block of positions
//! is turned into columns and each step is the same arithmetic on every position:
//! it vectorises across positions, where visiting one position's heaps does not.
use super::grundy::Grundy;
use super::ints::{HeapInt, UInt};
use crate::base::cpu;

/// Positions per block: the columns stay in L1.
const BLOCK: usize = 128;

/// `heap_out[r], take_out[r]`: the first winning move of `rows[r]` (the lowest heap;
/// -1 and 0 where none wins). `modulus`: `k + 1` for takes 1..k, `None` for any take
/// (`g` gives the heaps' Grundy values accordingly). Compiled for AVX2 where the CPU
/// has it (chosen at run time: the portable build targets SSE2, which has no 64-bit
/// vector compare) and `NIMKIT_SIMD=scalar` does not ask for the portable path.
pub fn first_moves<T: HeapInt, G: Grundy<T::U>, const M: usize>(
    g: &G,
    modulus: Option<u64>,
    misere: bool,
    rows: &[[T; M]],
    heap_out: &mut [i64],
    take_out: &mut [u64],
) {
    // Under a modulus below 2^32 every value, target and take fits in 32 bits: twice
    // the positions a vector.
    if modulus.is_some_and(|m| m <= u64::from(u32::MAX)) {
        return first_moves_in::<u32, T, G, M>(g, modulus, misere, rows, heap_out, take_out);
    }
    first_moves_in::<u64, T, G, M>(g, modulus, misere, rows, heap_out, take_out);
}

/// `first_moves` computed in `W` lanes.
fn first_moves_in<W: Word, T: HeapInt, G: Grundy<T::U>, const M: usize>(
    g: &G,
    modulus: Option<u64>,
    misere: bool,
    rows: &[[T; M]],
    heap_out: &mut [i64],
    take_out: &mut [u64],
) {
    #[cfg(target_arch = "x86_64")]
    if cpu::avx2() {
        // SAFETY: the CPU has just been seen to support AVX2.
        return unsafe {
            first_moves_avx2::<W, T, G, M>(g, modulus, misere, rows, heap_out, take_out)
        };
    }
    first_moves_portable::<W, T, G, M>(g, modulus, misere, rows, heap_out, take_out);
}

/// The lanes `first_moves` computes in: 32 bits where every value fits, else 64.
trait Word:
    Copy + Ord + std::ops::BitXor<Output = Self> + std::ops::Add<Output = Self> + Default
{
    /// `v`, or the largest word where it does not fit (a heap's size is only
    /// compared with takes, which always fit).
    fn saturate(v: u64) -> Self;
    fn widen(self) -> u64;
    fn from_bool(b: bool) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    fn saturating_sub(self, other: Self) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            #[inline(always)]
            fn saturate(v: u64) -> $t {
                <$t>::try_from(v).unwrap_or(<$t>::MAX)
            }
            #[inline(always)]
            fn widen(self) -> u64 {
                self.into()
            }
            #[inline(always)]
            fn from_bool(b: bool) -> $t {
                b.into()
            }
            #[inline(always)]
            fn wrapping_sub(self, other: $t) -> $t {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn saturating_sub(self, other: $t) -> $t {
                <$t>::saturating_sub(self, other)
            }
        }
    };
}
word!(u32);
word!(u64);

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn first_moves_avx2<W: Word, T: HeapInt, G: Grundy<T::U>, const M: usize>(
    g: &G,
    modulus: Option<u64>,
    misere: bool,
    rows: &[[T; M]],
    heap_out: &mut [i64],
    take_out: &mut [u64],
) {
    first_moves_portable::<W, T, G, M>(g, modulus, misere, rows, heap_out, take_out);
}

#[inline(always)]
fn first_moves_portable<W: Word, T: HeapInt, G: Grundy<T::U>, const M: usize>(
    g: &G,
    modulus: Option<u64>,
    misere: bool,
    rows: &[[T; M]],
    heap_out: &mut [i64],
    take_out: &mut [u64],
) {
    let (mut sizes, mut values) = ([[W::default(); BLOCK]; M], [[W::default(); BLOCK]; M]);
    let mut reduced = [[0u32; M]; BLOCK];
    let m = modulus.map(W::saturate);
    let blocks = rows.chunks(BLOCK).zip(heap_out.chunks_mut(BLOCK));
    for ((rows, heaps), takes) in blocks.zip(take_out.chunks_mut(BLOCK)) {
        let len = rows.len();
        // The sizes matter only where a take may wrap below a multiple of k + 1.
        if modulus.is_some() {
            for (r, row) in rows.iter().enumerate().take(BLOCK) {
                for (i, &n) in row.iter().enumerate() {
                    sizes[i][r] = W::saturate(n.unsigned().to_u64());
                }
            }
        }
        // Wide remainders a block at a time where the vector unit takes them.
        let flat: &[T::U] = bytemuck::cast_slice(rows.as_flattened());
        if g.values_block(flat, reduced[..len].as_flattened_mut()) {
            for (r, reduced) in reduced[..len].iter().enumerate().take(BLOCK) {
                for (i, &v) in reduced.iter().enumerate() {
                    values[i][r] = W::saturate(v.into());
                }
            }
        } else {
            for (r, row) in rows.iter().enumerate().take(BLOCK) {
                for (i, &n) in row.iter().enumerate() {
                    // A Grundy value fits in `W`: below the modulus, or a heap in u64.
                    values[i][r] = W::saturate(g.grundy(i, n.unsigned()).to_u64());
                }
            }
        }
        // Per position, heaps downwards (unrolled: `M` is a constant), so that the
        // move found stays in registers and is stored once: the last kept is the
        // lowest heap's.
        let (zero, one) = (W::default(), W::from_bool(true));
        for (r, (heap, take)) in heaps.iter_mut().zip(takes.iter_mut()).enumerate() {
            let (mut x, mut big) = (zero, zero);
            for values in &values {
                x = x ^ values[r];
                big = big + W::from_bool(values[r] > one);
            }
            let (mut first_heap, mut first_take) = (-1i64, zero);
            for i in (0..M).rev() {
                let v = values[i][r];
                // theory::target_grundy: in misère play with no other value past 1,
                // leave an odd number of 1s.
                let alone = misere & (big == W::from_bool(v > one));
                let target = x ^ v ^ W::from_bool(alone);
                // limit::take_from, with selects for branches.
                let down = v.saturating_sub(target);
                let t = match m {
                    None => down,
                    Some(m) => {
                        let n = sizes[i][r];
                        let wrap = m.wrapping_sub(target.wrapping_sub(v));
                        let wraps = (target > v) & (target < m) & (wrap <= n);
                        if wraps {
                            wrap
                        } else {
                            down
                        }
                    }
                };
                first_heap = if t != zero { i as i64 } else { first_heap };
                first_take = if t != zero { t } else { first_take };
            }
            (*heap, *take) = (first_heap, first_take.widen());
        }
    }
}

/// The modulus of a uniform rule of takes 1..k as `first_moves` takes it: `None` past
/// the type's range, where every heap is its own Grundy value.
pub fn modulus<U: UInt>(k: u64) -> Option<u64> {
    U::modulus(k).and(k.checked_add(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::grundy::{NoLimit, Uniform};
    use proptest::prelude::*;

    /// Both paths of one block width, with and without a take limit: the AVX2 one in
    /// 64-bit lanes against `first_moves` (32-bit lanes under a modulus below 2^32).
    fn paths_agree<const M: usize>(heaps: &[u64], k: u64, misere: bool) {
        let rows: Vec<[u64; M]> = heaps
            .chunks_exact(M)
            .map(|r| r.try_into().unwrap())
            .collect();
        let run = |vector: bool, limited: bool| {
            let (mut heap, mut take) = (vec![7; rows.len()], vec![7; rows.len()]);
            let modulus = if limited { modulus::<u64>(k) } else { None };
            let (h, t) = (&mut heap[..], &mut take[..]);
            match (limited, u64::modulus(k)) {
                (true, Some(m)) if vector => unsafe {
                    first_moves_avx2::<u64, _, _, M>(
                        &Uniform::<u64>(m),
                        modulus,
                        misere,
                        &rows,
                        h,
                        t,
                    )
                },
                (true, Some(m)) => first_moves(&Uniform::<u64>(m), modulus, misere, &rows, h, t),
                _ if vector => unsafe {
                    first_moves_avx2::<u64, _, _, M>(&NoLimit, modulus, misere, &rows, h, t)
                },
                _ => first_moves_portable::<u64, _, _, M>(&NoLimit, modulus, misere, &rows, h, t),
            }
            (heap, take)
        };
        for limited in [false, true] {
            assert_eq!(
                run(true, limited),
                run(false, limited),
                "k {k} misère {misere}"
            );
        }
    }

    proptest! {
        /// The AVX2 path against the portable one at every block width the kernels
        /// specialise, over more positions than a block.
        #[test]
        fn avx2_equals_portable(
            heaps in prop::collection::vec(
                prop_oneof![0u64..4, 0u64..64, any::<u64>(), (1u64 << 32) - 8..(1 << 32) + 8],
                0..1200,
            ),
            // Moduli either side of 2^32, where the lanes go from 32 bits to 64.
            k in prop_oneof![1u64..8, any::<u64>(), (1u64 << 32) - 4..(1 << 32) + 2],
            misere: bool,
        ) {
            prop_assume!(cpu::Path::Avx2.supported());
            paths_agree::<1>(&heaps, k, misere);
            paths_agree::<2>(&heaps, k, misere);
            paths_agree::<3>(&heaps, k, misere);
            paths_agree::<4>(&heaps, k, misere);
            paths_agree::<8>(&heaps, k, misere);
        }
    }
}
