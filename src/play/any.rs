//! Playing any impartial game: a move is the option it reaches. The game in progress
//! and the computer players' choice, for every family; heaps under rules, with
//! their heap moves and their own fast paths, are `Session`'s.
use std::sync::OnceLock;

use rand::RngExt;

use crate::base::error::{Error, Result};
use crate::base::outcome::Outcome;
use crate::games::{GameRef, Limits};
use crate::play::players::ComputerPlayer;
use crate::play::session::Player;

/// From a lost position the perfect player compares the options' winning replies,
/// one search each; past this many options it plays the first.
const COMPARED_OPTIONS: usize = 64;

/// A game from `start` in the ending asked; player `first` moves first.
#[derive(Debug, Clone)]
pub struct Played {
    positions: Vec<GameRef>,
    first: Player,
    misere: bool,
    /// The options of the current position, asked once.
    options: OnceLock<Vec<GameRef>>,
}

/// A move from a won position to one that is not lost for the opponent.
#[derive(Debug, Clone)]
pub struct Mistake {
    /// The move's index in the history (0: the first move of the game).
    pub ply: usize,
    pub player: Player,
    pub played: GameRef,
    pub before: GameRef,
    /// Every move that would have kept the win.
    pub better: Vec<GameRef>,
}

fn same(a: &GameRef, b: &GameRef) -> bool {
    a.equals(b.as_ref())
}

impl Played {
    pub fn new(start: GameRef, first: Player, misere: bool) -> Result<Self> {
        if first > 1 {
            return Err(Error::NoSuchPlayer(first));
        }
        Ok(Played {
            positions: vec![start],
            first,
            misere,
            options: OnceLock::new(),
        })
    }

    pub fn misere(&self) -> bool {
        self.misere
    }

    pub fn first(&self) -> Player {
        self.first
    }

    pub fn start(&self) -> &GameRef {
        &self.positions[0]
    }

    pub fn position(&self) -> &GameRef {
        self.positions.last().expect("the start is never popped")
    }

    /// The positions after each move.
    pub fn history(&self) -> &[GameRef] {
        &self.positions[1..]
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Player {
        self.first ^ ((self.positions.len() - 1) % 2) as Player
    }

    /// The options of the current position.
    pub fn options(&self) -> Result<&[GameRef]> {
        if let Some(options) = self.options.get() {
            return Ok(options);
        }
        let options = self.position().options()?;
        Ok(self.options.get_or_init(|| options))
    }

    /// Move to `option`, or say why it is not one.
    pub fn push(&mut self, option: GameRef) -> Result<()> {
        let options = self.options()?;
        if options.is_empty() {
            return Err(Error::GameOver);
        }
        if !options.iter().any(|o| same(o, &option)) {
            return Err(Error::NotAGameOption);
        }
        self.positions.push(option);
        self.options = OnceLock::new();
        Ok(())
    }

    /// Take back the last move.
    pub fn pop(&mut self) -> Option<GameRef> {
        if self.positions.len() == 1 {
            return None;
        }
        self.options = OnceLock::new();
        self.positions.pop()
    }

    pub fn is_over(&self) -> Result<bool> {
        Ok(self.options()?.is_empty())
    }

    /// Who won, once the game is over: in normal play the player who made the last
    /// move, in misère play the other.
    pub fn winner(&self) -> Result<Option<Player>> {
        Ok(self
            .is_over()?
            .then(|| self.to_move() ^ Player::from(!self.misere)))
    }

    /// The outcome of the current position for the player to move.
    pub fn outcome(&self, limits: &Limits) -> Result<Outcome> {
        self.position().outcome(self.misere, limits)
    }

    /// Who wins from here with perfect play on both sides (`None`: a draw).
    pub fn predicted_winner(&self, limits: &Limits) -> Result<Option<Player>> {
        Ok(match self.outcome(limits)? {
            Outcome::N => Some(self.to_move()),
            Outcome::P => Some(self.to_move() ^ 1),
            Outcome::D => None,
        })
    }

    /// Every move from a won position to one that is not lost for the opponent.
    pub fn review(&self, limits: &Limits) -> Result<Vec<Mistake>> {
        let mut mistakes = Vec::new();
        for (ply, pair) in self.positions.windows(2).enumerate() {
            let (before, played) = (&pair[0], &pair[1]);
            if before.outcome(self.misere, limits)? != Outcome::N {
                continue;
            }
            let better = before.winning_moves(self.misere, limits)?;
            if !better.iter().any(|b| same(b, played)) {
                mistakes.push(Mistake {
                    ply,
                    player: self.first ^ (ply % 2) as Player,
                    played: GameRef::clone(played),
                    before: GameRef::clone(before),
                    better,
                });
            }
        }
        Ok(mistakes)
    }
}

impl ComputerPlayer {
    /// The player's move in `game` (the option it moves to), or `None` when no move is
    /// left. A perfect move is a winning one; in a loopy game, of several, the one
    /// that wins soonest (others may come back); from a draw, one that keeps it; from
    /// a lost position, the option that leaves the fewest winning replies.
    pub fn choose_option(&mut self, game: &Played, limits: &Limits) -> Result<Option<GameRef>> {
        let options = game.options()?;
        if options.is_empty() {
            return Ok(None);
        }
        if self.blunders() {
            let pick = self.rng.random_range(0..options.len());
            return Ok(Some(GameRef::clone(&options[pick])));
        }
        let misere = game.misere();
        let position = game.position();
        let good = position.winning_moves(misere, limits)?;
        if good.len() > 1 && game.outcome(limits)? == Outcome::N && position.loopy(limits)? {
            return soonest(good, misere, limits).map(Some);
        }
        if let Some(first) = good.into_iter().next() {
            return Ok(Some(first));
        }
        if options.len() > COMPARED_OPTIONS {
            return Ok(Some(GameRef::clone(&options[0])));
        }
        let mut fewest: Option<(usize, &GameRef)> = None;
        for option in options {
            let replies = option.winning_moves(misere, limits)?.len();
            if fewest.is_none_or(|(least, _)| replies < least) {
                fewest = Some((replies, option));
            }
        }
        Ok(fewest.map(|(_, option)| GameRef::clone(option)))
    }
}

/// Of the winning moves, the first that leaves the smallest remoteness.
fn soonest(good: Vec<GameRef>, misere: bool, limits: &Limits) -> Result<GameRef> {
    let mut best: Option<(u32, GameRef)> = None;
    for option in good {
        let remote = option.remoteness(misere, limits)?.unwrap_or(u32::MAX);
        if best.as_ref().is_none_or(|(least, _)| remote < *least) {
            best = Some((remote, option));
        }
    }
    Ok(best.expect("at least two winning moves").1)
}
