//! Remainders of 32- and 64-bit heaps by an invariant divisor, a vector at a time, on
//! CPUs with AVX-512 or with AVX2 and FMA (looked up at run time: the wheel is built
//! for every x86-64).
//!
//! Scalar remainders of wide integers need a 128-bit multiply each, which no vector
//! unit has. Below 2^52 a heap is exact as a double: `q = floor(n * (1 / d))` is the
//! quotient within one either way (two roundings of relative size 2^-53 each), and
//! one correction of `n - q d` in each direction gives the remainder exactly.

use crate::base::cpu;

/// Heaps at or past this are left to the scalar remainder.
const EXACT: u64 = 1 << 52;

/// A vector unit that computes the remainders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// AVX-512F and DQ: conversions between 64-bit integers and doubles.
    Avx512,
    /// AVX2 and FMA: no such conversions, so integers below 2^52 go in and out as the
    /// low bits of a double with 2^52's exponent, and `n - q d` is one fused
    /// multiply-add (exact: the result is an integer below 2d).
    Avx2,
}

impl Unit {
    /// Whether this CPU has the unit's instructions.
    pub fn supported(self) -> bool {
        match self {
            Unit::Avx512 => cpu::avx512_dq(),
            Unit::Avx2 => cpu::avx2_fma(),
        }
    }
}

/// The unit the remainders take: the best this CPU has within the path `NIMKIT_SIMD`
/// allows (`cpu::path`), or none.
pub fn unit() -> Option<Unit> {
    use crate::base::cpu::Path;
    let allowed: &[Unit] = match cpu::path() {
        Path::Avx512 => &[Unit::Avx512, Unit::Avx2],
        Path::Avx2 => &[Unit::Avx2],
        Path::Scalar => &[],
    };
    allowed.iter().copied().find(|u| u.supported())
}

/// What remainders are written as: 32 bits, or bytes where the divisor is at most
/// 256 (the narrower, the less the fold after them reads).
pub trait Lane: Copy {
    /// The largest divisor whose remainders fit.
    const DIVISORS: u64;
    fn low(v: u64) -> Self;
}

impl Lane for u32 {
    const DIVISORS: u64 = 1 << 32;
    #[inline(always)]
    fn low(v: u64) -> u32 {
        v as u32
    }
}

impl Lane for u8 {
    const DIVISORS: u64 = 1 << 8;
    #[inline(always)]
    fn low(v: u64) -> u8 {
        v as u8
    }
}

/// A heap type whose remainders this module computes.
pub trait Wide: Copy {
    /// `out[i] = values[i] % divisor` when every value is below 2^52 and the divisor
    /// at most `R::DIVISORS`, by `unit` (which the CPU must support); false, with `out`
    /// unspecified, otherwise.
    fn rem_block<R: Lane>(unit: Unit, values: &[Self], out: &mut [R], divisor: u64) -> bool;
}

macro_rules! wide {
    ($t:ty, $avx512:ident, $avx2:ident) => {
        impl Wide for $t {
            fn rem_block<R: Lane>(unit: Unit, values: &[$t], out: &mut [R], divisor: u64) -> bool {
                debug_assert!(unit.supported() && divisor > 0);
                let top = values.iter().fold(0, |or, &n| or | n);
                if u64::from(top) >= EXACT || divisor > R::DIVISORS {
                    return false;
                }
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the caller checked that the CPU supports `unit`.
                unsafe {
                    match unit {
                        Unit::Avx512 => $avx512(values, out, divisor),
                        Unit::Avx2 => $avx2(values, out, divisor),
                    }
                };
                true
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512dq")]
        fn $avx512<R: Lane>(values: &[$t], out: &mut [R], divisor: u64) {
            let (d, inverse) = (divisor as i64, 1.0 / divisor as f64);
            for (r, &n) in out.iter_mut().zip(values) {
                let n = n as i64;
                // SAFETY: 0 <= n / d < 2^52, far inside i64 (`as` would saturate,
                // which does not vectorise).
                let q: i64 = unsafe { (n as f64 * inverse).floor().to_int_unchecked() };
                let mut rest = n - q * d;
                rest += if rest < 0 { d } else { 0 };
                rest -= if rest >= d { d } else { 0 };
                *r = R::low(rest as u64);
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma")]
        fn $avx2<R: Lane>(values: &[$t], out: &mut [R], divisor: u64) {
            const TWO_52: f64 = EXACT as f64;
            let (d, inverse) = (divisor as f64, 1.0 / divisor as f64);
            for (r, &n) in out.iter_mut().zip(values) {
                let n = f64::from_bits(u64::from(n) | TWO_52.to_bits()) - TWO_52;
                let q = (n * inverse).floor();
                let mut rest = q.mul_add(-d, n);
                rest += if rest < 0.0 { d } else { 0.0 };
                rest -= if rest >= d { d } else { 0.0 };
                *r = R::low((rest + TWO_52).to_bits());
            }
        }
    };
}
wide!(u32, rem_u32_avx512, rem_u32_avx2);
wide!(u64, rem_u64_avx512, rem_u64_avx2);

#[cfg(test)]
mod tests {
    use super::{Unit, Wide};

    #[test]
    fn remainders_are_exact() {
        for unit in [Unit::Avx512, Unit::Avx2] {
            if unit.supported() {
                remainders_are_exact_by(unit);
            }
        }
    }

    fn remainders_are_exact_by(unit: Unit) {
        let mut values: Vec<u64> = (0..5000).collect();
        values.extend([
            (1 << 52) - 1,
            (1 << 52) - 2,
            (1 << 40) + 12345,
            u64::from(u32::MAX),
        ]);
        for d in [
            1u64,
            2,
            3,
            5,
            7,
            10,
            255,
            256,
            257,
            4096,
            65537,
            (1 << 31) + 11,
            1 << 32,
        ] {
            let small: Vec<u32> = values.iter().map(|&n| n as u32).collect();
            let (mut words, mut bytes) = (vec![0u32; values.len()], vec![0u8; values.len()]);
            assert!(u64::rem_block(unit, &values, &mut words, d));
            assert_eq!(u64::rem_block(unit, &values, &mut bytes, d), d <= 256);
            for ((&n, &r), &b) in values.iter().zip(&words).zip(&bytes) {
                assert_eq!(u64::from(r), n % d, "{n} mod {d}");
                assert!(d > 256 || u64::from(b) == n % d, "{n} mod {d} as a byte");
            }
            assert!(u32::rem_block(unit, &small, &mut words, d));
            assert_eq!(u32::rem_block(unit, &small, &mut bytes, d), d <= 256);
            for ((&n, &r), &b) in small.iter().zip(&words).zip(&bytes) {
                assert_eq!(u64::from(r), u64::from(n) % d, "{n} mod {d}");
                assert!(
                    d > 256 || u64::from(b) == u64::from(n) % d,
                    "{n} mod {d} as a byte"
                );
            }
        }
        let mut out = [0u32; 2];
        assert!(!u64::rem_block(unit, &[1, 1 << 52], &mut out, 3));
        assert!(!u64::rem_block(unit, &[1, 2], &mut out, (1 << 32) + 1));
    }
}
