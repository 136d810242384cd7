//! Moore's Nim_k against retrograde search of every position below a start (2 to 4
//! heaps, k = 1..3, both endings): the outcome by Moore's theorem (and its misère
//! form), and the exact set of winning moves. For heaps near 2**64, where no search
//! reaches, every winning move found is checked to be a move to a P-position, and
//! their number against a count over the heaps one may lower.
use nimkit::games::moore::Moore;
use nimkit::games::{AnyGame, At, Game, Limits};
use nimkit::outcome::Outcome;
use nimkit::search::graph::{self, Both, Explored};
use std::collections::BTreeSet;
use std::sync::Arc;

const LIMITS: Limits = Limits {
    max_positions: 1 << 22,
    max_memory: u64::MAX,
    evict: false,
    report: &|_| {},
};

fn searched(game: &Moore, start: Vec<u64>) -> Explored<Vec<u64>> {
    Explored::explore(
        start,
        1 << 22,
        &mut |p, out| game.options(p, out),
        &mut |_| {},
    )
    .unwrap()
}

#[test]
fn theorem_and_winning_moves_agree_with_search() {
    for (start, ks) in [
        (vec![9, 10], 1..=2),
        (vec![6, 7, 5], 1..=3),
        (vec![4, 3, 5, 4], 1..=3),
    ] {
        for k in ks {
            let game = Arc::new(Moore::new(k).unwrap());
            let explored = searched(&game, start.clone());
            let both = Both::new(&explored.graph).unwrap();
            for misere in [false, true] {
                let outcomes = graph::outcomes(&both, misere).unwrap();
                for (id, p) in explored.positions.iter().enumerate() {
                    let at = At::new(Arc::clone(&game), p.clone());
                    let outcome = at.outcome(misere, &LIMITS).unwrap();
                    assert_eq!(outcome, outcomes[id], "{p:?}, k = {k}, misère {misere}");
                    let expected: BTreeSet<Vec<u64>> = explored
                        .graph
                        .successors(id as u32)
                        .iter()
                        .filter(|&&q| outcomes[q as usize] == Outcome::P)
                        .map(|&q| explored.positions[q as usize].clone())
                        .collect();
                    let found: BTreeSet<Vec<u64>> = at
                        .winning_moves(misere, &LIMITS)
                        .unwrap()
                        .iter()
                        .map(|g| g.numbers().unwrap())
                        .collect();
                    let expected = if outcome == Outcome::N {
                        expected
                    } else {
                        BTreeSet::new()
                    };
                    assert_eq!(found, expected, "{p:?}, k = {k}, misère {misere}");
                }
            }
        }
    }
}

/// Whether `q` is one move from `p` in Nim_k.
fn is_move(p: &[u64], q: &[u64], k: u64) -> bool {
    let lowered = p.iter().zip(q).filter(|(a, b)| b < a).count() as u64;
    let raised = p.iter().zip(q).any(|(a, b)| b > a);
    !raised && (1..=k).contains(&lowered)
}

#[test]
fn winning_moves_of_huge_heaps_reach_p_positions() {
    let big = u64::MAX;
    let nim = [big, big - 7, 12345, 1 << 63];
    let total = nim.iter().fold(0, |x, h| x ^ h);
    // Nim: one winning move per heap whose XOR with the total is smaller.
    let nim_count = nim.iter().filter(|&&h| h ^ total < h).count();
    for (heaps, k, count) in [
        (nim.to_vec(), 1, nim_count),
        // Two heaps under Nim_2: every column must add up to 0 (mod 3), so only (0, 0).
        (vec![1 << 40, 1 << 40], 2, 1),
        (vec![100, 1 << 40], 2, 1),
        // Three under Nim_2: all three equal; two may be lowered, to the third.
        (vec![1 << 40, 1 << 40, 5], 2, 1),
        (vec![big, big - 1, big - 2], 2, 1),
    ] {
        let game = Moore::new(k).unwrap();
        let found = game.p_options(&heaps).unwrap();
        for q in &found {
            assert!(game.is_p(q), "{q:?}");
            assert!(is_move(&heaps, q, k), "{heaps:?} -> {q:?}");
        }
        let distinct: BTreeSet<_> = found.iter().collect();
        assert_eq!(distinct.len(), found.len());
        assert_eq!(found.len(), count, "{heaps:?}, k = {k}");
    }
}

#[test]
fn k_of_zero_is_refused() {
    assert!(Moore::new(0).is_err());
}

/// Every option of `p` that Moore's theorem calls P, by trying each one.
fn brute_p_options(game: &Moore, p: &[u64]) -> BTreeSet<Vec<u64>> {
    let mut all = Vec::new();
    game.options(&p.to_vec(), &mut all).unwrap();
    all.into_iter().filter(|q| game.is_p(q)).collect()
}

#[test]
fn winning_moves_of_larger_heaps_are_every_p_option() {
    for (heaps, k) in [
        (vec![29, 27, 22, 31], 2),
        (vec![29, 27, 22, 31], 3),
        (vec![60, 45, 33], 2),
        (vec![13, 9, 14, 7, 11], 2),
        (vec![13, 9, 14, 7, 11], 4),
    ] {
        let game = Moore::new(k).unwrap();
        let found: BTreeSet<Vec<u64>> = game.p_options(&heaps).unwrap().into_iter().collect();
        assert_eq!(found, brute_p_options(&game, &heaps), "{heaps:?}, k = {k}");
    }
}
