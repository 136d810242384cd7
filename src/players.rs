//! Computer players, seedable and reproducible, and self-play at scale.
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::alloc;
use crate::code::Scan;
use crate::game::{winner_at_end, Player};
use crate::interrupt::{self, Cancel};
use crate::position::{apply, undo, Move, Position};
use crate::rules::{Rules, TakeLimit};
use crate::solver::{self, Solver};
use crate::theory::Outcome;

/// How a computer player chooses its moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Style {
    /// A winning move whenever there is one; from a lost position, the move that
    /// leaves the fewest winning replies and the longest game.
    Perfect,
    /// Perfect, and with the remoteness table of the game's box (when it is within
    /// the solver's `max_positions`): wins in the fewest moves, loses in the most.
    /// Without the table it plays as `Perfect`.
    Fastest,
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
/// From a lost position, the heaps looked at over all the moves a perfect player
/// weighs (each weighing looks at every heap), but at least `FEW_WEIGHINGS` moves.
const WEIGHING_BUDGET: usize = 1 << 22;
const FEW_WEIGHINGS: usize = 256;

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

    /// The player's move in `heaps`, or `None` when no move is left. `heaps` must lie
    /// below the solver's start.
    pub fn choose(&mut self, heaps: &[u64], solver: &Solver) -> Option<Move> {
        let blunder = match self.style {
            Style::Perfect | Style::Fastest => false,
            Style::Random => true,
            Style::Fallible(rate) => self.rng.random_bool(rate),
        };
        if blunder {
            random_move(heaps, solver.rules(), &mut self.rng)
        } else if self.style == Style::Fastest {
            fastest_move(heaps, solver).or_else(|| perfect_move(heaps, solver))
        } else {
            perfect_move(heaps, solver)
        }
    }
}

/// A uniformly random legal move (`None` also when the rules do not fit the heaps).
pub fn random_move(heaps: &[u64], rules: &Rules, rng: &mut impl rand::Rng) -> Option<Move> {
    rules.check_heaps(heaps.len()).ok()?;
    // One walk per common kind of rule, so that the walk does not branch on the rule
    // of every heap (self-play spends its time here).
    match rules.take_limit() {
        TakeLimit::None => pick_move(heaps, rules, rng, |h| heaps[h]),
        TakeLimit::All(k) => pick_move(heaps, rules, rng, |h| heaps[h].min(*k)),
        _ => pick_move(heaps, rules, rng, |h| rules.take_for(h).count(heaps[h])),
    }
}

/// A uniformly random move, given how many moves each heap allows.
#[inline(always)]
fn pick_move(
    heaps: &[u64],
    rules: &Rules,
    rng: &mut impl rand::Rng,
    takes: impl Fn(usize) -> u64,
) -> Option<Move> {
    // The move count fits in 64 bits unless heaps come near 2^64; sampling and
    // walking in 64 bits is much cheaper than in 128.
    let total = (0..heaps.len()).try_fold(0u64, |sum, heap| sum.checked_add(takes(heap)));
    match total {
        Some(0) => None,
        Some(total) => {
            let pick = rng.random_range(0..total);
            // Branch-free: the heap is the number of heaps whose moves all come before
            // the pick (a random heap would mispredict a branch on every move).
            let (mut heap, mut before, mut end) = (0usize, 0u64, 0u64);
            for h in 0..heaps.len() {
                end += takes(h);
                let passed = end <= pick;
                heap += usize::from(passed);
                before = if passed { end } else { before };
            }
            Some(
                rules
                    .take_for(heap)
                    .nth(heaps[heap], pick - before)
                    .on(heap),
            )
        }
        None => {
            let total: u128 = (0..heaps.len()).map(|h| u128::from(takes(h))).sum();
            let pick = rng.random_range(0..total);
            let (heap, i) = nth_move(pick, |h| u128::from(takes(h)), heaps.len());
            Some(rules.take_for(heap).nth(heaps[heap], i).on(heap))
        }
    }
}

/// The heap and the index among its takes of move number `pick` (from 0), in the
/// order heap by heap, smallest take first: the walk for move counts past 64 bits.
fn nth_move(mut pick: u128, takes: impl Fn(usize) -> u128, heaps: usize) -> (usize, u64) {
    for heap in 0..heaps {
        let here = takes(heap);
        if pick < here {
            let index = u64::try_from(pick).expect("a take fits in 64 bits");
            return (heap, index);
        }
        pick -= here;
    }
    unreachable!("the pick is below the move count")
}

/// The perfect player's move: the first winning move; from a lost position the move
/// that leaves the opponent the fewest winning replies, then the most objects.
pub fn perfect_move(heaps: &[u64], solver: &Solver) -> Option<Move> {
    if let Some(&mv) = solver.winning_moves_by_class(heaps, Scan::First).first() {
        return Some(mv);
    }
    let rules = solver.rules();
    let position = Position::new(heaps.to_vec());
    let weigh_all = position.count_moves(rules).ok()? <= WEIGH_ALL_UP_TO;
    let mut after = heaps.to_vec();
    let mut best: Option<(usize, u64, Move)> = None;
    // Each weighing costs a search for winning replies over every heap: a bounded
    // number of them keeps a position of many heaps linear, not quadratic.
    let most_weighings = (WEIGHING_BUDGET / heaps.len().max(1)).max(FEW_WEIGHINGS);
    let mut weighings = 0usize;
    for (heap, &n) in heaps.iter().enumerate() {
        let most = if weigh_all { u64::MAX } else { SMALL_TAKES };
        for option in rules.take_for(heap).options(n).take(most as usize) {
            weighings += 1;
            if weighings > most_weighings {
                return best.map(|(_, _, mv)| mv);
            }
            let mv = option.on(heap);
            apply(&mut after, &mv);
            let replies = solver.winning_moves_by_class(&after, Scan::Every).len();
            undo(&mut after, &mv);
            if best.is_none_or(|(r, t, _)| (replies, mv.take) < (r, t)) {
                best = Some((replies, mv.take, mv));
            }
        }
    }
    best.map(|(_, _, mv)| mv)
}

/// With the remoteness table: the winning move to the P-position of least remoteness,
/// or from a lost position the move to the position of greatest remoteness.
/// `None` without the table or without a move.
pub fn fastest_move(heaps: &[u64], solver: &Solver) -> Option<Move> {
    solver.remoteness(heaps).ok()?;
    let winning = solver.outcome(heaps) == Outcome::N;
    let position = Position::new(heaps.to_vec());
    let moves = position.moves(solver.rules()).ok()?;
    let mut after = heaps.to_vec();
    let scored = moves.filter_map(|mv| {
        apply(&mut after, &mv);
        let keep = !winning || solver.outcome(&after) == Outcome::P;
        let r = solver
            .remoteness(&after)
            .expect("the table covers the game");
        undo(&mut after, &mv);
        // Minimise when winning, maximise when losing; the first move wins ties.
        keep.then_some((if winning { i64::from(r) } else { -i64::from(r) }, mv))
    });
    scored.min_by_key(|&(score, _)| score).map(|(_, mv)| mv)
}

/// What `simulate` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// Games won by player 0 and by player 1.
    pub wins: [u64; 2],
    /// The number of moves of every game.
    pub lengths: Vec<u64>,
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
    max_positions: u64,
) -> crate::error::Result<Simulation> {
    // Validates the start and the rules once (searching the box if the rules need it);
    // games then run on plain heap vectors.
    let solver = solver::shared(start, rules, max_positions)?;
    let mut lengths = alloc::filled(games, 0u64)?;
    let tally = |mut a: [[u64; 2]; 2], b: [[u64; 2]; 2]| {
        for (x, y) in a.as_flattened_mut().iter_mut().zip(b.as_flattened()) {
            *x += y;
        }
        a
    };
    // Game `first + i` is played into `lengths[i]`.
    let play = |cancel: &Cancel, first: usize, lengths: &mut [u64]| {
        lengths
            .par_iter_mut()
            .enumerate()
            .map_init(
                || start.to_vec(),
                |heaps, (i, length)| {
                    // Once the user has asked to stop, the games left are not played.
                    if cancel.stopped() {
                        return [[0; 2]; 2];
                    }
                    let g = first + i;
                    heaps.clear();
                    heaps.extend_from_slice(start);
                    let mut players = [0u64, 1].map(|p| {
                        let state = stream_state(seed, g as u64, p);
                        ComputerPlayer::from_state(styles[p as usize], state)
                    });
                    let (mut to_move, mut turns, mut won_start) = (0 as Player, 0u64, [0u64; 2]);
                    while let Some(mv) = players[to_move as usize].choose(heaps, &solver) {
                        if turns < 2 {
                            let won = solver.outcome(heaps) == Outcome::N;
                            won_start[to_move as usize] = u64::from(won);
                        }
                        apply(heaps, &mv);
                        to_move ^= 1;
                        turns += 1;
                        // A game of huge heaps may last for ages: it stops at Ctrl-C.
                        if turns.is_multiple_of(1 << 12) && cancel.stopped() {
                            break;
                        }
                    }
                    *length = turns;
                    let mut wins = [0u64; 2];
                    wins[winner_at_end(to_move, rules) as usize] = 1;
                    [wins, won_start]
                },
            )
            .reduce(|| [[0; 2]; 2], tally)
    };
    // Games in slices, so that Ctrl-C is seen between them too.
    let [wins, won_starts] = interrupt::run_cancellable(|cancel| {
        let mut total = [[0; 2]; 2];
        const SLICE: usize = 1 << 16;
        for (k, slice) in lengths.chunks_mut(SLICE).enumerate() {
            if cancel.stopped() {
                break;
            }
            total = tally(total, play(cancel, k * SLICE, slice));
        }
        total
    })?;
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
