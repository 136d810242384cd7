//! A land's canonical code: the same for every way of writing one land (its
//! boundaries' rotations and order, its regions' order and mirror images, its
//! letters' names), so that the search values each land once.
//!
//! Each region is first written with its letters abstracted (a letter met twice in
//! the region, or once and again in another): each boundary at its least rotation,
//! the boundaries sorted, the region as the lesser of itself and its mirror image
//! (a region's boundaries reversed together: its mirror image, the same game, as
//! each region's moves are its own). Regions are taken in the order of these forms,
//! boundaries within each in theirs, letters named in order of appearance
//! (lowercase within their region, uppercase within the land); the code is the
//! least of every writing these orders allow, each tie tried and each state of
//! the search met once (`TRIES` writings or states met again at most: past them
//! the first of each tie is taken, a code that still writes the land, perhaps not
//! the one its other writings get: a value found twice, never a wrong one).
use std::hash::Hasher;

use rustc_hash::{FxHashSet, FxHasher};
use smallvec::{smallvec, SmallVec};

use super::code::{BOUNDARY_END, LOCAL, REGION_END, SHARED};
use super::land::{is_letter, Land, Letters, Mark, Region, FRESH, ONE, TWO};

/// A mark with its letter abstracted: a letter met twice in the region, or not.
const LOCAL_TOKEN: u8 = 3;
const SHARED_TOKEN: u8 = 4;

/// The most writings tried for ties (states met again counted as writings), for the
/// codes users see.
pub const TRIES: usize = 128;

/// The tries of the searches' own writings: a land written two ways is valued twice,
/// and that costs less than trying more ties (8 spots, normal play: 4.2 s against
/// 7.1 s with `TRIES`, about as many lands met).
pub const SEARCH_TRIES: usize = 4;

/// The second state hash's seed (any word other than the first's zero).
const SECOND_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// The canonical code of `land`, appended to `out`.
pub fn key(land: &Land, out: &mut Vec<u8>) {
    key_within(land, TRIES, out);
}

/// The code of `land`, its ties tried at most `tries` times, appended to `out`.
pub fn key_within(land: &Land, tries: usize, out: &mut Vec<u8>) {
    let mut forms = refined(land);
    forms.sort_by(|a, b| a.tokens.cmp(&b.tokens));
    let mut writer = Writer {
        forms,
        done: vec![false; land.regions.len()],
        code: Vec::new(),
        best: None,
        tries: 0,
        seen: FxHashSet::default(),
        branched: false,
        most: tries,
    };
    writer.regions(&Names::new(SHARED));
    out.extend_from_slice(&writer.best.expect("a land is written at least once"));
}

/// A region's abstracted form, and its images (itself, its mirror) with that form:
/// each its boundaries, each with its abstracted least rotation and the starts that
/// give it, sorted by it.
struct Form {
    tokens: Vec<u8>,
    images: Vec<Image>,
    /// The letters the region meets twice (named within it).
    twice: Letters,
}

type Image = Vec<(Bytes, Bytes, Places)>;

/// A boundary's or a piece of code's bytes: most are short, and kept inline.
type Bytes = SmallVec<[u8; 16]>;
/// Places in a boundary or list: most lists are short, and kept inline.
type Places = SmallVec<[usize; 4]>;

/// The regions' forms, a letter joining two regions told apart by the form of the
/// other, refined until no more regions are told apart (as colour refinement does
/// a graph's vertices): fewer ties to try, as ties cost a search.
fn refined(land: &Land) -> Vec<Form> {
    let n = land.regions.len();
    // The regions each letter is met in.
    let mut places = [[usize::MAX; 2]; 256];
    for (r, region) in land.regions.iter().enumerate() {
        for &m in region.boundaries.iter().flatten() {
            let p = &mut places[m as usize];
            if p[0] == usize::MAX {
                p[0] = r;
            } else if p[0] != r {
                p[1] = r;
            }
        }
    }
    let twice: Vec<Letters> = land.regions.iter().map(twice).collect();
    let mut kind = vec![0u8; n];
    let mut kinds = 1;
    loop {
        let forms: Vec<Form> = land
            .regions
            .iter()
            .enumerate()
            .map(|(r, region)| {
                Form::of(region, twice[r], &|m| match token(m, &twice[r]) {
                    SHARED_TOKEN => {
                        let [a, b] = places[m as usize];
                        SHARED_TOKEN + kind[if a == r { b } else { a }]
                    }
                    t => t,
                })
            })
            .collect();
        let mut sorted: Vec<&Vec<u8>> = forms.iter().map(|f| &f.tokens).collect();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == kinds || n < 2 {
            return forms;
        }
        kinds = sorted.len();
        kind = forms
            .iter()
            .map(|f| sorted.binary_search(&&f.tokens).unwrap_or(0).min(200) as u8)
            .collect();
    }
}

impl Form {
    fn of(region: &Region, twice: Letters, token: &dyn Fn(Mark) -> u8) -> Form {
        let image = |mirror: bool| -> Image {
            let mut boundaries: Image = region
                .boundaries
                .iter()
                .map(|b| {
                    let marks: Bytes = if mirror {
                        b.iter().rev().copied().collect()
                    } else {
                        Bytes::from_slice(b)
                    };
                    let tokens: Bytes = marks.iter().map(|&m| token(m)).collect();
                    let (least, starts) = least_rotations(&tokens);
                    (least, marks, starts)
                })
                .collect();
            boundaries.sort_by(|a, b| a.0.cmp(&b.0));
            boundaries
        };
        let flat = |image: &Image| -> Vec<u8> {
            let mut out = Vec::new();
            for (i, (t, _, _)) in image.iter().enumerate() {
                if i > 0 {
                    out.push(BOUNDARY_END);
                }
                out.extend_from_slice(t);
            }
            out
        };
        let (a, b) = (image(false), image(true));
        let (ta, tb) = (flat(&a), flat(&b));
        match ta.cmp(&tb) {
            std::cmp::Ordering::Less => Form {
                tokens: ta,
                images: vec![a],
                twice,
            },
            std::cmp::Ordering::Greater => Form {
                tokens: tb,
                images: vec![b],
                twice,
            },
            // Symmetric: both images tried only if the region has letters to name.
            std::cmp::Ordering::Equal
                if region.boundaries.iter().flatten().any(|&m| is_letter(m)) =>
            {
                Form {
                    tokens: ta,
                    images: vec![a, b],
                    twice,
                }
            }
            std::cmp::Ordering::Equal => Form {
                tokens: ta,
                images: vec![a],
                twice,
            },
        }
    }
}

/// Which letters of `region` it meets twice.
fn twice(region: &Region) -> Letters {
    let (mut once, mut twice) = (Letters::default(), Letters::default());
    for &m in region.boundaries.iter().flatten() {
        if is_letter(m) && !once.insert(m) {
            twice.insert(m);
        }
    }
    twice
}

fn token(mark: Mark, twice: &Letters) -> u8 {
    match mark {
        FRESH | ONE | TWO => mark,
        m if twice.contains(m) => LOCAL_TOKEN,
        _ => SHARED_TOKEN,
    }
}

/// The least rotation of a sequence, and every start that gives it.
fn least_rotations(seq: &[u8]) -> (Bytes, Places) {
    let n = seq.len();
    let rotation = |s: usize| seq[s..].iter().chain(&seq[..s]);
    let mut starts: Places = smallvec![0];
    for s in 1..n {
        match rotation(s).cmp(rotation(starts[0])) {
            std::cmp::Ordering::Less => {
                starts.clear();
                starts.push(s);
            }
            std::cmp::Ordering::Equal => starts.push(s),
            std::cmp::Ordering::Greater => {}
        }
    }
    (rotation(starts[0]).copied().collect(), starts)
}

/// Names given to letters so far: codes from `first` in order of naming, the marks
/// kept in that order (a region names few letters: small to copy, hash and compare).
#[derive(Clone, PartialEq, Eq)]
struct Names {
    first: u8,
    order: SmallVec<[Mark; 24]>,
}

impl Names {
    fn new(first: u8) -> Names {
        Names {
            first,
            order: SmallVec::new(),
        }
    }

    fn name(&mut self, mark: Mark) -> u8 {
        let at = match self.order.iter().position(|&m| m == mark) {
            Some(at) => at,
            None => {
                self.order.push(mark);
                self.order.len() - 1
            }
        };
        self.first + at as u8
    }
}

/// The search for the least writing: regions and boundaries in the order of their
/// forms, every tie tried.
struct Writer {
    forms: Vec<Form>,
    done: Vec<bool>,
    code: Vec<u8>,
    best: Option<Vec<u8>>,
    tries: usize,
    /// The states met: two ways that reach one state (the code written so far, the
    /// regions done, the names given, the region and image being written and its
    /// boundaries left) write the same from there on. Without this, ways that
    /// differ only by a region's mirror image or rotation, and name its letters
    /// alike, were each written out and used up the tries.
    seen: FxHashSet<(u64, u64)>,
    /// Whether a second way has been taken anywhere yet.
    branched: bool,
    /// The most tries.
    most: usize,
}

impl Writer {
    /// Whether the state (the code so far, the regions done, the names given, and
    /// within a region `within`: its place, image, boundaries left and local names)
    /// is met first. States are kept as two hashes of 64 bits each (a collision, all
    /// but impossible, would leave a tie untried: a second code, never a wrong value).
    fn first_met(
        &mut self,
        shared: &Names,
        within: Option<(usize, usize, &[usize], &Names)>,
    ) -> bool {
        if !self.branched {
            return true; // one way so far: no state can be met twice
        }
        let mut hashes = [FxHasher::default(), FxHasher::default()];
        hashes[1].write_u64(SECOND_SEED);
        for h in &mut hashes {
            h.write(&self.code);
            h.write_usize(usize::MAX);
            for &d in &self.done {
                h.write_u8(u8::from(d));
            }
            h.write(&shared.order);
            if let Some((r, image, left, local)) = within {
                h.write_usize(r);
                h.write_usize(image);
                h.write_usize(left.len());
                for &b in left {
                    h.write_usize(b);
                }
                h.write(&local.order);
            }
        }
        let first = self.seen.insert((hashes[0].finish(), hashes[1].finish()));
        // A state met again costs a try, as the writing it stands for would: the
        // work for one land stays bounded as before.
        self.tries += usize::from(!first);
        first
    }

    /// Whether the code so far can still be the least: not past the best's prefix.
    fn hopeful(&self) -> bool {
        match &self.best {
            None => true,
            Some(best) => {
                let n = self.code.len().min(best.len());
                self.code[..n] <= best[..n]
            }
        }
    }

    /// The regions left, from the least form: of the tied ones and their images,
    /// those whose first boundary writes the least code, each tried.
    fn regions(&mut self, shared: &Names) {
        if !self.hopeful() || !self.first_met(shared, None) {
            return;
        }
        let Some(first) = (0..self.forms.len()).find(|&i| !self.done[i]) else {
            if self.best.as_ref().is_none_or(|b| self.code < *b) {
                self.best = Some(self.code.clone());
            }
            self.tries += 1;
            return;
        };
        let mut least: Option<Bytes> = None;
        let mut starts: Vec<(usize, usize, Way)> = Vec::new();
        for r in (first..self.forms.len())
            .filter(|&i| !self.done[i] && self.forms[i].tokens == self.forms[first].tokens)
        {
            for (i, image) in self.forms[r].images.iter().enumerate() {
                let left: Places = (0..image.len()).collect();
                let twice = &self.forms[r].twice;
                let (code, ways) = least_ways(image, twice, &left, &Names::new(LOCAL), shared);
                match least.as_ref().map(|c| code.cmp(c)) {
                    Some(std::cmp::Ordering::Greater) => continue,
                    Some(std::cmp::Ordering::Equal) => {}
                    _ => {
                        least = Some(code);
                        starts.clear();
                    }
                }
                starts.extend(ways.into_iter().map(|w| (r, i, w)));
            }
        }
        let code = least.expect("a region is left");
        let mark = self.code.len();
        self.branched |= starts.len() > 1;
        for (n, (r, image, (k, local, names))) in starts.into_iter().enumerate() {
            if n > 0 && self.tries >= self.most {
                break;
            }
            self.done[r] = true;
            if mark > 0 {
                self.code.push(REGION_END);
            }
            self.code.extend_from_slice(&code);
            let mut left: Places = (0..self.forms[r].images[image].len()).collect();
            left.remove(k);
            self.boundaries(r, image, left, &local, &names);
            self.code.truncate(mark);
            self.done[r] = false;
        }
    }

    /// The boundaries `left` of image `image` of region `r` (one written already),
    /// the ties that write the least code next each tried.
    fn boundaries(&mut self, r: usize, image: usize, left: Places, local: &Names, shared: &Names) {
        if !self.hopeful() {
            return;
        }
        if left.is_empty() {
            return self.regions(shared);
        }
        if !self.first_met(shared, Some((r, image, &left, local))) {
            return;
        }
        let form = &self.forms[r];
        let (code, ways) = least_ways(&form.images[image], &form.twice, &left, local, shared);
        let mark = self.code.len();
        self.branched |= ways.len() > 1;
        for (n, (k, l, g)) in ways.into_iter().enumerate() {
            if n > 0 && self.tries >= self.most {
                break;
            }
            self.code.push(BOUNDARY_END);
            self.code.extend_from_slice(&code);
            let mut rest = left.clone();
            rest.remove(k);
            self.boundaries(r, image, rest, &l, &g);
            self.code.truncate(mark);
        }
    }
}

/// A way to go on: the place in `left` of the boundary written next, and the names
/// given once it is.
type Way = (usize, Names, Names);

/// Of the boundaries `left` of an image tied with the first (the least form), the
/// least code one of them writes next with the names so far, and every way to
/// write it (ways that name every letter alike are one).
fn least_ways(
    image: &Image,
    twice: &Letters,
    left: &[usize],
    local: &Names,
    shared: &Names,
) -> (Bytes, Vec<Way>) {
    let first = left[0];
    let mut least: Option<Bytes> = None;
    let mut ways: Vec<Way> = Vec::new();
    let mut code = Bytes::new();
    for (k, &b) in left.iter().enumerate() {
        if image[b].0 != image[first].0 {
            break;
        }
        let marks = &image[b].1;
        for &s in &image[b].2 {
            let (mut l, mut g) = (local.clone(), shared.clone());
            code.clear();
            code.extend(marks[s..].iter().chain(&marks[..s]).map(|&m| match m {
                m if !is_letter(m) => m,
                m if twice.contains(m) => l.name(m),
                m => g.name(m),
            }));
            match least.as_ref().map(|c| code.cmp(c)) {
                Some(std::cmp::Ordering::Greater) => continue,
                Some(std::cmp::Ordering::Equal) => {}
                _ => {
                    least = Some(code.clone());
                    ways.clear();
                }
            }
            if !ways.iter().any(|w| w.1 == l && w.2 == g) {
                ways.push((k, l, g));
            }
        }
    }
    (least.expect("a boundary is left"), ways)
}
