//! Each heap's options as the heaps they leave, kept for a quotient's whole
//! computation (every change of presentation reads them all again). A heap of `n`
//! has about `n / 2` splits into two heaps and `n^2 / 12` into three, so each heap's
//! are one flat list, its memory reserved fallibly.
use crate::base::alloc;
use crate::base::error::Result;
use crate::heap::code::TakeAndBreak;

/// One heap's options: each a length, then that many heap sizes (none: the move
/// takes the whole heap).
#[derive(Clone, Debug, Default)]
pub struct HeapOptions(Vec<u32>);

impl HeapOptions {
    /// The options of a heap of `n` under `rule`.
    pub fn of(rule: &TakeAndBreak, n: usize) -> Result<Self> {
        let mut flat = Vec::new();
        for option in rule.options(n as u64) {
            let rest = [n as u64 - option.take];
            let left: &[u64] = match option.into.sizes() {
                [] if option.take as usize == n => &[],
                [] => &rest,
                parts => parts,
            };
            alloc::grow_by(&mut flat, left.len() + 1)?;
            flat.push(left.len() as u32);
            flat.extend(left.iter().map(|&h| h as u32));
        }
        Ok(HeapOptions(flat))
    }

    /// No move from this heap.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The heaps each option leaves.
    pub fn iter(&self) -> impl Iterator<Item = &[u32]> {
        let mut rest = &self.0[..];
        std::iter::from_fn(move || {
            let (&len, tail) = rest.split_first()?;
            let (word, after) = tail.split_at(len as usize);
            rest = after;
            Some(word)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kayles_heap_of_3_leaves_2_or_1_or_two_heaps_of_1() {
        let kayles = TakeAndBreak::parse("0.77").unwrap();
        let mut words: Vec<Vec<u32>> = HeapOptions::of(&kayles, 3)
            .unwrap()
            .iter()
            .map(|w| {
                let mut w = w.to_vec();
                w.sort_unstable();
                w
            })
            .collect();
        words.sort();
        words.dedup();
        assert_eq!(words, vec![vec![1], vec![1, 1], vec![2]]);
        assert!(HeapOptions::of(&kayles, 0).unwrap().is_empty());
        // The one move from a heap of 1 takes it whole.
        let one = HeapOptions::of(&kayles, 1).unwrap();
        assert!(one.iter().all(|w| w.is_empty()));
        assert_eq!(one.iter().count(), 1);
    }
}
