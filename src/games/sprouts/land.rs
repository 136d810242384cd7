//! A Sprouts position as Applegate, Jacobson and Sleator (1991) and Lemoine and
//! Viennot (arXiv 1008.2320) hold it: the regions the curves drawn cut the plane
//! into, each with its boundaries (the closed walks around the pieces of drawing
//! in it), each boundary the spots met on the walk; regions that share a spot form
//! a land, and lands are independent (a position is their sum).
//!
//! What a spot is, as a mark on a boundary: `FRESH` (no curve yet, three lives, a
//! boundary of its own), `ONE` (one curve, two lives, met once), `TWO` (one life,
//! met once), and letters: spots of one life met twice (on two boundaries, twice on
//! one, or in two regions), which a move through either place kills in both.
//!
//! `settle` applies the simplifications Lemoine and Viennot prove safe: dead spots
//! dropped, a letter met twice in a row met once, a letter met once written `TWO`,
//! regions with fewer than two lives dropped (no move can be made in them), and the
//! lands apart. `key` writes a land in a canonical order (`canon`).
use super::code::{BOUNDARY_END, REGION_END, SHARED};

/// A spot's mark on a boundary.
pub type Mark = u8;
/// A spot with no curve: three lives, a boundary of its own.
pub const FRESH: Mark = 0;
/// A spot with one curve: two lives, met once.
pub const ONE: Mark = 1;
/// A spot with one life met once.
pub const TWO: Mark = 2;
/// The first letter: letters are spots with one life met twice, numbered within
/// their land.
pub const LETTER: Mark = 3;
/// A spot with no life left, dropped by `settle`.
pub const DEAD: Mark = 255;

/// The most lives a land may have: its letters (one life each) then fit the
/// numbering of `key` (`code::LOCAL`, `code::SHARED`). Forty spots.
pub const MOST_LIVES: u32 = 120;

/// The lives of a spot marked `mark` (a letter's counted once in each of its places).
pub fn lives(mark: Mark) -> u32 {
    match mark {
        FRESH => 3,
        ONE => 2,
        DEAD => 0,
        _ => 1,
    }
}

pub fn is_letter(mark: Mark) -> bool {
    (LETTER..DEAD).contains(&mark)
}

/// A region: its boundaries, each the marks met walking around it with the region
/// on the same side (the order matters up to rotation; all of a region's
/// boundaries reversed together are the mirror image, the same game).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Region {
    pub boundaries: Vec<Vec<Mark>>,
}

/// Regions that share spots (letters).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Land {
    pub regions: Vec<Region>,
}

/// A set of letters, by bit.
#[derive(Clone, Copy, Default)]
pub struct Letters([u64; 4]);

impl Letters {
    pub fn insert(&mut self, mark: Mark) -> bool {
        let (word, bit) = (mark as usize / 64, 1u64 << (mark % 64));
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }

    pub fn contains(&self, mark: Mark) -> bool {
        self.0[mark as usize / 64] & (1 << (mark % 64)) != 0
    }
}

impl Region {
    /// Its lives: a letter met twice in it counts once.
    pub fn lives(&self) -> u32 {
        let mut seen = Letters::default();
        let mut lives = 0;
        for &mark in self.boundaries.iter().flatten() {
            if !is_letter(mark) || seen.insert(mark) {
                lives += self::lives(mark);
            }
        }
        lives
    }
}

impl Land {
    /// Its lives: each spot's once.
    pub fn lives(&self) -> u32 {
        let marks = self
            .regions
            .iter()
            .flat_map(|r| r.boundaries.iter().flatten());
        let (mut lives, mut letters) = (0, 0);
        for &mark in marks {
            if is_letter(mark) {
                letters += 1;
            } else {
                lives += self::lives(mark);
            }
        }
        lives + letters / 2
    }

    /// A letter no spot of the land is marked with yet.
    pub fn next_letter(&self) -> Mark {
        let marks = self
            .regions
            .iter()
            .flat_map(|r| r.boundaries.iter().flatten());
        marks
            .filter(|&&m| is_letter(m))
            .max()
            .map_or(LETTER, |&m| m + 1)
    }
}

/// The lands of `regions` (of one land, just after a move; marks `DEAD` where spots
/// died) once simplified, appended to `out`.
pub fn settle(mut regions: Vec<Region>, out: &mut Vec<Land>) {
    for region in &mut regions {
        for boundary in &mut region.boundaries {
            boundary.retain(|&m| m != DEAD);
            merge_repeats(boundary);
        }
        region.boundaries.retain(|b| !b.is_empty());
    }
    loop {
        let mut seen = [0u8; 256];
        for &mark in regions.iter().flat_map(|r| r.boundaries.iter().flatten()) {
            seen[mark as usize] = seen[mark as usize].saturating_add(1);
        }
        for mark in regions
            .iter_mut()
            .flat_map(|r| r.boundaries.iter_mut().flatten())
        {
            if is_letter(*mark) && seen[*mark as usize] == 1 {
                *mark = TWO;
            }
        }
        let before = regions.len();
        // No move in a region of fewer than two lives: its spots' other places stay.
        regions.retain(|r| r.lives() >= 2);
        if regions.len() == before {
            break;
        }
    }
    apart(regions, out);
}

/// A letter met twice in a row (the walk passes the spot, turns around dead curves
/// only, and passes it again) is met once: a curve to either place is the same move.
fn merge_repeats(boundary: &mut Vec<Mark>) {
    let mut i = 0;
    while boundary.len() > 1 && i < boundary.len() {
        let next = (i + 1) % boundary.len();
        if is_letter(boundary[i]) && boundary[i] == boundary[next] {
            boundary.remove(next);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
}

/// The lands of settled `regions`: regions joined by a shared letter, each land's
/// letters numbered from `LETTER` in order of appearance.
fn apart(regions: Vec<Region>, out: &mut Vec<Land>) {
    let n = regions.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first = [usize::MAX; 256];
    for (r, region) in regions.iter().enumerate() {
        for &mark in region.boundaries.iter().flatten() {
            if is_letter(mark) {
                let other = first[mark as usize];
                if other == usize::MAX {
                    first[mark as usize] = r;
                } else {
                    let (a, b) = (root(&mut parent, other), root(&mut parent, r));
                    parent[a] = b;
                }
            }
        }
    }
    let mut land_of = vec![usize::MAX; n];
    let start = out.len();
    for (r, region) in regions.into_iter().enumerate() {
        let top = root(&mut parent, r);
        if land_of[top] == usize::MAX {
            land_of[top] = out.len();
            out.push(Land::default());
        }
        out[land_of[top]].regions.push(region);
    }
    for land in &mut out[start..] {
        let mut names = [0u8; 256];
        let mut next = LETTER;
        for mark in land
            .regions
            .iter_mut()
            .flat_map(|r| r.boundaries.iter_mut().flatten())
        {
            if is_letter(*mark) {
                if names[*mark as usize] == 0 {
                    names[*mark as usize] = next;
                    next += 1;
                }
                *mark = names[*mark as usize];
            }
        }
    }
}

/// The lives of a land or position as `key` writes it (`code`).
pub fn lives_of_code(code: &[u8]) -> u32 {
    let (mut lives, mut letters) = (0, 0);
    for &c in code {
        match c {
            FRESH | ONE | TWO => lives += self::lives(c),
            c if c < BOUNDARY_END => letters += 1,
            _ => {}
        }
    }
    lives + letters / 2
}

/// A land as the codes `key` writes (lowercase letters numbered within each region,
/// uppercase within the land), back as a land.
pub fn land_of_code(code: &[u8]) -> Land {
    let mut land = Land::default();
    let mut region = Region::default();
    let mut boundary = Vec::new();
    let mut shared = [0u8; 256];
    let mut local = [0u8; 256];
    let mut next = LETTER;
    let mut name = |table: &mut [u8; 256], c: u8| {
        if table[c as usize] == 0 {
            table[c as usize] = next;
            next += 1;
        }
        table[c as usize]
    };
    for &c in code {
        match c {
            BOUNDARY_END => region.boundaries.push(std::mem::take(&mut boundary)),
            REGION_END => {
                region.boundaries.push(std::mem::take(&mut boundary));
                land.regions.push(std::mem::take(&mut region));
                local = [0u8; 256];
            }
            FRESH | ONE | TWO => boundary.push(c),
            c if c < SHARED => boundary.push(name(&mut local, c)),
            c => boundary.push(name(&mut shared, c)),
        }
    }
    if !boundary.is_empty() || !region.boundaries.is_empty() {
        region.boundaries.push(boundary);
        land.regions.push(region);
    }
    land
}
