//! Misère values of single heaps by the ranked search (`misere::values`) against the
//! genus from the hashed search (`MultisetSolution`, which walks positions from the
//! heaps and knows no ranks), itself checked against CGSuite's fixtures in
//! `misere_quotients.rs` (and the ranked values against them in the Python tests).
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

/// Many heaps that never split: too many for the table that numbers positions, so
/// the hashed search answers. Taking 1 to 4 in misère play: a heap of `n` has the
/// value `[1, 0, 2, 3, 4][n % 5]` (0 has no move: 1; then the mex of the four below).
#[test]
fn many_heaps_that_never_split() {
    let values = ranked("0.3333", 200_000);
    assert!(values
        .iter()
        .zip(0..)
        .all(|(&v, n)| v == [1, 0, 2, 3, 4][n % 5]));
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
