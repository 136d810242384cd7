//! The integer types a code's Grundy values are stored in: the narrowest that holds
//! every value so far (`Store` widens as they grow), so that a run keeps a byte a
//! value while its values are below 256 and two below 65536.
use std::fmt::Debug;
use std::ops::BitXor;

/// The width of stored values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Width {
    U8,
    U16,
    U32,
}

impl Width {
    pub fn bytes(self) -> usize {
        match self {
            Width::U8 => 1,
            Width::U16 => 2,
            Width::U32 => 4,
        }
    }

    /// The largest value it holds.
    pub fn largest(self) -> u32 {
        match self {
            Width::U8 => u8::MAX.into(),
            Width::U16 => u16::MAX.into(),
            Width::U32 => u32::MAX,
        }
    }

    /// The narrowest that holds `value`.
    pub fn of(value: u32) -> Width {
        [Width::U8, Width::U16]
            .into_iter()
            .find(|w| value <= w.largest())
            .unwrap_or(Width::U32)
    }

    /// The extension of a file of values of this width (its numpy name too, less
    /// the `int`): `u8`, `u16`, `u32`.
    pub fn extension(self) -> &'static str {
        match self {
            Width::U8 => "u8",
            Width::U16 => "u16",
            Width::U32 => "u32",
        }
    }

    pub fn from_extension(extension: &str) -> Option<Width> {
        [Width::U8, Width::U16, Width::U32]
            .into_iter()
            .find(|w| w.extension() == extension)
    }
}

/// A stored value: `u8`, `u16` or `u32`. The sparse-space loops are compiled for
/// each, reading values at their own width.
pub trait Value:
    Copy + Debug + Default + Eq + Ord + Send + Sync + BitXor<Output = Self> + Into<u32> + 'static
{
    const WIDTH: Width;

    /// The value, which fits (`WIDTH.largest()` bounds it).
    fn narrow(value: u32) -> Self;

    #[inline(always)]
    fn to_u32(self) -> u32 {
        self.into()
    }

    /// The value as an index (into flags by value).
    #[inline(always)]
    fn index(self) -> usize {
        self.to_u32() as usize
    }
}

macro_rules! value {
    ($t:ty, $w:ident) => {
        impl Value for $t {
            const WIDTH: Width = Width::$w;

            #[inline(always)]
            fn narrow(value: u32) -> Self {
                debug_assert!(value <= Width::$w.largest());
                value as $t
            }
        }
    };
}

value!(u8, U8);
value!(u16, U16);
value!(u32, U32);

/// Evaluate `$body` with `$values` the store's values as a slice of their type
/// (`|values: &[V]|` also names that type `V` in `$body`): the one place that picks
/// the compiled loop by width.
#[macro_export]
macro_rules! by_width {
    ($store:expr, |$values:ident| $body:expr) => {
        match $store.width() {
            $crate::heap::width::Width::U8 => {
                let $values = $store.slice::<u8>();
                $body
            }
            $crate::heap::width::Width::U16 => {
                let $values = $store.slice::<u16>();
                $body
            }
            $crate::heap::width::Width::U32 => {
                let $values = $store.slice::<u32>();
                $body
            }
        }
    };
    ($store:expr, |$values:ident: &[$v:ident]| $body:expr) => {
        match $store.width() {
            $crate::heap::width::Width::U8 => {
                type $v = u8;
                let $values = $store.slice::<$v>();
                $body
            }
            $crate::heap::width::Width::U16 => {
                type $v = u16;
                let $values = $store.slice::<$v>();
                $body
            }
            $crate::heap::width::Width::U32 => {
                type $v = u32;
                let $values = $store.slice::<$v>();
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Width;

    #[test]
    fn the_narrowest_width_holds_the_value() {
        assert_eq!(Width::of(0), Width::U8);
        assert_eq!(Width::of(255), Width::U8);
        assert_eq!(Width::of(256), Width::U16);
        assert_eq!(Width::of(65535), Width::U16);
        assert_eq!(Width::of(65536), Width::U32);
        for w in [Width::U8, Width::U16, Width::U32] {
            assert_eq!(Width::from_extension(w.extension()), Some(w));
        }
        assert_eq!(Width::from_extension("bin"), None);
    }
}
