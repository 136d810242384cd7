//! Games, computer players and self-play for Python.
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::{Mutex, PoisonError};

use super::convert::{self, UInt};
use super::games::PyNativeGame;
use super::moves::{py_moves, PyMove};
use super::play_any::PyPlayed;
use super::position::PyPosition;
use super::rules::PyRules;
use crate::base::outcome::Outcome;
use crate::heap::position::{Move, Position};
use crate::play::players::{self, ComputerPlayer, Style};
use crate::play::session::{Player, Session};

fn style(name: &str, error_rate: f64) -> PyResult<Style> {
    match name {
        "perfect" => Ok(Style::Perfect),
        "fastest" => Ok(Style::Fastest),
        "random" => Ok(Style::Random),
        "fallible" => Ok(Style::fallible(error_rate)?),
        other => Err(PyValueError::new_err(format!(
            "unknown player style {other:?}; use perfect, fastest, random or fallible"
        ))),
    }
}

/// A game in progress (the state behind `nimkit.Game`).
#[pyclass(name = "Game", module = "nimkit._core")]
#[derive(Clone)]
pub struct PyGame(Session);

#[pymethods]
impl PyGame {
    #[new]
    fn new(
        py: Python<'_>,
        heaps: &Bound<'_, PyAny>,
        rules: &Bound<'_, PyRules>,
        first: Player,
        max_positions: UInt,
    ) -> PyResult<Self> {
        let max_positions = max_positions.0;
        let rules = rules.get().rules();
        let heaps = convert::heaps(heaps)?;
        let rules = rules.clone();
        let game = py.detach(|| Session::with_max_positions(heaps, rules, first, max_positions))?;
        Ok(PyGame(game))
    }

    fn position(&self) -> PyPosition {
        PyPosition(Position::new(self.0.heaps().to_vec()))
    }

    fn start(&self) -> PyPosition {
        PyPosition(self.0.start().clone())
    }

    fn history(&self) -> Vec<PyMove> {
        py_moves(self.0.history().iter().copied())
    }

    fn has_history(&self) -> bool {
        !self.0.history().is_empty()
    }

    fn first(&self) -> Player {
        self.0.first()
    }

    fn to_move(&self) -> Player {
        self.0.to_move()
    }

    fn push(&mut self, #[pyo3(from_py_with = PyMove::of)] r#move: Move) -> PyResult<()> {
        Ok(self.0.push(r#move)?)
    }

    fn pop(&mut self) -> Option<PyMove> {
        self.0.pop().map(PyMove)
    }

    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    fn winner(&self) -> Option<Player> {
        self.0.winner()
    }

    /// Whether the player to move loses against perfect play.
    fn is_p(&self) -> bool {
        self.0.outcome() == Outcome::P
    }

    fn predicted_winner(&self) -> Player {
        self.0.predicted_winner()
    }

    /// (ply, player, played, position before, every move that kept the win) per mistake.
    #[allow(clippy::type_complexity)]
    fn review(&self) -> Vec<(usize, Player, PyMove, PyPosition, Vec<PyMove>)> {
        self.0
            .review()
            .into_iter()
            .map(|m| {
                let before = PyPosition(Position::new(m.before));
                (
                    m.ply,
                    m.player,
                    PyMove(m.played),
                    before,
                    py_moves(m.better),
                )
            })
            .collect()
    }

    fn copy(&self) -> Self {
        self.clone()
    }
}

/// A computer player (the engine behind `nimkit.PerfectPlayer` and the others). One
/// player may serve several threads, each with its own game: they take turns.
#[pyclass(name = "Player", module = "nimkit._core", frozen)]
pub struct PyPlayer(Mutex<ComputerPlayer>);

#[pymethods]
impl PyPlayer {
    #[new]
    fn new(style_name: &str, error_rate: f64, seed: u64) -> PyResult<Self> {
        let player = ComputerPlayer::new(style(style_name, error_rate)?, seed);
        Ok(PyPlayer(Mutex::new(player)))
    }

    /// The player's move in the game (a move of heaps, or the option another game
    /// moves to), or None when no move is left.
    fn choose(&self, py: Python<'_>, game: Playing<'_>) -> PyResult<Option<Py<PyAny>>> {
        // A panic cannot leave a player half-updated in a way that matters here.
        let player = || self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match game {
            Playing::Heaps(game) => {
                // The fastest style may build the game's remoteness table on first use.
                let game = &game.0;
                let chosen = py.detach(|| player().choose(game.heaps(), game.solver()));
                chosen
                    .map(|mv| Ok(PyMove(mv).into_pyobject(py)?.into_any().unbind()))
                    .transpose()
            }
            Playing::Any(game) => {
                let chosen = game.ask(py, |game, limits| player().choose_option(game, limits))?;
                chosen
                    .map(|option| Ok(PyNativeGame(option).into_pyobject(py)?.into_any().unbind()))
                    .transpose()
            }
        }
    }
}

/// A game in progress of either kind.
#[derive(FromPyObject)]
enum Playing<'py> {
    Heaps(PyRef<'py, PyGame>),
    Any(PyRef<'py, PyPlayed>),
}

/// Wins of each player, game lengths, games each player started won.
type SimulationResult<'py> = ([u64; 2], Bound<'py, PyArray1<u64>>, [u64; 2]);

/// Self-play: (wins of each player, game lengths, games each player started won).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    style_a: (String, f64),
    style_b: (String, f64),
    n_games: UInt<usize>,
    seed: UInt,
    max_positions: UInt,
) -> PyResult<SimulationResult<'py>> {
    let n_games = n_games.0;
    let seed = seed.0;
    let max_positions = max_positions.0;
    let rules = rules.get().rules();
    let heaps = convert::heaps(heaps)?;
    let styles = [style(&style_a.0, style_a.1)?, style(&style_b.0, style_b.1)?];
    let result =
        py.detach(|| players::simulate(&heaps, rules, styles, n_games, seed, max_positions))?;
    Ok((
        result.wins,
        result.lengths.into_pyarray(py),
        result.won_starts,
    ))
}
