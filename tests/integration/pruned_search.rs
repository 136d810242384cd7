//! The pruned value search (`games::pruned`) on games whose values are known another
//! way: Kayles (`0.77`, a move takes one pin or two neighbours and may split the row)
//! against the take-and-break engine, and single Nim heaps (value n), past the
//! search's 64 values.
use nimkit::code::TakeAndBreak;
use nimkit::games::budget::Budget;
use nimkit::games::pruned::{Search, Split};
use nimkit::games::values::Private;
use rustc_hash::FxHashMap;

/// A row of `n` pins (Kayles) or a Nim heap of `n`, as one component.
struct Rows {
    kayles: bool,
}

impl Split for Rows {
    type Part = u32;
    type Key = u32;

    fn key(&self, part: &u32) -> u32 {
        *part
    }

    fn known(&self, part: &u32) -> Option<u32> {
        (*part == 0).then_some(0)
    }

    fn options(&mut self, part: &u32, out: &mut Vec<u32>) {
        let n = *part;
        if !self.kayles {
            out.extend(0..n);
            return;
        }
        // Option `a * 1000 + b`: rows of a and b pins left.
        for take in 1..=2.min(n) {
            for a in 0..=(n - take) / 2 {
                out.push(a * 1000 + (n - take - a));
            }
        }
    }

    fn split(&mut self, option: &u32, parts: &mut Vec<u32>) -> u32 {
        if !self.kayles {
            parts.extend((*option > 0).then_some(*option));
            return 0;
        }
        let (a, b) = (option / 1000, option % 1000);
        let mut known = 0;
        if a != b {
            // A row of one pin has one move: value 1, known at a glance.
            for row in [a, b] {
                match row {
                    0 => {}
                    1 => known ^= 1,
                    _ => parts.push(row),
                }
            }
        }
        known
    }

    fn size(&self, part: &u32) -> u32 {
        *part
    }

    fn key_size(&self, key: &u32) -> u32 {
        *key
    }
}

fn value(game: &mut Rows, n: u32, table: &mut FxHashMap<u32, u32>) -> Option<u32> {
    let mut table = Private::new(table).unwrap();
    let mut search = Search::new(game, &mut table, Budget::default(), &|_| {}).unwrap();
    // Err(Wide): a value of 64 or more came up.
    search.value(&n).unwrap().ok()
}

#[test]
fn kayles_rows_equal_the_take_and_break_engine() {
    let code = TakeAndBreak::parse("0.77").unwrap();
    code.ensure(120).unwrap();
    // One table for all the rows (as a board's values are kept), and a fresh one for
    // each (every row searched from nothing).
    let mut shared = FxHashMap::default();
    for n in 0..120 {
        let expected = code.grundy(u64::from(n));
        let mut game = Rows { kayles: true };
        assert_eq!(value(&mut game, n, &mut shared), Some(expected), "{n}");
        if n < 60 {
            let mut own = FxHashMap::default();
            assert_eq!(value(&mut game, n, &mut own), Some(expected), "{n} alone");
        }
    }
}

#[test]
fn values_past_64_give_up_for_the_plain_search() {
    let mut game = Rows { kayles: false };
    let mut table = FxHashMap::default();
    for n in 0..64 {
        assert_eq!(value(&mut game, n, &mut table), Some(n));
    }
    // 64 options with the values 0..=63: the value is the number of options.
    assert_eq!(value(&mut game, 64, &mut FxHashMap::default()), Some(64));
    assert_eq!(value(&mut game, 65, &mut FxHashMap::default()), None);
    assert_eq!(value(&mut game, 200, &mut table), None);
}
