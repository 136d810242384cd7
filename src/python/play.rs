//! Games, computer players and self-play for Python.
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::convert::{self, wire, WireMove};
use super::rules::PyRules;
use crate::game::{Game, Player};
use crate::players::{self, ComputerPlayer, Style};
use crate::theory::Outcome;

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
pub struct PyGame(Game);

#[pymethods]
impl PyGame {
    #[new]
    fn new(
        py: Python<'_>,
        heaps: &Bound<'_, PyAny>,
        rules: &Bound<'_, PyRules>,
        first: Player,
        max_positions: u64,
    ) -> PyResult<Self> {
        let rules = rules.get().rules();
        let heaps = convert::heaps(heaps)?;
        let rules = rules.clone();
        let game = py.detach(|| Game::with_max_positions(heaps, rules, first, max_positions))?;
        Ok(PyGame(game))
    }

    fn heaps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.heaps())
    }

    fn start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.start().heaps())
    }

    fn history(&self) -> Vec<WireMove> {
        convert::wires(self.0.history().iter().copied())
    }

    fn first(&self) -> Player {
        self.0.first()
    }

    fn to_move(&self) -> Player {
        self.0.to_move()
    }

    #[pyo3(signature = (heap, take, into = None))]
    fn push(&mut self, heap: usize, take: u64, into: Option<Vec<u64>>) -> PyResult<()> {
        Ok(self.0.push(convert::move_from(heap, take, into)?)?)
    }

    fn pop(&mut self) -> Option<WireMove> {
        self.0.pop().map(wire)
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
    fn review(&self) -> Vec<(usize, Player, WireMove, Vec<u64>, Vec<WireMove>)> {
        self.0
            .review()
            .into_iter()
            .map(|m| {
                let better = convert::wires(m.better);
                (m.ply, m.player, wire(m.played), m.before, better)
            })
            .collect()
    }

    fn copy(&self) -> Self {
        self.clone()
    }
}

/// A computer player (the engine behind `nimkit.PerfectPlayer` and the others).
#[pyclass(name = "Player", module = "nimkit._core")]
pub struct PyPlayer(ComputerPlayer);

#[pymethods]
impl PyPlayer {
    #[new]
    fn new(style_name: &str, error_rate: f64, seed: u64) -> PyResult<Self> {
        Ok(PyPlayer(ComputerPlayer::new(
            style(style_name, error_rate)?,
            seed,
        )))
    }

    /// The player's move in the game, or None when no move is left.
    fn choose(&mut self, py: Python<'_>, game: &PyGame) -> Option<WireMove> {
        // The fastest style may build the game's remoteness table on first use.
        let (player, game) = (&mut self.0, &game.0);
        py.detach(|| player.choose(game.heaps(), game.solver()).map(wire))
    }
}

/// Wins of each player, game lengths, games each player started won.
type SimulationResult<'py> = ([u64; 2], Bound<'py, PyArray1<u32>>, [u64; 2]);

/// Self-play: (wins of each player, game lengths, games each player started won).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    heaps: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    style_a: (String, f64),
    style_b: (String, f64),
    games: usize,
    seed: u64,
    max_positions: u64,
) -> PyResult<SimulationResult<'py>> {
    let rules = rules.get().rules();
    let heaps = convert::heaps(heaps)?;
    let styles = [style(&style_a.0, style_a.1)?, style(&style_b.0, style_b.1)?];
    let result =
        py.detach(|| players::simulate(&heaps, rules, styles, games, seed, max_positions))?;
    Ok((
        result.wins,
        result.lengths.into_pyarray(py),
        result.won_starts,
    ))
}
