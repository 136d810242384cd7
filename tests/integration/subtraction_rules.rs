//! Rules with subtraction sets against the retrograde search of search.rs on whole
//! boxes: normal-play outcomes and every winning move from Grundy XOR, misère play by
//! the fast search and the solver, remoteness by its recurrence, sets {1..k} against
//! the closed forms of take-limit Nim, and games played under these rules.
use crate::common;

use std::sync::Arc;

use common::{closed_forms_equal_search, positions};
use ndarray::{Array2, ArrayD, IxDyn};
use nimkit::batch;
use nimkit::error::Error;
use nimkit::heap::HeapRule;
use nimkit::outcome::Outcome;
use nimkit::players::{random_move, simulate, ComputerPlayer, Style};
use nimkit::position::{Move, Position};
use nimkit::rules::{Rules, TakeLimit};
use nimkit::search::{solve_outcomes, BoxSolution};
use nimkit::session::Session;
use nimkit::solver::Solver;
use nimkit::subtraction::{GrundySequence, SubtractionSet};
use nimkit::theory;
use proptest::prelude::*;
use rand::SeedableRng;

fn set(elements: &[u64]) -> Arc<GrundySequence> {
    let set = SubtractionSet::new(elements.to_vec()).unwrap();
    Arc::new(GrundySequence::find(set, 1 << 24).unwrap())
}

fn set_rules(misere: bool, elements: &[u64]) -> Rules {
    Rules::new(misere, TakeLimit::Uniform(HeapRule::Set(set(elements)))).unwrap()
}

/// Normal play: outcome and the exact list of winning moves (several per heap now)
/// from the closed forms equal the search, on every position; the fast search agrees.
fn check_closed_forms(bounds: &[u64], rules: &Rules) {
    let p_positions = closed_forms_equal_search(bounds, rules);
    assert!(
        p_positions > 0 || bounds.iter().all(|&b| b == 0),
        "a box with no P-position proves little"
    );
    let solution = BoxSolution::solve(bounds, rules, u64::MAX).unwrap();
    let fast = solve_outcomes(bounds, rules, u64::MAX).unwrap();
    assert_eq!(fast, solution.is_p(), "{rules:?}");
}

/// Misère play of general sets: the fast per-line search and the reference agree, and
/// the solver's answers are those of the search.
fn check_search(bounds: &[u64], rules: &Rules) {
    let solution = BoxSolution::solve(bounds, rules, u64::MAX).unwrap();
    let fast = solve_outcomes(bounds, rules, u64::MAX).unwrap();
    assert_eq!(fast, solution.is_p(), "{rules:?}");
    let solver = Solver::new(bounds, rules, u64::MAX).unwrap();
    for heaps in positions(bounds) {
        assert_eq!(solver.outcome(&heaps), solution.outcome(&heaps));
        for mv in solver.winning_moves(&heaps).unwrap() {
            let next = Position::new(heaps.clone()).after(mv, rules).unwrap();
            assert_eq!(solution.outcome(next.heaps()), Outcome::P);
        }
    }
}

/// Remoteness satisfies its recurrence on every position: 0 without a move; an
/// N-position one more than its smallest P-child; a P-position one more than its
/// largest child.
fn check_remoteness(bounds: &[u64], rules: &Rules) {
    let solution = BoxSolution::solve(bounds, rules, u64::MAX).unwrap();
    let remoteness = solution.remoteness().unwrap();
    for heaps in positions(bounds) {
        let at = |h: &[u64]| remoteness[solution.index(h)];
        let children: Vec<Vec<u64>> = Position::new(heaps.clone())
            .moves(rules)
            .unwrap()
            .map(|mv| {
                Position::new(heaps.clone())
                    .after(mv, rules)
                    .unwrap()
                    .heaps()
                    .to_vec()
            })
            .collect();
        let expected = if children.is_empty() {
            0
        } else if solution.outcome(&heaps) == Outcome::N {
            1 + children
                .iter()
                .filter(|c| solution.outcome(c) == Outcome::P)
                .map(|c| at(c))
                .min()
                .expect("an N-position has a P-child")
        } else {
            1 + children.iter().map(|c| at(c)).max().unwrap()
        };
        assert_eq!(at(&heaps), expected, "{heaps:?} {rules:?}");
    }
}

fn heap_take() -> impl Strategy<Value = HeapRule> {
    prop_oneof![
        Just(HeapRule::Nim),
        (1..5u64).prop_map(HeapRule::Limit),
        prop::collection::vec(1..8u64, 1..4).prop_map(|s| HeapRule::Set(set(&s))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn normal_play_by_grundy_xor_equals_search_on_whole_boxes(
        elements in prop::collection::vec(1..9u64, 1..5),
        bounds in prop::collection::vec(0..13u64, 1..4),
    ) {
        check_closed_forms(&bounds, &set_rules(false, &elements));
    }

    #[test]
    fn one_set_per_heap_equals_search(
        takes in prop::collection::vec(heap_take(), 1..4),
        bound in 0..11u64,
        misere: bool,
    ) {
        let bounds = vec![bound; takes.len()];
        let rules = Rules::new(misere, TakeLimit::PerHeap(takes)).unwrap();
        if rules.has_closed_form() {
            check_closed_forms(&bounds, &rules);
        } else {
            check_search(&bounds, &rules);
        }
    }

    #[test]
    fn misere_play_of_sets_by_search(
        elements in prop::collection::vec(1..9u64, 1..5),
        bounds in prop::collection::vec(0..11u64, 1..4),
    ) {
        check_search(&bounds, &set_rules(true, &elements));
    }

    #[test]
    fn remoteness_satisfies_its_recurrence(
        elements in prop::collection::vec(1..7u64, 1..4),
        bounds in prop::collection::vec(0..9u64, 1..4),
        misere: bool,
    ) {
        check_remoteness(&bounds, &set_rules(misere, &elements));
    }
}

#[test]
fn sets_one_to_k_equal_the_closed_forms_of_take_limits() {
    let bounds = [9, 7, 5];
    for k in 1..=6u64 {
        for misere in [false, true] {
            let as_set = set_rules(misere, &(1..=k).collect::<Vec<_>>());
            let as_limit = Rules::new(misere, TakeLimit::limit(k)).unwrap();
            assert!(as_set.has_closed_form());
            let solved = |r: &Rules| BoxSolution::solve(&bounds, r, u64::MAX).unwrap();
            let (a, b) = (solved(&as_set), solved(&as_limit));
            assert_eq!(a.is_p(), b.is_p());
            assert_eq!(a.remoteness().unwrap(), b.remoteness().unwrap());
            let fast = |r: &Rules| solve_outcomes(&bounds, r, u64::MAX).unwrap();
            assert_eq!(fast(&as_set), fast(&as_limit));
            for heaps in positions(&bounds) {
                let position = Position::new(heaps.clone());
                assert_eq!(
                    theory::analyse(&heaps, &as_set).unwrap(),
                    theory::analyse(&heaps, &as_limit).unwrap()
                );
                let moves = |r: &Rules| position.moves(r).unwrap().collect::<Vec<_>>();
                assert_eq!(moves(&as_set), moves(&as_limit));
                let mut rngs = [5, 5].map(rand_pcg::Pcg64Mcg::seed_from_u64);
                assert_eq!(
                    random_move(&heaps, &as_set, &mut rngs[0]),
                    random_move(&heaps, &as_limit, &mut rngs[1])
                );
            }
            // The batch kernels, every position of the box at once.
            let rows: Vec<u64> = positions(&bounds).concat();
            let rows = Array2::from_shape_vec((rows.len() / 3, 3), rows).unwrap();
            let run = |r: &Rules| {
                let n = rows.nrows();
                let mut p = ArrayD::from_elem(IxDyn(&[n]), false);
                let mut count = ArrayD::zeros(IxDyn(&[n]));
                let (mut heap, mut take) = (ArrayD::zeros(IxDyn(&[n])), ArrayD::zeros(IxDyn(&[n])));
                let view = rows.view().into_dyn();
                batch::is_p_position(view.clone(), r, 0, p.view_mut()).unwrap();
                batch::count_winning_moves(view.clone(), r, 0, count.view_mut()).unwrap();
                batch::winning_move(view, r, 0, heap.view_mut(), take.view_mut()).unwrap();
                (p, count, heap, take)
            };
            assert_eq!(run(&as_set), run(&as_limit));
        }
    }
}

#[test]
fn legal_moves_and_illegal_takes() {
    let rules = set_rules(false, &[4, 1, 3]);
    let position = Position::new(vec![3, 5]);
    let moves: Vec<Move> = position.moves(&rules).unwrap().collect();
    let expected = [(0, 1), (0, 3), (1, 1), (1, 3), (1, 4)].map(|(h, t)| Move::new(h, t));
    assert_eq!(moves, expected);
    assert_eq!(position.count_moves(&rules).unwrap(), 5);
    let err = position.after(Move::new(1, 2), &rules).unwrap_err();
    assert!(err.is_illegal_move());
    assert_eq!(
        err.to_string(),
        "illegal move: cannot take 2 from heap 1; the rules allow only {1, 3, 4}"
    );
    assert!(matches!(
        position.after(Move::new(0, 4), &rules),
        Err(Error::TakeTooMany { .. })
    ));
    // With a set, one heap may hold several winning moves; all of them are listed:
    // from 3 with {1, 3, 4}, taking 1 leaves 2 (P) and taking 3 leaves 0 (P).
    let several = theory::analyse(&[3], &rules).unwrap().winning_moves;
    assert_eq!(several, vec![Move::new(0, 1), Move::new(0, 3)]);
}

#[test]
fn misere_play_of_sets_refuses_boxes_over_the_limit() {
    // An element over 256: no take-and-break code, so no misère quotient to use.
    let rules = set_rules(true, &[2, 300]);
    let err = Solver::new(&[1000, 1000, 1000], &rules, 1_000_000).unwrap_err();
    assert_eq!(
        err,
        Error::SearchTooLarge {
            bounds: vec![1000, 1000, 1000],
            positions: 1_003_003_001,
            limit: 1_000_000
        }
    );
    assert!(err.to_string().contains("1003003001 positions"));
    assert_eq!(theory::outcome(&[3], &rules), Err(Error::NoClosedForm));
    // Normal play needs no search, whatever the heaps.
    assert!(Solver::new(&[u64::MAX; 3], &set_rules(false, &[2, 3]), 0).is_ok());
}

#[test]
fn a_game_ends_when_no_heap_can_be_moved() {
    // Take 2 or 3: heaps of 1 stay. Normal play: the player who cannot move loses.
    for misere in [false, true] {
        let mut game = Session::new(vec![3, 1], set_rules(misere, &[2, 3]), 0).unwrap();
        assert!(!game.is_over());
        game.push(Move::new(0, 2)).unwrap();
        assert!(game.is_over(), "heaps 1 and 1 allow no move");
        assert_eq!(game.winner(), Some(if misere { 1 } else { 0 }));
    }
}

/// Perfect or fastest players never lose a game they start from a won position, in
/// normal and misère play of general sets; two fastest players finish a won game in
/// exactly its remoteness.
#[test]
fn perfect_players_keep_every_won_start() {
    let sets: [&[u64]; 3] = [&[1, 3, 4], &[2, 3], &[1, 4, 5]];
    for elements in sets {
        for misere in [false, true] {
            let rules = set_rules(misere, elements);
            for start in [vec![7, 5, 3], vec![6, 9], vec![12]] {
                let solver = Solver::new(&start, &rules, u64::MAX).unwrap();
                let won = solver.outcome(&start) == Outcome::N;
                for perfect in [Style::Perfect, Style::Fastest] {
                    let result =
                        simulate(&start, &rules, [perfect, Style::Random], 300, 7, u64::MAX)
                            .unwrap();
                    if won {
                        assert_eq!(result.wins[0], 300, "{start:?} {rules:?}");
                    }
                }
                let fastest =
                    simulate(&start, &rules, [Style::Fastest; 2], 3, 1, u64::MAX).unwrap();
                let remoteness = solver.remoteness(&start).unwrap();
                assert!(fastest.lengths.iter().all(|&l| l == u64::from(remoteness)));
                // Hurrying, the winner ends the game within the remoteness whatever
                // the loser does.
                let hurried = simulate(
                    &start,
                    &rules,
                    [Style::Fastest, Style::Random],
                    100,
                    3,
                    u64::MAX,
                )
                .unwrap();
                if won {
                    assert!(hurried.lengths.iter().all(|&l| l <= u64::from(remoteness)));
                }
                // A game played move by move agrees with self-play.
                let mut game = Session::new(start.clone(), rules.clone(), 0).unwrap();
                let mut players = [0, 1].map(|s| ComputerPlayer::new(Style::Fastest, s));
                while let Some(mv) =
                    players[game.to_move() as usize].choose(game.heaps(), game.solver())
                {
                    game.push(mv).unwrap();
                }
                assert_eq!(game.history().len() as u32, remoteness);
                assert!(game.review().is_empty());
            }
        }
    }
}
