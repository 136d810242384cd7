//! Normal-play values of the vertex-deletion games on a board's cells (Cram, and
//! Node Kayles on a grid), with the cells as a bitboard of `W` words, row after row:
//! a move, a component and its canonical form are a few shifts and masks where the
//! general engine walks neighbour lists. Boards of up to 256 cells and 64 columns
//! are taken here (so 5 x 13, 6 x 11 and 7 x 10 are); the search is `pruned`.
//!
//! A component's key is its canonical form: moved to the corner, the least of its
//! images under the square's symmetries (the four flips, and the four with rows and
//! columns exchanged when the exchanged shape still fits the board's width), so equal
//! keys are the same cells and copies of a shape share one entry. Closed forms spare
//! the search: paths (Dawson's Kayles for Cram, Dawson's Chess for Node Kayles),
//! 2 x n Cram, and in Cram any shape the half-turn maps onto itself with no cell on
//! or next to its own image (the second player answers each domino with its image).

use super::cells::Cells;
use super::endgame::{Endgame, MOST_CELLS};
use super::kinds::Moves;
use crate::split::pruned::Split;

/// The rows of a shape moved to the corner: `row[i]` has bit `j` for its cell (i, j).
struct Rows {
    len: usize,
    row: [u64; MOST_ROWS],
}

/// The most rows of a shape, or of its image with rows and columns exchanged: a
/// board is taken with no more rows than columns and at most 256 cells (and a shape
/// is exchanged only if no wider than tall). Made anew for every shape: few words.
const MOST_ROWS: usize = 16;

impl Rows {
    fn new() -> Self {
        Rows {
            len: 0,
            row: [0; MOST_ROWS],
        }
    }

    fn get(&self) -> &[u64] {
        &self.row[..self.len]
    }
}

/// One of a shape's images: its rows read upwards (`up`), each read backwards within
/// `width` (`back`).
#[derive(Clone, Copy)]
struct View<'a> {
    rows: &'a [u64],
    width: usize,
    up: bool,
    back: bool,
}

impl View<'_> {
    fn get(&self, i: usize) -> u64 {
        let row = self.rows[if self.up { self.rows.len() - 1 - i } else { i }];
        if self.back {
            row.reverse_bits() >> (64 - self.width)
        } else {
            row
        }
    }

    /// Fewer rows first, then row by row.
    fn less(&self, other: &View) -> bool {
        if self.rows.len() != other.rows.len() {
            return self.rows.len() < other.rows.len();
        }
        for i in 0..self.rows.len() {
            let (a, b) = (self.get(i), other.get(i));
            if a != b {
                return a < b;
            }
        }
        false
    }
}

/// A board's geometry and what a move deletes.
#[derive(Debug, Clone)]
pub struct Grid<const W: usize> {
    cols: usize,
    /// How many rows of `cols` cells the words hold.
    room: usize,
    moves: Moves,
    row_mask: u64,
    /// The cells not in the first column, and those not in the last.
    not_first: Cells<W>,
    not_last: Cells<W>,
    /// Values of paths of n cells, n < the longest side the words hold.
    paths: Vec<u32>,
    /// Canonical forms of shapes met lately, by the shape moved to the corner: a
    /// shape recurs far more often than it is new, and its form costs its images.
    recent: Vec<(Cells<W>, Cells<W>)>,
    /// The row of each bit (a division spared in the inner loops).
    row_of: Vec<u8>,
    /// The order moves are tried in, by the size of a shape's box (`order`).
    orders: Vec<Option<std::sync::Arc<[u16]>>>,
    /// The end-game databases of the boxes the board's small shapes fit in, lying
    /// (at most 4 rows) and, on boards of 5 rows or more, standing.
    boxes: Vec<Endgame>,
    /// Whether Cram's shapes are reduced (`pruned`): not for a certificate, whose
    /// checker knows only the game's own components.
    reduce: bool,
}

/// The most rows of an end-game box.
const BOX_ROWS: usize = 5;

/// The canonical forms a board remembers (a power of two).
const RECENT: usize = 1 << 15;

impl<const W: usize> Grid<W> {
    /// A board of `rows` <= `cols`, the cells of a move being `moves`.
    pub fn new(rows: usize, cols: usize, moves: Moves) -> Self {
        let room = 64 * W / cols;
        let lying = rows.min(BOX_ROWS - 1);
        let mut boxes = vec![Endgame::of(moves, lying, MOST_CELLS / lying)];
        if rows >= BOX_ROWS {
            boxes.push(Endgame::of(moves, BOX_ROWS, MOST_CELLS / BOX_ROWS));
        }
        let (mut not_first, mut not_last) = (Cells::EMPTY, Cells::EMPTY);
        for v in 0..room * cols {
            let (word, bit) = (v / 64, 1 << (v % 64));
            if v % cols != 0 {
                not_first.0[word] |= bit;
            }
            if v % cols != cols - 1 {
                not_last.0[word] |= bit;
            }
        }
        Grid {
            cols,
            room,
            moves,
            row_mask: if cols == 64 {
                u64::MAX
            } else {
                (1 << cols) - 1
            },
            not_first,
            not_last,
            paths: path_values(room.max(cols) + 1, moves),
            recent: vec![(Cells::EMPTY, Cells::EMPTY); RECENT],
            orders: vec![None; 65 * 65],
            row_of: (0..64 * W).map(|v| (v / cols) as u8).collect(),
            boxes,
            reduce: true,
        }
    }

    /// The board as `new` makes it, for a search whose every step a checker that
    /// knows only the rules can follow: no end-game databases (a small shape is
    /// searched and its value written out) and no reductions, so that a component is
    /// a component of the game.
    pub fn certifying(rows: usize, cols: usize, moves: Moves) -> Self {
        Grid {
            boxes: Vec::new(),
            reduce: false,
            ..Self::new(rows, cols, moves)
        }
    }

    /// The cells next to `x`.
    fn around(&self, x: Cells<W>) -> Cells<W> {
        (x & self.not_last).shl(1)
            | (x & self.not_first).shr(1)
            | x.shl(self.cols)
            | x.shr(self.cols)
    }

    /// The options of `p`, each the set of cells left.
    fn each_option(&mut self, p: Cells<W>, mut f: impl FnMut(Cells<W>)) {
        let height = usize::from(self.row_of[p.last()]) + 1;
        let all = (0..height).fold(0, |a, i| a | p.row(i * self.cols, self.row_mask));
        let width = 64 - all.leading_zeros() as usize;
        let cols = self.cols;
        let order = self.order(height, width);
        match self.moves {
            Moves::Edge => {
                let down = p & p.shr(cols);
                let across = p & (p & self.not_first).shr(1);
                for &v in order.iter() {
                    let v = usize::from(v);
                    if down.has(v) {
                        f(p ^ Cells::one(v) ^ Cells::one(v + cols));
                    }
                    if across.has(v) {
                        f(p ^ Cells::one(v) ^ Cells::one(v + 1));
                    }
                }
            }
            Moves::Neighbourhood => {
                for &v in order.iter() {
                    let v = usize::from(v);
                    if p.has(v) {
                        let cell = Cells::one(v);
                        f(p & !(cell | self.around(cell)));
                    }
                }
            }
        }
    }

    /// The cells of a `height` x `width` box in the corner, nearest its middle first:
    /// moves there split a shape most evenly, and are tried first.
    fn order(&mut self, height: usize, width: usize) -> std::sync::Arc<[u16]> {
        let slot = height * 65 + width;
        if let Some(order) = &self.orders[slot] {
            return order.clone();
        }
        let mut cells: Vec<(usize, u16)> = (0..height)
            .flat_map(|r| (0..width).map(move |c| (r, c)))
            .map(|(r, c)| {
                let off = (2 * r).abs_diff(height - 1) + (2 * c).abs_diff(width - 1);
                (off, (r * self.cols + c) as u16)
            })
            .collect();
        cells.sort_unstable();
        let order: std::sync::Arc<[u16]> = cells.into_iter().map(|(_, v)| v).collect();
        self.orders[slot] = Some(order.clone());
        order
    }

    /// `p` reduced, in Cram, by two rules that keep its value (normal play):
    ///
    /// - of the cells that hang by their only neighbour from the same cell, all but
    ///   one go: a move through the cell leaves every such cell alone and a move
    ///   through one of them leaves the others alone, so the options are the same up
    ///   to lone cells and the same reduction;
    /// - a cell `u`, itself not hanging, each of whose neighbours `x` has a cell
    ///   `l(x)` hanging from it, goes. The sum of the position with and without `u`
    ///   is lost by the player to move: a domino on `u` and `x` is answered with
    ///   `x, l(x)` on the other side (the two are then the same but for a lone cell),
    ///   any other domino with the same domino on the other side, after which `u`
    ///   still has the property (a hanging cell goes only with its cell).
    ///
    /// With it, the cells whose link to the right neighbour a component may be cut
    /// along (`cuts`).
    fn pruned(&self, p: Cells<W>) -> (Cells<W>, Cells<W>) {
        if self.moves != Moves::Edge || !self.reduce {
            return (p, Cells::EMPTY);
        }
        let (leaves, sides) = self.leaves(p);
        let [left, right, above, below] = sides;
        // The cells the leaves hang from, one side at a time: a leaf whose cell
        // already holds one goes.
        let mut held = Cells::EMPTY;
        let mut hang = |from: Cells<W>| {
            let taken = from & held;
            held = held | from;
            taken
        };
        let mut gone = hang((leaves & left).shr(1)).shl(1);
        gone = gone | hang((leaves & right).shl(1)).shr(1);
        gone = gone | hang((leaves & above).shr(self.cols)).shl(self.cols);
        gone = gone | hang((leaves & below).shl(self.cols)).shr(self.cols);
        let p = p & !gone;
        let (leaves, _) = self.leaves(p);
        let holders = p & self.around(leaves);
        let bridges = p & !leaves & !self.around(p & !holders);
        let p = p & !bridges;
        (p, self.cuts(p))
    }

    /// The cells of `p` whose link to the right neighbour can be left out without
    /// changing the value (Cram): the two across-links of a 2 x 2 block two opposite
    /// corners of which have no neighbour outside it. Say the top left and bottom
    /// right corners (the other pair is the mirror image). The sum of the game with
    /// and without the two links is a second-player win: the across-domino on top is
    /// answered by the upright one on the right on the other side (the two positions
    /// are then the same, the top left and the bottom right corner each hanging from
    /// the bottom left one), the lower across-domino by the upright one on the left,
    /// any other domino by itself; a domino that takes the top right or bottom left
    /// cell leaves on the side with the links two cells hanging from the other one,
    /// where the side without them has one (the first rule above), and a domino
    /// away from the block leaves it as it was.
    fn cuts(&self, p: Cells<W>) -> Cells<W> {
        let (_, [left, right, above, below]) = self.leaves(p);
        let corner_tl = p & right & below & !left & !above;
        let corner_br = p & left & above & !right & !below;
        let corner_tr = p & left & below & !right & !above;
        let corner_bl = p & right & above & !left & !below;
        // Blocks by their top left cell.
        let down = self.cols;
        let blocks = (corner_tl & corner_br.shr(down + 1))
            | (corner_tr.shr(1) & corner_bl.shr(down) & self.not_last);
        blocks | blocks.shl(down)
    }

    /// The cells of `p` with exactly one neighbour in `p`, and those with a
    /// neighbour to the left, right, above and below.
    fn leaves(&self, p: Cells<W>) -> (Cells<W>, [Cells<W>; 4]) {
        let left = p & (p & self.not_last).shl(1);
        let right = p & (p & self.not_first).shr(1);
        let above = p & p.shl(self.cols);
        let below = p & p.shr(self.cols);
        let two = (left & (right | above | below)) | (right & (above | below)) | (above & below);
        (
            (left | right | above | below) & !two,
            [left, right, above, below],
        )
    }

    /// The canonical form of a shape, remembered.
    fn form(&mut self, p: Cells<W>) -> Cells<W> {
        let p = p.shr(usize::from(self.row_of[p.first()]) * self.cols);
        let height = usize::from(self.row_of[p.last()]) + 1;
        let all = (0..height).fold(0, |a, i| a | p.row(i * self.cols, self.row_mask));
        let p = p.shr(all.trailing_zeros() as usize);
        let slot =
            p.0.iter()
                .fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let slot = (slot >> 40) as usize % RECENT;
        if self.recent[slot].0 == p {
            return self.recent[slot].1;
        }
        let form = self.canonical(p);
        self.recent[slot] = (p, form);
        form
    }

    /// Each connected component of `p` with a move, in canonical form, but those of
    /// two or three cells in Cram: a domino or a path of three, value 1 (`small`
    /// takes the XOR of their values).
    pub(super) fn each_component(
        &mut self,
        p: Cells<W>,
        mut f: impl FnMut(Cells<W>),
        small: &mut u32,
    ) {
        let (p, cuts) = self.pruned(p);
        // The links a component may be cut along: from a cell in `cuts` to the right,
        // and from the cell after it to the left.
        let (to_right, to_left) = (self.not_last & !cuts, self.not_first & !cuts.shl(1));
        let mut rest = p;
        while !rest.is_empty() {
            let mut part = rest.lowest();
            loop {
                let next = (part & to_right).shl(1)
                    | (part & to_left).shr(1)
                    | part.shl(self.cols)
                    | part.shr(self.cols);
                let grown = (part | next) & rest;
                if grown == part {
                    break;
                }
                part = grown;
            }
            rest = rest ^ part;
            match (self.moves, part.count()) {
                (Moves::Edge, 1) => {}
                (Moves::Edge, 2 | 3) => *small ^= 1,
                _ => match self.endgame(part) {
                    Some(v) => *small ^= v,
                    None => f(self.form(part)),
                },
            }
        }
    }

    /// The value of `p` in the end-game database, if it fits in one of the boxes.
    #[inline]
    fn endgame(&self, p: Cells<W>) -> Option<u32> {
        let top = usize::from(self.row_of[p.first()]);
        let height = usize::from(self.row_of[p.last()]) + 1 - top;
        if height > BOX_ROWS {
            return None;
        }
        let mut rows = [0; BOX_ROWS];
        let mut all = 0;
        for (i, row) in rows[..height].iter_mut().enumerate() {
            *row = p.row((top + i) * self.cols, self.row_mask);
            all |= *row;
        }
        let left = all.trailing_zeros();
        for row in &mut rows[..height] {
            *row >>= left;
        }
        let width = 64 - (all >> left).leading_zeros() as usize;
        self.boxes
            .iter()
            .find_map(|b| b.value(&rows[..height], width))
    }

    /// The rows of `p` moved to the corner into `rows`, and its width.
    #[inline]
    fn rows(&self, p: Cells<W>, rows: &mut Rows) -> usize {
        let p = p.shr(usize::from(self.row_of[p.first()]) * self.cols);
        rows.len = usize::from(self.row_of[p.last()]) + 1;
        let mut all = 0;
        for i in 0..rows.len {
            rows.row[i] = p.row(i * self.cols, self.row_mask);
            all |= rows.row[i];
        }
        let left = all.trailing_zeros();
        for r in &mut rows.row[..rows.len] {
            *r >>= left;
        }
        64 - (all >> left).leading_zeros() as usize
    }

    /// The least image of a shape under the symmetries that fit the board.
    fn canonical(&self, p: Cells<W>) -> Cells<W> {
        let mut rows = Rows::new();
        let width = self.rows(p, &mut rows);
        let mut best = images(rows.get(), width)[0];
        for v in images(rows.get(), width) {
            if v.less(&best) {
                best = v;
            }
        }
        // Fewer rows come first: the exchanged images can win only if no taller.
        let mut turned = Rows::new();
        if width <= rows.len && rows.len <= self.cols && width <= self.room {
            transpose(rows.get(), width, &mut turned);
            for v in images(turned.get(), rows.len) {
                if v.less(&best) {
                    best = v;
                }
            }
        }
        let mut out = Cells::EMPTY;
        for i in 0..best.rows.len() {
            out.put_row(i * self.cols, best.get(i));
        }
        out
    }

    /// A closed form for a canonical shape, if one applies.
    fn closed_form(&self, p: &Cells<W>) -> Option<u32> {
        let mut shape = Rows::new();
        let width = self.rows(*p, &mut shape);
        let rows = shape.get();
        let full = if width == 64 {
            u64::MAX
        } else {
            (1 << width) - 1
        };
        let height = rows.len();
        if height == 1 && rows[0] == full {
            return Some(self.paths[width]);
        }
        if width == 1 && rows.iter().all(|&r| r == 1) {
            return Some(self.paths[height]);
        }
        if self.moves != Moves::Edge {
            return None;
        }
        if rows.iter().all(|&r| r == full) && (height == 2 || width == 2) {
            return Some((height * width / 2 % 2) as u32);
        }
        let half_turn = (0..height).all(|i| rows[i] == reverse(rows[height - 1 - i], width));
        let (mid_row, mid_col) = (height / 2, width / 2);
        let has = |r: usize, c: usize| rows[r] >> c & 1 == 1;
        let clash = match (height % 2, width % 2) {
            (1, 1) => has(mid_row, mid_col),
            (1, 0) => has(mid_row, mid_col - 1),
            (0, 1) => has(mid_row - 1, mid_col),
            _ => false,
        };
        (half_turn && !clash).then_some(0)
    }
}

/// A shape's four images under the flips.
fn images(rows: &[u64], width: usize) -> [View<'_>; 4] {
    [(false, false), (true, false), (false, true), (true, true)].map(|(up, back)| View {
        rows,
        width,
        up,
        back,
    })
}

fn reverse(row: u64, width: usize) -> u64 {
    row.reverse_bits() >> (64 - width)
}

/// The rows of a shape with rows and columns exchanged.
fn transpose(rows: &[u64], width: usize, out: &mut Rows) {
    out.len = width;
    out.row[..width].fill(0);
    for (i, &row) in rows.iter().enumerate() {
        let mut rest = row;
        while rest != 0 {
            let j = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out.row[j] |= 1 << i;
        }
    }
}

/// The values of the paths of 0..n vertices: a move deletes two neighbours (Dawson's
/// Kayles, 0.07) or a vertex and its neighbours (Dawson's Chess, 0.137).
fn path_values(n: usize, moves: Moves) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(n);
    for len in 0..n {
        let mut seen = 0u128;
        let ends: Vec<(usize, usize)> = match moves {
            Moves::Edge => (0..len.saturating_sub(1))
                .map(|i| (i, len - i - 2))
                .collect(),
            Moves::Neighbourhood => (0..len)
                .map(|i| (i.saturating_sub(1), (len - i - 1).saturating_sub(1)))
                .collect(),
        };
        for (a, b) in ends {
            seen |= 1 << (values[a] ^ values[b]);
        }
        values.push(seen.trailing_ones());
    }
    values
}

impl<const W: usize> Split for Grid<W> {
    type Part = Cells<W>;
    type Key = Cells<W>;

    fn key(&self, part: &Cells<W>) -> Cells<W> {
        *part
    }

    fn known(&self, part: &Cells<W>) -> Option<u32> {
        self.closed_form(part)
    }

    fn options(&mut self, part: &Cells<W>, out: &mut Vec<Cells<W>>) {
        self.each_option(*part, |option| out.push(option));
    }

    fn split(&mut self, option: &Cells<W>, parts: &mut Vec<Cells<W>>) -> u32 {
        let mut known = 0;
        self.each_component(
            *option,
            |c| {
                match parts.iter().position(|&q| q == c) {
                    // Two copies of a shape add nothing to a value.
                    Some(i) => {
                        parts.swap_remove(i);
                    }
                    None => parts.push(c),
                }
            },
            &mut known,
        );
        known
    }

    fn size(&self, part: &Cells<W>) -> u32 {
        part.count()
    }

    fn key_size(&self, key: &Cells<W>) -> u32 {
        key.count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::budget::Budget;
    use crate::split::parallel;
    use crate::split::pruned::{full, Search};
    use crate::split::table::{self, Private};
    use rustc_hash::FxHashMap;

    /// The bitboard search with no end-game database, against the database (itself
    /// checked against a plain recursion) on every set of cells of small boards.
    #[test]
    fn the_search_agrees_with_the_database() {
        for moves in [Moves::Edge, Moves::Neighbourhood] {
            for (rows, cols) in [(4, 4), (3, 5), (2, 8)] {
                let database = Endgame::of(moves, rows, cols);
                let mut grid = Grid::<1>::new(rows, cols, moves);
                grid.boxes.clear();
                let mut map = FxHashMap::default();
                let mut table = Private::new(&mut map).unwrap();
                for set in 0..1u64 << (rows * cols) {
                    let (mut parts, mut value) = (Vec::new(), 0);
                    grid.each_component(Cells([set]), |c| parts.push(c), &mut value);
                    let mut search =
                        Search::new(&mut grid, &mut table, Budget::default(), &|_| {}).unwrap();
                    for part in &parts {
                        value ^= search.value(part).unwrap().ok().unwrap();
                    }
                    // Every set of cells of the board is one of the box's sets.
                    let cells: Vec<u64> = (0..rows)
                        .map(|r| set >> (r * cols) & ((1 << cols) - 1))
                        .collect();
                    let expected = database.value(&cells, cols);
                    assert_eq!(Some(value), expected, "{moves:?} {rows} x {cols}: {set:b}");
                }
            }
        }
    }

    /// Where a symmetry of the 16 x 16 square takes the cell (row, column).
    type Image = fn(usize, usize) -> (usize, usize);

    /// On the tallest board taken (16 x 16: 256 cells), shapes of 16 rows have one
    /// canonical form for all their images under the square's symmetries.
    #[test]
    fn the_tallest_shapes_have_one_form() {
        let mut grid = Grid::<4>::new(16, 16, Moves::Edge);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..50 {
            let cells: Vec<(usize, usize)> = (0..16)
                .flat_map(|r| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    let c = (seed >> 60) as usize;
                    [(r, c), (r, (c + 1) % 16)]
                })
                .collect();
            let shape = |image: Image| {
                let mut p = Cells::<4>::EMPTY;
                for &(r, c) in &cells {
                    let (r, c) = image(r, c);
                    p = p | Cells::one(r * 16 + c);
                }
                p
            };
            let form = grid.form(shape(|r, c| (r, c)));
            assert_eq!(form.count(), 32);
            let images: [Image; 4] = [
                |r, c| (15 - r, c),
                |r, c| (r, 15 - c),
                |r, c| (c, r),
                |r, c| (15 - c, 15 - r),
            ];
            for image in images {
                assert_eq!(grid.form(shape(image)), form, "{cells:?}");
            }
        }
    }

    /// The value of `cells` on `grid`, searched by `threads` threads (one: the plain
    /// search) in `map`.
    fn value_of<const W: usize>(
        grid: &mut Grid<W>,
        map: &mut FxHashMap<Cells<W>, u32>,
        cells: Cells<W>,
        threads: usize,
    ) -> u32 {
        let (mut parts, mut value) = (Vec::new(), 0);
        grid.each_component(cells, |c| parts.push(c), &mut value);
        let budget = Budget::default();
        for part in &parts {
            let found = if threads == 1 {
                let mut table = Private::new(map).unwrap();
                Search::new(grid, &mut table, budget, &|_| {})
                    .unwrap()
                    .value(part)
            } else {
                parallel::value(grid, map, part, u32::MAX, threads, budget, &|_| {}).map(full)
            };
            value ^= found.unwrap().ok().unwrap();
        }
        value
    }

    /// One search that evicts makes room in place and goes on: asked once, under
    /// bounds that hold a fraction of what it learns, it finds the value an unbounded
    /// search finds (a search that only gave up at the bound would fail here), and
    /// its table stays within the bound.
    #[test]
    fn one_search_evicts_in_place() {
        let boards = [
            (Moves::Edge, [(4, 7), (5, 6), (3, 13)]),
            (Moves::Neighbourhood, [(6, 7), (7, 8), (5, 12)]),
        ];
        for (moves, sizes) in boards {
            for (rows, cols) in sizes {
                let mut grid = Grid::<1>::new(rows, cols, moves);
                let part = Cells([(1u64 << (rows * cols)) - 1]);
                let mut map = FxHashMap::default();
                let plain = value_of(&mut grid, &mut map, part, 1);
                let learned = table::layout::<Cells<1>, u32>(map.capacity());
                for bound in [2, 4, 8].map(|d| (learned / d).max(16 << 10)) {
                    let budget = Budget {
                        max_memory: bound,
                        until: None,
                        evict: true,
                    };
                    let mut map = FxHashMap::default();
                    let mut table = Private::new(&mut map).unwrap();
                    let found = Search::new(&mut grid, &mut table, budget, &|_| {})
                        .unwrap()
                        .value(&part);
                    let found = found.unwrap_or_else(|e| panic!("{rows} x {cols} in {bound}: {e}"));
                    assert_eq!(
                        found.ok(),
                        Some(plain),
                        "{moves:?} {rows} x {cols} in {bound}"
                    );
                    assert!(table::layout::<Cells<1>, u32>(map.capacity()) <= bound);
                }
            }
        }
    }

    /// The search on two and three threads finds the values one finds, on
    /// rectangles and on boards with cells filled at random, with a table of its own
    /// and with one earlier searches filled, in both games; and what it enters in
    /// its table is right.
    #[test]
    fn threads_find_the_values_one_finds() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for moves in [Moves::Edge, Moves::Neighbourhood] {
            for (rows, cols) in [(3, 8), (4, 6), (5, 5), (4, 7), (3, 11)] {
                let mut grid = Grid::<1>::new(rows, cols, moves);
                let full = (1u64 << (rows * cols)) - 1;
                let boards = [full, full & random() | random() & random(), full & random()];
                let mut warm = FxHashMap::default();
                for cells in boards.map(|b| Cells([b & full])) {
                    let plain = value_of(&mut grid, &mut FxHashMap::default(), cells, 1);
                    for threads in [2, 3] {
                        let mut own = FxHashMap::default();
                        let found = value_of(&mut grid, &mut own, cells, threads);
                        assert_eq!(found, plain, "{moves:?} {rows} x {cols}: {cells:?}");
                        // What the threads entered in the table is right.
                        for (&key, &value) in own.iter().take(100) {
                            let plain = value_of(&mut grid, &mut FxHashMap::default(), key, 1);
                            assert_eq!(plain, value, "{moves:?} {rows} x {cols}: {key:?}");
                        }
                        let found = value_of(&mut grid, &mut warm, cells, threads);
                        assert_eq!(found, plain, "{moves:?} {rows} x {cols}: {cells:?} (warm)");
                    }
                }
            }
        }
    }
}
