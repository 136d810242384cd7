//! Misère values of single heaps by the ranked search (`misere::values`) against two
//! independent computations: CGSuite's fixtures, and the genus from the hashed search
//! (`MultisetSolution`, which walks positions from the heaps and knows no ranks).
use std::sync::Arc;

use nimkit::code::TakeAndBreak;
use nimkit::error::Error;
use nimkit::misere::{genus, values};
use proptest::prelude::*;

fn ranked(code: &str, count: u64) -> Vec<u32> {
    let rule = Arc::new(TakeAndBreak::parse(code).unwrap());
    values::of_heaps(&rule, count, 1 << 26, &mut |_| {}).unwrap()
}

fn hashed(code: &str, count: u64) -> Vec<u32> {
    let rule = Arc::new(TakeAndBreak::parse(code).unwrap());
    let heaps: Vec<u64> = (0..count).collect();
    let genera = genus::of_heaps(&rule, &heaps, 1 << 26, &mut |_| {}).unwrap();
    genera.iter().map(|g| g.misere_value()).collect()
}

/// CGSuite's `MisereNimValue` of heaps 0..20 (the fixtures of its test suite):
/// Kayles, Dawson's Kayles and Grundy's game (`4!.0`: split into two unequal heaps).
#[test]
fn cgsuite_fixtures() {
    let fixtures: [(&str, [u32; 21]); 3] = [
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
        assert_eq!(ranked(code, 21), expected, "{code}");
    }
}

/// Codes that split in two or three, take nothing and split (Grundy's game), remove
/// whole heaps only, or never split, far enough to reach many-heap positions.
#[test]
fn equal_the_hashed_search() {
    for (code, count) in [
        ("0.77", 42),
        ("0.07", 45),
        ("0.137", 40),
        ("4!.0", 32),
        ("4.0", 30),
        ("0.6", 40),
        ("0.8", 24),
        ("0.F", 22),
        ("0.3033", 40),
        ("0.123", 40),
        ("0.0000001", 30),
    ] {
        assert_eq!(ranked(code, count), hashed(code, count), "{code}");
    }
}

/// Values past 255 (no byte holds them): a nim heap of `n >= 2` has misère value `n`,
/// and a game that never splits keeps its positions to single heaps.
#[test]
fn large_values() {
    let code = format!("0.{}", "3".repeat(256));
    let values = ranked(&code, 257);
    assert_eq!(values[..2], [1, 0]);
    assert!(values[2..].iter().zip(2..).all(|(&v, n)| v == n));
}

#[test]
fn refused_past_max_positions() {
    let rule = Arc::new(TakeAndBreak::parse("0.77").unwrap());
    let err = values::of_heaps(&rule, 60, 1000, &mut |_| {}).unwrap_err();
    assert!(
        matches!(err, Error::MultisetSearchTooLarge { limit: 1000, .. }),
        "{err}"
    );
    assert!(values::of_heaps(&rule, 0, 0, &mut |_| {})
        .unwrap()
        .is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random codes of up to three hexadecimal digits, some taking nothing.
    #[test]
    fn random_codes_equal_the_hashed_search(
        zero in prop::sample::select(vec![0u8, 4, 8]),
        digits in prop::collection::vec(0u8..16, 1..=3),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code = format!(
            "{zero:X}.{}",
            digits.iter().map(|d| format!("{d:X}")).collect::<String>()
        );
        prop_assert_eq!(ranked(&code, 22), hashed(&code, 22), "{}", code);
    }
}
