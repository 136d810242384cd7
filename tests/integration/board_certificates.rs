//! Certificates of board values (`Deletion::certificate`): the value the search
//! finds, and every fact in them true, against the boards' own search (end-game
//! databases, reductions and all) on the same shapes.
use nimkit::games::board::graph::Deletion;
use nimkit::games::board::kinds::Moves;
use nimkit::split::budget::Budget;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

#[test]
fn certificates_hold_the_value_and_true_facts() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut facts = 0;
    // One to four words of bitboard, boards upright and lying.
    for (rows, cols) in [(4, 6), (6, 4), (5, 13), (3, 40), (9, 9), (16, 16)] {
        for moves in [Moves::Edge, Moves::Neighbourhood] {
            let board = Deletion::board(rows, cols, moves).unwrap();
            for _ in 0..4 {
                let p = rng.random_range(0.55..0.8);
                let cells: Vec<u64> = (0..(rows * cols) as u64)
                    .filter(|_| rng.random_bool(p))
                    .take(26)
                    .collect();
                let set = board.set_of(cells.iter().copied()).unwrap();
                let proved = board
                    .certificate(&set, Budget::default(), &|_| {})
                    .unwrap()
                    .expect("a board the bitboards take");
                let value = board.value(&set, Budget::default(), &|_| {}).unwrap();
                assert_eq!(u64::from(proved.value), value, "{rows} x {cols} {cells:?}");
                assert_eq!(proved.position.len(), cells.len());
                assert!(proved.rows <= proved.cols);
                facts += proved.facts.len();
                let laid = Deletion::board(proved.rows, proved.cols, moves).unwrap();
                for fact in &proved.facts {
                    let shape = laid
                        .set_of(fact.cells.iter().map(|&c| u64::from(c)))
                        .unwrap();
                    let v = laid.value(&shape, Budget::default(), &|_| {}).unwrap();
                    if let Some(claimed) = fact.value {
                        assert_eq!(u64::from(claimed), v, "{:?}", fact.cells);
                    }
                    assert!(v >= 64 || fact.not >> v & 1 == 0, "{:?}", fact.cells);
                    assert!(fact.value.is_some() || fact.not != 0);
                }
            }
        }
    }
    assert!(facts > 1000, "{facts} facts: the searches were trivial");
}

/// A graph that is no board takes no certificate.
#[test]
fn only_boards_take_certificates() {
    let path = Deletion::new(
        3,
        &[(0, 1), (1, 2)],
        Moves::Edge,
        nimkit::games::board::kinds::Canon::Labels,
    )
    .unwrap();
    let set = path.set_of([0, 1, 2]).unwrap();
    let found = path.certificate(&set, Budget::default(), &|_| {}).unwrap();
    assert!(found.is_none());
}
