//! Batch kernels: many positions at once, read in place from any integer type and any
//! layout, split over all cores with rayon.
//!
//! An input is an n-dimensional view whose last axis holds the heaps of one position;
//! every output has the leading shape. C-contiguous inputs take slice fast paths
//! (specialised for common heap counts so that the compiler vectorises them); every
//! other layout goes through ndarray's parallel `Zip` over lanes. Results never
//! depend on the thread count: each position is computed on its own.
pub mod agent_board;
mod byte_rows;
mod caps;
pub mod code_game;
pub mod env_game;
pub mod envs;
mod first_move;
mod grundy;
mod ints;
mod layout;
pub mod learn;
mod lemire;
mod narrow;
pub mod start;
pub mod table_game;
mod wide;

use ndarray::{ArrayViewD, ArrayViewMutD, Axis, Dimension, Zip};
use rayon::prelude::*;
use smallvec::SmallVec;

use self::grundy::{fold, Grundy, NoLimit, PerHeap, Uniform};
pub use self::ints::{HeapInt, UInt};
use self::layout::{for_blocks, map_positions, with_row, CHUNK};
pub use self::lemire::{Mod16, Mod8};
use crate::base::error::{Error, Result};
use crate::base::outcome::Outcome;
use crate::heap::code::Scan;
use crate::heap::rules::Rules;
use crate::heap::{limit, HeapRule};
use crate::solve::solver::Solver;
use crate::solve::theory;

/// XOR of the Grundy values of every position.
pub fn nim_sum<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    out: ArrayViewMutD<'_, u64>,
) -> Result<()> {
    let shape = out.shape().to_vec();
    let finish = |x: T::U, _| x.to_u64();
    dispatch(
        &heaps.clone(),
        rules,
        &[&shape],
        Summary { heaps, out, finish },
    )
}

/// Whether the player to move loses, for every position. Rules with no closed form
/// (misère play of subtraction sets) search the box spanned by the largest heap of
/// each column, refusing one of more than `max_positions` positions.
pub fn is_p_position<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    max_positions: u64,
    mut out: ArrayViewMutD<'_, bool>,
) -> Result<()> {
    let shape = out.shape().to_vec();
    if let Some(solver) = searched(&heaps, rules, &[&shape], max_positions)? {
        map_positions(&heaps, &mut out, |row| {
            with_u64s(row, |row| solver.outcome(row) == Outcome::P)
        });
        return Ok(());
    }
    // Misère play as a constant, so that normal play's kernels compute no OR.
    let input = heaps.clone();
    if rules.is_misere() {
        let finish = is_p_from::<T::U, true>;
        dispatch(&input, rules, &[&shape], Summary { heaps, out, finish })
    } else {
        let finish = is_p_from::<T::U, false>;
        dispatch(&input, rules, &[&shape], Summary { heaps, out, finish })
    }
}

/// Whether a position is P from the XOR and the OR of its Grundy values.
#[inline(always)]
fn is_p_from<U: UInt, const MISERE: bool>(x: U, or: U) -> bool {
    theory::is_p(x.to_u64(), or > U::ONE, MISERE)
}

/// For every position, its first winning move (lowest heap, then smallest take): the
/// heap index, or -1 where there is none, and how many to take (0 where there is
/// none). Searches like `is_p_position` where the rules need it.
pub fn winning_move<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    max_positions: u64,
    heap_out: ArrayViewMutD<'_, i64>,
    take_out: ArrayViewMutD<'_, u64>,
) -> Result<()> {
    let shapes = [heap_out.shape().to_vec(), take_out.shape().to_vec()];
    if rules.splits() {
        return Err(Error::NotForSplits(
            "winning_move, which returns no parts (use winning_split)",
        ));
    }
    if let Some(solver) = searched(&heaps, rules, &[&shapes[0], &shapes[1]], max_positions)? {
        let last = Axis(heaps.ndim() - 1);
        Zip::from(heap_out)
            .and(take_out)
            .and(heaps.lanes(last))
            .par_for_each(|heap, take, lane| {
                let first = with_row(&lane, |row| {
                    with_u64s(row, |row| {
                        solver
                            .winning_moves_by_class(row, Scan::First)
                            .first()
                            .copied()
                    })
                });
                (*heap, *take) = first.map_or((-1, 0), |mv| (mv.heap as i64, mv.take));
            });
        return Ok(());
    }
    let kernel = FirstMove {
        heaps: heaps.clone(),
        rules,
        heap_out,
        take_out,
    };
    dispatch(&heaps, rules, &[&shapes[0], &shapes[1]], kernel)
}

/// For every position, its first winning move with the parts a split leaves: like
/// `winning_move`, and `into_out` (the leading shape and 3) holds the parts, zeros
/// after the last (all zeros for a move that does not split). Rules that split heaps
/// go through each position's analysis, not a specialised kernel.
pub fn winning_split<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    max_positions: u64,
    heap_out: ArrayViewMutD<'_, i64>,
    take_out: ArrayViewMutD<'_, u64>,
    mut into_out: ArrayViewMutD<'_, u64>,
) -> Result<()> {
    let shapes = [heap_out.shape().to_vec(), take_out.shape().to_vec()];
    let solver = searched(&heaps, rules, &[&shapes[0], &shapes[1]], max_positions)?;
    check(&heaps, rules, &[&shapes[0], &shapes[1]])?;
    check_scan(&heaps, rules, Rules::check_scan_by_class_up_to)?;
    let mut expected = shapes[0].clone();
    expected.push(3);
    if into_out.shape() != expected.as_slice() {
        return Err(Error::OutShape {
            expected,
            got: into_out.shape().to_vec(),
        });
    }
    let (last, into_last) = (Axis(heaps.ndim() - 1), Axis(into_out.ndim() - 1));
    Zip::from(heap_out)
        .and(take_out)
        .and(into_out.lanes_mut(into_last))
        .and(heaps.lanes(last))
        .par_for_each(|heap, take, mut into, lane| {
            let first = with_row(&lane, |row| {
                with_u64s(row, |row| match &solver {
                    Some(solver) => solver
                        .winning_moves_by_class(row, Scan::First)
                        .first()
                        .copied(),
                    None => theory::analyse_by_class(row, rules, Scan::First)
                        .ok()
                        .and_then(|a| a.winning_moves.first().copied()),
                })
            });
            (*heap, *take) = first.map_or((-1, 0), |mv| (mv.heap as i64, mv.take));
            into.fill(0);
            let parts = first.map(|mv| mv.into).unwrap_or_default();
            for (slot, &part) in into.iter_mut().zip(parts.sizes()) {
                *slot = part;
            }
        });
    Ok(())
}

/// For every position, how many winning moves it has (at most one per heap, except
/// with subtraction sets). Searches like `is_p_position` where the rules need it.
pub fn count_winning_moves<T: HeapInt>(
    heaps: ArrayViewD<'_, T>,
    rules: &Rules,
    max_positions: u64,
    mut out: ArrayViewMutD<'_, i64>,
) -> Result<()> {
    let shape = out.shape().to_vec();
    if let Some(solver) = searched(&heaps, rules, &[&shape], max_positions)? {
        // A count needs every winning move: no classes.
        check_scan(&heaps, rules, Rules::check_scan_up_to)?;
        map_positions(&heaps, &mut out, |row| {
            with_u64s(row, |row| {
                solver.winning_moves_by_class(row, Scan::Every).len() as i64
            })
        });
        return Ok(());
    }
    check_scan(&heaps, rules, Rules::check_scan_up_to)?;
    let kernel = CountMoves {
        heaps: heaps.clone(),
        rules,
        out,
    };
    dispatch(&heaps, rules, &[&shape], kernel)
}

/// A kernel, generic over the Grundy strategy (a closure cannot be).
trait Kernel<T: HeapInt> {
    fn run<G: Grundy<T::U>>(self, g: &G);
}

/// For rules with no closed form: check the input, then solve the box spanned by the
/// largest heap of each column. `None` when the closed forms apply.
fn searched<T: HeapInt>(
    heaps: &ArrayViewD<'_, T>,
    rules: &Rules,
    out_shapes: &[&[usize]],
    max_positions: u64,
) -> Result<Option<Solver>> {
    if rules.has_closed_form() {
        return Ok(None);
    }
    check(heaps, rules, out_shapes)?;
    let last = Axis(heaps.ndim() - 1);
    if rules.splits() {
        // Rows that split need not lie in the box spanned by the others: one search
        // from every row.
        let largest = heaps
            .iter()
            .map(|v| v.unsigned().to_u64())
            .max()
            .unwrap_or(0);
        let rows = heaps
            .lanes(last)
            .into_iter()
            .map(|lane| lane.iter().map(|v| v.unsigned().to_u64()).collect());
        return Solver::for_positions(rows, largest, rules, max_positions).map(Some);
    }
    let m = heaps.shape().last().copied().unwrap_or(0);
    let mut bounds = vec![0u64; m];
    for (i, bound) in bounds.iter_mut().enumerate() {
        let column = heaps.index_axis(last, i);
        *bound = column
            .into_par_iter()
            .map(|v| v.unsigned().to_u64())
            .max()
            .unwrap_or(0);
    }
    Solver::new(&bounds, rules, max_positions).map(Some)
}

/// Run `f` on a row as u64 heap sizes.
#[inline]
fn with_u64s<T: HeapInt, R>(row: &[T], f: impl FnOnce(&[u64]) -> R) -> R {
    let row: SmallVec<[u64; 16]> = row.iter().map(|v| v.unsigned().to_u64()).collect();
    f(&row)
}

/// Check the heap axis, the rules, the output shapes and the signs.
fn check<T: HeapInt>(
    heaps: &ArrayViewD<'_, T>,
    rules: &Rules,
    out_shapes: &[&[usize]],
) -> Result<()> {
    let (&m, lead) = heaps.shape().split_last().ok_or(Error::NoHeapAxis)?;
    rules.check_heaps(m)?;
    if rules.has_code() {
        // Every heap's Grundy value must be within reach before the kernels run.
        check_signs(heaps)?;
        let top = heaps
            .view()
            .into_par_iter()
            .map(|v| v.unsigned().to_u64())
            .max();
        rules.check_heaps_up_to(top.unwrap_or(0))?;
    }
    for &shape in out_shapes {
        if shape != lead {
            return Err(Error::OutShape {
                expected: lead.to_vec(),
                got: shape.to_vec(),
            });
        }
    }
    check_signs(heaps)
}

/// For codes: refuse heaps whose options are too many to search for winning moves
/// (`check`: every move, or the first by classes).
fn check_scan<T: HeapInt>(
    heaps: &ArrayViewD<'_, T>,
    rules: &Rules,
    check: fn(&Rules, u64) -> Result<()>,
) -> Result<()> {
    if !rules.has_code() {
        return Ok(());
    }
    let top = heaps
        .view()
        .into_par_iter()
        .map(|v| v.unsigned().to_u64())
        .max();
    check(rules, top.unwrap_or(0))
}

/// Check the input, then run `kernel` with the right Grundy strategy.
fn dispatch<T: HeapInt>(
    heaps: &ArrayViewD<'_, T>,
    rules: &Rules,
    out_shapes: &[&[usize]],
    kernel: impl Kernel<T>,
) -> Result<()> {
    check(heaps, rules, out_shapes)?;
    let m = heaps.shape().last().copied().unwrap_or(0);
    // Takes 1..k for every heap: remainders by k + 1 (none past the type's range).
    match rules.uniform().and_then(HeapRule::interval) {
        Some(k) => match T::U::modulus(k) {
            Some(modulus) => kernel.run(&Uniform::<T::U>(modulus)),
            None => kernel.run(&NoLimit),
        },
        None => kernel.run(&PerHeap::<T::U>::new(rules, m)),
    }
    Ok(())
}

/// Signed input: refuse negative heaps, naming the first bad position.
fn check_signs<T: HeapInt>(heaps: &ArrayViewD<'_, T>) -> Result<()> {
    if !T::SIGNED || !heaps.view().into_par_iter().any(|v| v.is_negative()) {
        return Ok(());
    }
    let (index, value) = heaps
        .indexed_iter()
        .find(|(_, v)| v.is_negative())
        .expect("a negative value was seen");
    let mut position = index.slice().to_vec();
    let heap = position.pop().expect("the heap axis exists");
    Err(Error::NegativeHeap {
        position,
        heap,
        value: value.to_i128(),
    })
}

/// The summary kernels (nim-sum, P or not): `finish` turns a position's XOR and OR
/// of Grundy values into its output.
struct Summary<'a, 'b, T, O, F> {
    heaps: ArrayViewD<'a, T>,
    out: ArrayViewMutD<'b, O>,
    finish: F,
}

impl<T, O, F> Kernel<T> for Summary<'_, '_, T, O, F>
where
    T: HeapInt,
    O: Send,
    F: Fn(T::U, T::U) -> O + Sync,
{
    fn run<G: Grundy<T::U>>(self, g: &G) {
        let Summary {
            heaps,
            mut out,
            finish,
        } = self;
        let m = heaps.shape().last().copied().unwrap_or(0);
        if let (Some(input), Some(output)) = (heaps.as_slice(), out.as_slice_mut()) {
            with_fixed_m!(m, M => {
                // Inlined into for_blocks' AVX2 copy, or the fold is compiled for SSE2.
                return for_blocks::<T, O, _, M>(
                    input,
                    output,
                    #[inline(always)]
                    |rows, outs| g.summarize(rows, outs, &finish),
                );
            });
        }
        map_positions(&heaps, &mut out, |row| {
            let (x, or) = fold(row, g);
            finish(x, or)
        });
    }
}

/// For each heap of one position, in decreasing order, its winning moves' takes, from
/// the closed forms of theory.rs: `visit(heap, None)` for a heap with none, else
/// `visit(heap, Some(take))` per move, largest take first. Every heap is visited, so
/// that callers can select without branching (random positions make those branches
/// unpredictable).
#[inline(always)]
fn for_each_heap_move<T: HeapInt, G: Grundy<T::U>>(
    row: &[T],
    g: &G,
    takes: &[&HeapRule],
    misere: bool,
    mut visit: impl FnMut(usize, Option<u64>),
) {
    let (mut x, mut big) = (0u64, 0usize);
    for (i, &n) in row.iter().enumerate() {
        let v = g.grundy(i, n.unsigned()).to_u64();
        x ^= v;
        big += usize::from(v > 1);
    }
    for (i, &n) in row.iter().enumerate().rev() {
        let v = g.grundy(i, n.unsigned()).to_u64();
        let target = theory::target_grundy(x ^ v, big > usize::from(v > 1), misere);
        let n = n.unsigned().to_u64();
        match takes[i].interval() {
            // Takes 1..k: at most one move, in O(1).
            Some(k) => visit(i, limit::take_from(n, v, k.checked_add(1), target)),
            None => {
                let found: SmallVec<[u64; 8]> = takes[i]
                    .to_grundy(n, target, Scan::Every)
                    .map(|option| option.take)
                    .collect();
                if found.is_empty() {
                    visit(i, None);
                }
                for &take in found.iter().rev() {
                    visit(i, Some(take));
                }
            }
        }
    }
}

/// What one turn may take from each heap.
fn takes(rules: &Rules, heaps: usize) -> Vec<&HeapRule> {
    (0..heaps).map(|i| rules.take_for(i)).collect()
}

struct FirstMove<'a, 'b, T> {
    heaps: ArrayViewD<'a, T>,
    rules: &'a Rules,
    heap_out: ArrayViewMutD<'b, i64>,
    take_out: ArrayViewMutD<'b, u64>,
}

impl<T: HeapInt> Kernel<T> for FirstMove<'_, '_, T> {
    fn run<G: Grundy<T::U>>(self, g: &G) {
        let m = self.heaps.shape().last().copied().unwrap_or(0);
        let takes = takes(self.rules, m);
        let misere = self.rules.is_misere();
        // Visiting heaps downwards, the last move seen is the first in heap order.
        let first = |row: &[T]| {
            let (mut heap, mut take) = (-1i64, 0u64);
            for_each_heap_move(row, g, &takes, misere, |i, found| {
                // Select with masks, not a branch: random positions mispredict.
                let keep = u64::from(found.is_some()).wrapping_neg();
                take = (found.unwrap_or(0) & keep) | (take & !keep);
                heap = (i as i64 & keep as i64) | (heap & !keep as i64);
            });
            (heap, take)
        };
        let (mut heap_out, mut take_out) = (self.heap_out, self.take_out);
        if let (Some(input), Some(heaps), Some(takes), true) = (
            self.heaps.as_slice(),
            heap_out.as_slice_mut(),
            take_out.as_slice_mut(),
            m > 0,
        ) {
            let outs = heaps.par_chunks_mut(CHUNK).zip(takes.par_chunks_mut(CHUNK));
            let uniform = self.rules.uniform().and_then(HeapRule::interval);
            with_fixed_m!(m, M => {
                if let Some(k) = uniform {
                    let modulus = first_move::modulus::<T::U>(k);
                    return input.par_chunks(CHUNK * M).zip(outs).for_each(|(rows, (heaps, takes))| {
                        let rows = rows.as_chunks::<M>().0;
                        first_move::first_moves(g, modulus, misere, rows, heaps, takes);
                    });
                }
                return input.par_chunks(CHUNK * M).zip(outs).for_each(|(rows, (heaps, takes))| {
                    let (rows, _) = rows.as_chunks::<M>();
                    for ((row, heap), take) in rows.iter().zip(heaps).zip(takes) {
                        (*heap, *take) = first(row);
                    }
                });
            });
            input
                .par_chunks(CHUNK * m)
                .zip(outs)
                .for_each(|(rows, (heaps, takes))| {
                    for ((row, heap), take) in rows.chunks_exact(m).zip(heaps).zip(takes) {
                        (*heap, *take) = first(row);
                    }
                });
            return;
        }
        let last = Axis(self.heaps.ndim() - 1);
        Zip::from(heap_out)
            .and(take_out)
            .and(self.heaps.lanes(last))
            .par_for_each(|heap, take, lane| (*heap, *take) = with_row(&lane, first));
    }
}

struct CountMoves<'a, 'b, T> {
    heaps: ArrayViewD<'a, T>,
    rules: &'a Rules,
    out: ArrayViewMutD<'b, i64>,
}

impl<T: HeapInt> Kernel<T> for CountMoves<'_, '_, T> {
    fn run<G: Grundy<T::U>>(self, g: &G) {
        let m = self.heaps.shape().last().copied().unwrap_or(0);
        let takes = takes(self.rules, m);
        let misere = self.rules.is_misere();
        let mut out = self.out;
        map_positions(&self.heaps, &mut out, |row| {
            let mut count = 0;
            for_each_heap_move(row, g, &takes, misere, |_, take| {
                count += i64::from(take.is_some())
            });
            count
        });
    }
}
