//! Wythoff's game against independent references: the Beatty pairs by their mex
//! construction, outcomes and winning moves by retrograde search of whole boxes in
//! both endings, the Grundy table by the plain mex, and the floors by their defining
//! inequalities in big-integer arithmetic for heaps near 2**64.
use nimkit::games::wythoff::{grundy_table, is_p, lower, p_options, partner, Wythoff};
use nimkit::games::{AnyGame, At, Limits, Value};
use nimkit::outcome::Outcome;
use nimkit::search::graph::{self, Both, Graph};
use num_bigint::BigUint;
use std::sync::Arc;

const LIMITS: Limits = Limits {
    max_positions: 1 << 22,
    max_memory: u64::MAX,
    evict: false,
    report: &|_| {},
};

const N: u64 = 64;

/// The box 0..N × 0..N as a graph, node a * N + b.
fn box_graph() -> Graph {
    let lists: Vec<Vec<u32>> = (0..N * N)
        .map(|node| {
            let (a, b) = (node / N, node % N);
            let mut list: Vec<u32> = (0..a).map(|x| (x * N + b) as u32).collect();
            list.extend((0..b).map(|y| (a * N + y) as u32));
            list.extend((1..=a.min(b)).map(|t| ((a - t) * N + b - t) as u32));
            list
        })
        .collect();
    Graph::from_lists(&lists).unwrap()
}

/// Wythoff's pairs by their definition: a_k is the least number in no earlier pair,
/// b_k = a_k + k (Wythoff 1907; OEIS A000201 and A001950).
#[test]
fn beatty_pairs_are_the_mex_construction() {
    let mut used = vec![false; 4_000];
    for k in 0..=1_000u64 {
        let a = used.iter().position(|&u| !u).unwrap() as u64;
        let b = a + k;
        used[a as usize] = true;
        if k > 0 {
            used[b as usize] = true;
        }
        assert_eq!(lower(k), u128::from(a), "k = {k}");
        if k > 0 {
            assert_eq!(partner(a), (u128::from(b), true));
            assert_eq!(partner(b), (u128::from(a), false));
        }
    }
    assert_eq!(
        (0..7)
            .map(|k| (lower(k), lower(k) + u128::from(k)))
            .collect::<Vec<_>>(),
        [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13), (9, 15)]
    );
}

#[test]
fn floors_meet_their_inequalities_near_2_to_the_64() {
    for k in [
        1u64 << 62,
        (1 << 63) - 1,
        u64::MAX / 2,
        u64::MAX,
        10u64.pow(18),
    ] {
        // x = ⌊kφ⌋ iff (2x - k)² < 5k² < (2x + 2 - k)².
        let (x, k_big) = (BigUint::from(lower(k)), BigUint::from(k));
        let five = &k_big * &k_big * 5u32;
        let low = &x * 2u32 - &k_big;
        let high = &x * 2u32 + 2u32 - &k_big;
        assert!(&low * &low < five && five < &high * &high, "k = {k}");
    }
}

#[test]
fn outcomes_and_winning_moves_equal_the_search_in_both_endings() {
    let graph = box_graph();
    for misere in [false, true] {
        let outcomes = graph::outcomes(&Both::new(&graph).unwrap(), misere).unwrap();
        for a in 0..N {
            for b in 0..N {
                let p = outcomes[(a * N + b) as usize] == Outcome::P;
                if !misere {
                    assert_eq!(is_p(a, b), p, "({a}, {b})");
                }
                let game = At::new(Arc::new(Wythoff::default()), (a, b));
                let asked: &dyn AnyGame = &game;
                let expected = if p { Outcome::P } else { Outcome::N };
                assert_eq!(asked.outcome(misere, &LIMITS).unwrap(), expected);
                let mut found = p_options(a, b, misere);
                found.sort_unstable();
                let mut wanted: Vec<(u64, u64)> = graph
                    .successors((a * N + b) as u32)
                    .iter()
                    .filter(|&&v| outcomes[v as usize] == Outcome::P)
                    .map(|&v| (u64::from(v) / N, u64::from(v) % N))
                    .collect();
                wanted.sort_unstable();
                wanted.dedup();
                assert_eq!(found, wanted, "({a}, {b}), misere = {misere}");
            }
        }
    }
}

#[test]
fn the_grundy_table_is_the_mex_table() {
    let (rows, cols) = (40usize, 70usize);
    let table = grundy_table(rows, cols, &mut |_| {}).unwrap();
    let mut naive = vec![0u32; rows * cols];
    for a in 0..rows {
        for b in 0..cols {
            let mut seen: Vec<u32> = (0..a).map(|x| naive[x * cols + b]).collect();
            seen.extend((0..b).map(|y| naive[a * cols + y]));
            seen.extend((1..=a.min(b)).map(|t| naive[(a - t) * cols + b - t]));
            naive[a * cols + b] = (0..).find(|g| !seen.contains(g)).unwrap();
        }
    }
    assert_eq!(table, naive);
    // Published (Ferguson, Part I, Table 3.6): the first row is 0 1 2 ..., and
    // G(1, 1) = 2, G(2, 2) = 1, G(3, 3) = 6.
    assert_eq!(&table[..5], &[0, 1, 2, 3, 4]);
    assert_eq!(
        [table[cols + 1], table[2 * cols + 2], table[3 * cols + 3]],
        [2, 1, 6]
    );
    let game = At::new(Arc::new(Wythoff::default()), (30u64, 40u64));
    let asked: &dyn AnyGame = &game;
    let big = grundy_table(31, 41, &mut |_| {}).unwrap();
    assert_eq!(
        asked.value(&LIMITS).unwrap(),
        Value::Finite(u64::from(big[30 * 41 + 40]))
    );
}
