//! The engine for games that split (`split`), on games whose values are known
//! another way: heaps under take-and-break codes (a component is a heap, its key its
//! size; a move may split it) against the heap solver, and single Nim heaps (value
//! n), past the search's 64 values.
use nimkit::code::TakeAndBreak;
use nimkit::split::budget::Budget;
use nimkit::split::pruned::{Search, Split};
use nimkit::split::table::Private;
use rustc_hash::FxHashMap;

/// Heaps under a take-and-break code: a second game on the engine, beside the
/// boards. A part is a list of heaps; a component, one heap.
struct Heaps<'a>(&'a TakeAndBreak);

impl Split for Heaps<'_> {
    type Part = Vec<u64>;
    type Key = u64;

    fn key(&self, part: &Vec<u64>) -> u64 {
        part[0]
    }

    fn known(&self, part: &Vec<u64>) -> Option<u32> {
        (!self.0.has_move(part[0])).then_some(0)
    }

    fn options(&mut self, part: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        let n = part[0];
        out.extend(self.0.options(n).map(|m| {
            if m.into.is_split() {
                m.into.sizes().to_vec()
            } else {
                vec![n - m.take]
            }
        }));
    }

    fn split(&mut self, option: &Vec<u64>, parts: &mut Vec<Vec<u64>>) -> u32 {
        let mut heaps = option.clone();
        heaps.sort_unstable();
        // Equal pairs cancel (`Split::split` may leave them out).
        let mut i = 0;
        while i < heaps.len() {
            if i + 1 < heaps.len() && heaps[i] == heaps[i + 1] {
                i += 2;
                continue;
            }
            if self.0.has_move(heaps[i]) {
                parts.push(vec![heaps[i]]);
            }
            i += 1;
        }
        0
    }

    fn size(&self, part: &Vec<u64>) -> u32 {
        part[0] as u32
    }

    fn key_size(&self, key: &u64) -> u32 {
        *key as u32
    }
}

/// A Nim heap of `n`, as one component.
struct Rows;

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
        out.extend(0..*part);
    }

    fn split(&mut self, option: &u32, parts: &mut Vec<u32>) -> u32 {
        parts.extend((*option > 0).then_some(*option));
        0
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

/// Codes that split heaps into two (Kayles, Dawson's Kayles, Dawson's Chess, 0.6)
/// or three (0.007, 0.8), that take any number (4.7), with one table for all the
/// heaps (as a board's values are kept) and a fresh one for each.
#[test]
fn take_and_break_heaps_equal_the_heap_solver() {
    for (code, most) in [
        ("0.77", 120),
        ("0.07", 120),
        ("0.137", 120),
        ("0.6", 80),
        ("0.007", 60),
        ("0.8", 60),
        ("4.7", 60),
    ] {
        let rules = TakeAndBreak::parse(code).unwrap();
        rules.ensure(most).unwrap();
        let mut shared = FxHashMap::default();
        for n in 0..most {
            let expected = rules.grundy(n);
            let mut game = Heaps(&rules);
            let found = heap_value(&mut game, n, &mut shared);
            assert_eq!(found, Some(expected), "{code}: heap {n}");
            if n < 40 {
                let mut own = FxHashMap::default();
                let alone = heap_value(&mut game, n, &mut own);
                assert_eq!(alone, Some(expected), "{code}: heap {n} alone");
            }
        }
    }
}

fn heap_value(game: &mut Heaps, n: u64, table: &mut FxHashMap<u64, u32>) -> Option<u32> {
    let mut table = Private::new(table).unwrap();
    let mut search = Search::new(game, &mut table, Budget::default(), &|_| {}).unwrap();
    search.value(&vec![n]).unwrap().ok()
}

#[test]
fn values_past_64_give_up_for_the_plain_search() {
    let mut game = Rows;
    let mut table = FxHashMap::default();
    for n in 0..64 {
        assert_eq!(value(&mut game, n, &mut table), Some(n));
    }
    // 64 options with the values 0..=63: the value is the number of options.
    assert_eq!(value(&mut game, 64, &mut FxHashMap::default()), Some(64));
    assert_eq!(value(&mut game, 65, &mut FxHashMap::default()), None);
    assert_eq!(value(&mut game, 200, &mut table), None);
}
