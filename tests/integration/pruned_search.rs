//! The engine for games that split (`split`), on games whose values are known
//! another way: heaps under take-and-break codes (a component is a heap, its key its
//! size; a move may split it) against the heap solver, and single Nim heaps (value
//! n), past the search's 64 values.
use std::sync::{Arc, Mutex};

use nimkit::code::TakeAndBreak;
use nimkit::heap::HeapRule;
use nimkit::outcome::Outcome;
use nimkit::rules::{Rules, TakeLimit};
use nimkit::search::MultisetSolution;
use nimkit::split::budget::Budget;
use nimkit::split::dfpn::{Outcomes, Proofs};
use nimkit::split::misere::{self, Keyed, MisereSplit, Table};
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

/// The proof-number search of couples (`split::dfpn`) on the same heaps: each heap's
/// value, and sums of two or three heaps asked "is your value v?", against the heap
/// solver, with one table for all (what one search learns serves the next) and a
/// fresh one for each sum.
#[test]
fn proof_number_search_equals_the_heap_solver() {
    for (code, most) in [
        ("0.77", 70),
        ("0.07", 70),
        ("0.137", 60),
        ("0.6", 50),
        ("0.007", 40),
        ("4.7", 40),
    ] {
        let rules = TakeAndBreak::parse(code).unwrap();
        rules.ensure(most).unwrap();
        let mut shared = FxHashMap::default();
        for n in 0..most {
            let mut game = Heaps(&rules);
            let found = Outcomes::new(
                &mut game,
                &mut shared,
                &mut Proofs::default(),
                Budget::default(),
                &|_| {},
            )
            .unwrap()
            .value(&[vec![n]])
            .unwrap();
            assert_eq!(found, rules.grundy(n), "{code}: heap {n}");
        }
        for (a, b, c) in [
            (3, 5, 0),
            (most - 1, most / 2, 0),
            (most - 2, 7, 4),
            (11, 11, most - 3),
        ] {
            let parts: Vec<Vec<u64>> = [a, b, c]
                .iter()
                .filter(|&&n| n > 0)
                .map(|&n| vec![n])
                .collect();
            let sum = rules.grundy(a) ^ rules.grundy(b) ^ rules.grundy(c);
            for target in [sum, sum ^ 1, sum ^ 2] {
                let mut own = FxHashMap::default();
                let mut game = Heaps(&rules);
                let is = Outcomes::new(
                    &mut game,
                    &mut own,
                    &mut Proofs::default(),
                    Budget::default(),
                    &|_| {},
                )
                .unwrap()
                .sum_is(&parts, target)
                .unwrap();
                assert_eq!(is, target == sum, "{code}: {a} + {b} + {c} is {target}");
            }
        }
    }
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

/// Heaps under a take-and-break code in misère play, on the engine's misère search:
/// a component is a heap, keyed by its size, or `STAR` if every move empties it of
/// moves (then it is *); searched in the order options come, or by proof numbers.
struct MisereHeaps<'a> {
    code: &'a TakeAndBreak,
    table: Mutex<Table<u64>>,
    proofs: bool,
}

const STAR: u64 = u64::MAX;

impl MisereSplit for MisereHeaps<'_> {
    type Part = Vec<u64>;
    type Key = u64;
    type Scratch = ();

    fn scratch(&self, _size: u32) -> nimkit::error::Result<()> {
        Ok(())
    }

    fn table(&self) -> &Mutex<Table<u64>> {
        &self.table
    }

    fn size(&self, position: &Vec<u64>) -> u32 {
        position.iter().sum::<u64>() as u32
    }

    fn has_move(&self, position: &Vec<u64>) -> bool {
        position.iter().any(|&n| self.code.has_move(n))
    }

    fn keyed(&self, position: &Vec<u64>, _: &mut (), out: &mut Keyed<Vec<u64>, u64>) {
        for &n in position.iter().filter(|&&n| self.code.has_move(n)) {
            let mut options = Vec::new();
            Heaps(self.code).options(&vec![n], &mut options);
            let star = options.iter().all(|o| !self.has_move(o));
            out.push((vec![n], if star { STAR } else { n }));
        }
    }

    fn is_star(&self, key: &u64) -> bool {
        *key == STAR
    }

    fn options(
        &self,
        part: &Vec<u64>,
        _: &mut Self::Scratch,
        _poll: &mut dyn FnMut() -> nimkit::base::error::Result<()>,
    ) -> nimkit::base::error::Result<Vec<Vec<u64>>> {
        let mut out = Vec::new();
        Heaps(self.code).options(part, &mut out);
        Ok(out)
    }

    fn proof_numbers(&self) -> bool {
        self.proofs
    }

    fn key_heap(&self, parts: usize) -> usize {
        parts * 8
    }

    fn bytes(&self, parts: usize) -> usize {
        parts * 32
    }

    fn key_size(&self, key: &[u64]) -> u32 {
        key.iter()
            .map(|&k| if k == STAR { 1 } else { k as u32 })
            .sum()
    }
}

/// The engine's misère search on heaps equals the heap solver's exhaustive search
/// (`MultisetSolution`) on single heaps and on sums of two and three, for codes
/// that split into two and three and whose heaps are * (cancelled in pairs), with
/// one table for all the positions and, in 48 KiB, with eviction
/// (which some codes' tables need); both searches, in the order options come and by
/// proof numbers.
#[test]
fn take_and_break_heaps_in_misere_play_equal_the_heap_solver() {
    for proofs in [false, true] {
        heaps_in_misere_play(proofs);
    }
}

fn heaps_in_misere_play(proofs: bool) {
    let mut evicted = false;
    for (code, most) in [
        ("0.77", 24),
        ("0.07", 24),
        ("0.137", 24),
        ("0.6", 20),
        ("0.007", 18),
        ("4.7", 14),
    ] {
        let rules = TakeAndBreak::parse(code).unwrap();
        let shared = MisereHeaps {
            code: &rules,
            table: Mutex::default(),
            proofs,
        };
        let misere = Rules::new(
            true,
            TakeLimit::Uniform(HeapRule::Code(Arc::new(TakeAndBreak::parse(code).unwrap()))),
        );
        let misere = misere.unwrap();
        let mut positions: Vec<Vec<u64>> = (0..=most).map(|n| vec![n]).collect();
        positions.extend((1..most / 2).flat_map(|a| (a..most / 2).map(move |b| vec![a, b])));
        positions.extend([vec![1, 2, 3], vec![2, 2, 5], vec![3, 4, 5], vec![1, 1, 1]]);
        for heaps in positions {
            let solution = MultisetSolution::solve(&heaps, &misere, u64::MAX).unwrap();
            let expected = solution.outcome(&heaps) == Outcome::N;
            let found = misere::wins(&shared, &heaps, Budget::default(), &|_| {}).unwrap();
            assert_eq!(found, expected, "{code}: {heaps:?}");
            let [alone, bounded] = [0, 1].map(|_| MisereHeaps {
                code: &rules,
                table: Mutex::default(),
                proofs,
            });
            let budget = Budget {
                max_memory: 48 << 10,
                evict: true,
                ..Budget::default()
            };
            let found = misere::wins(&bounded, &heaps, budget, &|_| {}).unwrap();
            assert_eq!(found, expected, "{code}: {heaps:?} in 48 KiB");
            misere::wins(&alone, &heaps, Budget::default(), &|_| {}).unwrap();
            let size = |game: &MisereHeaps| game.table.lock().unwrap().len();
            evicted |= size(&bounded) < size(&alone);
        }
    }
    assert!(evicted, "48 KiB held every table");
}
