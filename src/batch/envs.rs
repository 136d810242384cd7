//! Many games of one game stepped at once, for learning agents: each game draws its
//! start, answers an action (an illegal one loses), lets a computer opponent reply,
//! and reports rewards from the agent's side, all in parallel over the games.
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use std::sync::{Arc, Mutex, PoisonError};

use super::agent_board::BoardError;
use super::env_game::{Applied, EnvGame, Policy};
use super::start::{Start, StartError, TRIES};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::pool;

/// Who moves first in each game against an opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum First {
    Agent,
    Opponent,
    /// Either, at random for each game.
    Random,
}

/// What one step did to one game.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Stepped {
    /// +1 when the agent (in self-play: the player who moved) has won, -1 when it has
    /// lost, else 0.
    reward: f32,
    terminated: bool,
}

/// The games. Without an opponent the agent plays both sides (self-play).
pub struct Envs<G: EnvGame + ?Sized> {
    game: Arc<G>,
    start: Start,
    opponent: Option<(Policy, First)>,
    autoreset: bool,
    heaps: Vec<u64>,
    rngs: Vec<Pcg64Mcg>,
    /// Games that have ended: the next step starts them again (gymnasium's
    /// next-step autoreset), or refuses them without autoreset.
    ended: Vec<bool>,
    /// Moves made in each game so far, by both sides.
    moves: Vec<u32>,
}

impl<G: EnvGame + ?Sized> Envs<G> {
    pub fn new(
        count: usize,
        game: Arc<G>,
        start: Start,
        opponent: Option<(Policy, First)>,
        autoreset: bool,
    ) -> Result<Self> {
        start.check()?;
        game.fits(&start)?;
        let m = game.width();
        let mut envs = Envs {
            heaps: alloc::filled(
                count
                    .checked_mul(m)
                    .ok_or(Error::OutOfMemory { bytes: u128::MAX })?,
                0,
            )?,
            rngs: alloc::filled(count, Pcg64Mcg::new(0))?,
            ended: alloc::filled(count, false)?,
            moves: alloc::filled(count, 0)?,
            game,
            start,
            opponent,
            autoreset,
        };
        envs.reset(Some(0))?;
        Ok(envs)
    }

    pub fn game(&self) -> &Arc<G> {
        &self.game
    }

    pub fn count(&self) -> usize {
        self.rngs.len()
    }

    /// The position of every game, one row a game.
    pub fn rows(&self) -> &[u64] {
        &self.heaps
    }

    /// How many moves each game has seen, by both sides (its parity says which
    /// player is to move).
    pub fn moves(&self) -> &[u32] {
        &self.moves
    }

    /// Start every game again; `seed` gives game `i` the stream of `seed` and `i`
    /// (without one, each game goes on with its own stream).
    pub fn reset(&mut self, seed: Option<u64>) -> Result<()> {
        if let Some(seed) = seed {
            for (i, rng) in self.rngs.iter_mut().enumerate() {
                *rng = stream(seed, i as u64);
            }
        }
        let m = self.game.width();
        let (game, start, opponent) = (&*self.game, &self.start, self.opponent);
        self.heaps
            .par_chunks_mut(m)
            .zip(self.rngs.par_iter_mut())
            .zip(self.ended.par_iter_mut().zip(self.moves.par_iter_mut()))
            .try_for_each(|((row, rng), (ended, moves))| {
                *ended = false;
                *moves = begin(game, start, opponent, row, rng)?;
                Ok(())
            })
    }

    /// One action for every game: each game's reward and whether it has ended, and
    /// the labels of where each game is then (as `learn::labels`, in the same pass). Games that ended at the last step start
    /// again instead (their action is ignored, their reward 0) with autoreset, and
    /// are refused without it.
    pub fn step(
        &mut self,
        actions: &[i64],
        rewards: &mut [f32],
        terminated: &mut [bool],
        legal: &mut [bool],
        winning: &mut [bool],
        p: &mut [bool],
    ) -> Result<()> {
        let n = self.count();
        let a = self.game.actions();
        for (what, got, wanted) in [
            ("legal", legal.len(), n * a),
            ("winning", winning.len(), n * a),
            ("p", p.len(), n),
        ] {
            if got != wanted {
                return Err(BoardError::Length { what, got, wanted }.into());
            }
        }
        for (what, got) in [
            ("actions", actions.len()),
            ("rewards", rewards.len()),
            ("terminated", terminated.len()),
        ] {
            if got != n {
                return Err(BoardError::Length {
                    what,
                    got,
                    wanted: n,
                }
                .into());
            }
        }
        if !self.autoreset && self.ended.iter().any(|&e| e) {
            return Err(Error::GameOver);
        }
        let m = self.game.width();
        let (game, start, opponent) = (&*self.game, &self.start, self.opponent);
        let misere = game.is_misere();
        // The last mover's reward: taking the last object wins in normal play.
        let last_mover = if misere { -1.0 } else { 1.0 };
        const GAMES: usize = 256;
        let pieces = self
            .heaps
            .chunks_mut(m * GAMES)
            .zip(self.rngs.chunks_mut(GAMES))
            .zip(self.ended.chunks_mut(GAMES))
            .zip(self.moves.chunks_mut(GAMES))
            .zip(actions.chunks(GAMES))
            .zip(rewards.chunks_mut(GAMES).zip(terminated.chunks_mut(GAMES)))
            .zip(
                legal
                    .chunks_mut(a * GAMES)
                    .zip(winning.chunks_mut(a * GAMES)),
            )
            .zip(p.chunks_mut(GAMES))
            .map(
                |(((((((rows, rngs), ended), moves), actions), (rewards, terminated)), lw), p)| {
                    let (legal, winning) = lw;
                    Mutex::new(Some(Piece {
                        rows,
                        rngs,
                        ended,
                        moves,
                        actions,
                        rewards,
                        terminated,
                        legal,
                        winning,
                        p,
                    }))
                },
            );
        let mut slots = alloc::with_capacity(n.div_ceil(GAMES))?;
        slots.extend(pieces);
        // A step is short: the calling thread starts it at once (see `pool`).
        let take = |i: usize| {
            slots[i]
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
        };
        pool::each_piece(slots.len(), &|i| {
            let Some(piece) = take(i) else {
                return Ok(());
            };
            step_games(game, start, opponent, last_mover, piece)
        })
    }
}

/// The games of one piece of a step: their rows, random streams, ends and move
/// counts, their actions, and where their rewards, ends and labels go.
struct Piece<'a> {
    rows: &'a mut [u64],
    rngs: &'a mut [Pcg64Mcg],
    ended: &'a mut [bool],
    moves: &'a mut [u32],
    actions: &'a [i64],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    legal: &'a mut [bool],
    winning: &'a mut [bool],
    p: &'a mut [bool],
}

/// Step the games of one piece.
fn step_games<G: EnvGame + ?Sized>(
    game: &G,
    start: &Start,
    opponent: Option<(Policy, First)>,
    last_mover: f32,
    piece: Piece<'_>,
) -> Result<()> {
    let (m, a) = (game.width(), game.actions());
    let labels = piece
        .legal
        .chunks_exact_mut(a)
        .zip(piece.winning.chunks_exact_mut(a))
        .zip(piece.p);
    let outs = piece.rewards.iter_mut().zip(piece.terminated);
    for ((((((row, rng), ended), moves), &action), (reward, terminated)), ((legal, winning), p)) in
        piece
            .rows
            .chunks_exact_mut(m)
            .zip(piece.rngs)
            .zip(piece.ended)
            .zip(piece.moves)
            .zip(piece.actions)
            .zip(outs)
            .zip(labels)
    {
        let mut out = Stepped::default();
        if *ended {
            *ended = false;
            *moves = begin(game, start, opponent, row, rng)?;
            *p = game.label(row, legal, winning);
            (*reward, *terminated) = (out.reward, out.terminated);
            continue;
        }
        let applied = game.apply(row, action);
        *moves += u32::from(applied != Applied::Illegal);
        match applied {
            Applied::Illegal => out = lost(),
            Applied::Moved { ended: true } => {
                out = Stepped {
                    reward: last_mover,
                    terminated: true,
                }
            }
            Applied::Moved { ended: false } => {
                if let Some((policy, _)) = opponent {
                    // The labels' rows are scratch until the last word.
                    let reply = game
                        .choose(row, policy, rng, legal, winning)
                        .expect("a position with a move left has a legal action");
                    *moves += 1;
                    if game.apply(row, reply) == (Applied::Moved { ended: true }) {
                        out = Stepped {
                            reward: -last_mover,
                            terminated: true,
                        };
                    }
                }
            }
        }
        *ended = out.terminated;
        (*reward, *terminated) = (out.reward, out.terminated);
        *p = game.label(row, legal, winning);
    }
    Ok(())
}

fn lost() -> Stepped {
    Stepped {
        reward: -1.0,
        terminated: true,
    }
}

/// Game `i`'s random stream under `seed` (SplitMix64 of both, so that nearby seeds
/// and games give unrelated streams).
fn stream(seed: u64, i: u64) -> Pcg64Mcg {
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Pcg64Mcg::seed_from_u64(z ^ (z >> 31))
}

/// Draw a start that leaves the agent a move into `row`; an opponent that moves
/// first has moved. Returns the moves made (1 when the opponent opened).
fn begin<G: EnvGame + ?Sized>(
    game: &G,
    start: &Start,
    opponent: Option<(Policy, First)>,
    row: &mut [u64],
    rng: &mut Pcg64Mcg,
) -> Result<u32> {
    let (mut legal, mut winning) = (Vec::new(), Vec::new());
    for _ in 0..TRIES {
        start.draw(row, rng);
        if !game.has_move(row) {
            if let Start::Fixed(_) = start {
                return Err(StartError::NoMoveAtStart.into());
            }
            continue;
        }
        let Some((policy, first)) = opponent else {
            return Ok(0);
        };
        let opponent_first = match first {
            First::Agent => false,
            First::Opponent => true,
            First::Random => rng.random_bool(0.5),
        };
        if !opponent_first {
            return Ok(0);
        }
        legal.resize(game.actions(), false);
        winning.resize(game.actions(), false);
        let reply = game
            .choose(row, policy, rng, &mut legal, &mut winning)
            .expect("a start with a move has a legal action");
        // An opening move that ends the game leaves the agent nothing: draw again.
        if game.apply(row, reply) != (Applied::Moved { ended: true }) {
            return Ok(1);
        }
    }
    Err(StartError::NoMove.into())
}
