//! Green Hackenbush against retrograde search: 600 random graphs of up to 8 edges
//! with loops, multiple edges, cycles and one or two ground nodes; the value by the
//! fusion and colon principles, and the exact set of winning chops, at every position
//! each graph reaches. And the small cases of Ferguson, Part I, ch. 7.
use nimkit::games::hackenbush::Hackenbush;
use nimkit::games::{AnyGame, At, Game, Limits, Value};
use nimkit::search::graph::{self, Explored};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::BTreeSet;
use std::sync::Arc;

const LIMITS: Limits = Limits {
    max_positions: 1 << 22,
    report: &|_| {},
};

fn value(nodes: usize, edges: &[(u32, u32)], ground: &[u32]) -> u64 {
    let game = Hackenbush::new(nodes, edges.to_vec(), ground).unwrap();
    game.value_of(&game.start().unwrap()).unwrap()
}

#[test]
fn small_graphs_of_the_notes() {
    // A stalk of n edges is a nim heap of n.
    assert_eq!(value(4, &[(0, 1), (1, 2), (2, 3)], &[0]), 3);
    // A loop is a stalk of one edge; an edge between two ground nodes too.
    assert_eq!(value(1, &[(0, 0)], &[0]), 1);
    assert_eq!(value(2, &[(0, 1)], &[0, 1]), 1);
    // Fusion: a triangle on the ground is 3 loops (1); a square is 4 (0).
    assert_eq!(value(3, &[(0, 1), (1, 2), (2, 0)], &[0]), 1);
    assert_eq!(value(4, &[(0, 1), (1, 2), (2, 3), (3, 0)], &[0]), 0);
    // The colon principle: a fork of two stalks of 1 and 2 on a stalk of 1 is
    // 1 + (1 xor 2) = 4.
    assert_eq!(value(5, &[(0, 1), (1, 2), (1, 3), (3, 4)], &[0]), 4);
    // A triangle on the ground with a twig at node 1: fused, 3 loops (1) and a
    // stalk of one edge (1) on the ground: 1 xor 1 = 0.
    assert_eq!(value(4, &[(0, 1), (1, 2), (2, 0), (1, 3)], &[0]), 0);
    // Edges not joined to the ground fall at once.
    assert_eq!(value(4, &[(0, 1), (2, 3)], &[0]), 1);
}

#[test]
fn random_graphs_against_search() {
    let mut rng = Pcg64::seed_from_u64(7);
    for _ in 0..600 {
        let nodes = rng.random_range(1..=6usize);
        let count = rng.random_range(0..=8usize);
        let edges: Vec<(u32, u32)> = (0..count)
            .map(|_| {
                let u = rng.random_range(0..nodes as u32);
                let v = rng.random_range(0..nodes as u32);
                (u, v)
            })
            .collect();
        let mut ground = vec![0];
        if nodes > 1 && rng.random_bool(0.3) {
            ground.push(rng.random_range(1..nodes as u32));
        }
        let game = Arc::new(Hackenbush::new(nodes, edges.clone(), &ground).unwrap());
        let start = game.start().unwrap();
        let explored = Explored::explore(
            start,
            1 << 20,
            &mut |p, out| game.options(p, out),
            &mut |_| {},
        )
        .unwrap();
        let values = graph::values(&explored.graph).unwrap();
        for (id, p) in explored.positions.iter().enumerate() {
            let at = At::new(Arc::clone(&game), p.clone());
            let label = format!("{edges:?}, ground {ground:?}, standing {p:?}");
            assert_eq!(at.value(&LIMITS).unwrap(), values[id], "{label}");
            let expected: BTreeSet<Vec<u64>> = explored
                .graph
                .successors(id as u32)
                .iter()
                .filter(|&&q| values[q as usize] == Value::Finite(0))
                .map(|&q| game.numbers(&explored.positions[q as usize]).unwrap())
                .collect();
            let expected = if values[id] == Value::Finite(0) {
                BTreeSet::new()
            } else {
                expected
            };
            let found: BTreeSet<Vec<u64>> = at
                .winning_moves(false, &LIMITS)
                .unwrap()
                .iter()
                .map(|g| g.numbers().unwrap())
                .collect();
            assert_eq!(found, expected, "{label}");
        }
    }
}

#[test]
fn a_node_outside_the_graph_is_refused() {
    assert!(Hackenbush::new(2, vec![(0, 2)], &[0]).is_err());
    assert!(Hackenbush::new(2, vec![(0, 1)], &[5]).is_err());
}
