//! Any game in progress for Python (the state behind `nimkit.Game` when it plays a
//! game that is not heaps under rules): a move is the option it reaches.
use pyo3::prelude::*;

use super::convert::{py_outcome, UInt};
use super::games::{ask, PyNativeGame};
use crate::base::error::Result;
use crate::games::{GameRef, Limits};
use crate::play::any::Played;
use crate::play::session::Player;

/// A game of any family in progress, each question bounded by `max_positions`.
#[pyclass(name = "PlayedGame", module = "nimkit._core")]
#[derive(Clone)]
pub struct PyPlayed {
    pub(super) game: Played,
    max_positions: u64,
}

impl PyPlayed {
    /// Ask the core about the game without the GIL (with it where the game calls
    /// Python back).
    pub(super) fn ask<T: Send>(
        &self,
        py: Python<'_>,
        question: impl Send + FnOnce(&Played, &Limits) -> Result<T>,
    ) -> PyResult<T> {
        let game = &self.game;
        ask(
            py,
            game.position(),
            (self.max_positions, u64::MAX, false),
            None,
            |limits| question(game, limits),
        )
    }
}

fn handle(game: &GameRef) -> PyNativeGame {
    PyNativeGame(GameRef::clone(game))
}

/// One mistake: ply, player, the option played, the position before, the better ones.
type Mistake = (usize, Player, PyNativeGame, PyNativeGame, Vec<PyNativeGame>);

#[pymethods]
impl PyPlayed {
    #[new]
    fn new(
        start: &PyNativeGame,
        first: Player,
        misere: bool,
        max_positions: UInt,
    ) -> PyResult<Self> {
        Ok(PyPlayed {
            game: Played::new(GameRef::clone(&start.0), first, misere)?,
            max_positions: max_positions.0,
        })
    }

    #[getter]
    fn misere(&self) -> bool {
        self.game.misere()
    }

    fn position(&self) -> PyNativeGame {
        handle(self.game.position())
    }

    fn start(&self) -> PyNativeGame {
        handle(self.game.start())
    }

    fn history(&self) -> Vec<PyNativeGame> {
        self.game.history().iter().map(handle).collect()
    }

    fn has_history(&self) -> bool {
        !self.game.history().is_empty()
    }

    fn first(&self) -> Player {
        self.game.first()
    }

    fn to_move(&self) -> Player {
        self.game.to_move()
    }

    fn options(&self, py: Python<'_>) -> PyResult<Vec<PyNativeGame>> {
        self.ask(py, |game, _| {
            Ok(game.options()?.iter().map(handle).collect())
        })
    }

    fn push(&mut self, py: Python<'_>, option: &PyNativeGame) -> PyResult<()> {
        let option = GameRef::clone(&option.0);
        // Asking the options may call Python back; pushing does not.
        self.ask(py, |game, _| game.options().map(drop))?;
        Ok(self.game.push(option)?)
    }

    fn pop(&mut self) -> Option<PyNativeGame> {
        self.game.pop().map(PyNativeGame)
    }

    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        self.ask(py, |game, _| game.is_over())
    }

    fn winner(&self, py: Python<'_>) -> PyResult<Option<Player>> {
        self.ask(py, |game, _| game.winner())
    }

    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let outcome = self.ask(py, |game, limits| game.outcome(limits))?;
        py_outcome(py, outcome)
    }

    fn predicted_winner(&self, py: Python<'_>) -> PyResult<Option<Player>> {
        self.ask(py, |game, limits| game.predicted_winner(limits))
    }

    fn review(&self, py: Python<'_>) -> PyResult<Vec<Mistake>> {
        let mistakes = self.ask(py, |game, limits| game.review(limits))?;
        Ok(mistakes
            .into_iter()
            .map(|m| {
                let better = m.better.iter().map(handle).collect();
                (
                    m.ply,
                    m.player,
                    PyNativeGame(m.played),
                    PyNativeGame(m.before),
                    better,
                )
            })
            .collect())
    }

    fn copy(&self) -> Self {
        self.clone()
    }
}
