//! Heaps under heap rules (today's `Position` + `Rules`) as a game: the Grundy value is
//! the nim-sum, the misère outcome comes from the solver (Bouton's rule, the misère
//! quotient, or the searches over boxes and multisets), and the options are the
//! positions after each move. The ending is the question's, so the rules are those of
//! normal play.
use std::hash::{Hash, Hasher};

use super::{Game, Limits, Memo, Value};
use crate::base::error::{Error, Result};
use crate::base::outcome::Outcome;
use crate::heap::position::{apply, Position};
use crate::heap::rules::Rules;
use crate::solve::{solver, theory};

/// The most options of one position a game lists (every move of the position).
pub const MAX_OPTIONS: u128 = 10_000_000;

/// Heaps under these rules (of normal play: the ending is asked with each question).
#[derive(Debug)]
pub struct HeapsGame {
    rules: Rules,
    memo: Memo<Vec<u64>>,
    /// The solvers this game's questions used (misère play, winning moves).
    solvers: solver::Solvers,
}

impl HeapsGame {
    /// The game of heaps under `rules`, which must be those of normal play.
    pub fn new(rules: Rules) -> Result<Self> {
        if rules.is_misere() {
            return Err(Error::MisereComponent);
        }
        Ok(HeapsGame {
            rules,
            memo: Memo::default(),
            solvers: solver::Solvers::default(),
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Game for HeapsGame {
    type Position = Vec<u64>;
    const FAMILY: &'static str = "heaps";

    fn options(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> Result<()> {
        let position = Position::new(p.clone());
        let count = position.count_moves(&self.rules)?;
        if count > MAX_OPTIONS {
            return Err(Error::TooManyGameOptions {
                options: count,
                limit: MAX_OPTIONS,
            });
        }
        for mv in position.moves(&self.rules)? {
            let mut after = p.clone();
            apply(&mut after, &mv);
            out.push(after);
        }
        Ok(())
    }

    fn value(&self, p: &Vec<u64>, _limits: &Limits) -> Result<Option<Value>> {
        theory::nim_sum(p, &self.rules).map(|x| Some(Value::Finite(x)))
    }

    fn misere(&self, p: &Vec<u64>, limits: &Limits) -> Result<Option<Outcome>> {
        let misere = Rules::new(true, self.rules.take_limit().clone())?;
        solver::outcome(p, &misere, limits.max_positions, &self.solvers).map(Some)
    }

    /// The winning moves from the solver that answers `Position` under `Rules`: one
    /// solver for both models, and heaps of any size without listing their options.
    fn options_with(
        &self,
        p: &Vec<u64>,
        outcome: Outcome,
        misere: bool,
        limits: &Limits,
    ) -> Result<Option<Vec<Vec<u64>>>> {
        if outcome != Outcome::P {
            return Ok(None);
        }
        let ended;
        let rules = if misere {
            ended = Rules::new(true, self.rules.take_limit().clone())?;
            &ended
        } else {
            &self.rules
        };
        let solver = self.solvers.get(p, rules, limits.max_positions)?;
        let moves = solver.winning_moves(p)?;
        Ok(Some(
            moves
                .iter()
                .map(|mv| {
                    let mut after = p.clone();
                    apply(&mut after, mv);
                    after
                })
                .collect(),
        ))
    }

    fn loopy(&self, _p: &Vec<u64>, _limits: &Limits) -> Result<Option<bool>> {
        Ok(Some(false)) // every move takes something away
    }

    fn memo(&self) -> &Memo<Vec<u64>> {
        &self.memo
    }

    fn same_game(&self, other: &Self) -> bool {
        self.rules == other.rules
    }

    fn hash_game(&self, state: &mut dyn Hasher) {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.rules.hash(&mut hasher);
        state.write_u64(hasher.finish());
    }
}
