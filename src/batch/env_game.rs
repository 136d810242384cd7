//! What a game must answer to be stepped by `Envs` and labelled by `learn`: its
//! positions are rows of `width()` words, its moves are the action ids
//! `0..actions()`, and it knows which of them are legal and which win.
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use super::start::Start;
use crate::base::error::{Error, Result};

/// What applying an action did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// The action names no legal move: the position is unchanged.
    Illegal,
    /// The move was made; `ended`: no move is left.
    Moved { ended: bool },
}

/// How a computer player picks its action.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    /// A winning action when there is one (at random among them), else a random
    /// legal one.
    Perfect,
    /// A uniformly random legal action.
    Random,
    /// `Perfect`, but a random legal action with this probability.
    Fallible(f64),
}

impl Policy {
    pub fn fallible(rate: f64) -> Result<Self> {
        if (0.0..=1.0).contains(&rate) {
            Ok(Policy::Fallible(rate))
        } else {
            Err(Error::ErrorRate(rate))
        }
    }
}

/// A game many copies of which are stepped at once.
pub trait EnvGame: Sync {
    /// Words a position's row holds.
    fn width(&self) -> usize;
    /// How many action ids there are.
    fn actions(&self) -> usize;
    /// Whether the player who makes the last move loses.
    fn is_misere(&self) -> bool;
    /// Whether games may start as `start` draws them.
    fn fits(&self, start: &Start) -> Result<()>;
    /// Whether some move is left in `row`.
    fn has_move(&self, row: &[u64]) -> bool;
    /// Make the move `action` names in `row`, if it is legal.
    fn apply(&self, row: &mut [u64], action: i64) -> Applied;
    /// Write the labels of one position: for each action, whether it is legal and
    /// whether it wins (leaves a position the player to move loses in the game's
    /// ending); returns whether the player to move in `row` loses. `legal` and
    /// `winning` hold `actions()` entries.
    fn label(&self, row: &[u64], legal: &mut [bool], winning: &mut [bool]) -> bool;

    /// An action for the player to move in `row` by `policy` (`None` when no move is
    /// left); `legal` and `winning` are scratch of `actions()` entries.
    fn choose(
        &self,
        row: &[u64],
        policy: Policy,
        rng: &mut Pcg64Mcg,
        legal: &mut [bool],
        winning: &mut [bool],
    ) -> Option<i64> {
        self.label(row, legal, winning);
        let random = match policy {
            Policy::Random => true,
            Policy::Perfect => false,
            Policy::Fallible(rate) => rng.random_bool(rate),
        };
        let pick = |mask: &[bool], rng: &mut Pcg64Mcg| {
            let count = mask.iter().filter(|&&b| b).count();
            (count > 0).then(|| {
                let k = rng.random_range(0..count);
                mask.iter()
                    .enumerate()
                    .filter(|(_, &b)| b)
                    .nth(k)
                    .map(|(a, _)| a as i64)
            })?
        };
        if !random {
            if let Some(a) = pick(winning, rng) {
                return Some(a);
            }
        }
        pick(legal, rng)
    }
}
