//! The closed forms of theory.rs against the brute-force labelling of search.rs, on
//! every position of whole boxes, for every rule family: outcome and the exact set
//! of winning moves.
use crate::common;

use nimkit::outcome::Outcome;
use nimkit::rules::{Rules, TakeLimit};
use nimkit::search::{box_size, BoxSolution};
use nimkit::theory;

/// Box bound per heap count: 1 heap 0..=60, 2 heaps 0..=24, 3 and 4 heaps 0..=12.
const BOUNDS: [u64; 4] = [60, 24, 12, 12];

fn check_box(bounds: &[u64], rules: &Rules) {
    let p_positions = common::closed_forms_equal_search(bounds, rules);
    // Guard against a vacuous pass: every box here has both kinds of position.
    assert!(p_positions > 0 && p_positions < box_size(bounds) as usize);
}

fn uniform_limits() -> Vec<TakeLimit> {
    let mut limits = vec![TakeLimit::default()];
    limits.extend([1, 2, 3, 4, 6].map(TakeLimit::limit));
    limits
}

/// Mixed per-heap limits, None included, for `heaps` heaps.
fn mixed_limits(heaps: usize) -> Vec<TakeLimit> {
    let menu = [Some(1), None, Some(3), Some(2), Some(6), None, Some(4)];
    (0..4)
        .map(|shift| TakeLimit::per_heap((0..heaps).map(|i| menu[(i + shift) % menu.len()])))
        .collect()
}

fn check_all(heaps: usize) {
    let bounds = vec![BOUNDS[heaps - 1]; heaps];
    for limit in uniform_limits().into_iter().chain(mixed_limits(heaps)) {
        for misere in [false, true] {
            check_box(&bounds, &Rules::new(misere, limit.clone()).unwrap());
        }
    }
}

#[test]
fn one_heap() {
    check_all(1);
}

#[test]
fn two_heaps() {
    check_all(2);
}

#[test]
fn three_heaps() {
    check_all(3);
}

#[test]
fn four_heaps() {
    check_all(4);
}

#[test]
fn uneven_box() {
    let rules = Rules::new(true, TakeLimit::per_heap([Some(2), None, Some(5)])).unwrap();
    check_box(&[3, 17, 9], &rules);
}

#[test]
fn classic_positions() {
    let misere = Rules::misere();
    assert_eq!(theory::outcome(&[1, 3, 5, 7], &misere).unwrap(), Outcome::P);
    let lights = Rules::new(true, TakeLimit::limit(3)).unwrap();
    assert_eq!(theory::outcome(&[13], &lights).unwrap(), Outcome::P);
    let normal = Rules::normal();
    assert_eq!(theory::outcome(&[3, 4, 5], &normal).unwrap(), Outcome::N);
    assert_eq!(
        theory::analyse(&[3, 4, 5], &normal).unwrap().winning_moves,
        vec![nimkit::position::Move::new(0, 2)]
    );
    assert_eq!(theory::outcome(&[], &normal).unwrap(), Outcome::P);
    assert_eq!(theory::outcome(&[], &misere).unwrap(), Outcome::N);
}

#[test]
fn the_fast_outcome_search_equals_the_reference() {
    use nimkit::search::solve_outcomes;
    let boxes: [&[u64]; 6] = [&[], &[0], &[30], &[7, 0, 5], &[6, 9, 4], &[3, 4, 2, 5]];
    for bounds in boxes {
        let n = bounds.len();
        let mut families = uniform_limits();
        if n > 0 {
            families.extend(mixed_limits(n));
        }
        for limit in families {
            for misere in [false, true] {
                let rules = Rules::new(misere, limit.clone()).unwrap();
                let reference = BoxSolution::solve(bounds, &rules, u64::MAX).unwrap();
                let fast = solve_outcomes(bounds, &rules, u64::MAX).unwrap();
                assert_eq!(fast, reference.is_p(), "{bounds:?} {rules:?}");
            }
        }
    }
}
