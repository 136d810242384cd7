//! The walk over every position (a multiset of heaps, a "word") of a presentation:
//! a monoid, its P-portion and each heap's element.
//!
//! What a position's outcome needs is its element `x` and the set `S` of its
//! options' elements: misère play, it is a P-position iff it has options and none is
//! in P. Adding a heap `h` (element `e`, single-heap option elements `T_h`) to a
//! position in state `(x, S)` gives the state `(x e, e S ∪ x T_h)`, so the states
//! are finitely many and follow from the state alone. Words are walked in the
//! lexicographic order that puts the largest heap first; an option is smaller in it
//! (it has fewer of the largest heap it changed), so options come before their
//! position. A word whose state was met before is not followed further: all its
//! extensions repeat states already met (at smaller words). So the first word whose
//! outcome disagrees with the P-portion is the least such word, and its options are
//! all right: its true outcome is the one its options say.
use std::ops::ControlFlow;

use super::bits::Bits;
use super::monoid::Multiply;
use crate::base::error::Result;
use crate::base::interrupt::Poll;

/// A word: how many of each heap (heap, count), counts positive.
pub type Word = Vec<(usize, u32)>;

/// What to do at the states of a walk.
pub trait Visitor {
    /// Whether the walk met this state before (it then skips what follows from it).
    fn seen(&mut self, x: u32, options: &Bits) -> bool;
    /// A state met for the first time, at `word`. `Break` ends the walk.
    fn visit(&mut self, x: u32, options: &Bits, word: &dyn Fn() -> Word) -> ControlFlow<()>;
}

/// A presentation's data as the walk reads it.
pub struct Walk<'a, M: Multiply> {
    pub monoid: &'a M,
    /// Each heap's element.
    pub heap: &'a [u32],
    /// Each heap's single-heap option elements.
    pub transitions: &'a [Vec<u32>],
}

impl<M: Multiply> Walk<'_, M> {
    /// The state after adding heap `h` to `(x, options)`: its element, its options
    /// written into `next` (a buffer reused, as the walk takes many steps).
    fn step(&self, h: usize, x: u32, options: &Bits, next: &mut Bits) -> u32 {
        let e = self.heap[h];
        next.clear();
        for s in options.iter() {
            next.insert(self.monoid.product(e, s));
        }
        for &t in &self.transitions[h] {
            next.insert(self.monoid.product(x, t));
        }
        self.monoid.product(x, e)
    }

    /// Walk every word, or (`with_top`) every word holding the largest heap.
    pub fn run(&self, with_top: bool, visitor: &mut dyn Visitor, poll: &mut Poll) -> Result<()> {
        // Heaps without options change nothing: they are the empty game.
        let heaps: Vec<usize> = (0..self.heap.len())
            .filter(|&h| !self.transitions[h].is_empty())
            .collect();
        let k = heaps.len();
        let size = self.monoid.size();
        // Level j holds the state of the word with the current counts of heaps[j..].
        let mut x = vec![0u32; k + 1];
        let mut options = vec![Bits::new(size); k + 1];
        let mut count = vec![0u32; k];
        let mut next_options = Bits::new(size);
        let mut climb = with_top.then(|| k.saturating_sub(1));
        if with_top && k == 0 {
            return Ok(());
        }
        loop {
            let mut level = match climb.take() {
                Some(level) => level,
                None => {
                    let word = || -> Word {
                        heaps
                            .iter()
                            .zip(&count)
                            .filter(|(_, &c)| c > 0)
                            .map(|(&h, &c)| (h, c))
                            .collect()
                    };
                    if visitor.visit(x[0], &options[0], &word).is_break() {
                        return Ok(());
                    }
                    0
                }
            };
            loop {
                if level == k {
                    return Ok(());
                }
                poll.tick()?;
                let next_x = self.step(heaps[level], x[level], &options[level], &mut next_options);
                if visitor.seen(next_x, &next_options) {
                    level += 1;
                    continue;
                }
                x[level] = next_x;
                std::mem::swap(&mut options[level], &mut next_options);
                count[level] += 1;
                for j in (0..level).rev() {
                    x[j] = x[j + 1];
                    let (below, above) = options.split_at_mut(j + 1);
                    below[j].clone_from(&above[0]);
                    count[j] = 0;
                }
                break;
            }
        }
    }
}

/// Decides the P-portion: each element takes the outcome of the first word that
/// reaches it (the walk skips words whose element is decided).
pub struct Marker {
    pub p: Vec<bool>,
    marked: Vec<bool>,
    p_bits: Bits,
}

impl Marker {
    /// Its memory follows the candidate's size: reserved fallibly.
    pub fn new(size: usize) -> Result<Self> {
        Ok(Marker {
            p: crate::base::alloc::filled(size, false)?,
            marked: crate::base::alloc::filled(size, false)?,
            p_bits: Bits::new(size),
        })
    }
}

impl Visitor for Marker {
    fn seen(&mut self, x: u32, _: &Bits) -> bool {
        self.marked[x as usize]
    }

    fn visit(&mut self, x: u32, options: &Bits, _: &dyn Fn() -> Word) -> ControlFlow<()> {
        let lost = !options.is_empty() && !options.meets(&self.p_bits);
        self.marked[x as usize] = true;
        if lost {
            self.p[x as usize] = true;
            self.p_bits.insert(x);
        }
        ControlFlow::Continue(())
    }
}

/// The least word reaching each element (the first the walk meets).
pub struct Least {
    pub word: Vec<Option<Word>>,
}

impl Least {
    pub fn new(size: usize) -> Self {
        Least {
            word: vec![None; size],
        }
    }
}

impl Visitor for Least {
    fn seen(&mut self, x: u32, _: &Bits) -> bool {
        self.word[x as usize].is_some()
    }

    fn visit(&mut self, x: u32, _: &Bits, word: &dyn Fn() -> Word) -> ControlFlow<()> {
        self.word[x as usize] = Some(word());
        ControlFlow::Continue(())
    }
}

/// Looks for the least word whose element is outside the P-portion but whose options
/// all are (an N-position that loses). Such a failure only gets likelier as the
/// options shrink, so a state whose options hold those of a state met before with
/// the same element is not followed: each extension of it is dominated by the same
/// extension of the earlier, smaller word (MisereSolver keeps the same lower bounds).
/// Words in the P-portion that win are found apart (`Presentation::p_failure`).
pub struct NChecker {
    p_bits: Bits,
    p: Vec<bool>,
    /// The least option sets met with each element (none holds another).
    least: Vec<Vec<Bits>>,
    met: usize,
    limit: usize,
    pub failure: Option<Word>,
    pub too_large: bool,
}

impl NChecker {
    pub fn new(p: &[bool], limit: usize) -> Self {
        NChecker {
            p_bits: Bits::from_flags(p),
            p: p.to_vec(),
            least: vec![Vec::new(); p.len()],
            met: 0,
            limit,
            failure: None,
            too_large: false,
        }
    }

    /// The least option sets met with each element.
    pub fn into_least(self) -> Vec<Vec<Bits>> {
        self.least
    }
}

impl Visitor for NChecker {
    fn seen(&mut self, x: u32, options: &Bits) -> bool {
        self.least[x as usize]
            .iter()
            .any(|earlier| earlier.is_subset(options))
    }

    fn visit(&mut self, x: u32, options: &Bits, word: &dyn Fn() -> Word) -> ControlFlow<()> {
        let lost = !options.is_empty() && !options.meets(&self.p_bits);
        if lost && !self.p[x as usize] {
            self.failure = Some(word());
            return ControlFlow::Break(());
        }
        let least = &mut self.least[x as usize];
        if self.met >= self.limit || least.try_reserve(1).is_err() {
            self.too_large = true;
            return ControlFlow::Break(());
        }
        let before = least.len();
        least.retain(|later| !options.is_subset(later));
        self.met = self.met + 1 + least.len() - before;
        least.push(options.clone());
        ControlFlow::Continue(())
    }
}

/// `a` before `b` in the walk's order: the count of the largest heap first.
pub fn walk_order(a: &Word, b: &Word) -> std::cmp::Ordering {
    let (mut i, mut j) = (a.len(), b.len());
    while i > 0 || j > 0 {
        let x = (i > 0).then(|| a[i - 1]);
        let y = (j > 0).then(|| b[j - 1]);
        let (hx, hy) = (x.map_or(0, |(h, _)| h + 1), y.map_or(0, |(h, _)| h + 1));
        // The larger heap present in one word only: that word comes later.
        match hx.cmp(&hy) {
            std::cmp::Ordering::Equal => {}
            other => return other,
        }
        let (cx, cy) = (x.map_or(0, |(_, c)| c), y.map_or(0, |(_, c)| c));
        if cx != cy {
            return cx.cmp(&cy);
        }
        i -= 1;
        j -= 1;
    }
    std::cmp::Ordering::Equal
}
