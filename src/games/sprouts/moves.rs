//! The moves of a land, exactly: a curve inside one region, with a new spot on it,
//!
//! - between two places on one boundary (or a loop from one place of a spot with
//!   two lives or more): the region is cut in two, the boundary's two arcs each
//!   closed by the curve, and the region's other boundaries divided between the two
//!   sides in every way (boundaries written alike are interchangeable: only how
//!   many of them go to each side counts);
//! - between places on two boundaries: they become one boundary, walked around the
//!   first, along the curve, around the second and back.
//!
//! A spot used gains a curve: alone (`FRESH`) it is `ONE` after a curve and a letter
//! (both sides of its loop) after a loop; `ONE` becomes a letter (met on both sides
//! of the curve) or, by a loop, dead; a spot of one life dies, in all its places.
//! The new spot has one life and is met on both sides of the curve.
use super::land::{is_letter, Land, Mark, Region, DEAD, FRESH, ONE};

/// Every move of `land`: `each` is given the regions of the land after it (spots
/// that died marked `DEAD`; `land::settle` simplifies them).
pub fn each_move(land: &Land, mut each: impl FnMut(Vec<Region>)) {
    let new = land.next_letter();
    for (r, region) in land.regions.iter().enumerate() {
        let others = |replaced: Vec<Region>, killed: &[Mark]| {
            let mut regions: Vec<Region> = land
                .regions
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != r)
                .map(|(_, g)| g.clone())
                .chain(replaced)
                .collect();
            kill(&mut regions, killed);
            regions
        };
        let bounds = &region.boundaries;
        for (b, boundary) in bounds.iter().enumerate() {
            let rest: Vec<&Vec<Mark>> = bounds
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != b)
                .map(|(_, x)| x)
                .collect();
            let groups = groups(&rest);
            for i in 0..boundary.len() {
                for j in i..boundary.len() {
                    let Some((one, two, killed)) = cut(boundary, i, j, new) else {
                        continue;
                    };
                    each_division(&groups, |side: &[usize]| {
                        let (mut a, mut c) = (vec![one.clone()], vec![two.clone()]);
                        for (g, &count) in groups.iter().zip(side) {
                            a.extend(g[..count].iter().map(|&x| x.clone()));
                            c.extend(g[count..].iter().map(|&x| x.clone()));
                        }
                        let sides = vec![Region { boundaries: a }, Region { boundaries: c }];
                        each(others(sides, &killed));
                    });
                }
            }
        }
        for a in 0..bounds.len() {
            for c in a + 1..bounds.len() {
                for i in 0..bounds[a].len() {
                    for j in 0..bounds[c].len() {
                        let Some((joined, killed)) = join(&bounds[a], i, &bounds[c], j, new) else {
                            continue;
                        };
                        let mut boundaries: Vec<Vec<Mark>> = bounds
                            .iter()
                            .enumerate()
                            .filter(|&(k, _)| k != a && k != c)
                            .map(|(_, x)| x.clone())
                            .collect();
                        boundaries.push(joined);
                        each(others(vec![Region { boundaries }], &killed));
                    }
                }
            }
        }
    }
}

/// How many ways a curve cutting `region` has, at most, of dividing its other
/// boundaries between its two sides (saturating).
pub fn divisions(region: &Region) -> u64 {
    let all: Vec<&Vec<Mark>> = region.boundaries.iter().collect();
    groups(&all)
        .iter()
        .fold(1u64, |n, g| n.saturating_mul(g.len() as u64 + 1))
}

/// The places of every letter in `killed` marked dead.
fn kill(regions: &mut [Region], killed: &[Mark]) {
    if killed.is_empty() {
        return;
    }
    for mark in regions
        .iter_mut()
        .flat_map(|r| r.boundaries.iter_mut().flatten())
    {
        if killed.contains(mark) {
            *mark = DEAD;
        }
    }
}

/// What a spot marked `mark` becomes after `uses` curve ends (1 or 2), the letter
/// `letter` if it is then met in two places; and the letter that died, if one did.
fn used(mark: Mark, uses: u32, letter: Mark) -> (Mark, Option<Mark>) {
    match (mark, uses) {
        (FRESH, 1) => (ONE, None),
        (FRESH, _) | (ONE, 1) => (letter, None),
        (m, _) if is_letter(m) => (DEAD, Some(m)),
        _ => (DEAD, None),
    }
}

/// A curve from place `i` to place `j` (`i <= j`) of `boundary`, the new spot
/// `new`: the two boundaries it leaves, and the letters that died; None if it is no
/// move (one spot of too few lives at both ends).
#[allow(clippy::type_complexity)]
fn cut(
    boundary: &[Mark],
    i: usize,
    j: usize,
    new: Mark,
) -> Option<(Vec<Mark>, Vec<Mark>, Vec<Mark>)> {
    let (p, q) = (boundary[i], boundary[j]);
    let mut killed = Vec::new();
    if i == j {
        if p != FRESH && p != ONE {
            return None; // a loop needs two lives
        }
        let (after, _) = used(p, 2, new + 1);
        if boundary.len() == 1 {
            // A spot alone: its loop has it on both sides.
            return Some((vec![after, new], vec![after, new], killed));
        }
        let mut outside: Vec<Mark> = boundary[i..]
            .iter()
            .chain(&boundary[..=i])
            .copied()
            .collect();
        let last = outside.len() - 1;
        (outside[0], outside[last]) = (after, after);
        outside.push(new);
        return Some((vec![after, new], outside, killed));
    }
    if is_letter(p) && p == q {
        return None; // one spot of one life at both ends
    }
    let (pa, pk) = used(p, 1, new + 1);
    let (qa, qk) = used(q, 1, new + 2);
    killed.extend(pk);
    killed.extend(qk);
    let mut one: Vec<Mark> = boundary[i..=j].to_vec();
    let last = one.len() - 1;
    (one[0], one[last]) = (pa, qa);
    one.push(new);
    let mut two: Vec<Mark> = boundary[j..]
        .iter()
        .chain(&boundary[..=i])
        .copied()
        .collect();
    let last = two.len() - 1;
    (two[0], two[last]) = (qa, pa);
    two.push(new);
    Some((one, two, killed))
}

/// A curve from place `i` of boundary `a` to place `j` of boundary `c`, the new spot
/// `new`: the boundary they become, and the letters that died; None if both places
/// are one spot's.
fn join(a: &[Mark], i: usize, c: &[Mark], j: usize, new: Mark) -> Option<(Vec<Mark>, Vec<Mark>)> {
    if is_letter(a[i]) && a[i] == c[j] {
        return None;
    }
    let (pa, pk) = used(a[i], 1, new + 1);
    let (qa, qk) = used(c[j], 1, new + 2);
    let mut joined = Vec::with_capacity(a.len() + c.len() + 4);
    // Around the first boundary from the place and back to it (a spot alone is
    // passed once), along the curve, around the second, and back.
    for (side, k, after) in [(a, i, pa), (c, j, qa)] {
        joined.push(after);
        joined.extend(side[k + 1..].iter().chain(&side[..k]));
        if side.len() > 1 {
            joined.push(after);
        }
        joined.push(new);
    }
    let killed = pk.into_iter().chain(qk).collect();
    Some((joined, killed))
}

/// The boundaries of `rest` in groups of boundaries written alike with no letter
/// (interchangeable), each letter's boundary alone.
fn groups<'a>(rest: &[&'a Vec<Mark>]) -> Vec<Vec<&'a Vec<Mark>>> {
    let mut groups: Vec<Vec<&Vec<Mark>>> = Vec::new();
    for &b in rest {
        let plain = !b.iter().any(|&m| is_letter(m));
        match groups.iter_mut().find(|g| plain && g[0] == b) {
            Some(g) => g.push(b),
            None => groups.push(vec![b]),
        }
    }
    groups
}

/// Every division of the groups between two sides: `f` is given how many of each
/// group go to the first.
fn each_division<T>(groups: &[Vec<T>], mut f: impl FnMut(&[usize])) {
    let mut side = vec![0usize; groups.len()];
    loop {
        f(&side);
        let mut g = 0;
        loop {
            if g == groups.len() {
                return;
            }
            if side[g] < groups[g].len() {
                side[g] += 1;
                break;
            }
            side[g] = 0;
            g += 1;
        }
    }
}
