//! Coin-turning games against retrograde search: every position of a row of up to 10
//! coins under each rule, and every Turning Corners board of up to 4x4 (normal play:
//! the value, and the exact set of winning moves), and the single-coin values against
//! the published sequences.
use crate::against_search;

use against_search::check_against_search;
use nimkit::games::coins::{Coins, Rule, RULES};
use nimkit::games::corners::{Board, Corners};
use nimkit::games::{Game, Value};
use nimkit::nimber::multiply_naive;
use nimkit::search::graph::{self, Explored};
use std::collections::BTreeSet;
use std::sync::Arc;

#[test]
fn every_row_of_ten_coins_under_every_rule() {
    for (name, rule) in RULES {
        let game = Arc::new(Coins::new(rule));
        let mut checked = BTreeSet::new();
        for bits in (0..1u32 << 10).rev() {
            let row: Vec<bool> = (0..10).map(|c| bits >> c & 1 == 1).collect();
            let numbers: Vec<u64> = row.iter().map(|&c| u64::from(c)).collect();
            if !checked.contains(&numbers) {
                check_against_search(Arc::clone(&game), row, &mut checked);
            }
        }
        assert_eq!(checked.len(), 1 << 10);
        assert_eq!(Rule::named(name).unwrap(), rule);
    }
    assert!(Rule::named("turtles").is_err());
    // Mogul's values grow fast: 200 coins need bit sets past 2**22, 60 do not.
    let mogul = Rule::named("mogul").unwrap();
    assert!(mogul.values(200, 1 << 22).is_err());
    assert!(mogul.values(60, 1 << 22).is_ok());
}

#[test]
fn single_coin_values_are_the_published_ones() {
    let first = |name: &str, n: usize| Rule::named(name).unwrap().values(n, 1 << 20).unwrap();
    // Ferguson, Part I, 5.3 (coins numbered from 0 here; Turning Turtles and Ruler
    // number them from 1 there).
    assert_eq!(first("turning_turtles", 6), [1, 2, 3, 4, 5, 6]);
    assert_eq!(first("twins", 6), [0, 1, 2, 3, 4, 5]);
    // Mock Turtles: the odious numbers (OEIS A000069).
    assert_eq!(
        first("mock_turtles", 12),
        [1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22]
    );
    // Ruler: the largest power of 2 dividing n (OEIS A006519).
    assert_eq!(first("ruler", 12), [1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4]);
    // Moebius: Ferguson's table (Winning Ways ch. 14), 18 values then 512.
    assert_eq!(
        first("moebius", 19),
        [1, 2, 4, 8, 16, 31, 32, 64, 103, 128, 171, 213, 256, 301, 342, 439, 475, 494, 512]
    );
    // Mogul: the first values are powers of 2 until seven coins cover them.
    assert_eq!(first("mogul", 9), [1, 2, 4, 8, 16, 32, 64, 127, 128]);
}

#[test]
fn the_mex_agrees_with_each_closed_form() {
    // The named rules with closed forms, valued by the single-coin mex of search.
    for (name, rule) in RULES {
        let game = Arc::new(Coins::new(rule));
        let values = rule.values(14, 1 << 20).unwrap();
        for (x, &v) in values.iter().enumerate() {
            let mut row = vec![false; 14];
            row[x] = true;
            let explored = Explored::explore(
                row,
                1 << 22,
                &mut |p, out| game.options(p, out),
                &mut |_| {},
            )
            .unwrap();
            let searched = graph::values(&explored.graph).unwrap();
            assert_eq!(searched[0], Value::Finite(v), "{name}, coin {x}");
        }
    }
}

#[test]
fn every_turning_corners_board_up_to_4_by_4() {
    for (rows, cols) in [(1, 4), (2, 3), (3, 3), (4, 4)] {
        let game = Arc::new(Corners::default());
        let mut checked = BTreeSet::new();
        for bits in (0..1u32 << (rows * cols)).rev() {
            let cells: Vec<bool> = (0..rows * cols).map(|c| bits >> c & 1 == 1).collect();
            let board = Board { cols, cells };
            if !checked.contains(&game.numbers(&board).unwrap()) {
                check_against_search(Arc::clone(&game), board, &mut checked);
            }
        }
        assert_eq!(checked.len(), 1 << (rows * cols));
    }
}

#[test]
fn turning_corners_coins_are_worth_their_nim_products() {
    // Ferguson 5.4: g(x, y) = x ⊗ y, against Conway's recursive product.
    for x in 0..8 {
        for y in 0..8 {
            let mut cells = vec![false; 64];
            cells[x * 8 + y] = true;
            let board = Board { cols: 8, cells };
            assert_eq!(board.value(), multiply_naive(x as u64, y as u64));
        }
    }
}
