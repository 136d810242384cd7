//! Grundy sequences at scale: the sparse-space method against the definition, value
//! by value, and the periods of the published tables reproduced.
use nimkit::code::{Method, TakeAndBreak};
use nimkit::heap::periodic::{period_search, PeriodSearch};
use nimkit::heap::sparse::SparseSpace;
use nimkit::heap::store::Store;
use nimkit::heap::width::Width;
use nimkit::interrupt::Poll;
use proptest::prelude::*;

/// Values by the definition alone, written here independently of the crate.
fn naive_values(code: &TakeAndBreak, count: usize) -> Vec<u32> {
    let moves = code.moves();
    let mut values: Vec<u32> = vec![0];
    while values.len() < count {
        let n = values.len();
        let mut options = std::collections::HashSet::new();
        for &t in &moves.whole {
            if t == n {
                options.insert(0);
            }
        }
        for &t in &moves.reduce {
            if t < n {
                options.insert(values[n - t]);
            }
        }
        for &t in &moves.split {
            for a in 1..n.saturating_sub(t) {
                let b = n - t - a;
                if a <= b && !(moves.distinct && a == b) {
                    options.insert(values[a] ^ values[b]);
                }
            }
        }
        values.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    values
}

/// The sparse-space method on one thread, the values stored as u32 throughout.
fn sparse_values(code: &TakeAndBreak, count: usize) -> Vec<u32> {
    let mut space = SparseSpace::new(code.moves());
    let mut values = Store::from_values(&[0]);
    values.widen(Width::U32).unwrap();
    values.reserve(count).unwrap();
    while values.len() < count {
        assert_eq!(space.extend::<u32>(&mut values, count, None), None);
    }
    values.slice::<u32>().to_vec()
}

/// A long run (two threads where rayon has them: `sparse::with_helper`, the next
/// block's far splits filled by the second) equals the sequential method heap by
/// heap, on dense codes (0.6, Grundy's game with its distinct parts, 0.137 with heap
/// parity in the mask) and a sparse one (0.16, where one thread does it all).
#[test]
fn two_threads_equal_one() {
    for code in ["0.6", "4!.0", "0.137", "0.16"] {
        let rule = TakeAndBreak::parse(code).unwrap();
        let count = 1 << 17;
        rule.compute(count, &mut |_| {}).unwrap();
        let expected = sparse_values(&rule, count);
        assert_eq!(rule.values_as::<u32>(count).unwrap(), expected, "{code}");
    }
}

/// A sparse space that counted the stored values in two goes (a replay stopped by
/// Ctrl-C, caught up later) is the one that counted them at once, and goes on to the
/// definition's values.
#[test]
fn a_replay_in_two_goes_equals_one() {
    for code in ["0.6", "4!.0", "0.137"] {
        let rule = TakeAndBreak::parse(code).unwrap();
        let expected = naive_values(&rule, 4000);
        let whole = Store::from_values(&expected[..3000]);
        let mut once = SparseSpace::new(rule.moves());
        once.replay(&whole, &mut Poll::default()).unwrap();
        let mut twice = SparseSpace::new(rule.moves());
        let part = Store::from_values(&expected[..1000]);
        twice.replay(&part, &mut Poll::default()).unwrap();
        twice.replay(&whole, &mut Poll::default()).unwrap();
        assert_eq!(twice.rare_heaps(), once.rare_heaps(), "{code}");
        assert_eq!(twice.mask(), once.mask(), "{code}");
        let mut values = Store::from_values(&expected[..3000]);
        values.widen(Width::U32).unwrap();
        values.reserve(4000).unwrap();
        while values.len() < 4000 {
            assert_eq!(twice.extend::<u32>(&mut values, 4000, None), None);
        }
        assert_eq!(values.slice::<u32>(), &expected[..], "{code}");
    }
}

/// Octal codes (digits 0-7 after the point, 0 or 4 before, maybe `!`).
fn octal_code() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just(""), Just("4")],
        prop::collection::vec(0u8..8, 1..5),
        any::<bool>(),
    )
        .prop_map(|(d0, digits, distinct)| {
            let after: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            format!("{d0}{}.{after}", if distinct { "!" } else { "" })
        })
        .prop_filter("a code allows a move", |c| TakeAndBreak::parse(c).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The sparse-space values equal the definition's, value by value.
    #[test]
    fn sparse_space_equals_definition(code in octal_code()) {
        let rule = TakeAndBreak::parse(&code).unwrap();
        prop_assert_eq!(sparse_values(&rule, 3000), naive_values(&rule, 3000), "{}", code);
    }

    /// A computation resumed from the first `known` values (a checkpoint) goes on to
    /// the definition's values, heap 0 alone included (which a split never uses:
    /// `4!.0` splits without taking).
    #[test]
    fn resumed_values_go_on_as_the_definition(
        code in octal_code(),
        known in prop_oneof![1usize..8, 8usize..600],
    ) {
        let expected = naive_values(&TakeAndBreak::parse(&code).unwrap(), 3000);
        let rule = TakeAndBreak::parse(&code).unwrap().fresh(Method::Auto);
        rule.resume(&expected[..known]).unwrap();
        rule.compute(3000, &mut |_| {}).unwrap();
        prop_assert_eq!(rule.values_as::<u32>(3000).unwrap(), expected, "{}", code);
    }
}

/// Long sparse sequences whose rare values come late, against the definition.
#[test]
fn sparse_space_on_known_sparse_games() {
    for code in ["0.16", "0.56", "0.354", "0.156", "4!.0", "0.127"] {
        let rule = TakeAndBreak::parse(code).unwrap();
        assert_eq!(
            sparse_values(&rule, 6000),
            naive_values(&rule, 6000),
            "{code}"
        );
    }
}

/// Periods of nontrivial octal games as published and confirmed by Czajka's solver
/// (github.com/tczajka/octal-games, SolvedGames.md: "prefix" is our preperiod):
/// `.45` (498, 20), `.156` (3479, 349, Kenyon 1967), `.356` (7315, 142, Austin 1976),
/// `.644` (3256, 442, Austin 1976), `.165` (5181, 1550, Austin 1976), `.127` (46578,
/// 4, Gangolli and Plambeck 1989), `.16` (105351, 149459, Gangolli and Plambeck 1989),
/// `.56` (326640, 144, Gangolli and Plambeck 1989).
#[test]
fn published_octal_periods() {
    for (code, expected) in [
        ("0.45", (498, 20)),
        ("0.156", (3479, 349)),
        ("0.356", (7315, 142)),
        ("0.644", (3256, 442)),
        ("0.165", (5181, 1550)),
        ("0.127", (46578, 4)),
        ("0.16", (105351, 149459)),
        ("0.56", (326640, 144)),
    ] {
        let rule = TakeAndBreak::parse(code).unwrap();
        rule.compute(1 << 21, &mut |_| {}).unwrap();
        assert_eq!(rule.period(), Some(expected), "{code}");
    }
}

/// A second computation (the definition, never looking for a period) agrees with the
/// first, and its values prove the period the first found.
#[test]
fn fresh_naive_rule_agrees() {
    let rule = TakeAndBreak::parse("0.45").unwrap();
    let naive = rule.fresh(Method::Naive);
    naive.compute(1100, &mut |_| {}).unwrap();
    rule.compute(1100, &mut |_| {}).unwrap();
    assert_eq!(rule.period(), Some((498, 20)));
    assert_eq!(naive.period(), None);
    let values = naive.first(1100).unwrap();
    assert_eq!(values, rule.first(1100).unwrap());
    assert!(rule.proves(&values, 498, 20));
    let needed = rule.values_to_prove(498, 20).unwrap().unwrap();
    assert_eq!(needed, 2 * (498 + 20) + 2);
    assert!(rule.proves(&values[..needed], 498, 20));
    assert!(!rule.proves(&values[..needed - 1], 498, 20));
    assert!(!naive.uses_sparse_space() && rule.uses_sparse_space());
}

/// The search names the count a candidate period needs before proving it.
#[test]
fn period_search_aims_at_a_candidate() {
    // 0 1 2 then 3 4 repeated: period 2 from heap 3.
    let mut values = vec![0, 1, 2];
    values.extend([3, 4].iter().cycle().take(200));
    assert_eq!(period_search(&values, 1, 2), PeriodSearch::Proven(3, 2));
    assert_eq!(period_search(&values[..9], 1, 2), PeriodSearch::Nothing);
}
