//! Green Hackenbush against retrograde search: 600 random graphs of up to 8 edges
//! with loops, multiple edges, cycles and one or two ground nodes; the value by the
//! fusion and colon principles, and the exact set of winning chops, at every position
//! each graph reaches. And the small cases of Ferguson, Part I, ch. 7.
use crate::against_search;

use against_search::check_against_search;
use nimkit::games::hackenbush::Hackenbush;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::BTreeSet;
use std::sync::Arc;

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
        let game = Arc::new(Hackenbush::new(nodes, edges, &ground).unwrap());
        let start = game.start().unwrap();
        check_against_search(game, start, &mut BTreeSet::new());
    }
}

#[test]
fn a_node_outside_the_graph_is_refused() {
    assert!(Hackenbush::new(2, vec![(0, 2)], &[0]).is_err());
    assert!(Hackenbush::new(2, vec![(0, 1)], &[5]).is_err());
}
