//! Walking the positions of an array in parallel, whatever its layout.
use ndarray::{ArrayView1, ArrayViewD, ArrayViewMutD, Axis, Zip};
use rayon::prelude::*;
use smallvec::SmallVec;

use super::ints::HeapInt;
use crate::base::cpu;

/// Positions per parallel task on the slice paths: large enough to amortise
/// scheduling, small enough to balance the cores.
pub const CHUNK: usize = 1 << 14;

/// Apply `per_position` to every position, writing `out`: a slice path when both are
/// C-contiguous, else a parallel zip over lanes.
pub fn map_positions<T, O, F>(
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

/// Run `block` on C-contiguous input in parallel blocks of rows of `M` heaps, each
/// with its slice of `output`. On x86-64 CPUs with AVX2 the block is compiled for
/// AVX2 (chosen at run time: the portable build targets SSE2, where byte-wide rows
/// of odd length do not vectorise), unless `NIMKIT_SIMD=scalar` asks for the portable
/// copy (`cpu::path`).
pub fn for_blocks<T, O, B, const M: usize>(input: &[T], output: &mut [O], block: B)
where
    T: HeapInt,
    O: Send,
    B: Fn(&[[T; M]], &mut [O]) + Sync,
{
    input
        .par_chunks(CHUNK * M)
        .zip(output.par_chunks_mut(CHUNK))
        .for_each(|(rows, outs)| {
            let (rows, _) = rows.as_chunks::<M>();
            #[cfg(target_arch = "x86_64")]
            if cpu::avx2() {
                // SAFETY: the CPU has just been seen to support AVX2.
                return unsafe { block_avx2(rows, outs, &block) };
            }
            block(rows, outs);
        });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn block_avx2<T, O, B, const M: usize>(rows: &[[T; M]], outs: &mut [O], block: &B)
where
    B: Fn(&[[T; M]], &mut [O]),
{
    block(rows, outs)
}

/// Run `f` on a lane as a slice, gathering a strided lane into a stack buffer.
#[inline]
pub fn with_row<T: HeapInt, R>(lane: &ArrayView1<'_, T>, f: impl FnOnce(&[T]) -> R) -> R {
    match lane.as_slice() {
        Some(row) => f(row),
        None => f(&lane.iter().copied().collect::<SmallVec<[T; 16]>>()),
    }
}
