//! Misère quotients against the exact misère search (an independent computation: it
//! labels every position reachable from the starts by Ferguson's rule, and knows
//! nothing of monoids), and the theorem that impartial quotients have even order.
use std::sync::Arc;

use nimkit::code::{Scan, TakeAndBreak};
use nimkit::heap::HeapRule;
use nimkit::misere::{genus, MisereQuotient, QuotientSolver};
use nimkit::outcome::Outcome;
use nimkit::rules::{Rules, TakeLimit};
use nimkit::search::MultisetSolution;
use proptest::prelude::*;

fn quotient(code: &str, max_heap: usize) -> nimkit::error::Result<MisereQuotient> {
    let rule = Arc::new(TakeAndBreak::parse(code).unwrap());
    let mut solver = QuotientSolver::new();
    solver.compute(&rule, max_heap, &mut |_| {})?;
    Ok(solver.quotient())
}

fn misere(code: &str) -> Rules {
    let rule = Arc::new(TakeAndBreak::parse(code).unwrap());
    Rules::new(true, TakeLimit::Uniform(HeapRule::Code(rule))).unwrap()
}

/// Every multiset of at most `heaps` heaps of sizes `1..=max`, sorted.
fn multisets(heaps: usize, max: u64) -> Vec<Vec<u64>> {
    let mut all = vec![vec![]];
    let mut last = vec![vec![]];
    for _ in 0..heaps {
        last = last
            .into_iter()
            .flat_map(|w: Vec<u64>| {
                let low = w.last().copied().unwrap_or(1);
                (low..=max).map(move |h| [w.clone(), vec![h]].concat())
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

/// The quotient's outcome of every position of at most `heaps` heaps up to `max`
/// equals the exact search's. Returns the quotient's order.
fn agrees_with_search(code: &str, heaps: usize, max: u64) -> usize {
    let q = quotient(code, max as usize).unwrap();
    let starts = multisets(heaps, max);
    let exact = MultisetSolution::solve_all(starts.clone(), &misere(code), 1 << 24).unwrap();
    for w in &starts {
        let by_search = exact.outcome(w) == Outcome::P;
        assert_eq!(q.is_p(w).unwrap(), by_search, "{code} {w:?}");
    }
    q.order()
}

#[test]
fn quotients_give_the_exact_outcomes() {
    for (code, heaps, max) in [
        ("0.77", 3, 14),
        ("0.77", 4, 9),
        ("0.75", 3, 14),
        ("0.123", 3, 12),
        ("0.71", 3, 12),
        ("0.31", 4, 10),
        ("0.07", 3, 10),
        ("0.137", 3, 10),
        ("4.7", 3, 8),
        ("0.4", 3, 12),
    ] {
        let order = agrees_with_search(code, heaps, max);
        assert_eq!(order % 2, 0, "{code}: order {order}");
    }
}

#[test]
fn candidates_past_4096_elements_reach_the_quotient_of_0_57() {
    // MisereSolver (Siegel) reaches heap 60 of 0.57 with a quotient of order 322; the
    // candidates on the way have more than 4096 elements (4410 at heap 37).
    let q = quotient("0.57", 60).unwrap();
    assert_eq!(q.order(), 322);
    assert_eq!(q.order() % 2, 0);
    // Its outcomes equal the exact search's on every position of three heaps to 16.
    let starts = multisets(3, 16);
    let exact = MultisetSolution::solve_all(starts.clone(), &misere("0.57"), 1 << 24).unwrap();
    for w in &starts {
        assert_eq!(q.is_p(w).unwrap(), exact.outcome(w) == Outcome::P, "{w:?}");
    }
}

#[test]
fn kayles_is_stable_with_the_normal_play_period() {
    // The heap-to-element map of misère Kayles repeats with the period of its normal
    // play values (71, 12) (Winning Ways, ch. 4), proven at heap 2 (71 + 12) + 2 - 1.
    let q = quotient("0.77", 500).unwrap();
    assert_eq!(q.period, Some((71, 12)));
    assert_eq!(q.max_heap(), 167);
    assert_eq!(q.order() % 2, 0);
    // Beyond the computed heaps, the period answers: heap 10**12 is heap 71 + (10**12 -
    // 71) % 12.
    let n = 1_000_000_000_000u64;
    let same = 71 + (n - 71) % 12;
    assert_eq!(q.element(n).unwrap(), q.element(same).unwrap());
}

#[test]
fn the_quick_check_gives_the_quotients_of_the_walks() {
    // MisereSolver's mex interpolation accepts most heaps without a walk: every
    // two-digit octal code (its quotient to heap 40, or as far as candidates of 4096
    // elements go) comes out the same, monoid, P-portion and heap elements, with
    // every heap checked by the walks over every position instead.
    let mut compared = 0;
    for code in (1..64).map(|d| format!("0.{}{}", d / 8, d % 8)) {
        let rule = TakeAndBreak::parse(&code).unwrap();
        let run = |quick: bool| {
            let mut solver = QuotientSolver::new();
            solver.set_limit(1 << 12);
            solver.set_quick_check(quick);
            let done = solver.compute(&rule, 40, &mut |_| {}).is_ok();
            (done, solver.max_heap(), solver.quotient())
        };
        assert_eq!(run(true), run(false), "{code}");
        compared += 1;
    }
    assert_eq!(compared, 63);
}

#[test]
fn quotient_of_0_156_repeats_with_its_normal_play_period() {
    // 0.156's Grundy values have preperiod 3479 and period 349 (Gangolli and
    // Plambeck, "A note on periodicity in some octal games", IJGT 18, 1989); its
    // misère quotient, 34 elements from heap 243 on (MisereSolver's order at heaps
    // 300 and 1000 too, benches/miseresolver.py's build), is proven periodic with the
    // same.
    let q = quotient("0.156", 10_000).unwrap();
    assert_eq!(q.order(), 34);
    assert_eq!(q.changes, [1, 4, 7, 29, 243]);
    assert_eq!(q.period, Some((3479, 349)));
}

#[test]
fn growth_past_the_limit_is_an_error_naming_the_heap() {
    // 0.35's candidates pass 4096 elements at heap 13 (with no limit but memory, its
    // quotient has 4334 elements at heap 60).
    let mut solver = QuotientSolver::new();
    solver.set_limit(1 << 12);
    let rule = TakeAndBreak::parse("0.35").unwrap();
    let err = solver.compute(&rule, 60, &mut |_| {}).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("could not be extended to heap 13"), "{text}");
    assert_eq!(solver.max_heap(), 12);
    let q = quotient("0.35", 8).unwrap();
    assert!(q.period.is_none());
    assert!(q.element(9).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random octal codes of up to three digits, every position of three heaps up to 9.
    #[test]
    fn random_codes_agree_with_search(digits in prop::collection::vec(0u8..8, 1..=3)) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        match quotient(&code, 9) {
            Ok(_) => {
                let order = agrees_with_search(&code, 3, 9);
                prop_assert_eq!(order % 2, 0);
            }
            Err(err) => prop_assert!(err.to_string().contains("misère quotient"), "{}", err),
        }
    }
}

/// Every word over heaps `1..=heaps` with at most `most` of each (exponent vectors).
fn words(heaps: usize, most: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..heaps {
        out = out
            .into_iter()
            .flat_map(|w: Vec<u32>| (0..=most).map(move |c| [w.clone(), vec![c]].concat()))
            .collect();
    }
    out
}

fn heaps_of(word: &[u32]) -> Vec<u64> {
    let mut heaps = Vec::new();
    for (i, &c) in word.iter().enumerate() {
        heaps.extend(std::iter::repeat_n(i as u64 + 1, c as usize));
    }
    heaps
}

/// The quotient's order counted from its definition alone: positions of small heaps
/// (at most `most` of each) told apart by their outcomes with every such position
/// added, outcomes by the exact search. It equals the computed order when short
/// positions reach every element and tell every pair apart, as for these games.
#[test]
fn order_equals_the_classes_counted_by_brute_force() {
    for (code, heaps, most) in [
        ("0.77", 5, 2),
        ("0.75", 6, 2),
        ("0.123", 5, 2),
        ("0.71", 5, 2),
    ] {
        let q = quotient(code, heaps).unwrap();
        let all = words(heaps, most);
        let sums: Vec<Vec<u64>> = words(heaps, 2 * most).iter().map(|w| heaps_of(w)).collect();
        let exact = MultisetSolution::solve_all(sums, &misere(code), 1 << 24).unwrap();
        let mut classes = std::collections::HashMap::new();
        for w in &all {
            let signature: Vec<bool> = all
                .iter()
                .map(|x| {
                    let sum: Vec<u32> = w.iter().zip(x).map(|(a, b)| a + b).collect();
                    exact.outcome(&heaps_of(&sum)) == Outcome::P
                })
                .collect();
            let element = q.element_of(&heaps_of(w)).unwrap();
            // Words with the same element have the same outcomes with anything added.
            let known = classes.entry(signature).or_insert(element);
            assert_eq!(*known, element, "{code}: {w:?}");
        }
        assert_eq!(classes.len(), q.order(), "{code}");
    }
}

/// CGSuite's fixtures (MisereCanonicalGame tests): misère nim values of heaps 0..20.
#[test]
fn misere_values_of_single_heaps_match_cgsuite() {
    let fixtures = [
        (
            "0.77",
            [
                1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0,
            ],
        ),
        (
            "0.07",
            [
                1, 1, 0, 0, 2, 1, 3, 0, 0, 1, 1, 3, 0, 2, 1, 1, 0, 0, 2, 1, 3,
            ],
        ),
        (
            "4!.0",
            [
                1, 1, 1, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2,
            ],
        ),
    ];
    for (code, expected) in fixtures {
        let rule = Arc::new(TakeAndBreak::parse(code).unwrap());
        let genera =
            genus::of_heaps(&rule, &(0..21).collect::<Vec<u64>>(), 1 << 24, &mut |_| {}).unwrap();
        let values: Vec<u32> = genera.iter().map(|g| g.misere_value()).collect();
        assert_eq!(values, expected, "{code}");
        // The base of the genus is the normal-play value.
        for (n, g) in genera.iter().enumerate() {
            assert_eq!(g.base, rule.grundy(n as u64), "{code} heap {n}");
        }
    }
}

/// Kayles heaps 0, 1 and 2 are the nim heaps 0, *1 and *2 (their options are the
/// smaller ones), of genus `0^120`, `1^031` and `2^20` (On Numbers and Games, ch. 12).
#[test]
fn small_kayles_heaps_have_the_genus_of_nim_heaps() {
    let rule = Arc::new(TakeAndBreak::parse("0.77").unwrap());
    let genera = genus::of_heaps(&rule, &[0, 1, 2], 1 << 20, &mut |_| {}).unwrap();
    let text: Vec<String> = genera.iter().map(|g| g.text()).collect();
    assert_eq!(text, ["0^120", "1^031", "2^20"]);
}

/// A move wins exactly when the search says so: the quotient's winning moves equal
/// the exact search's, position by position, in the same order.
#[test]
fn winning_moves_equal_the_search() {
    for (code, heaps, max) in [
        ("0.77", 3, 12),
        ("0.75", 3, 12),
        ("0.123", 3, 10),
        ("0.07", 3, 10),
    ] {
        let rule = Arc::new(TakeAndBreak::parse(code).unwrap());
        let q = quotient(code, max as usize).unwrap();
        let starts = multisets(heaps, max);
        let exact = MultisetSolution::solve_all(starts.clone(), &misere(code), 1 << 24).unwrap();
        for w in &starts {
            assert_eq!(
                q.winning_moves(w, &rule, Scan::Every).unwrap(),
                exact.winning_moves(w),
                "{code} {w:?}"
            );
        }
    }
}

/// Heaps up to 2**n - 1 of a code taking 1..2**n - 1 are nim heaps: the quotient is
/// misère Nim's, tame: order 2 for n = 1 (`T_1`), 2**n + 2 for n >= 2 (`T_2` has six
/// elements; Plambeck and Siegel 2008, the tame quotients), with two P-elements for
/// n >= 2 (an odd number of heaps of 1; nim-sum 0 with a heap of 2 or more), one for
/// n = 1. Its outcomes are Bouton's misère rule (the closed form in `theory`).
#[test]
fn nim_heaps_give_the_tame_quotients() {
    for (n, order) in [(1u32, 2usize), (2, 6), (3, 10), (4, 18)] {
        let top = (1u64 << n) - 1;
        let code = format!("0.{}", "3".repeat(top as usize));
        let q = quotient(&code, top as usize).unwrap();
        assert_eq!(
            (q.order(), q.p_portion().len()),
            (order, if n == 1 { 1 } else { 2 })
        );
        let rules = Rules::new(true, TakeLimit::default()).unwrap();
        for w in multisets(3, top) {
            let bouton = nimkit::theory::outcome(&w, &rules).unwrap() == Outcome::P;
            assert_eq!(q.is_p(&w).unwrap(), bouton, "{code} {w:?}");
        }
    }
}

/// The presentation rewrites any word to the normal form of its element: its
/// relations hold in the quotient and suffice.
#[test]
fn presentations_rewrite_every_word_to_its_normal_form() {
    use nimkit::misere::presentation::Presentation;
    for code in ["0.77", "0.75", "0.123", "0.71"] {
        let q = quotient(code, 300).unwrap();
        let p = Presentation::of(&q);
        let element = |w: &[u32]| {
            w.iter().zip(&p.generators).fold(0, |x, (&e, &(_, g))| {
                (0..e).fold(x, |x, _| q.monoid.product(x, g))
            })
        };
        let mut seen: Vec<&Vec<u32>> = p.normal.iter().collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), q.order(), "{code}: one normal form per element");
        for (lhs, rhs) in &p.relations {
            assert_eq!(element(lhs), element(rhs), "{code}");
        }
        let k = p.generators.len();
        for w in words(k, 3) {
            let mut r = w.clone();
            while let Some((lhs, rhs)) = p
                .relations
                .iter()
                .find(|(l, _)| l.iter().zip(&r).all(|(a, b)| a <= b))
            {
                for i in 0..k {
                    r[i] = r[i] - lhs[i] + rhs[i];
                }
            }
            assert_eq!(r, p.normal[element(&w) as usize], "{code} {w:?}");
        }
        eprintln!("{code}: {} generators, {} relations", k, p.relations.len());
    }
}
