//! A game in progress: position, history, whose turn, who won.
use crate::base::error::{Error, Result};
use crate::base::outcome::Outcome;
use crate::heap::code::Scan;
use crate::heap::position::{apply, check_move, undo, Move, Position};
use crate::heap::rules::Rules;
use crate::solve::solver::{Solver, DEFAULT_MAX_POSITIONS};

/// Player 0 or player 1.
pub type Player = u8;

/// A game from a starting position under some rules; player `first` moves first.
#[derive(Debug, Clone)]
pub struct Session {
    start: Position,
    solver: Solver,
    first: Player,
    heaps: Vec<u64>,
    history: Vec<Move>,
}

/// Who has won when no move is left and `to_move` is to move.
#[inline]
pub fn winner_at_end(to_move: Player, rules: &Rules) -> Player {
    to_move ^ Player::from(!rules.is_misere())
}

/// A move that turned a won position into a lost one, and what would have kept the win.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    /// The move's index in the history (0: the first move of the game).
    pub ply: usize,
    pub player: Player,
    pub played: Move,
    /// The position the mistake was made in.
    pub before: Vec<u64>,
    /// Every move that would have kept the win.
    pub better: Vec<Move>,
}

impl Session {
    pub fn new(start: Vec<u64>, rules: Rules, first: Player) -> Result<Self> {
        Session::with_max_positions(start, rules, first, DEFAULT_MAX_POSITIONS)
    }

    /// A game whose rules may need search (misère play of subtraction sets): the box
    /// below the start is solved once, refused past `max_positions` positions.
    pub fn with_max_positions(
        start: Vec<u64>,
        rules: Rules,
        first: Player,
        max_positions: u64,
    ) -> Result<Self> {
        if first > 1 {
            return Err(Error::NoSuchPlayer(first));
        }
        Ok(Session {
            solver: Solver::new(&start, &rules, max_positions)?,
            heaps: start.clone(),
            start: Position::new(start),
            first,
            history: Vec::new(),
        })
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn rules(&self) -> &Rules {
        self.solver.rules()
    }

    /// What the game knows about the positions it can reach.
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    pub fn first(&self) -> Player {
        self.first
    }

    pub fn heaps(&self) -> &[u64] {
        &self.heaps
    }

    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Player {
        self.first ^ (self.history.len() % 2) as Player
    }

    /// Play a legal move, or say why it is illegal.
    pub fn push(&mut self, mv: Move) -> Result<()> {
        if self.is_over() {
            return Err(Error::GameOver);
        }
        check_move(&self.heaps, mv, self.rules())?;
        apply(&mut self.heaps, &mv);
        self.history.push(mv);
        Ok(())
    }

    /// Take back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let mv = self.history.pop()?;
        undo(&mut self.heaps, &mv);
        Some(mv)
    }

    /// No move is left (with a subtraction set, heaps below its smallest element stay;
    /// with a code, heaps too small for any take).
    pub fn is_over(&self) -> bool {
        let rules = self.rules();
        (0..self.heaps.len()).all(|i| rules.take_for(i).count(self.heaps[i]) == 0)
    }

    /// Who won, once the game is over: in normal play the player who made the last
    /// move (so the one not to move), in misère play the other.
    pub fn winner(&self) -> Option<Player> {
        self.is_over()
            .then(|| winner_at_end(self.to_move(), self.rules()))
    }

    /// Who wins from here with perfect play on both sides.
    pub fn predicted_winner(&self) -> Player {
        // Heap games end: the outcome is P or N.
        if self.outcome() == Outcome::N {
            self.to_move()
        } else {
            self.to_move() ^ 1
        }
    }

    /// The outcome of the current position for the player to move.
    pub fn outcome(&self) -> Outcome {
        self.solver.outcome(&self.heaps)
    }

    /// Every move of the history that turned a won position into a lost one.
    pub fn review(&self) -> Vec<Mistake> {
        let mut heaps = self.start.heaps().to_vec();
        let mut mistakes = Vec::new();
        for (ply, &played) in self.history.iter().enumerate() {
            let analysis = self.solver.analyse_by_class(&heaps, Scan::Every);
            let before = heaps.clone();
            apply(&mut heaps, &played);
            let after = self.solver.outcome(&heaps);
            if analysis.outcome == Outcome::N && after == Outcome::N {
                mistakes.push(Mistake {
                    ply,
                    player: self.first ^ (ply % 2) as Player,
                    played,
                    before,
                    better: analysis.winning_moves,
                });
            }
        }
        mistakes
    }
}

impl PartialEq for Session {
    /// Same start, rules, first player and history (the solver follows from these).
    fn eq(&self, other: &Self) -> bool {
        (&self.start, self.rules(), self.first, &self.history)
            == (&other.start, other.rules(), other.first, &other.history)
    }
}

impl Eq for Session {}
