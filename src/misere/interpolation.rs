//! The quick check that a new heap can take an element of the quotient as it is
//! (MisereSolver's "mex interpolation" check, before any walk).
//!
//! Let the presentation be right for the heaps below `n`, and heap `n` alone have
//! option elements `T`. Give `n` the element `x` when
//! 1. `x` is in the P-portion exactly when `n` alone is a P-position;
//! 2. some position `G` of the smaller heaps has element `x` and option elements
//!    `S ⊆ T`;
//! 3. every `t` in `T` is compatible with `x`: no `z` has both `x z` and `t z` in P.
//!
//! Then every position `n + H` is right, by induction on the copies of `n` in `H`
//! and then on `H`: if `x h` is in P, no option `t h` is (3) and no option `n + H'`
//! is (`G + H` is a P-position, so its option `G + H'`, of element `x h'`, is not);
//! otherwise `G + H` has an option in P, `G' + H` (element `s h`, `s` in `S ⊆ T`: an
//! option of `n + H` too) or `G + H'` (then `n + H'` is one); with `H` empty, (1).
use super::bits::Bits;
use super::monoid::Monoid;
use crate::base::alloc;
use crate::base::error::Result;
use crate::base::interrupt::Poll;

/// What the check needs of a presentation right for its heaps.
pub struct Interpolation {
    /// For each element, the least option sets of the positions met with it (`G`).
    least: Vec<Vec<Bits>>,
    /// For each element `x`, the `z` with `x z` in P.
    to_p: Vec<Bits>,
}

impl Interpolation {
    /// From the least option sets an N-check walk over every position collected.
    /// Its `size`-squared bits (128 MiB at 2**15 elements, 4 KiB a row) take time:
    /// making them polls for Ctrl-C.
    pub fn new(
        monoid: &Monoid,
        p: &[bool],
        least: Vec<Vec<Bits>>,
        poll: &mut Poll,
    ) -> Result<Self> {
        let size = monoid.size();
        let mut to_p = alloc::with_capacity(size)?;
        for x in 0..size as u32 {
            poll.tick()?;
            let mut bits = Bits::new(size);
            for (z, &y) in monoid.row(x).iter().enumerate() {
                if p[y as usize] {
                    bits.insert(z as u32);
                }
            }
            to_p.push(bits);
        }
        Ok(Interpolation { least, to_p })
    }

    /// The first element the conditions allow for a heap whose options have the
    /// elements `t` (none repeated), alone a P-position when `alone_p`.
    pub fn element(&self, p: &[bool], t: &[u32], alone_p: bool) -> Option<u32> {
        let mut options = Bits::new(p.len());
        for &y in t {
            options.insert(y);
        }
        (0..p.len() as u32).find(|&x| {
            p[x as usize] == alone_p
                && self.least[x as usize].iter().any(|s| s.is_subset(&options))
                && t.iter()
                    .all(|&y| !self.to_p[x as usize].meets(&self.to_p[y as usize]))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_needs_a_smaller_option_set_and_compatible_options() {
        // Nim's heaps 0 and 1 in misère play: {1, a} with a^2 = 1, P = {a}.
        let monoid = Monoid::cyclic(0, 2).unwrap();
        let p = [false, true];
        let mut heap_0 = Bits::new(2);
        heap_0.insert(0);
        // The empty position: element 1, no options; heap 1: element a, options {1}.
        let least = vec![vec![Bits::new(2)], vec![heap_0]];
        let check = Interpolation::new(&monoid, &p, least, &mut Poll::default()).unwrap();
        // Heap 2 of Nim: options of elements {1, a}, alone an N-position. Only 1 is
        // outside P, with the empty option set below it, but an option of element 1
        // is not compatible with it (1 a is in P twice over).
        assert_eq!(check.element(&p, &[0, 1], false), None);
        // A heap whose one option is heap 0 is heap 1 again: a.
        assert_eq!(check.element(&p, &[0], true), Some(1));
    }
}
