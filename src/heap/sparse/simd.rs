//! The scan of splits sixteen at a time with AVX-512, eight at a time with AVX2 (the
//! CPU's best, looked up at run time): two loads (widened to 32-bit lanes from the
//! stored width), a permutation that reverses the larger parts, an XOR and a lookup of
//! the wanted values' bitset per block of splits, against a load, a test and a branch
//! per split.
//!
//! `NIMKIT_SIMD=avx512`, `avx2` or `scalar` forces a path (one the CPU has), so that
//! each is tested and measured on any machine.
pub use crate::base::cpu::{path, Path};
use crate::heap::width::Value;

/// Whether `find_splits` has a vector path here.
pub fn available() -> bool {
    path() != Path::Scalar
}

/// The values `find_splits` looks for must be below this: the set of them is a
/// bitset in four vector registers (two while they are below `NARROW`).
pub const MAX_WANTED: usize = 2048;
const NARROW: usize = 1024;

/// `super::find_splits` with AVX-512 (`available()` must be true), for `a` in
/// `1..=half`, where `half <= m / 2`, `m <= values.len()`, and the values of `wanted`
/// still set in `want` are below `MAX_WANTED`.
pub fn find_splits<V: Value>(
    values: &[V],
    m: usize,
    half: usize,
    wanted: &[usize],
    want: &mut [u32],
    left: usize,
) -> usize {
    find_splits_by(path(), values, m, half, wanted, want, left)
}

/// `find_splits` by the vector path `path` (which the CPU must have).
fn find_splits_by<V: Value>(
    path: Path,
    values: &[V],
    m: usize,
    half: usize,
    wanted: &[usize],
    want: &mut [u32],
    left: usize,
) -> usize {
    assert!(path != Path::Scalar && path.supported() && half <= m / 2 && m <= values.len());
    // Byte values: thirty-two splits a vector of AVX2 (which every AVX-512 CPU has)
    // beat sixteen widened to 32-bit lanes of AVX-512.
    #[cfg(target_arch = "x86_64")]
    if matches!(V::WIDTH, crate::heap::width::Width::U8) && Path::Avx2.supported() {
        // SAFETY: `V` is `u8` (its width says so); the CPU has AVX2 (just seen).
        let (left, done) = unsafe {
            let bytes = std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), values.len());
            bytes_avx2(bytes, m, half / 32, wanted, want, left)
        };
        return super::find_splits_scalar(values, m, 1 + 32 * done, half, want, left);
    }
    #[cfg(target_arch = "x86_64")]
    if matches!(V::WIDTH, crate::heap::width::Width::U16)
        && Path::Avx2.supported()
        && wanted.iter().all(|&v| v < PAIRS || want[v] == 0)
    {
        // SAFETY: `V` is `u16` (its width says so); the CPU has AVX2 (just seen).
        let (left, done) = unsafe {
            let pairs = std::slice::from_raw_parts(values.as_ptr().cast::<u16>(), values.len());
            pairs_avx2(pairs, m, half / 16, wanted, want, left)
        };
        return super::find_splits_scalar(values, m, 1 + 16 * done, half, want, left);
    }
    if path == Path::Avx2 {
        return find_splits_avx2(values, m, half, wanted, want, left);
    }
    let mut bits = [0u32; MAX_WANTED / 32];
    for &v in wanted.iter().filter(|&&v| want[v] != 0) {
        bits[v / 32] |= 1 << (v % 32);
    }
    // Sixteen splits a time while they fit; the few after them one at a time.
    let blocks = half / 16;
    #[cfg(target_arch = "x86_64")]
    let wide = wanted.last().is_some_and(|&v| v >= NARROW);
    // SAFETY: the CPU has AVX-512F (asserted); every load is in bounds: see `blocks`.
    let (left, done) = unsafe {
        if wide {
            blocks_avx512::<V, true>(values, m, blocks, &mut bits, want, left)
        } else {
            blocks_avx512::<V, false>(values, m, blocks, &mut bits, want, left)
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    super::find_splits_scalar(values, m, 1 + 16 * done, half, want, left)
}

/// `find_splits` over the first `blocks` blocks of sixteen splits from `a = 1`, where
/// `16 * blocks <= m / 2` (so every `b` is at least 1), the values wanted also in
/// `bits` (all below `NARROW` unless `WIDE`). Returns how many values are left and
/// the blocks scanned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn blocks_avx512<V: Value, const WIDE: bool>(
    values: &[V],
    m: usize,
    blocks: usize,
    bits: &mut [u32; MAX_WANTED / 32],
    want: &mut [u32],
    mut left: usize,
) -> (usize, usize) {
    use std::arch::x86_64::*;
    let reverse = _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let (low, one, half) = (
        _mm512_set1_epi32(31),
        _mm512_set1_epi32(1),
        _mm512_set1_epi32(32),
    );
    let limit = _mm512_set1_epi32(if WIDE { MAX_WANTED } else { NARROW } as i32);
    // SAFETY: `bits` is 64 words: four registers.
    let load = |bits: &[u32; 64]| unsafe {
        [0, 16, 32, 48].map(|at| _mm512_loadu_si512(bits[at..].as_ptr().cast()))
    };
    let mut set = load(bits);
    let base = values.as_ptr();
    for block in 0..blocks {
        if left == 0 {
            return (0, block);
        }
        let a = 1 + 16 * block;
        // SAFETY: a + 15 <= m / 2 < values.len(), and m - a - 15 >= m / 2 (above).
        let (small, large) = unsafe { (load16(base.add(a)), load16(base.add(m - a - 15))) };
        let v = _mm512_xor_si512(small, _mm512_permutexvar_epi32(reverse, large));
        // Word v / 32 of the bitset (the index's low five bits pick it from two
        // registers, its sixth which two), shifted right by v % 32: bit 0 says
        // whether v is wanted.
        let index = _mm512_srli_epi32::<5>(v);
        let mut word = _mm512_permutex2var_epi32(set[0], index, set[1]);
        if WIDE {
            let upper = _mm512_permutex2var_epi32(set[2], index, set[3]);
            word = _mm512_mask_blend_epi32(_mm512_test_epi32_mask(index, half), word, upper);
        }
        let bit = _mm512_srlv_epi32(word, _mm512_and_si512(v, low));
        let mut hits = _mm512_test_epi32_mask(bit, one) & _mm512_cmplt_epu32_mask(v, limit);
        if hits != 0 {
            let mut lanes = [0u32; 16];
            // SAFETY: `lanes` holds sixteen 32-bit lanes.
            unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), v) };
            while hits != 0 {
                // A value may be in two lanes: the first clears it.
                let v = lanes[hits.trailing_zeros() as usize] as usize;
                left -= want[v] as usize;
                want[v] = 0;
                bits[v / 32] &= !(1 << (v % 32));
                hits &= hits - 1;
            }
            set = load(bits);
        }
    }
    (left, blocks)
}

/// The most wanted values the AVX2 scan compares each split with; with more it
/// gathers from their bitset instead (slower on the machines measured).
const COMPARED: usize = 8;

/// `find_splits` eight splits at a time with AVX2 (the CPU has it: asserted by the
/// caller). A few wanted values (the usual case: the rare values still missing) are
/// compared with each split, each value broadcast in a register; more are looked up
/// in their bitset, a gather reading a word for each of the eight.
fn find_splits_avx2<V: Value>(
    values: &[V],
    m: usize,
    half: usize,
    wanted: &[usize],
    want: &mut [u32],
    left: usize,
) -> usize {
    let blocks = half / 8;
    let live = wanted.iter().filter(|&&v| want[v] != 0).count();
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has AVX2 (the caller's assertion); every load is in bounds.
    let (left, done) = if live <= COMPARED {
        unsafe { compared_avx2(values, m, blocks, wanted, want, left) }
    } else {
        let mut bits = [0u32; MAX_WANTED / 32];
        for &v in wanted.iter().filter(|&&v| want[v] != 0) {
            bits[v / 32] |= 1 << (v % 32);
        }
        unsafe { blocks_avx2(values, m, blocks, &mut bits, want, left) }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = {
        let _ = blocks;
        0
    };
    super::find_splits_scalar(values, m, 1 + 8 * done, half, want, left)
}

/// The XORs of the parts of eight splits from `a`, `a + k` with `m - a - k`, in
/// 32-bit lanes.
///
/// # Safety
/// The CPU has AVX2; `a + 7 <= m / 2` and `m <= values.len()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn splits8<V: Value>(values: &[V], m: usize, a: usize) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let reverse = _mm256_set_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let base = values.as_ptr();
    // SAFETY: a + 7 <= m / 2 < values.len(), and m - a - 7 >= m / 2.
    let (small, large) = unsafe { (load8(base.add(a)), load8(base.add(m - a - 7))) };
    _mm256_xor_si256(small, _mm256_permutevar8x32_epi32(large, reverse))
}

/// Clear the wanted values of `v`'s lanes set in `hits` (a value may be in two
/// lanes: the first clears it), telling `cleared` each one; returns how many are
/// left of `left`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn clear_hits(
    v: std::arch::x86_64::__m256i,
    mut hits: u32,
    want: &mut [u32],
    mut left: usize,
    mut cleared: impl FnMut(usize),
) -> usize {
    let mut lanes = [0u32; 8];
    // SAFETY: `lanes` holds eight 32-bit lanes.
    unsafe { std::arch::x86_64::_mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) };
    while hits != 0 {
        let v = lanes[hits.trailing_zeros() as usize] as usize;
        left -= want[v] as usize;
        want[v] = 0;
        cleared(v);
        hits &= hits - 1;
    }
    left
}

/// `find_splits` over the first `blocks` blocks of eight splits from `a = 1`, where
/// `8 * blocks <= m / 2`. Returns how many values are left and the blocks scanned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn blocks_avx2<V: Value>(
    values: &[V],
    m: usize,
    blocks: usize,
    bits: &mut [u32; MAX_WANTED / 32],
    want: &mut [u32],
    mut left: usize,
) -> (usize, usize) {
    use std::arch::x86_64::*;
    let (low, one) = (_mm256_set1_epi32(31), _mm256_set1_epi32(1));
    let (last_word, below) = (
        _mm256_set1_epi32((MAX_WANTED / 32 - 1) as i32),
        _mm256_set1_epi32(MAX_WANTED as i32 - 1),
    );
    for block in 0..blocks {
        if left == 0 {
            return (0, block);
        }
        // SAFETY: 8 * blocks <= m / 2 (the caller's promise).
        let v = unsafe { splits8(values, m, 1 + 8 * block) };
        // Values past the bitset read its last word (in bounds) and are masked out.
        let inside = _mm256_cmpeq_epi32(_mm256_min_epu32(v, below), v);
        let index = _mm256_min_epu32(_mm256_srli_epi32::<5>(v), last_word);
        // SAFETY: every index is below 64, the bitset's length in words.
        let word = unsafe { _mm256_i32gather_epi32::<4>(bits.as_ptr().cast(), index) };
        let bit = _mm256_and_si256(_mm256_srlv_epi32(word, _mm256_and_si256(v, low)), one);
        let hit = _mm256_and_si256(_mm256_cmpeq_epi32(bit, one), inside);
        let hits = _mm256_movemask_ps(_mm256_castsi256_ps(hit)) as u32;
        if hits != 0 {
            left = clear_hits(v, hits, want, left, |v| bits[v / 32] &= !(1 << (v % 32)));
        }
    }
    (left, blocks)
}

/// `blocks_avx2` with at most `COMPARED` values still wanted, each compared with the
/// eight splits of a block.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn compared_avx2<V: Value>(
    values: &[V],
    m: usize,
    blocks: usize,
    wanted: &[usize],
    want: &mut [u32],
    mut left: usize,
) -> (usize, usize) {
    use std::arch::x86_64::*;
    let mut targets = [_mm256_setzero_si256(); COMPARED];
    let mut count = 0;
    let mut aim = |targets: &mut [__m256i; COMPARED], want: &[u32]| {
        count = 0;
        for &v in wanted.iter().filter(|&&v| want[v] != 0) {
            targets[count] = _mm256_set1_epi32(v as i32);
            count += 1;
        }
        count
    };
    let mut n = aim(&mut targets, want);
    for block in 0..blocks {
        if left == 0 {
            return (0, block);
        }
        // SAFETY: 8 * blocks <= m / 2 (the caller's promise).
        let v = unsafe { splits8(values, m, 1 + 8 * block) };
        let mut hit = _mm256_setzero_si256();
        for target in &targets[..n] {
            hit = _mm256_or_si256(hit, _mm256_cmpeq_epi32(v, *target));
        }
        let hits = _mm256_movemask_ps(_mm256_castsi256_ps(hit)) as u32;
        if hits != 0 {
            left = clear_hits(v, hits, want, left, |_| ());
            n = aim(&mut targets, want);
        }
    }
    (left, blocks)
}

/// `find_splits` over the first `blocks` blocks of thirty-two splits from `a = 1`,
/// for byte values, where `32 * blocks <= m / 2`. Every XOR of two bytes is a byte
/// (wanted values past 255 cannot be found): each split is looked up in the 256-bit
/// set of the wanted values by byte shuffles, its byte and its bit in that byte.
/// Returns how many values are left and the blocks scanned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn bytes_avx2(
    values: &[u8],
    m: usize,
    blocks: usize,
    wanted: &[usize],
    want: &mut [u32],
    mut left: usize,
) -> (usize, usize) {
    use std::arch::x86_64::*;
    let mut bits = byte_set::<32>(wanted, want);
    let mut set: [__m256i; 2] = pieces(&bits);
    #[rustfmt::skip]
    let reverse = _mm256_setr_epi8(
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    );
    let (seven, words) = (_mm256_set1_epi8(7), _mm256_set1_epi8(31));
    for block in 0..blocks {
        if left == 0 {
            return (0, block);
        }
        // SAFETY: 32 * blocks <= m / 2 (the caller's promise).
        let v = unsafe { split_xors(values, m, 1 + 32 * block, reverse) };
        // Byte v / 8 of the set (its fifth bit picks the half) and bit v % 8 of it.
        let index = _mm256_and_si256(_mm256_srli_epi16::<3>(v), words);
        let byte = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(set[0], index),
            _mm256_shuffle_epi8(set[1], index),
            _mm256_slli_epi16::<3>(index),
        );
        let bit = _mm256_shuffle_epi8(POWERS, _mm256_and_si256(v, seven));
        let miss = _mm256_cmpeq_epi8(_mm256_and_si256(byte, bit), _mm256_setzero_si256());
        let hits = !(_mm256_movemask_epi8(miss) as u32);
        if hits != 0 {
            left = clear_set_hits::<u8, 32>(v, hits, want, &mut bits, left);
            set = pieces(&bits);
        }
    }
    (left, blocks)
}

/// The wanted values of 16-bit values that `pairs_avx2` looks up must be below this.
const PAIRS: usize = 512;

/// `bytes_avx2` for 16-bit values, sixteen splits a vector, when every value still
/// wanted is below `PAIRS`: the set is 64 bytes, four 16-byte quarters (four
/// shuffles and three blends a lookup), and an XOR past it is not wanted.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pairs_avx2(
    values: &[u16],
    m: usize,
    blocks: usize,
    wanted: &[usize],
    want: &mut [u32],
    mut left: usize,
) -> (usize, usize) {
    use std::arch::x86_64::*;
    let mut bits = byte_set::<{ PAIRS / 8 }>(wanted, want);
    let mut set: [__m256i; 4] = pieces(&bits);
    #[rustfmt::skip]
    let reverse = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
    );
    let (seven, low_byte) = (_mm256_set1_epi16(7), _mm256_set1_epi16(0xFF));
    let below = _mm256_set1_epi16(PAIRS as i16 - 1);
    for block in 0..blocks {
        if left == 0 {
            return (0, block);
        }
        // SAFETY: 16 * blocks <= m / 2 (the caller's promise).
        let v = unsafe { split_xors(values, m, 1 + 16 * block, reverse) };
        // In each lane's low byte: byte v / 8 of the set (its fifth and sixth bits
        // pick the quarter) and bit v % 8 of it; the high bytes are masked off.
        let index = _mm256_srli_epi16::<3>(v);
        let (fifth, sixth) = (_mm256_slli_epi16::<3>(index), _mm256_slli_epi16::<2>(index));
        let pick = |q: usize| _mm256_shuffle_epi8(set[q], index);
        let byte = _mm256_blendv_epi8(
            _mm256_blendv_epi8(pick(0), pick(1), fifth),
            _mm256_blendv_epi8(pick(2), pick(3), fifth),
            sixth,
        );
        let bit = _mm256_shuffle_epi8(POWERS, _mm256_and_si256(v, seven));
        let found = _mm256_and_si256(_mm256_and_si256(byte, bit), low_byte);
        let inside = _mm256_cmpeq_epi16(_mm256_min_epu16(v, below), v);
        let hit = _mm256_andnot_si256(_mm256_cmpeq_epi16(found, _mm256_setzero_si256()), inside);
        // Two mask bits a lane: the lower says it.
        let hits = _mm256_movemask_epi8(hit) as u32 & 0x5555_5555;
        if hits != 0 {
            left = clear_set_hits::<u16, 16>(v, hits, want, &mut bits, left);
            set = pieces(&bits);
        }
    }
    (left, blocks)
}

/// The values of `wanted` still wanted and below `8 * N`, as a set of bits: bit
/// `v % 8` of byte `v / 8`.
fn byte_set<const N: usize>(wanted: &[usize], want: &[u32]) -> [u8; N] {
    let mut bits = [0u8; N];
    for &v in wanted.iter().filter(|&&v| v < 8 * N && want[v] != 0) {
        bits[v / 8] |= 1 << (v % 8);
    }
    bits
}

/// A set of bits in 16-byte pieces, each in both lanes of a register: a byte shuffle
/// reads within a lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn pieces<const N: usize, const P: usize>(bits: &[u8; N]) -> [std::arch::x86_64::__m256i; P] {
    use std::arch::x86_64::*;
    const { assert!(N == 16 * P) };
    // SAFETY: piece `p` is the 16 bytes from `16 p`, inside `bits`.
    std::array::from_fn(|p| unsafe {
        _mm256_broadcastsi128_si256(_mm_loadu_si128(bits[16 * p..].as_ptr().cast()))
    })
}

/// The XORs of the parts of the `32 / size_of::<T>()` splits from `a`: lane `k`
/// pairs `a + k` with `m - a - k`, the larger parts reversed by `reverse` (within each
/// 16-byte lane) and the lanes swapped.
///
/// # Safety
/// The CPU has AVX2; `a + lanes - 1 <= m / 2` and `m <= values.len()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn split_xors<T>(
    values: &[T],
    m: usize,
    a: usize,
    reverse: std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let lanes = 32 / size_of::<T>();
    let base = values.as_ptr();
    // SAFETY: the caller's promise: both runs of 32 bytes are inside `values`.
    let (small, large) = unsafe {
        (
            _mm256_loadu_si256(base.add(a).cast()),
            _mm256_loadu_si256(base.add(m - a - (lanes - 1)).cast()),
        )
    };
    let large = _mm256_permute4x64_epi64::<0x4E>(_mm256_shuffle_epi8(large, reverse));
    _mm256_xor_si256(small, large)
}

/// Clear the wanted values of the `L` lanes of `v` (of type `T`) whose lowest mask
/// bit is set in `hits` (a value may be in two lanes: the first clears it), from
/// `want` and the set `bits`; returns how many are left of `left`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn clear_set_hits<T: Copy + Default + Into<usize>, const L: usize>(
    v: std::arch::x86_64::__m256i,
    mut hits: u32,
    want: &mut [u32],
    bits: &mut [u8],
    mut left: usize,
) -> usize {
    const { assert!(L * size_of::<T>() == 32) };
    let mut lanes = [T::default(); L];
    // SAFETY: `lanes` holds 32 bytes.
    unsafe { std::arch::x86_64::_mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) };
    while hits != 0 {
        let v: usize = lanes[hits.trailing_zeros() as usize / size_of::<T>()].into();
        left -= want[v] as usize;
        want[v] = 0;
        bits[v / 8] &= !(1 << (v % 8));
        hits &= hits - 1;
    }
    left
}

/// Byte `k` of each 16-byte lane is `1 << (k % 8)`: a shuffle by `v % 8` gives the
/// bit of `v` in its byte of a set.
#[cfg(target_arch = "x86_64")]
const POWERS: std::arch::x86_64::__m256i = unsafe {
    std::mem::transmute::<[u8; 32], std::arch::x86_64::__m256i>([
        1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128, 1,
        2, 4, 8, 16, 32, 64, 128,
    ])
};

/// Eight values from `at`, in 32-bit lanes.
///
/// # Safety
/// The CPU has AVX2; eight values from `at` are in bounds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load8<V: Value>(at: *const V) -> std::arch::x86_64::__m256i {
    use crate::heap::width::Width;
    use std::arch::x86_64::*;
    // SAFETY: the caller's promise: 8, 16 or 32 bytes from `at`.
    unsafe {
        match V::WIDTH {
            Width::U8 => _mm256_cvtepu8_epi32(_mm_loadl_epi64(at.cast())),
            Width::U16 => _mm256_cvtepu16_epi32(_mm_loadu_si128(at.cast())),
            Width::U32 => _mm256_loadu_si256(at.cast()),
        }
    }
}

/// Sixteen values from `at`, in 32-bit lanes.
///
/// # Safety
/// The CPU has AVX-512F; sixteen values from `at` are in bounds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn load16<V: Value>(at: *const V) -> std::arch::x86_64::__m512i {
    use crate::heap::width::Width;
    use std::arch::x86_64::*;
    // SAFETY: the caller's promise: 16, 32 or 64 bytes from `at`.
    unsafe {
        match V::WIDTH {
            Width::U8 => _mm512_cvtepu8_epi32(_mm_loadu_si128(at.cast())),
            Width::U16 => _mm512_cvtepu16_epi32(_mm256_loadu_si256(at.cast())),
            Width::U32 => _mm512_loadu_si512(at.cast()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{find_splits_by, Path, MAX_WANTED};
    use proptest::prelude::*;

    proptest! {
        /// The vector scan finds the same values as the scalar one, and leaves `want`
        /// the same: values below 256, or up to 2047 (the four-register bitset; the
        /// wanted ones possibly all below 512), stored as u32, u16 or (below 256) u8.
        #[test]
        fn vector_scan_equals_scalar(
            values in prop::collection::vec(0u32..2048, 40..400),
            wanted in prop::collection::btree_set(0usize..2048, 0..40),
            wide in any::<bool>(),
            low in any::<bool>(),
            cut in 0usize..1000,
        ) {
            for path in [Path::Avx512, Path::Avx2].into_iter().filter(|p| p.supported()) {
            let find_splits = |values: &dyn std::any::Any, m, half, wanted: &[usize], want: &mut [u32], left| {
                if let Some(v) = values.downcast_ref::<Vec<u32>>() {
                    find_splits_by(path, v, m, half, wanted, want, left)
                } else if let Some(v) = values.downcast_ref::<Vec<u16>>() {
                    find_splits_by(path, v, m, half, wanted, want, left)
                } else {
                    let v = values.downcast_ref::<Vec<u8>>().expect("u8, u16 or u32 values");
                    find_splits_by(path, v, m, half, wanted, want, left)
                }
            };
            let top = if wide { 2047 } else { 255 };
            let values: Vec<u32> = values.iter().map(|v| v & top).collect::<Vec<u32>>();
            // Wide values with every wanted value below 512: the 16-bit shuffle path.
            let reach = if low { 511 } else { top as usize };
            let wanted: std::collections::BTreeSet<usize> =
                wanted.iter().map(|v| v & reach).collect();
            let wanted: Vec<usize> = wanted.into_iter().collect();
            let m = values.len() - cut % (values.len() / 2);
            let half = m / 2 - cut % 2;
            let mut want = vec![0u32; MAX_WANTED];
            for &v in &wanted {
                want[v] = 1;
            }
            let mut scalar_want = want.clone();
            let left = find_splits(&values, m, half, &wanted, &mut want, wanted.len());
            let scalar = super::super::find_splits_scalar(
                &values, m, 1, half, &mut scalar_want, wanted.len(),
            );
            prop_assert_eq!(left, scalar);
            prop_assert_eq!(&want, &scalar_want);
            // The same values stored narrower: the same finds.
            let fresh = || {
                let mut want = vec![0u32; MAX_WANTED];
                for &v in &wanted {
                    want[v] = 1;
                }
                want
            };
            let narrow: Vec<u16> = values.iter().map(|&v| v as u16).collect();
            let mut narrow_want = fresh();
            let found = find_splits(&narrow, m, half, &wanted, &mut narrow_want, wanted.len());
            prop_assert_eq!((found, &narrow_want), (left, &want));
            if !wide {
                let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
                let mut byte_want = fresh();
                let found = find_splits(&bytes, m, half, &wanted, &mut byte_want, wanted.len());
                prop_assert_eq!((found, &byte_want), (left, &want));
            }
            }
        }
    }
}
