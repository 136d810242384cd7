//! Where the games of `Envs` start: fixed heaps (or a fixed position of any game), or
//! random boards of heaps.
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use crate::base::error::{FamilyError, Result};

/// Draws a start that has a move (a bounded number of tries).
pub(super) const TRIES: usize = 1000;

/// Where each game starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// The same heaps every game.
    Fixed(Vec<u64>),
    /// A random board of `heaps` heaps: `count` of them (uniform in its range) drawn
    /// uniformly in `sizes`, the rest empty.
    Random {
        heaps: usize,
        count: (usize, usize),
        sizes: (u64, u64),
    },
}

/// Why a start cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("the random boards' {what} range {low}..={high} is empty or starts below {least}")]
    Range {
        what: &'static str,
        low: u64,
        high: u64,
        least: u64,
    },
    #[error("the random boards have {count} nonempty heaps at most but {heaps} heaps in all")]
    Count { count: usize, heaps: usize },
    #[error(
        "no start drawn in {TRIES} tries leaves the agent a move (the rules allow none on \
         these heaps, or the opponent's first move always ends the game)"
    )]
    NoMove,
    #[error("the game has no move at its start: it is over before it begins")]
    NoMoveAtStart,
}

impl FamilyError for StartError {}

impl Start {
    /// The largest size of each heap.
    pub fn bounds(&self) -> Vec<u64> {
        match self {
            Start::Fixed(heaps) => heaps.clone(),
            Start::Random { heaps, sizes, .. } => vec![sizes.1; *heaps],
        }
    }

    pub(super) fn check(&self) -> Result<()> {
        if let Start::Random {
            heaps,
            count,
            sizes,
        } = *self
        {
            let range = |what, (low, high): (u64, u64), least| {
                if low < least || low > high {
                    Err(StartError::Range {
                        what,
                        low,
                        high,
                        least,
                    })
                } else {
                    Ok(())
                }
            };
            range("heap count", (count.0 as u64, count.1 as u64), 1)?;
            range("heap size", sizes, 1)?;
            if count.1 > heaps {
                return Err(StartError::Count {
                    count: count.1,
                    heaps,
                }
                .into());
            }
        }
        Ok(())
    }

    /// Draw a start into `row`.
    pub(super) fn draw(&self, row: &mut [u64], rng: &mut Pcg64Mcg) {
        match self {
            Start::Fixed(heaps) => row.copy_from_slice(heaps),
            Start::Random { count, sizes, .. } => {
                let c = rng.random_range(count.0..=count.1);
                row.fill(0);
                for n in &mut row[..c] {
                    *n = rng.random_range(sizes.0..=sizes.1);
                }
                // The nonempty heaps anywhere on the board, not always the first ones.
                for i in (1..row.len()).rev() {
                    row.swap(i, rng.random_range(0..=i));
                }
            }
        }
    }
}
