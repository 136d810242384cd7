//! Positions (heap sizes) and moves.
use crate::base::error::{Error, Result};
use crate::heap::rules::Rules;
use crate::heap::{HeapMove, Parts};

impl HeapMove {
    /// This move played on heap number `heap`.
    pub fn on(self, heap: usize) -> Move {
        Move {
            heap,
            take: self.take,
            into: self.into,
        }
    }
}

/// One move: take `take` objects from heap number `heap` (0-based); a split leaves
/// `into` in its place (heap `heap` becomes `into[0]`, later parts follow it, later
/// heaps shift right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub heap: usize,
    pub take: u64,
    pub into: Parts,
}

impl Move {
    pub fn new(heap: usize, take: u64) -> Self {
        Move {
            heap,
            take,
            into: Parts::NONE,
        }
    }

    pub fn split(heap: usize, take: u64, into: Parts) -> Self {
        Move { heap, take, into }
    }

    /// What the move does to its heap.
    pub fn heap_move(&self) -> HeapMove {
        HeapMove {
            take: self.take,
            into: self.into,
        }
    }
}

/// Play a legal move on `heaps` in place.
pub fn apply(heaps: &mut Vec<u64>, mv: &Move) {
    match mv.into.sizes() {
        [] => heaps[mv.heap] -= mv.take,
        [first, rest @ ..] => {
            heaps[mv.heap] = *first;
            heaps.splice(mv.heap + 1..mv.heap + 1, rest.iter().copied());
        }
    }
}

/// Take back `mv`, the last move played on `heaps`.
pub fn undo(heaps: &mut Vec<u64>, mv: &Move) {
    let parts = mv.into.sizes();
    if parts.is_empty() {
        heaps[mv.heap] += mv.take;
    } else {
        heaps.drain(mv.heap + 1..mv.heap + parts.len());
        heaps[mv.heap] = parts.iter().sum::<u64>() + mv.take;
    }
}

/// A position: the sizes of the heaps, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Position(Vec<u64>);

impl Position {
    pub fn new(heaps: Vec<u64>) -> Self {
        Position(heaps)
    }

    pub fn heaps(&self) -> &[u64] {
        &self.0
    }

    /// The position after `mv`, which must be legal under `rules`.
    pub fn after(&self, mv: Move, rules: &Rules) -> Result<Position> {
        check_move(&self.0, mv, rules)?;
        let mut heaps = self.0.clone();
        apply(&mut heaps, &mv);
        Ok(Position(heaps))
    }

    /// Every legal move, heap by heap, smallest take first (then one heap before a
    /// split, then the parts, smallest first).
    pub fn moves<'a>(&'a self, rules: &'a Rules) -> Result<impl Iterator<Item = Move> + 'a> {
        rules.check_heaps(self.0.len())?;
        Ok(self.0.iter().enumerate().flat_map(move |(heap, &n)| {
            rules
                .take_for(heap)
                .options(n)
                .map(move |option| option.on(heap))
        }))
    }

    /// How many legal moves there are (a u128: the sum can pass u64::MAX).
    pub fn count_moves(&self, rules: &Rules) -> Result<u128> {
        rules.check_heaps(self.0.len())?;
        Ok(self
            .0
            .iter()
            .enumerate()
            .map(|(heap, &n)| u128::from(rules.take_for(heap).count(n)))
            .sum())
    }
}

impl From<Vec<u64>> for Position {
    fn from(heaps: Vec<u64>) -> Self {
        Position(heaps)
    }
}

/// Why `mv` is illegal in `heaps` under `rules`, if it is.
pub fn check_move(heaps: &[u64], mv: Move, rules: &Rules) -> Result<()> {
    rules.check_heaps(heaps.len())?;
    let Some(&size) = heaps.get(mv.heap) else {
        return Err(Error::NoSuchHeap {
            heap: mv.heap,
            heaps: heaps.len(),
        });
    };
    if mv.take == 0 && !mv.into.is_split() {
        return Err(Error::TakeNothing);
    }
    let take = rules.take_for(mv.heap);
    take.check_take(mv.heap, mv.take)?;
    if mv.take > size {
        return Err(Error::TakeTooMany {
            heap: mv.heap,
            take: mv.take,
            size,
        });
    }
    take.check_option(mv.heap, size, &mv.heap_move())
}
