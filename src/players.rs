//! Computer players, seedable and reproducible, and self-play at scale.
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::game::{winner_at_end, Game, Player};
use crate::position::{max_take, Move, Position};
use crate::rules::Rules;
use crate::theory::{self, Outcome};

/// How a computer player chooses its moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Style {
    /// A winning move whenever there is one; from a lost position, the move that
    /// leaves the fewest winning replies and the longest game.
    Perfect,
    /// A uniformly random legal move.
    Random,
    /// Perfect, except that with this probability it plays a random legal move.
    Fallible(f64),
}

impl Style {
    /// A fallible style; the rate must be a probability.
    pub fn fallible(error_rate: f64) -> crate::error::Result<Style> {
        if (0.0..=1.0).contains(&error_rate) {
            Ok(Style::Fallible(error_rate))
        } else {
            Err(crate::error::Error::ErrorRate(error_rate))
        }
    }
}

/// A computer player with its own random stream.
#[derive(Debug, Clone)]
pub struct ComputerPlayer {
    style: Style,
    rng: Pcg64Mcg,
}

/// From a lost position, how many moves the perfect player weighs: every legal
/// move when there are at most this many, else the smallest takes of every heap.
const WEIGH_ALL_UP_TO: u128 = 4096;
const SMALL_TAKES: u64 = 64;

impl ComputerPlayer {
    pub fn new(style: Style, seed: u64) -> Self {
        ComputerPlayer {
            style,
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }

    /// A player whose generator starts from `state` directly: cheaper than seeding,
    /// for self-play, which makes two players per game.
    fn from_state(style: Style, state: u128) -> Self {
        ComputerPlayer {
            style,
            rng: Pcg64Mcg::new(state),
        }
    }

    pub fn style(&self) -> Style {
        self.style
    }

    /// The player's move in `heaps`, or `None` when no move is left.
    pub fn choose(&mut self, heaps: &[u64], rules: &Rules) -> Option<Move> {
        let blunder = match self.style {
            Style::Perfect => false,
            Style::Random => true,
            Style::Fallible(rate) => self.rng.random_bool(rate),
        };
        if blunder {
            random_move(heaps, rules, &mut self.rng)
        } else {
            perfect_move(heaps, rules)
        }
    }
}

/// A uniformly random legal move (`None` also when the rules do not fit the heaps).
pub fn random_move(heaps: &[u64], rules: &Rules, rng: &mut impl rand::Rng) -> Option<Move> {
    rules.check_heaps(heaps.len()).ok()?;
    let takes = |heap: usize| max_take(heaps[heap], rules.limit_for(heap));
    // The move count fits in 64 bits unless heaps come near 2^64; sampling and
    // walking in 64 bits is much cheaper than in 128.
    let total = (0..heaps.len()).try_fold(0u64, |sum, heap| sum.checked_add(takes(heap)));
    match total {
        Some(0) => None,
        Some(total) => Some(nth_move(rng.random_range(0..total), takes, heaps.len())),
        None => {
            let total: u128 = (0..heaps.len()).map(|h| u128::from(takes(h))).sum();
            let pick = rng.random_range(0..total);
            Some(nth_move(pick, |h| u128::from(takes(h)), heaps.len()))
        }
    }
}

/// The move number `pick` (from 0) in the order heap by heap, smallest take first.
#[inline]
fn nth_move<N>(mut pick: N, takes: impl Fn(usize) -> N, heaps: usize) -> Move
where
    N: Copy + PartialOrd + std::ops::SubAssign + TryInto<u64>,
{
    for heap in 0..heaps {
        let here = takes(heap);
        if pick < here {
            let take = pick.try_into().ok().expect("a take fits in 64 bits");
            return Move::new(heap, take + 1);
        }
        pick -= here;
    }
    unreachable!("the pick is below the move count")
}

/// The perfect player's move: the first winning move; from a lost position the move
/// that leaves the opponent the fewest winning replies, then the most objects.
pub fn perfect_move(heaps: &[u64], rules: &Rules) -> Option<Move> {
    let analysis = theory::analyse(heaps, rules).ok()?;
    if let Some(&mv) = analysis.winning_moves.first() {
        return Some(mv);
    }
    let position = Position::new(heaps.to_vec());
    let weigh_all = position.count_moves(rules).ok()? <= WEIGH_ALL_UP_TO;
    let mut after = heaps.to_vec();
    let mut best: Option<(usize, u64, Move)> = None;
    for (heap, &n) in heaps.iter().enumerate() {
        let most = max_take(n, rules.limit_for(heap));
        let most = if weigh_all {
            most
        } else {
            most.min(SMALL_TAKES)
        };
        for take in 1..=most {
            after[heap] = n - take;
            let replies = theory::winning_moves(&after, rules).ok()?.len();
            if best.is_none_or(|(r, t, _)| (replies, take) < (r, t)) {
                best = Some((replies, take, Move::new(heap, take)));
            }
        }
        after[heap] = n;
    }
    best.map(|(_, _, mv)| mv)
}

/// What `simulate` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// Games won by player 0 and by player 1.
    pub wins: [u64; 2],
    /// The number of moves of every game.
    pub lengths: Vec<u32>,
    /// Games in which each player's first turn came in a won position.
    pub won_starts: [u64; 2],
}

/// Play `games` whole games from `start`, player 0 (`styles[0]`) moving first, on all
/// cores. Game `g` draws its random numbers from streams seeded by `seed` and `g`
/// alone, so the results do not depend on the thread count.
pub fn simulate(
    start: &[u64],
    rules: &Rules,
    styles: [Style; 2],
    games: usize,
    seed: u64,
) -> crate::error::Result<Simulation> {
    // Validates the start and the rules once; games then run on plain heap vectors.
    Game::new(start.to_vec(), rules.clone(), 0)?;
    let mut lengths = vec![0u32; games];
    let tally = |mut a: [[u64; 2]; 2], b: [[u64; 2]; 2]| {
        for (x, y) in a.as_flattened_mut().iter_mut().zip(b.as_flattened()) {
            *x += y;
        }
        a
    };
    let [wins, won_starts] = lengths
        .par_iter_mut()
        .enumerate()
        .map_init(
            || start.to_vec(),
            |heaps, (g, length)| {
                heaps.copy_from_slice(start);
                let mut players = [0u64, 1].map(|p| {
                    let state = stream_state(seed, g as u64, p);
                    ComputerPlayer::from_state(styles[p as usize], state)
                });
                let (mut to_move, mut turns, mut won_start) = (0 as Player, 0u32, [0u64; 2]);
                while let Some(mv) = players[to_move as usize].choose(heaps, rules) {
                    if turns < 2 {
                        let won = theory::outcome(heaps, rules).ok() == Some(Outcome::N);
                        won_start[to_move as usize] = u64::from(won);
                    }
                    heaps[mv.heap] -= mv.take;
                    to_move ^= 1;
                    turns += 1;
                }
                *length = turns;
                let mut wins = [0u64; 2];
                wins[winner_at_end(to_move, rules) as usize] = 1;
                [wins, won_start]
            },
        )
        .reduce(|| [[0; 2]; 2], tally);
    Ok(Simulation {
        wins,
        lengths,
        won_starts,
    })
}

/// A well-mixed generator state for player `player` in game `game` (SplitMix64).
fn stream_state(seed: u64, game: u64, player: u64) -> u128 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let a = mix(seed ^ mix(game ^ mix(player)));
    (u128::from(mix(a)) << 64) | u128::from(a)
}
