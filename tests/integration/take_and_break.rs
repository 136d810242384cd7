//! Take-and-break codes: parsing, options, Grundy values and periods against published
//! values, and the closed forms and the multiset search against an independent
//! reference (a memoised search written here from the definition of a code).
use std::collections::HashMap;
use std::sync::Arc;

use nimkit::code::TakeAndBreak;
use nimkit::heap::periodic::proven_period;
use nimkit::heap::HeapRule;
use nimkit::heap::Parts;
use nimkit::outcome::Outcome;
use nimkit::position::{apply, undo, Move, Position};
use nimkit::rules::{Rules, TakeLimit};
use nimkit::search::MultisetSolution;
use nimkit::theory;
use proptest::prelude::*;

fn rules(code: &str, misere: bool) -> Rules {
    let code = Arc::new(TakeAndBreak::parse(code).unwrap());
    Rules::new(misere, TakeLimit::Uniform(HeapRule::Code(code))).unwrap()
}

fn values(code: &str, count: usize) -> Vec<u32> {
    let code = TakeAndBreak::parse(code).unwrap();
    code.ensure(count as u64).unwrap();
    code.first(count).unwrap()
}

/// CGSuite's own test fixtures (TakeAndBreakTest): normal-play values of heaps 1..20.
#[test]
fn cgsuite_fixtures() {
    let kayles = [1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1];
    let dawson = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3];
    let grundy = [0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0];
    for (code, expected) in [("0.77", kayles), ("0.07", dawson), ("4!.0", grundy)] {
        assert_eq!(values(code, 21)[1..], expected, "{code}");
    }
}

#[test]
fn option_counts() {
    // A heap of 20 has 20, 10 and 9 options (CGSuite's fixtures).
    for (code, count) in [("0.77", 20), ("0.07", 10), ("4!.0", 9)] {
        let code = TakeAndBreak::parse(code).unwrap();
        assert_eq!(code.count(20), count);
        assert_eq!(code.options(20).count() as u64, count);
    }
    // Grundy's game at 92679 has 46339 options (an old overflow bug in CGSuite).
    let grundy = TakeAndBreak::parse("4!.0").unwrap();
    assert_eq!(grundy.count(92679), 46339);
    assert_eq!(grundy.options(92679).count(), 46339);
    // Counting three parts by formula equals listing them.
    for code in ["0.8", "0.f", "8.0", "0.8!", "0.fc!"] {
        let code = TakeAndBreak::parse(code).unwrap();
        for n in 0..40 {
            assert_eq!(
                code.options(n).count() as u64,
                code.count(n),
                "{code:?} {n}"
            );
        }
    }
}

#[test]
fn kayles_nine() {
    // Kayles(9) can become 8, 7, 1+7, 2+6, 3+5, 4+4, 1+6, 2+5, 3+4.
    let kayles = TakeAndBreak::parse("0.77").unwrap();
    let mut left: Vec<Vec<u64>> = kayles
        .options(9)
        .map(|o| match o.into.sizes() {
            [] => vec![9 - o.take],
            parts => parts.to_vec(),
        })
        .collect();
    left.sort();
    let mut expected = vec![
        vec![8],
        vec![7],
        vec![1, 7],
        vec![2, 6],
        vec![3, 5],
        vec![4, 4],
        vec![1, 6],
        vec![2, 5],
        vec![3, 4],
    ];
    expected.sort();
    assert_eq!(left, expected);
}

#[test]
fn bad_codes() {
    for (code, words) in [
        ("", "empty"),
        ("0.8z", "'z' is not a hexadecimal digit"),
        ("0.0", "no move"),
        ("077", "point"),
        ("1.7", "only split"),
        ("0.7!!", "once"),
        ("!0.7", "just before the point"),
        ("0.!7", "just before the point"),
        ("4!!.0", "once"),
        ("12.7", "one digit"),
    ] {
        let err = TakeAndBreak::parse(code).unwrap_err().to_string();
        assert!(err.contains(words), "{code:?}: {err}");
    }
    assert_eq!(TakeAndBreak::parse("0.770").unwrap().code(), "0.77");
    assert_eq!(TakeAndBreak::parse("4.0!").unwrap().code(), "4!.0");
    assert_eq!(TakeAndBreak::parse(".6").unwrap().code(), "0.6");
    // A long bad code is quoted by its beginning only.
    let long = format!("0.{}z", "7".repeat(5000));
    let err = TakeAndBreak::parse(&long).unwrap_err().to_string();
    assert!(
        err.len() < 200 && err.contains("0.777") && err.contains("..."),
        "{err}"
    );
}

/// Published periods. Winning Ways (2nd ed., vol. 1, ch. 4, table 6): Kayles 0.77 has
/// preperiod 71 and period 12 (counting heap 0, as CGSuite does); Dawson's Kayles 0.07
/// (53, 34); 0.137 (Dawson's chess) (52, 34). Codes 0.3, 0.33 and 0.333 are Nim with
/// take limits 1, 2 and 3: `n mod (k + 1)`, periodic from the start.
#[test]
fn published_periods() {
    for (code, period) in [
        ("0.77", (71, 12)),
        ("0.07", (53, 34)),
        ("0.137", (52, 34)),
        ("0.3", (0, 2)),
        ("0.33", (0, 3)),
        ("0.333", (0, 4)),
    ] {
        let code = TakeAndBreak::parse(code).unwrap();
        code.ensure(1 << 30).unwrap();
        assert_eq!(code.period(), Some(period), "{code:?}");
    }
    // Grundy's game has no known period and `!` proves none.
    let grundy = TakeAndBreak::parse("4!.0").unwrap();
    assert!(grundy.ensure(1 << 17).is_err());
    assert_eq!(grundy.period(), None);
}

#[test]
fn period_boundary() {
    // Kayles needs 2 * (71 + 12) + 2 values to prove (71, 12); one fewer must not.
    let kayles = values("0.77", 200);
    let needed = 2 * (71 + 12) + 2;
    assert_eq!(proven_period(&kayles[..needed], 2, 2), Some((71, 12)));
    assert_eq!(proven_period(&kayles[..needed - 1], 2, 2), None);
}

/// The values of a proven period equal the definition far past the proof.
#[test]
fn periods_hold_past_the_proof() {
    for code in ["0.77", "0.07", "0.137", "0.26", "4.7"] {
        period_holds(code, 1 << 30, true);
    }
}

/// With a proven period, values to well past the proof equal the definition.
fn period_holds(code: &str, max_heap: u64, must_prove: bool) {
    let periodic = TakeAndBreak::parse(code).unwrap();
    if periodic.ensure(max_heap).is_err() || periodic.period().is_none() {
        assert!(!must_prove, "{code} proves no period");
        return;
    }
    let (pre, p) = periodic.period().expect(code);
    let count = 3 * (pre + p) + periodic.max_take() as usize + 100;
    let by_definition = naive_values(code, count);
    let from_period: Vec<u32> = (0..count as u64).map(|n| periodic.grundy(n)).collect();
    assert_eq!(from_period, by_definition, "{code}");
}

/// Options of a heap of `n`, from the definition of a code, as the heaps left.
fn naive_options(code: &str, n: u64) -> Vec<Vec<u64>> {
    let distinct = code.contains('!');
    let code = code.replace('!', "");
    let (before, after) = code.split_once('.').unwrap();
    let digits: Vec<u32> = std::iter::once(before.chars().next().unwrap_or('0'))
        .chain(after.chars())
        .map(|c| c.to_digit(16).unwrap())
        .collect();
    let mut options = Vec::new();
    for (t, &d) in digits.iter().enumerate() {
        let Some(m) = n.checked_sub(t as u64) else {
            continue;
        };
        if d & 1 != 0 && m == 0 && t > 0 {
            options.push(vec![]);
        }
        if d & 2 != 0 && m > 0 && t > 0 {
            options.push(vec![m]);
        }
        for a in 1..m {
            let b = m - a;
            if d & 4 != 0 && b >= a && !(distinct && a == b) {
                options.push(vec![a, b]);
            }
            for b in a..m - a {
                let c = m - a - b;
                if d & 8 != 0 && c >= b && !(distinct && (a == b || b == c)) {
                    options.push(vec![a, b, c]);
                }
            }
        }
    }
    options
}

fn naive_values(code: &str, count: usize) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::new();
    for n in 0..count as u64 {
        let seen: Vec<u32> = naive_options(code, n)
            .iter()
            .map(|parts| parts.iter().fold(0, |x, &p| x ^ values[p as usize]))
            .collect();
        values.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    values
}

/// Outcome by memoised search over sorted heaps, from `naive_options`.
fn naive_outcome(
    code: &str,
    misere: bool,
    heaps: &[u64],
    memo: &mut HashMap<Vec<u64>, bool>,
) -> bool {
    let mut key: Vec<u64> = heaps.iter().copied().filter(|&n| n > 0).collect();
    key.sort_unstable();
    if let Some(&p) = memo.get(&key) {
        return p;
    }
    let mut has_move = false;
    let mut reaches_p = false;
    for (i, &n) in key.iter().enumerate() {
        for left in naive_options(code, n) {
            has_move = true;
            let mut child: Vec<u64> = key.clone();
            child.remove(i);
            child.extend(left);
            reaches_p |= naive_outcome(code, misere, &child, memo);
        }
    }
    let p = if has_move { !reaches_p } else { !misere };
    memo.insert(key, p);
    p
}

fn random_code() -> impl Strategy<Value = String> {
    let d0 = prop_oneof![Just(0u8), Just(0), Just(4), Just(8)];
    (d0, prop::collection::vec(0u8..16, 1..4), any::<bool>()).prop_filter_map(
        "a code with a move",
        |(d0, digits, distinct)| {
            let after: String = digits.iter().map(|d| format!("{d:x}")).collect();
            let code = format!("{d0:x}{}.{after}", if distinct { "!" } else { "" });
            TakeAndBreak::parse(&code).ok().map(|_| code)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Grundy values by the rule equal the definition, value by value.
    #[test]
    fn values_equal_definition(code in random_code()) {
        prop_assert_eq!(values(&code, 40), naive_values(&code, 40));
    }

    /// Options listed in turn are `nth`'s, in its order; `has_move` is `count > 0`.
    #[test]
    fn options_in_order_of_nth(code in random_code()) {
        let code = TakeAndBreak::parse(&code).unwrap();
        for n in 0..30 {
            let listed: Vec<_> = code.options(n).collect();
            let by_index: Vec<_> = (0..code.count(n)).map(|i| code.nth(n, i)).collect();
            prop_assert_eq!(listed, by_index);
            prop_assert_eq!(code.has_move(n), code.count(n) > 0);
        }
    }

    /// Every period the rule claims holds past its proof (hexadecimal codes included).
    #[test]
    fn claimed_periods_hold(code in random_code()) {
        // Splits into three heaps cost n^2 a value: a shorter reach keeps them quick.
        let three_way = code.chars().filter_map(|c| c.to_digit(16)).any(|d| d & 8 != 0);
        period_holds(&code, if three_way { 1 << 9 } else { 1 << 12 }, false);
    }

    /// Normal play: the XOR rule against the reference search on every position of
    /// up to three heaps up to 7; misère play: the multiset search against it.
    /// The winning moves lead exactly to the reference's P-positions.
    #[test]
    fn outcomes_equal_reference(code in random_code(), misere in any::<bool>()) {
        let rules = rules(&code, misere);
        let mut memo = HashMap::new();
        for heaps in small_positions() {
            let expected = naive_outcome(&code, misere, &heaps, &mut memo);
            let (outcome, moves) = if misere {
                let solution = MultisetSolution::solve(&heaps, &rules, u64::MAX).unwrap();
                (solution.outcome(&heaps), solution.winning_moves(&heaps))
            } else {
                let a = theory::analyse(&heaps, &rules).unwrap();
                (a.outcome, a.winning_moves)
            };
            prop_assert_eq!(outcome == Outcome::P, expected, "{:?}", heaps);
            let position = Position::new(heaps.clone());
            for mv in position.moves(&rules).unwrap() {
                let after = position.after(mv, &rules).unwrap();
                let wins = naive_outcome(&code, misere, after.heaps(), &mut memo);
                prop_assert_eq!(moves.contains(&mv), wins, "{:?} {:?}", heaps, mv);
            }
        }
    }

    /// The box search through splits (one multiset search from every position of the
    /// box) against the reference, position by position in lexicographic order.
    #[test]
    fn box_search_equals_reference(
        code in random_code(),
        misere in any::<bool>(),
        bounds in prop::collection::vec(0u64..6, 1..4),
    ) {
        let rules = rules(&code, misere);
        let (is_p, _) = nimkit::search::solve_box(&bounds, &rules, u64::MAX, false).unwrap();
        let mut memo = HashMap::new();
        let mut heaps = vec![0u64; bounds.len()];
        for &found in &is_p {
            prop_assert_eq!(found, naive_outcome(&code, misere, &heaps, &mut memo), "{:?}", heaps);
            nimkit::search::advance(&mut heaps, &bounds);
        }
        let size: u64 = bounds.iter().map(|b| b + 1).product();
        prop_assert_eq!(is_p.len() as u64, size);
    }

    /// The lower bounds that refuse a search before it starts are lower bounds: of
    /// the positions a search from one heap labels and of the moves it weighs (the
    /// options of each different heap of each position).
    #[test]
    fn search_floors_are_below_the_search(code in random_code(), n in 0u64..28) {
        let rules = rules(&code, true);
        let rule = TakeAndBreak::parse(&code).unwrap();
        let solution = MultisetSolution::solve(&[n], &rules, u64::MAX).unwrap();
        let weighed: u64 = solution
            .positions()
            .map(|heaps| {
                let mut distinct = heaps.to_vec();
                distinct.dedup();
                distinct.iter().map(|&h| rule.count(h)).sum::<u64>()
            })
            .sum();
        let (positions, moves) = rule.search_floor(n);
        prop_assert!(positions <= solution.len() as u64, "{} <= {}", positions, solution.len());
        prop_assert!(moves <= weighed.max(rule.count(n)), "{} <= {}", moves, weighed);
    }

    /// Pop undoes push, splits included.
    #[test]
    fn undo_undoes_apply(code in random_code(), heaps in prop::collection::vec(0u64..12, 1..4)) {
        let rules = rules(&code, false);
        let position = Position::new(heaps.clone());
        for mv in position.moves(&rules).unwrap() {
            let mut after = heaps.clone();
            apply(&mut after, &mv);
            let expected = position.after(mv, &rules).unwrap();
            prop_assert_eq!(&after[..], expected.heaps());
            undo(&mut after, &mv);
            prop_assert_eq!(&after, &heaps);
        }
    }
}

fn small_positions() -> Vec<Vec<u64>> {
    let mut all = Vec::new();
    for a in 0..=7 {
        all.push(vec![a]);
        for b in 0..=a {
            all.push(vec![a, b]);
            for c in 0..=b.min(4) {
                all.push(vec![a, b, c]);
            }
        }
    }
    all
}

#[test]
fn split_moves_in_place() {
    let kayles = rules("0.77", false);
    let position = Position::new(vec![9, 5]);
    let mv = Move::split(0, 2, Parts::two(3, 4));
    assert_eq!(position.after(mv, &kayles).unwrap().heaps(), &[3, 4, 5]);
    let bad = Move::split(0, 2, Parts::two(3, 3));
    assert!(position.after(bad, &kayles).unwrap_err().is_illegal_move());
    // Grundy's game splits without taking; equal heaps are refused.
    let grundy = rules("4!.0", false);
    let ok = Move::split(1, 0, Parts::two(1, 4));
    assert_eq!(position.after(ok, &grundy).unwrap().heaps(), &[9, 1, 4]);
    let equal = Move::split(0, 0, Parts::two(4, 5));
    assert!(position.after(equal, &grundy).is_ok());
    assert!(Position::new(vec![8])
        .after(Move::split(0, 0, Parts::two(4, 4)), &grundy)
        .is_err());
}

/// Misère Kayles single-heap outcomes from the misère nim values CGSuite lists
/// (MisereNimValue fixtures, heaps 0..20: 1,0,2,3,0,1,3,2,1,0,2,4,0,1,2,5,1,6,3,2,0):
/// a heap is P in misère play exactly when its misère nim value is 0.
#[test]
fn misere_kayles_single_heaps() {
    let values = [
        1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0,
    ];
    let rules = rules("0.77", true);
    let solution = MultisetSolution::solve(&[20], &rules, u64::MAX).unwrap();
    for (n, &v) in values.iter().enumerate() {
        let outcome = solution.outcome(&[n as u64]);
        assert_eq!(outcome == Outcome::P, v == 0, "heap {n}");
    }
}

/// The questions asked about one game (the start, then the positions after its moves)
/// are answered by the one search of the start: its owner's `Solvers` hands back the
/// start's solver (which covers the start) rather than a new one for the smaller
/// position.
#[test]
fn one_search_answers_a_game() {
    let solvers = nimkit::solver::Solvers::default();
    let shared = |heaps: &[u64], rules: &Rules, max: u64| solvers.get(heaps, rules, max);
    let kayles = rules("0.77", true);
    let start = [7, 4, 2];
    let first = shared(&start, &kayles, 1 << 20).unwrap();
    for mv in first.winning_moves(&start).unwrap() {
        let mut after = start.to_vec();
        apply(&mut after, &mv);
        let again = shared(&after, &kayles, 1 << 20).unwrap();
        assert!(again.covers(&start), "{after:?} was searched again");
        assert_eq!(again.outcome(&after), Outcome::P);
    }
    // A box solver for misère play of a subtraction set behaves the same.
    let set = Rules::new(true, TakeLimit::limit(3)).unwrap();
    let first = shared(&[9, 9], &set, 1 << 20).unwrap();
    assert!(first.covers(&[3, 9]) && !first.covers(&[10, 0]) && !first.covers(&[1]));
    // Other rules, or a larger max_positions than the cached solver had, search anew.
    let normal = rules("0.77", false);
    assert!(!shared(&[5, 1], &normal, 1 << 20).unwrap().covers(&start));
    assert!(!shared(&[5, 1], &kayles, 1 << 21).unwrap().covers(&start));
    // The solvers belong to their owner: another owner's questions search anew.
    let other = nimkit::solver::Solvers::default();
    assert!(!other.get(&[5, 1], &kayles, 1 << 20).unwrap().covers(&start));
}

/// The search floors of the codes people search most, heap by heap: below the real
/// search, and for Kayles (whose splits and one-pin takes reach every multiset of
/// small enough weight) close to it.
#[test]
fn search_floors_of_known_codes() {
    for code in ["0.77", "0.07", "4!.0", "4.0", "0.4f", "0.137", "8.0", "0.6"] {
        let rules = rules(code, true);
        let rule = TakeAndBreak::parse(code).unwrap();
        for n in 0..34 {
            let solution = MultisetSolution::solve(&[n], &rules, u64::MAX).unwrap();
            let (positions, _) = rule.search_floor(n);
            assert!(positions <= solution.len() as u64, "{code} {n}");
            if code == "0.77" && n > 10 {
                assert!(2 * positions >= solution.len() as u64, "{code} {n}");
            }
        }
    }
}
