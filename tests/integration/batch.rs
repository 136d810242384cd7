//! The batch kernels against the closed forms, position by position, over dtypes,
//! layouts (C, Fortran, strided, 3-D) and every rule family.
use ndarray::{Array, ArrayD, IxDyn, ShapeBuilder};
use nimkit::batch::{self, HeapInt, UInt};
use nimkit::error::Error;
use nimkit::outcome::Outcome;
use std::sync::Arc;

use nimkit::heap::HeapRule;
use nimkit::rules::{Rules, TakeLimit};
use nimkit::solver::DEFAULT_MAX_POSITIONS as LIMIT;
use nimkit::subtraction::{GrundySequence, SubtractionSet};
use nimkit::theory;

fn all_rules(heaps: usize) -> Vec<Rules> {
    let limits = [
        TakeLimit::default(),
        TakeLimit::limit(1),
        TakeLimit::limit(4),
        TakeLimit::limit(200),
        // Past 2^32: no 32-bit remainders (`batch::wide`).
        TakeLimit::limit(1 << 33),
        TakeLimit::limit(u64::MAX),
        TakeLimit::per_heap((0..heaps).map(|i| [Some(3), None, Some(6)][i % 3])),
        // {1, 2, 3} as a set: closed forms in misère play too.
        TakeLimit::Uniform(HeapRule::Set(set(&[1, 2, 3]))),
    ];
    let mut rules: Vec<Rules> = limits
        .into_iter()
        .flat_map(|l| [false, true].map(|m| Rules::new(m, l.clone()).unwrap()))
        .collect();
    // General sets in normal play (in misère play they need search: tests/integration/subtraction.rs).
    let mixed = (0..heaps).map(|i| match i % 3 {
        0 => HeapRule::Set(set(&[2, 5, 7])),
        1 => HeapRule::Limit(4),
        _ => HeapRule::Nim,
    });
    rules.push(Rules::new(false, TakeLimit::Uniform(HeapRule::Set(set(&[1, 3, 4])))).unwrap());
    rules.push(Rules::new(false, TakeLimit::per_heap(mixed)).unwrap());
    rules
}

fn set(elements: &[u64]) -> Arc<GrundySequence> {
    let set = SubtractionSet::new(elements.to_vec()).unwrap();
    Arc::new(GrundySequence::find(set, 1 << 20).unwrap())
}

/// Deterministic pseudo-random heaps in 0..range, small values common.
fn values(count: usize, range: u64) -> Vec<u64> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..count)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state.is_multiple_of(3) {
                state % 4
            } else {
                state % range
            }
        })
        .collect()
}

fn check<T: HeapInt + TryFrom<u64>>(heaps: ndarray::ArrayViewD<'_, T>, rules: &Rules)
where
    <T as TryFrom<u64>>::Error: std::fmt::Debug,
{
    let lead = &heaps.shape()[..heaps.ndim() - 1];
    let mut sums = ArrayD::<u64>::zeros(IxDyn(lead));
    let mut p = ArrayD::<bool>::from_elem(IxDyn(lead), false);
    let mut heap = ArrayD::<i64>::zeros(IxDyn(lead));
    let mut take = ArrayD::<u64>::zeros(IxDyn(lead));
    let mut count = ArrayD::<i64>::zeros(IxDyn(lead));
    batch::nim_sum(heaps.view(), rules, sums.view_mut()).unwrap();
    batch::is_p_position(heaps.view(), rules, LIMIT, p.view_mut()).unwrap();
    batch::winning_move(heaps.view(), rules, LIMIT, heap.view_mut(), take.view_mut()).unwrap();
    batch::count_winning_moves(heaps.view(), rules, LIMIT, count.view_mut()).unwrap();
    fn flat<V: Copy>(v: &ArrayD<V>) -> Vec<V> {
        v.iter().copied().collect()
    }
    let (sums, p, heap, take, count) = (
        flat(&sums),
        flat(&p),
        flat(&heap),
        flat(&take),
        flat(&count),
    );
    let last = ndarray::Axis(heaps.ndim() - 1);
    for (i, lane) in heaps.lanes(last).into_iter().enumerate() {
        let row: Vec<u64> = lane.iter().map(|&v| v.unsigned().to_u64()).collect();
        let a = theory::analyse(&row, rules).unwrap();
        assert_eq!(sums[i], a.nim_sum, "{row:?} {rules:?}");
        assert_eq!(p[i], a.outcome == Outcome::P, "{row:?} {rules:?}");
        assert_eq!(count[i], a.winning_moves.len() as i64, "{row:?} {rules:?}");
        let first = a
            .winning_moves
            .first()
            .map_or((-1, 0), |m| (m.heap as i64, m.take));
        assert_eq!((heap[i], take[i]), first, "{row:?} {rules:?}");
    }
}

fn layouts<T: HeapInt + TryFrom<u64>>(range: u64)
where
    <T as TryFrom<u64>>::Error: std::fmt::Debug,
{
    for m in [0, 1, 2, 3, 4, 5, 8, 9] {
        let data: Vec<T> = values(300 * m, range)
            .into_iter()
            .map(|v| T::try_from(v).unwrap())
            .collect();
        let c = Array::from_shape_vec((300, m), data.clone())
            .unwrap()
            .into_dyn();
        let f = Array::from_shape_vec((300, m).f(), data.clone())
            .unwrap()
            .into_dyn();
        let cube = Array::from_shape_vec((10, 30, m), data).unwrap().into_dyn();
        for rules in all_rules(m) {
            check(c.view(), &rules);
            check(f.view(), &rules);
            check(cube.view(), &rules);
            check(c.slice(ndarray::s![..;3, ..;-1]).into_dyn(), &rules);
        }
    }
}

/// One type of each way of taking remainders: vectorised 8-bit Lemire, and 64-bit
/// strength-reduced or (below 2^52, with AVX-512) vector remainders; and a signed
/// type. `tests/python/test_batch.py` runs every numpy integer type through the same
/// kernels (each type instantiates every kernel again: compile time).
#[test]
fn integer_types() {
    layouts::<u8>(256);
    layouts::<u64>(u64::MAX);
    layouts::<u64>(1 << 40);
    layouts::<i32>(1 << 31);
}

#[test]
fn strided_views_are_read_in_place() {
    let heaps = Array::from_shape_fn((50, 7), |(i, j)| (i * 7 + j) as u32);
    let view = heaps.slice(ndarray::s![..;2, 1..;2]).into_dyn();
    let mut out = ArrayD::<u64>::zeros(IxDyn(&[25]));
    batch::nim_sum(view.clone(), &Rules::normal(), out.view_mut()).unwrap();
    for (i, lane) in view.outer_iter().enumerate() {
        assert_eq!(out[[i]], lane.iter().fold(0, |s, &v| s ^ u64::from(v)));
    }
}

#[test]
fn negative_heaps_name_the_first_bad_position() {
    let heaps = Array::from_shape_vec((2, 2, 3), vec![1i16, 2, 3, 4, 5, 6, 7, 8, -9, 1, 1, -1])
        .unwrap()
        .into_dyn();
    let mut out = ArrayD::<bool>::from_elem(IxDyn(&[2, 2]), false);
    let err =
        batch::is_p_position(heaps.view(), &Rules::normal(), LIMIT, out.view_mut()).unwrap_err();
    assert_eq!(
        err,
        Error::NegativeHeap {
            position: vec![1, 0],
            heap: 2,
            value: -9
        }
    );
    assert_eq!(
        err.to_string(),
        "position [1, 0] has a negative heap: heap 2 is -9"
    );
}

#[test]
fn shapes_are_checked() {
    let heaps = ArrayD::<u8>::zeros(IxDyn(&[4, 3]));
    let mut wrong = ArrayD::<u64>::zeros(IxDyn(&[3]));
    let err = batch::nim_sum(heaps.view(), &Rules::normal(), wrong.view_mut()).unwrap_err();
    assert_eq!(
        err,
        Error::OutShape {
            expected: vec![4],
            got: vec![3]
        }
    );
    let per_heap = Rules::new(false, TakeLimit::per_heap([Some(1), None])).unwrap();
    let mut out = ArrayD::<u64>::zeros(IxDyn(&[4]));
    let err = batch::nim_sum(heaps.view(), &per_heap, out.view_mut()).unwrap_err();
    assert_eq!(
        err,
        Error::LimitCount {
            limits: 2,
            heaps: 3
        }
    );
    let scalar = ArrayD::<u8>::zeros(IxDyn(&[]));
    let mut out = ArrayD::<u64>::zeros(IxDyn(&[]));
    let err = batch::nim_sum(scalar.view(), &Rules::normal(), out.view_mut()).unwrap_err();
    assert_eq!(err, Error::NoHeapAxis);
}
