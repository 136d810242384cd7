//! Validation of rules and moves, and the legal-move generator.
use nimkit::error::Error;
use nimkit::position::{check_move, Move, Position};
use nimkit::rules::{Rules, TakeLimit};

#[test]
fn take_limits_must_be_positive() {
    assert_eq!(
        Rules::new(false, TakeLimit::limit(0)),
        Err(Error::ZeroTakeLimit { heap: None })
    );
    assert_eq!(
        Rules::new(true, TakeLimit::per_heap([Some(2), None, Some(0)])),
        Err(Error::ZeroTakeLimit { heap: Some(2) })
    );
    assert!(Rules::new(false, TakeLimit::limit(u64::MAX)).is_ok());
}

#[test]
fn per_heap_limits_come_one_per_heap() {
    let rules = Rules::new(false, TakeLimit::per_heap([Some(2), None])).unwrap();
    let err = nimkit::theory::outcome(&[1, 2, 3], &rules).unwrap_err();
    assert_eq!(
        err,
        Error::LimitCount {
            limits: 2,
            heaps: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "2 per-heap take limits given for 3 heaps; give one per heap"
    );
}

#[test]
fn illegal_moves_say_why() {
    let rules = Rules::new(false, TakeLimit::limit(3)).unwrap();
    let heaps = [5, 2];
    let cases = [
        (Move::new(2, 1), Error::NoSuchHeap { heap: 2, heaps: 2 }),
        (Move::new(0, 0), Error::TakeNothing),
        (
            Move::new(1, 3),
            Error::TakeTooMany {
                heap: 1,
                take: 3,
                size: 2,
            },
        ),
        (
            Move::new(0, 4),
            Error::OverLimit {
                heap: 0,
                take: 4,
                limit: 3,
            },
        ),
    ];
    for (mv, expected) in cases {
        let err = check_move(&heaps, mv, &rules).unwrap_err();
        assert!(err.is_illegal_move());
        assert_eq!(err, expected);
    }
    assert_eq!(
        Position::new(vec![5, 2])
            .after(Move::new(0, 3), &rules)
            .unwrap(),
        Position::new(vec![2, 2])
    );
}

#[test]
fn moves_are_listed_and_counted() {
    let rules = Rules::new(false, TakeLimit::per_heap([Some(2), None])).unwrap();
    let position = Position::new(vec![3, 2]);
    let moves: Vec<Move> = position.moves(&rules).unwrap().collect();
    assert_eq!(
        moves,
        [
            Move::new(0, 1),
            Move::new(0, 2),
            Move::new(1, 1),
            Move::new(1, 2)
        ]
    );
    assert_eq!(position.count_moves(&rules).unwrap(), 4);
    let huge = Position::new(vec![u64::MAX, u64::MAX]);
    assert_eq!(
        huge.count_moves(&Rules::normal()).unwrap(),
        2 * u128::from(u64::MAX)
    );
}

#[test]
fn box_too_large_is_refused() {
    let err =
        nimkit::search::BoxSolution::solve(&[99, 99, 99], &Rules::normal(), 1000).unwrap_err();
    assert_eq!(
        err,
        Error::BoxTooLarge {
            positions: 1_000_000,
            limit: 1000
        }
    );
}
