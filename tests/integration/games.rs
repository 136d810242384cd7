//! Games beyond heaps: Smith's values of loopy graphs against their definition and
//! against sums with Nim heaps, outcomes with draws against product graphs, and sums
//! of different games against a search of the product of their state graphs.
use std::sync::Arc;

use nimkit::games::defined::Defined;
use nimkit::games::digraph::Digraph;
use nimkit::games::heaps::HeapsGame;
use nimkit::games::sum::SumGame;
use nimkit::games::{AnyGame, At, GameRef, Limits, Value};
use nimkit::heap::HeapRule;
use nimkit::outcome::Outcome;
use nimkit::rules::{Rules, TakeLimit};
use nimkit::search::graph::{self, Both, Explored, Graph};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

const LIMITS: Limits = Limits {
    max_positions: 1 << 22,
    max_memory: u64::MAX,
    evict: false,
    report: &|_| {},
};

/// A random digraph of `n` nodes, each with up to `degree` successors (cycles and
/// self-loops allowed).
fn random_graph(rng: &mut Pcg64Mcg, n: u32, degree: u32) -> Graph {
    let lists: Vec<Vec<u32>> = (0..n)
        .map(|_| {
            let mut list: Vec<u32> = (0..rng.random_range(0..=degree))
                .map(|_| rng.random_range(0..n))
                .collect();
            list.sort_unstable();
            list.dedup();
            list
        })
        .collect();
    Graph::from_lists(&lists).unwrap()
}

/// The graph plus a Nim heap of `m` (a node of the sum is `(u, j)`, `j <= m`): the
/// outcomes of its nodes by plain retrograde analysis.
fn with_nim_heap(graph: &Graph, m: u32) -> Vec<Outcome> {
    let n = graph.len() as u32;
    let lists: Vec<Vec<u32>> = (0..n * (m + 1))
        .map(|node| {
            let (u, j) = (node / (m + 1), node % (m + 1));
            let moves = graph.successors(u).iter().map(|&v| v * (m + 1) + j);
            moves.chain((0..j).map(|k| u * (m + 1) + k)).collect()
        })
        .collect();
    let sum = Graph::from_lists(&lists).unwrap();
    graph::outcomes(&Both::new(&sum).unwrap(), false).unwrap()
}

/// Smith: γ(u) = m exactly when `u + *m` is a P-position; γ(u) = ∞ when no `m` makes
/// it one, with K the finite values among the options. Checked on hundreds of random
/// graphs with cycles and self-loops, against retrograde analysis of the sum.
#[test]
fn smith_values_are_the_nim_heaps_that_balance_them() {
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    for trial in 0..400 {
        let n = rng.random_range(1..14);
        let graph = random_graph(&mut rng, n, 4);
        let values = graph::values(&graph).unwrap();
        let most = 6;
        let sums: Vec<Vec<Outcome>> = (0..=most).map(|m| with_nim_heap(&graph, m)).collect();
        for u in 0..n {
            let balanced: Vec<u32> = (0..=most)
                .filter(|&m| sums[m as usize][(u * (m + 1) + m) as usize] == Outcome::P)
                .collect();
            match &values[u as usize] {
                Value::Finite(g) => assert_eq!(balanced, [*g as u32], "trial {trial} node {u}"),
                Value::Infinite(k) => {
                    assert!(balanced.is_empty(), "trial {trial} node {u}");
                    let mut finite: Vec<u64> = graph
                        .successors(u)
                        .iter()
                        .filter_map(|&v| match values[v as usize] {
                            Value::Finite(g) => Some(g),
                            Value::Infinite(_) => None,
                        })
                        .collect();
                    finite.sort_unstable();
                    finite.dedup();
                    assert_eq!(k, &finite, "trial {trial} node {u}");
                }
            }
            // The outcome the value gives is the retrograde outcome (heap of 0).
            assert_eq!(
                values[u as usize].outcome(),
                sums[0][u as usize],
                "trial {trial} node {u}"
            );
        }
    }
}

/// Smith's value against its definition: a finite value is the mex of the options'
/// finite values, and every option of a larger or infinite value has an option of
/// this value; an infinite node has an infinite option none of whose options has the
/// value its mex would have.
#[test]
fn smith_values_meet_their_definition() {
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    for _ in 0..400 {
        let n = rng.random_range(1..30);
        let graph = random_graph(&mut rng, n, 3);
        let values = graph::values(&graph).unwrap();
        let finite = |v: u32| match values[v as usize] {
            Value::Finite(g) => Some(g),
            Value::Infinite(_) => None,
        };
        for u in 0..graph.len() as u32 {
            let options = graph.successors(u);
            let seen: Vec<u64> = options.iter().filter_map(|&v| finite(v)).collect();
            let mex = (0..).find(|g| !seen.contains(g)).unwrap();
            match finite(u) {
                Some(g) => {
                    assert_eq!(g, mex);
                    for &v in options {
                        if finite(v).is_none_or(|h| h > g) {
                            let answered =
                                graph.successors(v).iter().any(|&w| finite(w) == Some(g));
                            assert!(answered);
                        }
                    }
                }
                None => assert!(options.iter().any(|&v| finite(v).is_none()
                    && !graph.successors(v).iter().any(|&w| finite(w) == Some(mex)))),
            }
        }
    }
}

/// Remoteness by its definition, round by round: after round `k`, a node is won within
/// `k` moves when some option is lost within `k - 1`, lost within `k` when every option
/// is won within `k - 1` (a node with no move: lost at 0 in normal play, won at 0 in
/// misère play). The first round that decides a node is its remoteness; a node no
/// round decides is a draw.
fn naive_remoteness(graph: &Graph, misere: bool) -> Vec<(Outcome, u32)> {
    let n = graph.len();
    let mut decided = vec![(Outcome::D, u32::MAX); n];
    for u in 0..n as u32 {
        if graph.successors(u).is_empty() {
            let ending = if misere { Outcome::N } else { Outcome::P };
            decided[u as usize] = (ending, 0);
        }
    }
    for k in 1..=2 * n as u32 + 1 {
        let before = decided.clone();
        for u in 0..n as u32 {
            let options = graph.successors(u);
            if before[u as usize].0 != Outcome::D || options.is_empty() {
                continue;
            }
            if options.iter().any(|&v| before[v as usize].0 == Outcome::P) {
                decided[u as usize] = (Outcome::N, k);
            } else if options.iter().all(|&v| before[v as usize].0 == Outcome::N) {
                decided[u as usize] = (Outcome::P, k);
            }
        }
    }
    decided
}

/// The remoteness of the labelling (first in, first out) equals its round-by-round
/// definition on random graphs with cycles, in both endings.
#[test]
fn remoteness_meets_its_definition() {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    for _ in 0..400 {
        let n = rng.random_range(1..30);
        let graph = random_graph(&mut rng, n, 3);
        for misere in [false, true] {
            let (outcomes, remote) =
                graph::remoteness(&Both::new(&graph).unwrap(), misere).unwrap();
            let found: Vec<(Outcome, u32)> = outcomes.into_iter().zip(remote).collect();
            assert_eq!(found, naive_remoteness(&graph, misere));
        }
    }
}

/// Ferguson, Game Theory, Part I, 3.3, example 1: the subtraction game with
/// S = {1, 2, 3} on a pile of n chips has Sprague–Grundy value n mod 4, and its
/// P-positions (the kernel of its graph) are the multiples of 4.
#[test]
fn acyclic_graphs_have_the_mex_values() {
    let lists: Vec<Vec<u32>> = (0..=10u32)
        .map(|n| (1..=3).filter(|&t| t <= n).map(|t| n - t).collect())
        .collect();
    let digraph = Digraph::new(Graph::from_lists(&lists).unwrap());
    let values = digraph.values().unwrap();
    for n in 0..=10u64 {
        assert_eq!(values[n as usize], Value::Finite(n % 4));
    }
    assert_eq!(digraph.kernel().unwrap(), [0, 4, 8]);
    assert!(!digraph.graph().has_cycle().unwrap());
}

/// Ferguson, Game Theory, Part I, 3.4, figure 3.4 ("a cyclic graph"): a -> b -> c ->
/// a and c -> d -> e. e is terminal (value 0), d's only follower is e (value 1); from c
/// the move to d loses, so play goes round a, b, c forever: the three are tied. In
/// Smith's theory they are infinite, c with K = {1} (its option d), a and b with K
/// empty; the graph with a two-cycle and nothing else is a draw in both endings.
#[test]
fn fergusons_cyclic_graph() {
    let (a, b, c, d, e) = (0, 1, 2, 3, 4);
    let lists = [vec![b], vec![c], vec![a, d], vec![e], vec![]];
    let digraph = Digraph::new(Graph::from_lists(&lists).unwrap());
    assert_eq!(
        digraph.values().unwrap(),
        [
            Value::Infinite(vec![]),
            Value::Infinite(vec![]),
            Value::Infinite(vec![1]),
            Value::Finite(1),
            Value::Finite(0),
        ]
    );
    let outcomes: Vec<Outcome> = digraph
        .values()
        .unwrap()
        .iter()
        .map(Value::outcome)
        .collect();
    assert_eq!(
        outcomes,
        [Outcome::D, Outcome::D, Outcome::D, Outcome::N, Outcome::P]
    );
    assert!(digraph.graph().has_cycle().unwrap());
    let shuttle = Digraph::new(Graph::from_lists(&[vec![1], vec![0]]).unwrap());
    let token = At::new(Arc::new(shuttle), 0);
    assert_eq!(token.outcome(false, &LIMITS).unwrap(), Outcome::D);
    assert_eq!(token.outcome(true, &LIMITS).unwrap(), Outcome::D);
}

fn digraph_game(graph: Graph, node: u32) -> GameRef {
    Arc::new(At::new(Arc::new(Digraph::new(graph)), node))
}

fn heaps_game(heaps: &[u64], rule: HeapRule) -> GameRef {
    let rules = Rules::new(false, TakeLimit::Uniform(rule)).unwrap();
    Arc::new(At::new(
        Arc::new(HeapsGame::new(rules).unwrap()),
        heaps.to_vec(),
    ))
}

/// A subtraction game {1, 3, 4} written as a callback on state numbers.
fn defined_game(start: u64) -> GameRef {
    let options = |n: u64, out: &mut Vec<u64>| {
        out.extend([1, 3, 4].iter().filter(|&&t| t <= n).map(|&t| n - t));
        Ok(())
    };
    Arc::new(At::new(
        Arc::new(Defined::new(Box::new(options), Arc::new(()))),
        start,
    ))
}

/// Sums of different games (loopy ones too), normal and misère, against a plain
/// search of the sum's own state graph (tuples of the parts' positions, explored
/// and labelled by retrograde analysis with draws).
#[test]
fn sums_equal_a_search_of_the_product() {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    for trial in 0..150 {
        let mut parts: Vec<GameRef> = Vec::new();
        for _ in 0..rng.random_range(1..4) {
            parts.push(match rng.random_range(0..4) {
                0 => {
                    let n = rng.random_range(1..7);
                    let node = rng.random_range(0..n);
                    digraph_game(random_graph(&mut rng, n, 3), node)
                }
                1 => heaps_game(
                    &[rng.random_range(0..5), rng.random_range(0..4)],
                    HeapRule::Nim,
                ),
                2 => heaps_game(&[rng.random_range(0..8)], HeapRule::Limit(2)),
                _ => defined_game(rng.random_range(0..9)),
            });
        }
        let sum: GameRef = Arc::new(SumGame::of(parts.clone()));
        // The reference: explore the sum's positions as tuples of games.
        let explored = Explored::explore(
            parts
                .iter()
                .map(|p| nimkit::games::sum::Part(Arc::clone(p)))
                .collect::<Vec<_>>(),
            1 << 20,
            &mut |tuple, out| {
                for (i, part) in tuple.iter().enumerate() {
                    for option in part.0.options()? {
                        let mut next = tuple.clone();
                        next[i] = nimkit::games::sum::Part(option);
                        out.push(next);
                    }
                }
                Ok(())
            },
            &mut |_| {},
        )
        .unwrap();
        let both = Both::new(&explored.graph).unwrap();
        for misere in [false, true] {
            let expected = graph::outcomes(&both, misere).unwrap()[0];
            assert_eq!(
                sum.outcome(misere, &LIMITS).unwrap(),
                expected,
                "trial {trial} {misere}"
            );
            // The winning moves lead exactly to P (or, from a draw, to D) positions.
            let wanted = match expected {
                Outcome::P => None,
                Outcome::N => Some(Outcome::P),
                Outcome::D => Some(Outcome::D),
            };
            for option in sum.winning_moves(misere, &LIMITS).unwrap() {
                assert_eq!(Some(option.outcome(misere, &LIMITS).unwrap()), wanted);
            }
        }
        // Normal play: the sum's value is the value of its own graph (Smith's rules,
        // or the search where two parts are infinite).
        let values = graph::values(&explored.graph).unwrap();
        assert_eq!(sum.value(&LIMITS).unwrap(), values[0], "trial {trial}");
    }
}

/// Any game played move by move (`play::any`): against a random player the perfect
/// player wins every game the start predicts it wins, in both endings, and the
/// review names exactly the moves that gave a won position away (checked against
/// the outcomes of the positions before and after).
#[test]
fn any_game_in_play_perfect_player_and_review() {
    use nimkit::error::Error;
    use nimkit::play::any::Played;
    use nimkit::players::{ComputerPlayer, Style};

    let mut dice = ComputerPlayer::new(Style::Random, 7);
    let mut perfect = ComputerPlayer::new(Style::Perfect, 0);
    for misere in [false, true] {
        for nim in 0..4 {
            for sub in 0..8 {
                let start: GameRef = Arc::new(SumGame::of(vec![
                    heaps_game(&[nim], HeapRule::Nim),
                    defined_game(sub),
                ]));
                let mut game = Played::new(start, 0, misere).unwrap();
                let predicted = game.predicted_winner(&LIMITS).unwrap().unwrap();
                while let Some(option) = if game.to_move() == predicted {
                    perfect.choose_option(&game, &LIMITS).unwrap()
                } else {
                    dice.choose_option(&game, &LIMITS).unwrap()
                } {
                    game.push(option).unwrap();
                }
                assert_eq!(game.winner().unwrap(), Some(predicted));
                let mut positions = vec![GameRef::clone(game.start())];
                positions.extend(game.history().iter().cloned());
                let given_away: Vec<usize> = (0..game.history().len())
                    .filter(|&ply| {
                        let won = |g: &GameRef| g.outcome(misere, &LIMITS).unwrap() == Outcome::N;
                        won(&positions[ply]) && won(&positions[ply + 1])
                    })
                    .collect();
                let review = game.review(&LIMITS).unwrap();
                assert_eq!(review.iter().map(|m| m.ply).collect::<Vec<_>>(), given_away);
                assert!(review.iter().all(|m| m.player != predicted));
                let end = GameRef::clone(game.position());
                assert_eq!(game.push(end), Err(Error::GameOver));
            }
        }
    }
    // Subtraction {1, 3, 4} from 5: 4, 2 and 1 are options, 3 (an option of 4) is not.
    let mut game = Played::new(defined_game(5), 0, false).unwrap();
    let four = GameRef::clone(&game.options().unwrap()[0]);
    let three = GameRef::clone(&four.options().unwrap()[0]);
    assert_eq!(game.push(three), Err(Error::NotAGameOption));
    game.push(four).unwrap();
    assert_eq!(
        (game.to_move(), game.pop().is_some(), game.pop().is_none()),
        (1, true, true)
    );
    assert_eq!(
        Played::new(defined_game(1), 2, false).err(),
        Some(Error::NoSuchPlayer(2))
    );
}
