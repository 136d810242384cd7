//! Node Kayles, Arc Kayles and Cram (the vertex-deletion engine) against a brute
//! force over every subset of the vertices, written here, and against the octal games
//! they are on paths (Dawson's Chess `0.137`, Dawson's Kayles `0.07`), computed by
//! the take-and-break engine.
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use nimkit::code::TakeAndBreak;
use nimkit::error::Error;
use nimkit::games::board::canon;
use nimkit::games::board::graph::Deletion;
use nimkit::games::board::kinds::{Canon, Moves};
use nimkit::games::board::sets::Bits;
use nimkit::games::cram::Cram;
use nimkit::heap::HeapRule;
use nimkit::outcome::Outcome;
use nimkit::rules::{Rules, TakeLimit};
use nimkit::solver::Solver;
use nimkit::split::budget::{Budget, Step};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A graph of at most 16 vertices as neighbour masks, solved by brute force over the
/// subsets of its vertices: normal-play values and misère wins.
struct Brute {
    neighbours: Vec<u32>,
    moves: Moves,
    value: HashMap<u32, u32>,
    misere: HashMap<u32, bool>,
}

impl Brute {
    fn new(n: usize, edges: &[(u64, u64)], moves: Moves) -> Self {
        let mut neighbours = vec![0u32; n];
        for &(u, v) in edges {
            if u != v {
                neighbours[u as usize] |= 1 << v;
                neighbours[v as usize] |= 1 << u;
            }
        }
        Brute {
            neighbours,
            moves,
            value: HashMap::new(),
            misere: HashMap::new(),
        }
    }

    fn options(&self, set: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for v in 0..self.neighbours.len() {
            if set >> v & 1 == 0 {
                continue;
            }
            match self.moves {
                Moves::Neighbourhood => out.push(set & !(self.neighbours[v] | 1 << v)),
                Moves::Edge => {
                    for u in v + 1..self.neighbours.len() {
                        if set >> u & 1 == 1 && self.neighbours[v] >> u & 1 == 1 {
                            out.push(set & !(1 << u | 1 << v));
                        }
                    }
                }
            }
        }
        out
    }

    fn value(&mut self, set: u32) -> u32 {
        if let Some(&v) = self.value.get(&set) {
            return v;
        }
        let seen: Vec<u32> = self
            .options(set)
            .into_iter()
            .map(|o| self.value(o))
            .collect();
        let v = (0..).find(|g| !seen.contains(g)).unwrap();
        self.value.insert(set, v);
        v
    }

    fn misere_wins(&mut self, set: u32) -> bool {
        if let Some(&w) = self.misere.get(&set) {
            return w;
        }
        let options = self.options(set);
        let w = options.is_empty() || options.into_iter().any(|o| !self.misere_wins(o));
        self.misere.insert(set, w);
        w
    }
}

fn set(engine: &Deletion, mask: u32) -> Bits {
    engine
        .set_of((0..32).filter(|&v| mask >> v & 1 == 1))
        .unwrap()
}

/// Every subset of the graph's vertices, both endings, against the brute force; and
/// whether each has a value asked of an engine that has valued nothing (largest sets
/// first, so that the questions are searched, not looked up).
fn check_every_subset(engine: &Deletion, n: usize, edges: &[(u64, u64)]) {
    let mut brute = Brute::new(n, edges, engine.moves());
    let asked = match engine.canon() {
        Canon::Labels => Deletion::new(n, edges, engine.moves(), Canon::Labels),
        Canon::Grid { rows, cols } => Deletion::board(rows, cols, engine.moves()),
    }
    .unwrap();
    for mask in (0..1u32 << n).rev() {
        let v = brute.value(mask);
        for target in [0, v, v ^ 1, v ^ 2] {
            let is = asked.value_is(&set(engine, mask), target, Budget::default(), &|_| {});
            assert_eq!(is.unwrap(), v == target, "{edges:?} {mask:b} is {target}?");
        }
    }
    for mask in 0..1u32 << n {
        let s = set(engine, mask);
        assert_eq!(
            engine.value(&s, Budget::default(), &|_| {}).unwrap(),
            u64::from(brute.value(mask)),
            "{edges:?} {mask:b}"
        );
        assert_eq!(
            engine.misere_wins(&s, Budget::default(), &|_| {}).unwrap(),
            brute.misere_wins(mask),
            "{edges:?} {mask:b} misère"
        );
    }
}

/// Every labelled graph of up to 5 vertices, and random graphs of up to 12.
#[test]
fn small_graphs_equal_the_brute_force() {
    for moves in [Moves::Neighbourhood, Moves::Edge] {
        for n in 1..=5usize {
            let pairs: Vec<(u64, u64)> = (0..n as u64)
                .flat_map(|u| (u + 1..n as u64).map(move |v| (u, v)))
                .collect();
            for choice in 0..1u32 << pairs.len() {
                let edges: Vec<(u64, u64)> = (0..pairs.len())
                    .filter(|&i| choice >> i & 1 == 1)
                    .map(|i| pairs[i])
                    .collect();
                let engine = graph(n, &edges, moves);
                check_every_subset(&engine, n, &edges);
            }
        }
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        for _ in 0..40 {
            let n = rng.random_range(6..=12usize);
            let edges = random_edges(&mut rng, n, 0.1..0.5);
            let engine = graph(n, &edges, moves);
            check_every_subset(&engine, n, &edges);
        }
    }
}

/// The pruned search against the plain one (every option valued) on random graphs
/// of 13 to 19 vertices, too many for the brute force: all the vertices and random
/// subsets, both kinds of move.
#[test]
fn the_pruned_search_equals_the_plain_search() {
    let mut rng = Pcg64Mcg::seed_from_u64(17);
    for moves in [Moves::Neighbourhood, Moves::Edge] {
        for _ in 0..30 {
            let n = rng.random_range(13..=19usize);
            let edges = random_edges(&mut rng, n, 0.08..0.3);
            let engine = graph(n, &edges, moves);
            let mut sets = vec![engine.all()];
            for _ in 0..5 {
                let mask: u32 = rng.random_range(0..1 << n);
                sets.push(set(&engine, mask));
            }
            let asked = graph(n, &edges, moves);
            for s in sets {
                let plain = engine.plain_value_of(&s).unwrap();
                let is_zero = asked.value_is(&s, 0, Budget::default(), &|_| {});
                assert_eq!(is_zero.unwrap(), plain == 0, "{edges:?} {s:?} is 0?");
                assert_eq!(
                    engine.value(&s, Budget::default(), &|_| {}).unwrap(),
                    plain,
                    "{edges:?} {s:?}"
                );
            }
        }
    }
}

/// The edges of a random graph of `n` vertices, each pair joined with a probability
/// drawn from `density`.
fn random_edges(rng: &mut Pcg64Mcg, n: usize, density: std::ops::Range<f64>) -> Vec<(u64, u64)> {
    let p = rng.random_range(density);
    (0..n as u64)
        .flat_map(|u| (u + 1..n as u64).map(move |v| (u, v)))
        .filter(|_| rng.random_bool(p))
        .collect()
}

fn graph(n: usize, edges: &[(u64, u64)], moves: Moves) -> Deletion {
    Deletion::new(n, edges, moves, Canon::Labels).unwrap()
}

/// Every set of empty cells of every board up to 4 x 4 (the shapes' canonical forms
/// under the square's symmetries are what is tested), both endings.
#[test]
fn boards_up_to_4_by_4_equal_the_brute_force() {
    for moves in [Moves::Edge, Moves::Neighbourhood] {
        for rows in 1..=4 {
            for cols in 1..=4 {
                let engine = Deletion::board(rows, cols, moves).unwrap();
                check_every_subset(&engine, rows * cols, &edges_of(&engine));
            }
        }
    }
}

fn edges_of(engine: &Deletion) -> Vec<(u64, u64)> {
    engine
        .edges()
        .iter()
        .map(|&(u, v)| (u as u64, v as u64))
        .collect()
}

/// Boards of one to four words of bitboard (8 x 8, 5 x 13, 7 x 10, 9 x 9, 3 x 64,
/// 16 x 16), valued on their bitboards, against the same graph searched as a general
/// graph, on random sets of empty cells (sparse enough for the general search):
/// shifts across words, the edges of the board and the canonical forms.
#[test]
fn wide_boards_equal_the_general_engine() {
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    for (rows, cols) in [(8, 8), (5, 13), (7, 10), (9, 9), (3, 64), (16, 16), (1, 40)] {
        for moves in [Moves::Edge, Moves::Neighbourhood] {
            let board = Deletion::board(rows, cols, moves).unwrap();
            let general = graph(rows * cols, &edges_of(&board), moves);
            for _ in 0..30 {
                let p = rng.random_range(0.15..0.35);
                let cells: Vec<u64> = (0..(rows * cols) as u64)
                    .filter(|_| rng.random_bool(p))
                    .collect();
                let on_board = board.value(
                    &board.set_of(cells.iter().copied()).unwrap(),
                    Budget::default(),
                    &|_| {},
                );
                let on_graph = general.value(
                    &general.set_of(cells.iter().copied()).unwrap(),
                    Budget::default(),
                    &|_| {},
                );
                assert_eq!(
                    on_board.unwrap(),
                    on_graph.unwrap(),
                    "{rows} x {cols} {cells:?}"
                );
            }
        }
    }
}

fn code_values(code: &str, count: u64) -> Vec<u64> {
    let code = TakeAndBreak::parse(code).unwrap();
    code.ensure(count).unwrap();
    (0..count).map(|n| u64::from(code.grundy(n))).collect()
}

fn path(n: usize) -> Vec<(u64, u64)> {
    (1..n as u64).map(|v| (v - 1, v)).collect()
}

/// Paths are octal games: Node Kayles is Dawson's Chess (0.137), Arc Kayles and Cram
/// 1 x n are Dawson's Kayles (0.07); normal play, and misère play of two paths at
/// once (no sum rule there) against the misère search of the heaps.
#[test]
fn paths_are_the_octal_games() {
    for (code, moves) in [("0.137", Moves::Neighbourhood), ("0.07", Moves::Edge)] {
        let values = code_values(code, 60);
        let rules = Rules::new(
            true,
            TakeLimit::Uniform(HeapRule::Code(Arc::new(TakeAndBreak::parse(code).unwrap()))),
        )
        .unwrap();
        for (n, &value) in values.iter().enumerate() {
            let engine = graph(n, &path(n), moves);
            assert_eq!(
                engine
                    .value(&engine.all(), Budget::default(), &|_| {})
                    .unwrap(),
                value,
                "{code} path of {n}"
            );
        }
        for a in 0..14u64 {
            for b in 0..14u64 {
                // Two paths: vertices 0..a and a..a+b, no edge between them.
                let mut edges = path(a as usize);
                edges.extend(path(b as usize).iter().map(|&(u, v)| (u + a, v + a)));
                let engine = graph((a + b) as usize, &edges, moves);
                let heaps = vec![a, b];
                let solver = Solver::new(&heaps, &rules, 1 << 20).unwrap();
                let wins = solver.outcome(&heaps) == Outcome::N;
                assert_eq!(
                    engine
                        .misere_wins(&engine.all(), Budget::default(), &|_| {})
                        .unwrap(),
                    wins,
                    "{code} misère {a} + {b}"
                );
            }
        }
    }
    let cram = Cram::board(1, 40).unwrap();
    let values = code_values("0.07", 41);
    assert_eq!(
        cram.engine()
            .value(&cram.engine().all(), Budget::default(), &|_| {})
            .unwrap(),
        values[40]
    );
}

/// `max_memory` stops a search before its table and stack pass the bound, with the
/// error that names it, and a search that fits is not disturbed by it.
#[test]
fn memory_bound() {
    let bounded = |bytes: u64| Budget {
        max_memory: bytes,
        ..Budget::default()
    };
    let cram = Cram::board(4, 7).unwrap();
    let engine = cram.engine();
    match engine.value(&engine.all(), bounded(1 << 14), &|_| {}) {
        Err(Error::MemoryBound { needed, bound, .. }) => {
            assert_eq!(bound, 1 << 14);
            assert!(needed > bound);
        }
        other => panic!("4 x 7 in 16 KiB: {other:?}"),
    }
    // Cram 4 x 7 is 3 (Beling's igs table); what the failed search learned is kept.
    assert_eq!(
        engine
            .value(&engine.all(), bounded(1 << 26), &|_| {})
            .unwrap(),
        3
    );
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let edges = random_edges(&mut rng, 12, 0.2..0.4);
    let general = Deletion::new(12, &edges, Moves::Neighbourhood, Canon::Labels).unwrap();
    let wanted = general.plain_value_of(&general.all()).unwrap();
    let Err(Error::MemoryBound { .. }) = general.misere_wins(&general.all(), bounded(256), &|_| {})
    else {
        panic!("a misère search in 256 bytes");
    };
    assert_eq!(
        general
            .value(&general.all(), bounded(1 << 24), &|_| {})
            .unwrap(),
        wanted
    );
}

/// With `evict`, a search that reaches its bound drops the values of its smallest
/// components (or in misère play, the outcomes of its smallest positions) and goes
/// on, to the answer a search without a bound finds (on one thread, and from 32
/// cells on the threads); a bound too small to go on in still ends with its error.
#[test]
fn eviction_keeps_a_bounded_search_going() {
    let bounded = |bytes: u64, evict: bool| Budget {
        max_memory: bytes,
        evict,
        ..Budget::default()
    };
    // Each asks a fresh game (no table yet) within a budget.
    type Fresh = Box<dyn Fn(Budget) -> Result<u64, Error>>;
    let cram = |rows: usize, cols: usize| -> Fresh {
        Box::new(move |budget| {
            let game = Cram::board(rows, cols).unwrap();
            game.engine().value(&game.engine().all(), budget, &|_| {})
        })
    };
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let edges = random_edges(&mut rng, 40, 0.04..0.07);
    let graph: Fresh = Box::new(move |budget| {
        let game = Deletion::new(40, &edges, Moves::Neighbourhood, Canon::Labels).unwrap();
        game.value(&game.all(), budget, &|_| {})
    });
    let graph_value = graph(Budget::default()).unwrap();
    // Beling's igs table: 4 x 7 is 3, 5 x 6 is 2, 5 x 7 is 1; 3 x 12 is 1 (as
    // igsolve finds it, tests/python/test_boards.py).
    let games = [
        (cram(4, 7), 3),
        (cram(5, 6), 2),
        (cram(5, 7), 1),
        (cram(3, 12), 1),
        (graph, graph_value),
    ];
    // Misère play: whole positions are dropped, those of the fewest vertices first.
    let misere = |rows: usize, cols: usize| -> Fresh {
        Box::new(move |budget| {
            let game = Cram::board(rows, cols).unwrap();
            let wins = game
                .engine()
                .misere_wins(&game.engine().all(), budget, &|_| {});
            wins.map(u64::from)
        })
    };
    let edges = random_edges(&mut rng, 26, 0.08..0.12);
    let graph: Fresh = Box::new(move |budget| {
        let game = Deletion::new(26, &edges, Moves::Neighbourhood, Canon::Labels).unwrap();
        Ok(u64::from(game.misere_wins(&game.all(), budget, &|_| {})?))
    });
    let graph_wins = graph(Budget::default()).unwrap();
    // The misère outcomes of tests/python/test_boards.py's table: Cram 4 x 6 P, 3 x 8 P,
    // 2 x 16 N (on the threads).
    let games = games
        .into_iter()
        .chain([(misere(4, 6), 0), (misere(3, 8), 0), (misere(2, 16), 1)])
        .chain([(graph, graph_wins)]);
    for (value, wanted) in games {
        // The least power of two the search fits in, then a quarter of it.
        let fits = (10..40)
            .map(|b| 1u64 << b)
            .find(|&bytes| value(bounded(bytes, false)).is_ok())
            .unwrap();
        let Err(Error::MemoryBound { .. }) = value(bounded(fits / 4, false)) else {
            panic!("a quarter of the room it needs ({wanted})");
        };
        let evicting = value(bounded(fits / 4, true));
        assert_eq!(evicting, Ok(wanted), "{fits}");
        let Err(Error::MemoryBound { .. }) = value(bounded(1 << 10, true)) else {
            panic!("1 KiB is too little to go on in ({wanted})");
        };
    }
}

/// A search given a time to stop at hands back `Step::Paused`, keeps what it learned, and
/// asked again goes on to the value: many short runs give what one long one does.
#[test]
fn paused_searches_resume() {
    for (rows, cols) in [(3, 9), (4, 5), (5, 5)] {
        let fresh = Cram::board(rows, cols).unwrap();
        let all = fresh.engine().all();
        let wanted = fresh
            .engine()
            .value(&all, Budget::default(), &|_| {})
            .unwrap();
        let cram = Cram::board(rows, cols).unwrap();
        let engine = cram.engine();
        // A time already past stops the search once it has learned a value.
        let past = engine.value_until(&all, Budget::default(), Instant::now(), &|_| {});
        let Ok(Step::Paused { .. }) = past else {
            panic!("{rows} x {cols} ran past its time: {past:?}");
        };
        let found = loop {
            let until = Instant::now() + Duration::from_millis(2);
            match engine
                .value_until(&all, Budget::default(), until, &|_| {})
                .unwrap()
            {
                Step::Paused { .. } => continue,
                Step::Done(value) => break value,
            }
        };
        assert_eq!(found, wanted, "{rows} x {cols}");
    }
}

/// Canonical keys: the same for a component under any labelling, different when the
/// graphs differ (by their sorted degrees, an invariant), and a game whose two
/// halves are the same graph under other labels is a P-position found with the
/// halves' entries shared.
#[test]
fn isomorphic_components_share_their_key() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    for trial in 0..300 {
        // Past 64 vertices a row of the adjacency matrix takes more than one word.
        let n = rng.random_range(1..=if trial % 3 == 0 { 150 } else { 40usize });
        let edges = random_edges(&mut rng, n, 0.05..0.5);
        let mut perm: Vec<u64> = (0..n as u64).collect();
        for i in (1..n).rev() {
            perm.swap(i, rng.random_range(0..=i));
        }
        let relabelled: Vec<(u64, u64)> = edges
            .iter()
            .map(|&(u, v)| (perm[u as usize], perm[v as usize]))
            .collect();
        let words = n.div_ceil(64);
        let adjacency = |edges: &[(u64, u64)]| {
            let mut rows = vec![vec![0u64; words]; n];
            for &(u, v) in edges {
                let (u, v) = (u as usize, v as usize);
                rows[u][v / 64] |= 1 << (v % 64);
                rows[v][u / 64] |= 1 << (u % 64);
            }
            rows
        };
        let mut all = vec![u64::MAX; words];
        if n % 64 != 0 {
            all[words - 1] = (1u64 << (n % 64)) - 1;
        }
        let (a, b) = (adjacency(&edges), adjacency(&relabelled));
        let key: Vec<u64> = canon::canonical(&all, &a);
        assert_eq!(key.len(), canon::key_words(n), "trial {trial}");
        assert_eq!(key, canon::canonical::<Vec<u64>>(&all, &b), "trial {trial}");
        // One edge more or less changes the degrees, so the graph.
        let mut other = edges.clone();
        match other.pop() {
            Some(_) => {}
            None if n >= 2 => other.push((0, 1)),
            None => continue,
        }
        assert_ne!(key, canon::canonical::<Vec<u64>>(&all, &adjacency(&other)));
    }
    // Two copies of a graph of 14 vertices under other labels, side by side.
    let edges = random_edges(&mut rng, 14, 0.25..0.3);
    let mut both = edges.clone();
    // x -> 5x + 3 (mod 14) is a permutation: 5 is prime to 14.
    let image = |x: u64| 14 + (5 * x + 3) % 14;
    both.extend(edges.iter().map(|&(u, v)| (image(u), image(v))));
    for moves in [Moves::Neighbourhood, Moves::Edge] {
        let half = Deletion::new(14, &edges, moves, Canon::Labels).unwrap();
        let wanted = half.plain_value_of(&half.all()).unwrap();
        let pair = Deletion::new(28, &both, moves, Canon::Labels).unwrap();
        assert_eq!(
            pair.value(&pair.all(), Budget::default(), &|_| {}).unwrap(),
            0
        );
        // Each half alone has the half's value; the second is found by its alias
        // among the first's entries, and adds only its own key.
        let entries = |d: &Deletion| {
            d.saved()
                .unwrap()
                .iter()
                .map(|(_, t)| t.len())
                .sum::<usize>()
        };
        let halves = [(0..14).collect::<Vec<u64>>(), (14..28).collect()];
        let fresh = Deletion::new(28, &both, moves, Canon::Labels).unwrap();
        let mut sizes = Vec::new();
        for vertices in &halves {
            let set = fresh.set_of(vertices.iter().copied()).unwrap();
            assert_eq!(
                fresh.value(&set, Budget::default(), &|_| {}).unwrap(),
                wanted
            );
            sizes.push(entries(&fresh));
        }
        assert_eq!(sizes[1], sizes[0] + 1, "{moves:?}");
    }
    // Past 64 vertices too: a cycle of 70 with a leaf on it (a cycle alone is valued
    // without search, `games::board::lines`) and a copy under other labels, which finds the
    // value by its alias; the value is the plain search's.
    let mut sun: Vec<(u64, u64)> = (0..70).map(|v| (v, (v + 1) % 70)).collect();
    sun.push((0, 70));
    let image = |x: u64| 71 + (11 * x + 5) % 71;
    let mut both = sun.clone();
    both.extend(sun.iter().map(|&(u, v)| (image(u), image(v))));
    let pair = Deletion::new(142, &both, Moves::Neighbourhood, Canon::Labels).unwrap();
    let sun_value = pair.plain_value_of(&pair.set_of(0..71).unwrap()).unwrap();
    let mut learned = Vec::new();
    for half in [0..71, 71..142] {
        let set = pair.set_of(half).unwrap();
        let value = pair.value(&set, Budget::default(), &|_| {}).unwrap();
        assert_eq!(value, sun_value);
        learned.push(
            pair.saved()
                .unwrap()
                .iter()
                .map(|(_, t)| t.len())
                .sum::<usize>(),
        );
    }
    assert_eq!(learned[1], learned[0] + 1, "the copy found by its alias");
    assert_eq!(
        pair.value(&pair.all(), Budget::default(), &|_| {}).unwrap(),
        0
    );
}

/// Misère play looks whole positions up by their components' canonical keys too:
/// cycles (every move leaves one path, so a cycle is won exactly when that path is
/// lost) against the take-and-break engine's paths, up to 40 vertices.
#[test]
fn misere_cycles_against_the_octal_paths() {
    for (code, moves, gone) in [("0.137", Moves::Neighbourhood, 3), ("0.07", Moves::Edge, 2)] {
        let rules = Rules::new(
            true,
            TakeLimit::Uniform(HeapRule::Code(Arc::new(TakeAndBreak::parse(code).unwrap()))),
        )
        .unwrap();
        for n in 4..=40u64 {
            let mut edges = path(n as usize);
            edges.push((n - 1, 0));
            let engine = graph(n as usize, &edges, moves);
            let left = vec![n - gone];
            let path_wins =
                Solver::new(&left, &rules, 1 << 20).unwrap().outcome(&left) == Outcome::N;
            let wins = engine
                .misere_wins(&engine.all(), Budget::default(), &|_| {})
                .unwrap();
            assert_eq!(wins, !path_wins, "{code} misère cycle of {n}");
        }
    }
}

/// The table of every position (`every_position`) against the brute force on random
/// graphs and small boards, both kinds of move; against the engine on random
/// positions of a 4 x 5 board (2**20 positions); refused past 26 vertices.
#[test]
fn every_position_equals_the_brute_force_and_the_engine() {
    let mut rng = Pcg64Mcg::seed_from_u64(23);
    for moves in [Moves::Neighbourhood, Moves::Edge] {
        let mut cases: Vec<Deletion> = (0..12)
            .map(|_| {
                let n = rng.random_range(1..=12usize);
                graph(n, &random_edges(&mut rng, n, 0.1..0.6), moves)
            })
            .collect();
        cases.push(Deletion::board(3, 4, moves).unwrap());
        for engine in cases {
            let edges: Vec<(u64, u64)> = engine
                .edges()
                .into_iter()
                .map(|(u, v)| (u as u64, v as u64))
                .collect();
            let n = engine.all().iter().map(|w| w.count_ones() as usize).sum();
            let mut brute = Brute::new(n, &edges, moves);
            let every = engine.every_position().unwrap();
            assert_eq!(every.values.len(), 1 << n);
            for mask in 0..1u32 << n {
                let (value, wins) = (brute.value(mask), brute.misere_wins(mask));
                assert_eq!(
                    u32::from(every.values[mask as usize]),
                    value,
                    "{edges:?} {mask:b}"
                );
                assert_eq!(
                    every.misere_wins[mask as usize] == 1,
                    wins,
                    "{edges:?} {mask:b}"
                );
            }
            // The moves in the order the actions name them.
            let expected = match moves {
                Moves::Neighbourhood => n,
                Moves::Edge => edges.len(),
            };
            assert_eq!(every.moves.len(), expected);
        }
        let board = Deletion::board(4, 5, moves).unwrap();
        let every = board.every_position().unwrap();
        for _ in 0..40 {
            let mask: u32 = rng.random_range(0..1 << 20);
            let s = set(&board, mask);
            let value = board.value(&s, Budget::default(), &|_| {}).unwrap();
            assert_eq!(u64::from(every.values[mask as usize]), value, "{mask:b}");
            let wins = board.misere_wins(&s, Budget::default(), &|_| {}).unwrap();
            assert_eq!(
                every.misere_wins[mask as usize] == 1,
                wins,
                "{mask:b} misère"
            );
        }
    }
    let large = Deletion::board(3, 9, Moves::Edge).unwrap();
    let refused = large.every_position().unwrap_err().to_string();
    assert!(refused.contains("at most 26 vertices"), "{refused}");
}
