//! The plain value search of a game that splits: a component's value is the mex of
//! its options', an option's the XOR of its parts'. What a game's search falls back
//! on when the pruned one meets a value of 64 or more (`pruned::Wide`), and a
//! reference to check it against. Iterative (each frame a component whose options
//! are being valued; an option with a part not yet valued pushes that part) and
//! bounded as the pruned search is.
use rustc_hash::FxHashMap;

use super::budget::{Budget, Spend};
use super::pruned::Split;
use super::table::remember;
use crate::base::alloc;
use crate::base::error::Result;
use crate::base::mex;

/// The value of the component `part`, what it learns entered in `values`.
pub fn value<S: Split>(
    game: &mut S,
    part: S::Part,
    values: &mut FxHashMap<S::Key, u32>,
    budget: Budget,
    report: &(dyn Fn(usize) + Sync),
) -> Result<u32> {
    let key = game.key(&part);
    if let Some(&v) = values.get(&key) {
        return Ok(v);
    }
    let mut spend = Spend::new(budget);
    spend.count(values, game.key_heap());
    let first = Frame::new(game, &part, key, &mut spend)?;
    let mut stack = vec![first];
    let mut parts = Vec::new();
    while let Some(frame) = stack.last_mut() {
        spend.tick()?;
        let Some(option) = frame.options.get(frame.next) else {
            let frame = stack.pop().expect("the loop holds a frame");
            spend.release(frame.bytes);
            let value = mex::of_bits(frame.seen.iter().copied());
            spend.room(values, game.key_heap())?;
            remember(values, frame.key, value, report);
            if stack.is_empty() {
                return Ok(value);
            }
            continue;
        };
        parts.clear();
        let mut sum = game.split(option, &mut parts);
        let mut missing = None;
        for part in parts.drain(..) {
            let key = game.key(&part);
            match game.known(&part).or_else(|| values.get(&key).copied()) {
                Some(v) => sum ^= v,
                None => {
                    missing = Some((part, key));
                    break;
                }
            }
        }
        match missing {
            Some((part, key)) => {
                let child = Frame::new(game, &part, key, &mut spend)?;
                alloc::grow(&mut stack)?;
                stack.push(child);
            }
            None => {
                frame.see(sum);
                frame.next += 1;
            }
        }
    }
    unreachable!("the last frame returns")
}

/// A component whose options are being valued.
struct Frame<P, K> {
    key: K,
    options: Vec<P>,
    next: usize,
    seen: Vec<u64>,
    bytes: usize,
}

impl<P, K> Frame<P, K> {
    fn new<S: Split<Part = P, Key = K>>(
        game: &mut S,
        part: &P,
        key: K,
        spend: &mut Spend,
    ) -> Result<Self> {
        let mut options = Vec::new();
        game.options(part, &mut options);
        let bytes = options.len() * std::mem::size_of::<P>();
        spend.charge(bytes)?;
        Ok(Frame {
            key,
            options,
            next: 0,
            seen: Vec::new(),
            bytes,
        })
    }

    fn see(&mut self, value: u32) {
        let word = value as usize / 64;
        if self.seen.len() <= word {
            self.seen.resize(word + 1, 0);
        }
        self.seen[word] |= 1 << (value % 64);
    }
}
