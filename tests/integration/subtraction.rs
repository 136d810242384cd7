//! Subtraction games: the detected period against the definition and the closed forms
//! of take-limit Nim. Rules with subtraction sets are checked against search in
//! tests/integration/subtraction_rules.rs.
use nimkit::error::Error;
use nimkit::heap::limit;
use nimkit::subtraction::{grundy_by_definition, GrundySequence, SubtractionSet};
use proptest::prelude::*;

fn sequence(elements: &[u64]) -> GrundySequence {
    GrundySequence::find(SubtractionSet::new(elements.to_vec()).unwrap(), 10_000_000).unwrap()
}

#[test]
fn take_limits_are_the_sets_one_to_k() {
    for k in 1..=12u64 {
        let g = sequence(&(1..=k).collect::<Vec<_>>());
        assert_eq!(g.period(), (0, k as usize + 1));
        for n in (0..500).chain([u64::MAX - 3, u64::MAX]) {
            assert_eq!(u64::from(g.grundy(n)), limit::grundy(n, k), "n={n} k={k}");
        }
    }
}

#[test]
fn one_three_four() {
    let g = sequence(&[4, 1, 3, 3]);
    assert_eq!(g.set().elements(), &[1, 3, 4]);
    assert_eq!(g.period(), (0, 7));
    assert_eq!(
        g.first(14).unwrap(),
        vec![0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]
    );
}

#[test]
fn a_set_with_a_preperiod() {
    // {2, 5, 7}: a known example whose sequence settles only after a while.
    let g = sequence(&[2, 5, 7]);
    let (pre, period) = g.period();
    let length = pre + 50 * period + 100;
    assert_eq!(
        g.first(length).unwrap(),
        grundy_by_definition(g.set(), length)
    );
}

#[test]
fn bad_sets_are_refused() {
    assert_eq!(SubtractionSet::new(vec![]), Err(Error::EmptySet));
    assert_eq!(SubtractionSet::new(vec![0, 2]), Err(Error::ZeroInSet));
    assert_eq!(
        SubtractionSet::new(vec![1, 1 << 21]),
        Err(Error::SetElementTooLarge(1 << 21))
    );
    assert_eq!(
        SubtractionSet::new((1..=5000).collect()),
        Err(Error::SetTooLarge(5000))
    );
    let set = SubtractionSet::new(vec![3, 7, 11, 13]).unwrap();
    assert_eq!(
        GrundySequence::find(set, 5),
        Err(Error::NoPeriod { searched: 13 })
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_period_reproduces_the_definition_far_past_detection(
        set in prop::collection::vec(1..40u64, 1..8)
    ) {
        let g = sequence(&set);
        let (pre, period) = g.period();
        let length = pre + 20 * period + 2000;
        prop_assert_eq!(g.first(length).unwrap(), grundy_by_definition(g.set(), length));
        // The preperiod is minimal: one step earlier breaks the period.
        if pre > 0 {
            let values = grundy_by_definition(g.set(), length);
            prop_assert!((pre - 1..length - period).any(|n| values[n] != values[n + period]));
        }
    }
}
