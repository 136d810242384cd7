//! Fast remainders of 8- and 16-bit heaps by an invariant divisor.
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
