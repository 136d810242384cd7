//! The least value not among some (the minimum excludant), the rule every Grundy
//! value follows: written once, for values marked in a bitset and for values listed.

/// The least bit clear in `seen`'s words (bit `v % 64` of word `v / 64` for the
/// value `v`): the first past them all if every bit is set.
pub fn of_bits(seen: impl IntoIterator<Item = u64>) -> u32 {
    let mut m = 0;
    for word in seen {
        if word != u64::MAX {
            return m + word.trailing_ones();
        }
        m += 64;
    }
    m
}

/// The least value at or past `from` not in `values` (sorted in place), for a list
/// of the values past what a bitset of the values below `from` holds.
pub fn of_list(values: &mut [u32], from: u32) -> u32 {
    values.sort_unstable();
    let mut m = from;
    for &v in values.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

/// The least value not in `values`: by a bit mask while they are below 128 (they
/// mostly are), else by sorting them.
pub fn of_values(values: impl IntoIterator<Item = u32> + Clone) -> u32 {
    let mut mask = 0u128;
    for v in values.clone() {
        if v >= 128 {
            let mut all: Vec<u32> = values.into_iter().collect();
            return of_list(&mut all, 0);
        }
        mask |= 1 << v;
    }
    (!mask).trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_value_missing() {
        assert_eq!(of_values([]), 0);
        assert_eq!(of_values([1, 0, 3]), 2);
        assert_eq!(of_values(0..128), 128);
        assert_eq!(of_values([0, 1, 200]), 2);
        assert_eq!(of_values((0..130).rev()), 130);
        assert_eq!(of_values([0, 0, 1, 1, 300, 2]), 3);
        assert_eq!(of_bits([]), 0);
        assert_eq!(of_bits([u64::MAX, 0b1011]), 66);
        assert_eq!(of_bits([u64::MAX; 2]), 128);
        assert_eq!(of_list(&mut [258, 256, 257, 257, 300], 256), 259);
        assert_eq!(of_list(&mut [3, 1], 0), 0);
    }

    /// The three agree with the definition on every set of values below 10.
    #[test]
    fn every_way_agrees_with_the_definition() {
        for set in 0u32..1 << 10 {
            let values: Vec<u32> = (0..10).filter(|v| set >> v & 1 == 1).collect();
            let expected = (0..).find(|v| !values.contains(v)).unwrap();
            assert_eq!(of_values(values.iter().copied()), expected);
            assert_eq!(of_bits([u64::from(set)]), expected);
            assert_eq!(of_list(&mut values.clone(), 0), expected);
        }
    }
}
