//! Exact searches: over the box of positions below a start (`boxes`), over the
//! multisets of heaps that moves splitting heaps reach (`multiset`), and over the
//! state graph of any game, draws included (`graph`).
pub mod boxes;
pub mod graph;
pub mod multiset;

use crate::base::error::{Error, Result};
use crate::heap::rules::Rules;

pub use boxes::{solve_outcomes, BoxSolution};
pub use multiset::MultisetSolution;

/// Outcomes and, with `remoteness`, remoteness of every position of the box, in
/// lexicographic order: by the retrograde pass over the box, or, when moves split
/// heaps (positions then leave the box), by the multiset search from every position
/// of the box.
pub fn solve_box(
    bounds: &[u64],
    rules: &Rules,
    max_positions: u64,
    remoteness: bool,
) -> Result<(Vec<bool>, Option<Vec<u32>>)> {
    if rules.splits() {
        return multiset::solve_box(bounds, rules, max_positions, remoteness);
    }
    let solution = BoxSolution::solve(bounds, rules, max_positions)?;
    let distances = remoteness.then(|| solution.remoteness()).transpose()?;
    Ok((solution.into_is_p(), distances))
}

/// Check a box against the rules and the size limit; return its size and the
/// index strides of its heaps (lexicographic order, last heap fastest).
fn layout(bounds: &[u64], rules: &Rules, max_positions: u64) -> Result<(usize, Vec<usize>)> {
    if rules.splits() {
        return Err(Error::NotForSplits("searching a box"));
    }
    let size = checked_box_size(bounds, rules, max_positions)?;
    let mut strides = vec![1usize; bounds.len()];
    for i in (0..bounds.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * (bounds[i + 1] as usize + 1);
    }
    Ok((size, strides))
}

/// The number of positions of the box, checked against the rules and refused past
/// `max_positions` (so it fits in usize: the caller allocates that many).
pub fn checked_box_size(bounds: &[u64], rules: &Rules, max_positions: u64) -> Result<usize> {
    rules.check_position(bounds)?;
    let size = box_size(bounds);
    if size > u128::from(max_positions) {
        return Err(Error::BoxTooLarge {
            positions: size,
            limit: max_positions,
        });
    }
    Ok(size as usize)
}

/// The most moves a box search may weigh: seconds of work (one heap of about 65,000
/// with no take limit, whose cost is quadratic in the heap).
pub const MAX_BOX_MOVES: u128 = 1 << 31;

/// How many moves a walk over every position of the box weighs: for each heap, the
/// positions of the other heaps times every (size, take) pair of this one
/// (`HeapRule::moves_up_to`), saturating.
pub fn box_moves(bounds: &[u64], rules: &Rules) -> u128 {
    let size = box_size(bounds);
    bounds
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            (size / (u128::from(b) + 1)).saturating_mul(rules.take_for(i).moves_up_to(b))
        })
        .fold(0u128, u128::saturating_add)
}

/// How the moves of a box search add up, in words, for the rules asked about.
fn moves_text(bounds: &[u64], rules: &Rules) -> String {
    let positions = box_size(bounds);
    let takes: Vec<String> = (0..bounds.len())
        .map(|i| rules.take_for(i).takes_text())
        .collect();
    if takes.windows(2).all(|w| w[0] == w[1]) {
        let take = takes.first().map_or("no take", String::as_str);
        format!("each of the {positions} positions weighs {take} from each heap")
    } else {
        format!(
            "each of the {positions} positions weighs, heap by heap: {}",
            takes.join("; ")
        )
    }
}

/// The number of positions in the box (saturating: past u128 it is too large anyway).
pub fn box_size(bounds: &[u64]) -> u128 {
    bounds
        .iter()
        .fold(1u128, |size, &b| size.saturating_mul(u128::from(b) + 1))
}

/// Step `heaps` to the next position of the box in lexicographic order.
pub fn advance(heaps: &mut [u64], bounds: &[u64]) {
    for i in (0..heaps.len()).rev() {
        if heaps[i] < bounds[i] {
            heaps[i] += 1;
            return;
        }
        heaps[i] = 0;
    }
}
