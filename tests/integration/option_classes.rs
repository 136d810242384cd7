//! The options of a heap looked through by classes (`TakeAndBreak::options_by_class`,
//! what a search for moves uses past `MAX_SCANNED_OPTIONS`) against every option: the
//! same values are reached, and the first option of each value is the same. So the
//! first winning move found by classes is the first of every winning move, for heaps
//! too large to list them (here checked on heaps small enough to list).
use std::collections::BTreeMap;
use std::sync::Arc;

use nimkit::code::TakeAndBreak;
use nimkit::heap::HeapMove;
use nimkit::heap::HeapRule;
use nimkit::misere::{MisereQuotient, QuotientSolver};
use nimkit::outcome::Outcome;
use nimkit::position::apply;
use nimkit::rules::{Rules, TakeLimit};
use nimkit::solver::Solver;

/// The first option (in `options` order) of each value, over `options`.
fn first_of_each(
    options: impl Iterator<Item = HeapMove>,
    value: impl Fn(&HeapMove) -> u32,
) -> BTreeMap<u32, HeapMove> {
    let mut first = BTreeMap::new();
    for option in options {
        first.entry(value(&option)).or_insert(option);
    }
    first
}

fn code(code: &str) -> TakeAndBreak {
    TakeAndBreak::parse(code).unwrap()
}

/// Grundy values: codes with a proven period, every heap up to three times the reach
/// (or 60).
#[test]
fn classes_of_equal_grundy_values_keep_the_first_option_of_each_value() {
    // Kayles, Dawson's Kayles and others whose periods are proven by heap 4096; 0.f3
    // and 0.f leave three heaps; 0.f, 0.f3 and 0.5 are periodic from heap 0 (a part
    // moved down must stay nonempty).
    for text in [
        "0.77", "0.07", "0.72", "0.137", "0.53", "0.4", "0.f3", "0.f", "0.5",
    ] {
        let rule = code(text);
        rule.ensure(1 << 12).unwrap();
        let reach = rule.grundy_reach().expect(text);
        let mut fewer = false;
        for n in 0..(3 * reach).max(60) {
            let value = |o: &HeapMove| rule.option_value(n, o);
            let every = first_of_each(rule.options(n), value);
            let by_class = first_of_each(rule.options_by_class(n, Some(reach)), value);
            assert_eq!(every, by_class, "{text} heap {n}");
            fewer |= rule.options_by_class(n, Some(reach)).count() < rule.options(n).count();
        }
        assert!(fewer, "{text}: the classes never dropped an option");
    }
}

fn kayles_quotient() -> (Arc<TakeAndBreak>, MisereQuotient) {
    let rule = Arc::new(code("0.77"));
    let mut solver = QuotientSolver::new();
    solver.compute(&rule, 500, &mut |_| {}).unwrap();
    (rule, solver.quotient())
}

/// Misère quotient elements: misère Kayles, whose heap-to-element map repeats from 71
/// with period 12.
#[test]
fn classes_of_equal_quotient_elements_keep_the_first_option_of_each_element() {
    let (rule, q) = kayles_quotient();
    let reach = q.reach().unwrap();
    assert_eq!(reach, 83);
    for n in 0..400u64 {
        let element = |o: &HeapMove| match o.into.sizes() {
            [] => q.element(n - o.take).unwrap(),
            parts => q.element_of(parts).unwrap(),
        };
        let every = first_of_each(rule.options(n), element);
        let by_class = first_of_each(rule.options_by_class(n, Some(reach)), element);
        assert_eq!(every, by_class, "heap {n}");
    }
}

/// Far past the scan limit (a heap of 10**12 has 5 * 10**11 options), a solver finds a
/// winning move at once; it wins by the quotient (misère) and by the nim-sum (normal).
#[test]
fn winning_moves_from_heaps_of_any_size() {
    let start = [1_000_000_000_000u64, 1_000_000_007, 5];
    for misere in [false, true] {
        let rule = Arc::new(code("0.77"));
        let rules = Rules::new(misere, TakeLimit::Uniform(HeapRule::Code(rule))).unwrap();
        let solver = Solver::new(&start, &rules, 1 << 20).unwrap();
        assert!(solver.winning_moves(&start).is_err(), "every move: refused");
        let moves = solver.winning_moves_by_class(&start, nimkit::code::Scan::First);
        assert_eq!(
            moves.is_empty(),
            solver.outcome(&start) == Outcome::P,
            "misère {misere}"
        );
        for mv in moves {
            let mut after = start.to_vec();
            apply(&mut after, &mv);
            assert_eq!(solver.outcome(&after), Outcome::P, "misère {misere} {mv:?}");
        }
    }
}
