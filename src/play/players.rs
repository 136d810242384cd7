//! Computer players, seedable and reproducible, and self-play at scale.
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::base::alloc;
use crate::base::interrupt::{self, Cancel};
use crate::base::outcome::Outcome;
use crate::heap::code::Scan;
use crate::heap::position::{apply, undo, Move, Position};
use crate::heap::rules::Rules;
use crate::heap::HeapRule;
use crate::play::session::{winner_at_end, Player};
use crate::solve::solver::Solver;
use crate::solve::theory;

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
    pub fn fallible(error_rate: f64) -> crate::base::error::Result<Style> {
        if (0.0..=1.0).contains(&error_rate) {
            Ok(Style::Fallible(error_rate))
        } else {
            Err(crate::base::error::Error::ErrorRate(error_rate))
        }
    }
}

/// A computer player with its own random stream.
#[derive(Debug, Clone)]
pub struct ComputerPlayer {
    style: Style,
    pub(super) rng: Pcg64Mcg,
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
        let blunder = self.blunders();
        self.choose_as(heaps, solver, blunder)
    }

    /// `choose`, once it is decided whether this move is a random one.
    fn choose_as(&mut self, heaps: &[u64], solver: &Solver, blunder: bool) -> Option<Move> {
        if blunder {
            random_move(heaps, solver.rules(), &mut self.rng)
        } else if self.style == Style::Fastest {
            fastest_move(heaps, solver).or_else(|| perfect_move(heaps, solver))
        } else {
            perfect_move(heaps, solver)
        }
    }

    /// Whether this turn's move is a random one.
    #[inline]
    pub(super) fn blunders(&mut self) -> bool {
        match self.style {
            Style::Perfect | Style::Fastest => false,
            Style::Random => true,
            Style::Fallible(rate) => self.rng.random_bool(rate),
        }
    }

    /// Choose a move in `heaps` and play it there; false when no move is left. A random
    /// move under rules that never split is a heap and a take, played in place.
    #[inline(always)]
    fn play(&mut self, heaps: &mut Vec<u64>, solver: &Solver, splits: bool) -> bool {
        let blunder = self.blunders();
        if !splits && blunder {
            let rules = solver.rules();
            let Some((heap, i)) = random_pick(heaps, rules, &mut self.rng) else {
                return false;
            };
            heaps[heap] -= rules.take_for(heap).nth(heaps[heap], i).take;
            return true;
        }
        self.choose_and_play(heaps, solver, blunder)
    }

    /// `play` for every other move: the chosen move, split parts and all.
    #[inline(never)]
    fn choose_and_play(&mut self, heaps: &mut Vec<u64>, solver: &Solver, blunder: bool) -> bool {
        match self.choose_as(heaps, solver, blunder) {
            Some(mv) => {
                apply(heaps, &mv);
                true
            }
            None => false,
        }
    }
}

/// A uniformly random legal move (`None` also when the rules do not fit the heaps).
pub fn random_move(heaps: &[u64], rules: &Rules, rng: &mut impl rand::Rng) -> Option<Move> {
    rules.check_heaps(heaps.len()).ok()?;
    let (heap, i) = random_pick(heaps, rules, rng)?;
    Some(rules.take_for(heap).nth(heaps[heap], i).on(heap))
}

/// A uniformly random legal move as the heap and the index of the option among the
/// heap's (`Take::nth`); the heaps must fit the rules.
#[inline(always)]
fn random_pick(heaps: &[u64], rules: &Rules, rng: &mut impl rand::Rng) -> Option<(usize, u64)> {
    // One walk per common kind of rule, so that the walk does not branch on the rule
    // of every heap (self-play spends its time here).
    match rules.uniform().and_then(HeapRule::interval) {
        Some(u64::MAX) => pick(heaps.len(), rng, |h| heaps[h]),
        Some(k) => pick(heaps.len(), rng, |h| heaps[h].min(k)),
        None => pick(heaps.len(), rng, |h| rules.take_for(h).count(heaps[h])),
    }
}

/// A uniformly random move among `heaps` heaps, given how many moves each allows: its
/// heap and its index among that heap's moves.
#[inline(always)]
fn pick(
    heaps: usize,
    rng: &mut impl rand::Rng,
    takes: impl Fn(usize) -> u64,
) -> Option<(usize, u64)> {
    // The move count fits in 64 bits unless heaps come near 2^64; sampling and
    // walking in 64 bits is much cheaper than in 128.
    let total = (0..heaps).try_fold(0u64, |sum, heap| sum.checked_add(takes(heap)));
    match total {
        Some(0) => None,
        Some(total) => {
            let pick = rng.random_range(0..total);
            // Branch-free: the heap is the number of heaps whose moves all come before
            // the pick (a random heap would mispredict a branch on every move).
            let (mut heap, mut before, mut end) = (0usize, 0u64, 0u64);
            for h in 0..heaps {
                end += takes(h);
                let passed = end <= pick;
                heap += usize::from(passed);
                before = if passed { end } else { before };
            }
            Some((heap, pick - before))
        }
        None => {
            let total: u128 = (0..heaps).map(|h| u128::from(takes(h))).sum();
            let pick = rng.random_range(0..total);
            Some(nth_move(pick, |h| u128::from(takes(h)), heaps))
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
) -> crate::base::error::Result<Simulation> {
    // Validates the start and the rules once (searching the box if the rules need it);
    // games then run on plain heap vectors.
    let solver = Solver::new(start, rules, max_positions)?;
    let start_won = solver.outcome(start) == Outcome::N;
    let splits = rules.splits();
    // Two random players under rules that never split: the hot path of self-play.
    let random = !splits && styles == [Style::Random; 2];
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
                    let g = (first + i) as u64;
                    let states = [0, 1].map(|p| stream_state(seed, g, p));
                    let game = 'game: {
                        if random {
                            with_fixed_m!(start.len(), M => {
                                break 'game random_game::<M>(start, &solver, states, cancel);
                            });
                        }
                        let players =
                            [0, 1].map(|p| ComputerPlayer::from_state(styles[p], states[p]));
                        any_game(heaps, start, &solver, players, cancel)
                    };
                    *length = game.turns;
                    let mut wins = [0u64; 2];
                    wins[winner_at_end(game.to_move, rules) as usize] = 1;
                    let won_start = [
                        u64::from(start_won && game.turns > 0),
                        u64::from(game.second_won),
                    ];
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

/// How a game of self-play ended.
struct GameEnd {
    /// Moves played.
    turns: u64,
    /// The player to move when no move was left.
    to_move: Player,
    /// Whether the second player's first turn came in a won position.
    second_won: bool,
}

/// How often a game polls the `Cancel` flag, in moves (a game of huge heaps may last
/// for ages: it stops at Ctrl-C).
const POLL_MOVES: u64 = 1 << 12;

/// A game between any players, on the heaps in `heaps` (reset to the start).
fn any_game(
    heaps: &mut Vec<u64>,
    start: &[u64],
    solver: &Solver,
    mut players: [ComputerPlayer; 2],
    cancel: &Cancel,
) -> GameEnd {
    heaps.clear();
    heaps.extend_from_slice(start);
    let splits = solver.rules().splits();
    let (mut to_move, mut turns, mut second_won) = (0 as Player, 0u64, false);
    loop {
        // The second player's first turn is looked up, and counts if that player has
        // a move.
        let won = (turns == 1).then(|| solver.outcome(heaps) == Outcome::N);
        if !players[to_move as usize].play(heaps, solver, splits) {
            break;
        }
        second_won |= won == Some(true);
        to_move ^= 1;
        turns += 1;
        if turns.is_multiple_of(POLL_MOVES) && cancel.stopped() {
            break;
        }
    }
    GameEnd {
        turns,
        to_move,
        second_won,
    }
}

/// A game between two random players under rules that never split, on `M` heaps held
/// in an array (its walks unroll): a move is a heap and a take, played in place. The
/// kind of rule is looked at once per game, not once per move.
#[inline(always)]
fn random_game<const M: usize>(
    start: &[u64],
    solver: &Solver,
    states: [u128; 2],
    cancel: &Cancel,
) -> GameEnd {
    let rules = solver.rules();
    let mut heaps = [0u64; M];
    heaps.copy_from_slice(start);
    let rngs = states.map(Pcg64Mcg::new);
    // Takes 1..k for every heap: the i-th take is i + 1, and the Grundy value of a
    // heap is n mod (k + 1) (the start's outcome is computed here, inline: a call
    // into the solver would cost as much as the rest of a short game).
    let misere = rules.is_misere();
    let won = move |grundy: &dyn Fn(u64) -> u64, heaps: &[u64; M]| {
        let (mut nim_sum, mut big) = (0, false);
        for &n in heaps {
            let g = grundy(n);
            nim_sum ^= g;
            big |= g > 1;
        }
        !theory::is_p(nim_sum, big, misere)
    };
    match rules.uniform().and_then(HeapRule::interval) {
        Some(u64::MAX) => random_moves(
            heaps,
            rngs,
            cancel,
            |_, n| n,
            |_, _, i| i + 1,
            |h| won(&|n| n, h),
        ),
        Some(k) => random_moves(
            heaps,
            rngs,
            cancel,
            |_, n| n.min(k),
            |_, _, i| i + 1,
            |h| won(&|n| n % (k + 1), h),
        ),
        None => random_moves(
            heaps,
            rngs,
            cancel,
            |h, n| rules.take_for(h).count(n),
            |h, n, i| rules.take_for(h).nth_take(n, i),
            |h| solver.outcome(h) == Outcome::N,
        ),
    }
}

/// The moves of `random_game`, given how many takes a heap of `n` (number `h`)
/// allows, what the `i`-th of them takes, and whether the player to move wins. The
/// loop plays two moves a turn, one with each player's generator, so that both stay
/// in registers (an array indexed by the player to move lives in memory).
#[inline(always)]
fn random_moves<const M: usize>(
    mut heaps: [u64; M],
    rngs: [Pcg64Mcg; 2],
    cancel: &Cancel,
    count: impl Fn(usize, u64) -> u64,
    take: impl Fn(usize, u64, u64) -> u64,
    wins: impl Fn(&[u64; M]) -> bool,
) -> GameEnd {
    let [mut first, mut second] = rngs;
    let (mut turns, mut second_won) = (0u64, false);
    let to_move = loop {
        if !move_in_place(&mut heaps, &mut first, &count, &take) {
            break 0;
        }
        turns += 1;
        // The second player's first turn counts if that player has a move.
        let won = turns == 1 && wins(&heaps);
        if !move_in_place(&mut heaps, &mut second, &count, &take) {
            break 1;
        }
        second_won |= won;
        turns += 1;
        if turns.is_multiple_of(POLL_MOVES) && cancel.stopped() {
            break 0;
        }
    };
    GameEnd {
        turns,
        to_move,
        second_won,
    }
}

/// One uniformly random move played in place; false when no move is left.
#[inline(always)]
fn move_in_place<const M: usize>(
    heaps: &mut [u64; M],
    rng: &mut Pcg64Mcg,
    count: &impl Fn(usize, u64) -> u64,
    take: &impl Fn(usize, u64, u64) -> u64,
) -> bool {
    let Some((heap, i)) = pick(M, rng, |h| count(h, heaps[h])) else {
        return false;
    };
    let taken = take(heap, heaps[heap], i);
    // Every heap, branch-free: the heaps stay in registers (an indexed store and the
    // loads of the next move would wait on each other).
    for (h, n) in heaps.iter_mut().enumerate() {
        *n -= if h == heap { taken } else { 0 };
    }
    true
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
