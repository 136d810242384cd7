//! Nimber arithmetic: the table-driven product and the tower inverse against the
//! recursive definitions, and the field laws on random 64-bit nimbers.
use nimkit::nimber::{inverse, inverse_naive, multiply, multiply_naive};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_tables_give_the_recursive_product(a: u64, b: u64) {
        prop_assert_eq!(multiply(a, b), multiply_naive(a, b));
    }

    #[test]
    fn field_laws(a: u64, b: u64, c: u64) {
        prop_assert_eq!(multiply(a, b), multiply(b, a));
        prop_assert_eq!(multiply(multiply(a, b), c), multiply(a, multiply(b, c)));
        prop_assert_eq!(multiply(a, b ^ c), multiply(a, b) ^ multiply(a, c));
        prop_assert_eq!(multiply(a, 1), a);
    }

    #[test]
    fn inverses(a in 1u64..) {
        let inv = inverse(a).unwrap();
        prop_assert_eq!(multiply(a, inv), 1);
        prop_assert_eq!(Some(inv), inverse_naive(a));
    }
}

#[test]
fn zero_has_no_inverse_and_small_subfields_close() {
    assert_eq!(inverse(0), None);
    // The nimbers below 2**(2**k) are a subfield: products and inverses stay inside.
    for k in [1u32, 2, 3, 4] {
        let top = 1u64 << (1 << k);
        for a in (1..top).step_by(((top / 200) as usize).max(1)) {
            assert!(inverse(a).unwrap() < top);
            for b in (0..top).step_by(((top / 50) as usize).max(1)) {
                assert!(multiply(a, b) < top);
            }
        }
    }
}
