//! Games, computer players and self-play.
use nimkit::error::Error;
use nimkit::heap::HeapRule;
use nimkit::outcome::Outcome;
use nimkit::players::{perfect_move, random_move, simulate, ComputerPlayer, Style};
use nimkit::position::{Move, Position};
use nimkit::rules::{Rules, TakeLimit};
use nimkit::session::Session;
use nimkit::solver::{Solver, DEFAULT_MAX_POSITIONS};
use nimkit::theory;
use rand::SeedableRng;

fn all_rules() -> Vec<Rules> {
    [
        TakeLimit::default(),
        TakeLimit::limit(3),
        TakeLimit::per_heap([Some(2), None, Some(4)]),
    ]
    .into_iter()
    .flat_map(|l| [false, true].map(|m| Rules::new(m, l.clone()).unwrap()))
    .collect()
}

#[test]
fn push_pop_and_the_winner() {
    let mut game = Session::new(vec![1, 2], Rules::normal(), 0).unwrap();
    assert_eq!(game.to_move(), 0);
    game.push(Move::new(1, 2)).unwrap();
    assert_eq!((game.to_move(), game.heaps()), (1, &[1, 0][..]));
    assert_eq!(game.predicted_winner(), 1);
    game.push(Move::new(0, 1)).unwrap();
    assert!(game.is_over());
    assert_eq!(game.winner(), Some(1), "normal play: the last mover wins");
    assert_eq!(game.push(Move::new(0, 1)), Err(Error::GameOver));
    assert_eq!(game.pop(), Some(Move::new(0, 1)));
    assert_eq!(game.winner(), None);
    let mut misere = Session::new(vec![1], Rules::misere(), 1).unwrap();
    misere.push(Move::new(0, 1)).unwrap();
    assert_eq!(
        misere.winner(),
        Some(0),
        "misère play: the last mover loses"
    );
    assert_eq!(
        Session::new(vec![1], Rules::normal(), 2),
        Err(Error::NoSuchPlayer(2))
    );
    let limited = Rules::new(false, TakeLimit::limit(2)).unwrap();
    let mut game = Session::new(vec![5], limited, 0).unwrap();
    assert!(matches!(
        game.push(Move::new(0, 3)),
        Err(Error::OverLimit { .. })
    ));
}

#[test]
fn review_finds_every_thrown_win() {
    let mut game = Session::new(vec![3, 4, 5], Rules::normal(), 0).unwrap();
    game.push(Move::new(2, 1)).unwrap(); // 3 4 4: player 0 throws the win away
    game.push(Move::new(0, 3)).unwrap(); // 0 4 4: player 1 keeps it
    game.push(Move::new(1, 4)).unwrap(); // 0 0 4
    game.push(Move::new(2, 1)).unwrap(); // 0 0 3: player 1 throws it away
    let mistakes = game.review();
    assert_eq!(mistakes.len(), 2);
    assert_eq!((mistakes[0].ply, mistakes[0].player), (0, 0));
    assert_eq!(mistakes[0].better, vec![Move::new(0, 2)]);
    assert_eq!(mistakes[0].before, vec![3, 4, 5]);
    assert_eq!((mistakes[1].ply, mistakes[1].player), (3, 1));
    assert_eq!(mistakes[1].better, vec![Move::new(2, 4)]);
}

/// Play one game; return the winner.
fn play(start: &[u64], rules: &Rules, players: &mut [ComputerPlayer; 2]) -> u8 {
    let mut game = Session::new(start.to_vec(), rules.clone(), 0).unwrap();
    while let Some(mv) = players[game.to_move() as usize].choose(game.heaps(), game.solver()) {
        game.push(mv).unwrap();
    }
    game.winner().unwrap()
}

#[test]
fn the_perfect_player_never_loses_a_won_game() {
    let mut seed = 0;
    for rules in all_rules() {
        for a in 0..6u64 {
            for b in 0..7u64 {
                for c in 0..6u64 {
                    let start = [a, b, c];
                    let won = theory::outcome(&start, &rules).unwrap() == Outcome::N;
                    for opponent in [Style::Random, Style::Fallible(0.3), Style::Perfect] {
                        seed += 1;
                        let mut players = [
                            ComputerPlayer::new(Style::Perfect, seed),
                            ComputerPlayer::new(opponent, seed + 1000),
                        ];
                        let winner = play(&start, &rules, &mut players);
                        if won {
                            assert_eq!(winner, 0, "{start:?} {rules:?} against {opponent:?}");
                        } else if opponent == Style::Perfect {
                            assert_eq!(winner, 1, "{start:?} {rules:?}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn from_a_lost_position_the_perfect_player_leaves_few_winning_replies() {
    // 1 2 3 is lost; taking 1 from heap 2 leaves 1 2 2, with one winning reply only.
    let solver = Solver::new(&[1, 2, 3], &Rules::normal(), DEFAULT_MAX_POSITIONS).unwrap();
    let mv = perfect_move(&[1, 2, 3], &solver).unwrap();
    let mut after = vec![1, 2, 3];
    after[mv.heap] -= mv.take;
    assert_eq!(
        theory::analyse(&after, &Rules::normal())
            .unwrap()
            .winning_moves
            .len(),
        1
    );
    // Huge heaps: it weighs only small takes, and still answers at once.
    let huge = [u64::MAX, u64::MAX];
    let solver = Solver::new(&huge, &Rules::normal(), DEFAULT_MAX_POSITIONS).unwrap();
    let mv = perfect_move(&huge, &solver).unwrap();
    assert!(mv.take <= 64);
}

#[test]
fn random_moves_are_legal_and_cover_every_move() {
    let rules = Rules::new(false, TakeLimit::per_heap([Some(2), None])).unwrap();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..5000 {
        let mv = random_move(&[3, 3], &rules, &mut rng).unwrap();
        *seen.entry(mv).or_insert(0) += 1;
    }
    // Legal moves: take 1-2 from heap 0, 1-3 from heap 1: five, about 1000 each.
    assert_eq!(seen.len(), 5);
    assert!(seen.values().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    assert_eq!(random_move(&[0, 0], &rules, &mut rng), None);
    // An empty heap between two others, and every kind of rule.
    for limit in [
        TakeLimit::default(),
        TakeLimit::limit(2),
        TakeLimit::per_heap([Some(1), None, Some(3)]),
    ] {
        let rules = Rules::new(false, limit).unwrap();
        let position = Position::new(vec![2, 0, 3]);
        let moves: Vec<Move> = position.moves(&rules).unwrap().collect();
        let mut seen = std::collections::HashMap::new();
        for _ in 0..1000 * moves.len() {
            let mv = random_move(position.heaps(), &rules, &mut rng).unwrap();
            *seen.entry(mv).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), moves.len(), "{rules:?}");
        assert!(seen.values().all(|&n| (820..1180).contains(&n)), "{seen:?}");
    }
    // Past 2^64 moves in all: the 128-bit walk, legal and spread over both huge heaps.
    let huge = [u64::MAX, u64::MAX, 5];
    let picks: Vec<Move> = (0..300)
        .map(|_| random_move(&huge, &Rules::normal(), &mut rng).unwrap())
        .collect();
    assert!(picks.iter().all(|m| m.take >= 1 && m.take <= huge[m.heap]));
    assert!(picks.iter().any(|m| m.heap == 1) && picks.iter().any(|m| m.heap == 0));
    // Rules that do not fit the heaps give no move rather than a panic (found by fuzzing).
    assert_eq!(random_move(&[3, 3, 3], &rules, &mut rng), None);
}

#[test]
fn simulation_is_reproducible_and_consistent() {
    let rules = Rules::misere();
    let styles = [Style::Fallible(0.2), Style::Random];
    let run = |seed| {
        simulate(
            &[1, 3, 5, 7],
            &rules,
            styles,
            2000,
            seed,
            DEFAULT_MAX_POSITIONS,
        )
    };
    let first = run(42).unwrap();
    assert_eq!(first, run(42).unwrap());
    assert_ne!(first, run(43).unwrap());
    assert_eq!(first.wins[0] + first.wins[1], 2000);
    assert_eq!(first.lengths.len(), 2000);
    assert!(first.lengths.iter().all(|&l| (4..=16).contains(&l)));
    // Marienbad is lost for the player who starts, and every move from a P-position
    // leads to an N-position: the second player always starts from a won position.
    assert_eq!(first.won_starts[0], 0);
    assert_eq!(first.won_starts[1], 2000);
    let perfect = simulate(
        &[3, 4, 5],
        &Rules::normal(),
        [Style::Perfect; 2],
        100,
        1,
        DEFAULT_MAX_POSITIONS,
    )
    .unwrap();
    assert_eq!(perfect.wins, [100, 0]);
}

#[test]
fn error_rates_must_be_probabilities() {
    assert!(Style::fallible(0.3).is_ok());
    assert_eq!(Style::fallible(1.5), Err(Error::ErrorRate(1.5)));
    assert!(Style::fallible(f64::NAN).is_err());
}

/// Self-play between two random players on a few heaps under rules that never split
/// runs its own loop (heaps in an array, the rule looked at once per game): it plays
/// exactly the games of the general loop, which plays them when the players are
/// "fallible" with an error rate of 1 (a certain blunder draws no random number).
#[test]
fn the_random_self_play_loop_plays_the_general_loops_games() {
    let sets = Rules::new(true, TakeLimit::Uniform(HeapRule::Set(set(&[1, 3, 4])))).unwrap();
    let cases = [
        (vec![1, 3, 5, 7], Rules::misere()),
        (
            vec![9, 4, 12],
            Rules::new(false, TakeLimit::limit(3)).unwrap(),
        ),
        (vec![6, 11], sets),
        (vec![5, 0, 8, 2, 7, 3, 1, 4], Rules::normal()),
        (vec![3, 5, 7, 9, 11], Rules::misere()), // five heaps: the general loop anyway
    ];
    for (start, rules) in cases {
        let run = |style| simulate(&start, &rules, [style; 2], 3000, 7, DEFAULT_MAX_POSITIONS);
        let fast = run(Style::Random).unwrap();
        assert_eq!(
            fast,
            run(Style::Fallible(1.0)).unwrap(),
            "{start:?} {rules:?}"
        );
        assert_eq!(fast.wins[0] + fast.wins[1], 3000);
    }
}

fn set(elements: &[u64]) -> std::sync::Arc<nimkit::subtraction::GrundySequence> {
    let set = nimkit::subtraction::SubtractionSet::new(elements.to_vec()).unwrap();
    std::sync::Arc::new(nimkit::subtraction::GrundySequence::find(set, 1 << 20).unwrap())
}
