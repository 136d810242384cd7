//! Remainders of 32- and 64-bit heaps by an invariant divisor, eight at a time, on
//! CPUs with AVX-512 (looked up at run time: the wheel is built for every x86-64).
//!
//! Scalar remainders of wide integers need a 128-bit multiply each, which no vector
//! unit has. Below 2^52 a heap is exact as a double: `q = floor(n * (1 / d))` is the
//! quotient within one either way (two roundings of relative size 2^-53 each), and
//! one correction of `n - q d` in each direction gives the remainder exactly.

/// Heaps at or past this are left to the scalar remainder.
const EXACT: u64 = 1 << 52;

/// Whether this CPU has the vector instructions the remainders need.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A heap type whose remainders this module computes.
pub trait Wide: Copy {
    /// `out[i] = values[i] % divisor` when every value is below 2^52 and the divisor
    /// at most 2^32 (so that remainders fit in 32 bits, which halves what the fold
    /// after them reads), with AVX-512 (`available()` must be true); false, with `out`
    /// unspecified, otherwise.
    fn rem_block(values: &[Self], out: &mut [u32], divisor: u64) -> bool;
}

macro_rules! wide {
    ($t:ty, $kernel:ident) => {
        impl Wide for $t {
            fn rem_block(values: &[$t], out: &mut [u32], divisor: u64) -> bool {
                debug_assert!(available() && divisor > 0);
                let top = values.iter().fold(0, |or, &n| or | n);
                if u64::from(top) >= EXACT || divisor > 1 << 32 {
                    return false;
                }
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the caller checked `available()`: the CPU has AVX-512F and DQ.
                unsafe {
                    $kernel(values, out, divisor)
                };
                true
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512dq")]
        fn $kernel(values: &[$t], out: &mut [u32], divisor: u64) {
            let (d, inverse) = (divisor as i64, 1.0 / divisor as f64);
            for (r, &n) in out.iter_mut().zip(values) {
                let n = n as i64;
                // SAFETY: 0 <= n / d < 2^52, far inside i64 (`as` would saturate,
                // which does not vectorise).
                let q: i64 = unsafe { (n as f64 * inverse).floor().to_int_unchecked() };
                let mut rest = n - q * d;
                rest += if rest < 0 { d } else { 0 };
                rest -= if rest >= d { d } else { 0 };
                *r = rest as u32;
            }
        }
    };
}
wide!(u32, rem_u32);
wide!(u64, rem_u64);

#[cfg(test)]
mod tests {
    use super::{available, Wide};

    #[test]
    fn remainders_are_exact() {
        if !available() {
            return;
        }
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
            4096,
            65537,
            (1 << 31) + 11,
            1 << 32,
        ] {
            let mut out = vec![0; values.len()];
            assert!(u64::rem_block(&values, &mut out, d));
            for (&n, &r) in values.iter().zip(&out) {
                assert_eq!(u64::from(r), n % d, "{n} mod {d}");
            }
            let small: Vec<u32> = values.iter().map(|&n| n as u32).collect();
            let mut out = vec![0; small.len()];
            assert!(u32::rem_block(&small, &mut out, d));
            for (&n, &r) in small.iter().zip(&out) {
                assert_eq!(u64::from(r), u64::from(n) % d, "{n} mod {d}");
            }
        }
        let mut out = [0u32; 2];
        assert!(!u64::rem_block(&[1, 1 << 52], &mut out, 3));
        assert!(!u64::rem_block(&[1, 2], &mut out, (1 << 32) + 1));
    }
}
