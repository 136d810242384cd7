//! P-position listing and counting against the brute-force labelling of whole boxes.
use nimkit::rules::{Rules, TakeLimit};
use nimkit::search::{advance, box_size, BoxSolution};
use nimkit::tables::{count_p_positions, max_xor, p_positions};
use num_bigint::BigUint;
use proptest::prelude::*;

/// The P-positions of the box by search, flattened in lexicographic order.
fn by_search(bounds: &[u64], rules: &Rules) -> Vec<u64> {
    let solution = BoxSolution::solve(bounds, rules, u64::MAX).unwrap();
    let mut heaps = vec![0u64; bounds.len()];
    let mut rows = Vec::new();
    for &p in solution.is_p() {
        if p {
            rows.extend_from_slice(&heaps);
        }
        advance(&mut heaps, bounds);
    }
    rows
}

fn rules_strategy(heaps: usize) -> impl Strategy<Value = Rules> {
    let limit = 1..8u64;
    let limits = prop_oneof![
        Just(TakeLimit::default()),
        limit.clone().prop_map(TakeLimit::limit),
        prop::collection::vec(prop::option::of(limit), heaps).prop_map(TakeLimit::per_heap),
    ];
    (any::<bool>(), limits).prop_map(|(misere, limit)| Rules::new(misere, limit).unwrap())
}

fn box_strategy() -> impl Strategy<Value = (Vec<u64>, Rules)> {
    prop::collection::vec(0..14u64, 0..5)
        .prop_filter("small enough to search", |b| box_size(b) <= 60_000)
        .prop_flat_map(|bounds| {
            let n = bounds.len();
            (Just(bounds), rules_strategy(n))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn listing_and_count_match_the_search((bounds, rules) in box_strategy()) {
        let expected = by_search(&bounds, &rules);
        let listed = p_positions(&bounds, &rules).unwrap();
        prop_assert_eq!(&listed, &expected);
        // With no heaps the one position () is P in normal play only.
        let rows = expected.len().checked_div(bounds.len()).unwrap_or(usize::from(!rules.is_misere()));
        prop_assert_eq!(count_p_positions(&bounds, &rules).unwrap(), BigUint::from(rows));
    }

    #[test]
    fn xor_of_two_intervals_is_an_interval(a in 0..70u64, c in 0..70u64) {
        let mut seen = [false; 128];
        for x in 0..=a {
            for y in 0..=c {
                seen[(x ^ y) as usize] = true;
            }
        }
        let top = max_xor(a, c) as usize;
        prop_assert!(seen[..=top].iter().all(|&s| s));
        prop_assert!(seen[top + 1..].iter().all(|&s| !s));
    }
}

#[test]
fn counts_of_huge_boxes_have_closed_forms() {
    // Bounds 2^60 - 1: every prefix fixes the last heap, so (2^60)^(m-1) P-positions.
    let bounds = vec![(1u64 << 60) - 1; 10];
    let count = count_p_positions(&bounds, &Rules::normal()).unwrap();
    assert_eq!(count, BigUint::from(1u8) << (60 * 9));
    // Take limit 4, bounds q*5 - 1: every remainder 0..=4 equally often (q times), so
    // q^m times the number of remainder tuples with XOR 0.
    let q = 200_000_000_000_000_000u64;
    let bounds = vec![q * 5 - 1; 10];
    let rules = Rules::new(false, TakeLimit::limit(4)).unwrap();
    let mut by_xor = [1u64, 0, 0, 0, 0, 0, 0, 0];
    for _ in 0..10 {
        let mut next = [0u64; 8];
        for (x, &w) in by_xor.iter().enumerate() {
            for r in 0..5 {
                next[x ^ r] += w;
            }
        }
        by_xor = next;
    }
    let expected = BigUint::from(q).pow(10) * BigUint::from(by_xor[0]);
    assert_eq!(count_p_positions(&bounds, &rules).unwrap(), expected);
    // Misère differs from normal play only among positions with every value 0 or 1;
    // here remainders 0 and 1 are equally common, so as many flip each way.
    let misere = Rules::new(true, TakeLimit::limit(4)).unwrap();
    assert_eq!(count_p_positions(&bounds, &misere).unwrap(), expected);
    let near_max = vec![u64::MAX - 3; 10];
    assert!(count_p_positions(&near_max, &Rules::misere()).unwrap() > BigUint::from(0u8));
}

#[test]
fn listing_near_the_top_of_u64() {
    let bounds = [u64::MAX, 3];
    let rows = p_positions(&bounds, &Rules::normal()).unwrap();
    assert_eq!(rows, vec![0, 0, 1, 1, 2, 2, 3, 3]);
    let rules = Rules::new(false, TakeLimit::limit(u64::MAX - 1)).unwrap();
    let rows = p_positions(&[u64::MAX, 1], &rules).unwrap();
    // Grundy of u64::MAX with modulus u64::MAX is 0.
    assert_eq!(rows, vec![0, 0, 1, 1, u64::MAX, 0]);
}
