//! Sets of monoid elements as bit vectors.
use smallvec::{smallvec, SmallVec};

/// Inline up to 128 elements: the walks copy option sets at every step, and most
/// quotients are that small.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bits(SmallVec<[u64; 2]>);

impl Bits {
    pub fn new(size: usize) -> Self {
        Bits(smallvec![0; size.div_ceil(64)])
    }

    pub fn from_flags(flags: &[bool]) -> Self {
        let mut bits = Bits::new(flags.len());
        for (x, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
            bits.insert(x as u32);
        }
        bits
    }

    pub fn clear(&mut self) {
        self.0.fill(0);
    }

    #[inline]
    pub fn insert(&mut self, x: u32) {
        self.0[x as usize / 64] |= 1 << (x % 64);
    }

    #[inline]
    pub fn remove(&mut self, x: u32) {
        self.0[x as usize / 64] &= !(1 << (x % 64));
    }

    #[inline]
    pub fn contains(&self, x: u32) -> bool {
        self.0[x as usize / 64] & (1 << (x % 64)) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Every element of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: &Bits) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & !b == 0)
    }

    pub fn meets(&self, other: &Bits) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    (i * 64) as u32 + bit
                })
            })
        })
    }
}
