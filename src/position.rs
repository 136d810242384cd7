//! Positions (heap sizes) and moves.
use crate::error::{Error, Result};
use crate::rules::Rules;

/// One move: take `take` objects from heap number `heap` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub heap: usize,
    pub take: u64,
}

impl Move {
    pub fn new(heap: usize, take: u64) -> Self {
        Move { heap, take }
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
        heaps[mv.heap] -= mv.take;
        Ok(Position(heaps))
    }

    /// Every legal move, heap by heap, smallest take first.
    pub fn moves<'a>(&'a self, rules: &'a Rules) -> Result<impl Iterator<Item = Move> + 'a> {
        rules.check_heaps(self.0.len())?;
        Ok(self.0.iter().enumerate().flat_map(move |(heap, &n)| {
            rules
                .take_for(heap)
                .takes(n)
                .map(move |take| Move { heap, take })
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
    if mv.take == 0 {
        return Err(Error::TakeNothing);
    }
    rules.take_for(mv.heap).check(mv.heap, mv.take)?;
    if mv.take > size {
        return Err(Error::TakeTooMany {
            heap: mv.heap,
            take: mv.take,
            size,
        });
    }
    Ok(())
}
