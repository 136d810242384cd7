//! The string notation of Sprouts positions (Applegate, Jacobson and Sleator 1991;
//! Lemoine and Viennot, arXiv 1008.2320; SPOTS reads the same):
//!
//! - a spot is written by the lives it has lost: `0` (none: a spot alone, three
//!   lives), `1` (two lives), `2` (one life), `3` (dead, dropped); a spot of one life
//!   met in two places is a letter written in both: lowercase (`a`..`l`, then
//!   `m(13)`, `m(14)`, ...) when both are in one region, uppercase (`A`..`Y`, then
//!   `n(26)`, ...) when it joins two regions; lowercase letters are named within
//!   their region, uppercase within their land;
//! - a boundary is its spots in the order met walking around it, boundaries of a
//!   region are separated by `.`, regions of a land by `|`, lands by `+`; a
//!   position may end with `!`; `0*12` is twelve spots alone (`0.0. ... .0`).
//!
//! A position is held as its code (`code`), written by `canon::key`.
use super::code::{lands, Code, BOUNDARY_END, LOCAL, REGION_END, SHARED};
use super::land::{self, Land, Region, FRESH, LETTER, MOST_LIVES, ONE, TWO};
use super::writings::Writings;
use super::{canon, moves};
use crate::base::error::FamilyError;

/// The most ways of dividing a region's boundaries a move lists.
pub const MOST_DIVISIONS: u64 = 1 << 16;

/// The longest text read: far more than any position this solver holds can need
/// (lands of at most `MOST_LIVES` lives each), refused before it is read.
pub const MOST_TEXT: usize = 100_000;

/// How much of a text an error quotes.
const QUOTED: usize = 60;

/// Sprouts' own errors.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SproutsError {
    #[error("not a Sprouts position: {reason} (in {text:?}; see the guide's notation)")]
    Notation { text: String, reason: String },
    #[error("a land of {lives} lives is more than the {most} (forty spots) this solver holds")]
    TooLarge { lives: u32, most: u32 },
    #[error("the Sprouts game of {spots} spots is more than the 40 this solver holds")]
    TooManySpots { spots: u64 },
    #[error(
        "a region of {boundaries} boundaries has {divisions} ways or more of dividing them \
         between a curve's two sides, more than the {most} this solver lists"
    )]
    TooManyDivisions {
        boundaries: usize,
        divisions: u64,
        most: u64,
    },
}

impl FamilyError for SproutsError {}

/// The code of the game of `spots` spots alone.
pub fn start(spots: u64) -> Result<Code, SproutsError> {
    if spots > u64::from(MOST_LIVES / 3) {
        return Err(SproutsError::TooManySpots { spots });
    }
    let region = Region {
        boundaries: vec![vec![FRESH]; spots as usize],
    };
    Ok(position(vec![Land {
        regions: vec![region],
    }]))
}

/// The code of the position of `lands` (each settled, in any order).
pub fn position(lands: Vec<Land>) -> Code {
    let mut settled = Vec::new();
    for land in lands {
        land::settle(land.regions, &mut settled);
    }
    of_settled(&settled)
}

/// The code of settled lands, written canonically.
pub fn of_settled(lands: &[Land]) -> Code {
    Writings::new(canon::TRIES).code(lands)
}

/// The position written in `text`, as its code (simplified and canonical).
pub fn parse(text: &str) -> Result<Code, SproutsError> {
    let bad = |reason: String| SproutsError::Notation {
        text: quoted(text),
        reason,
    };
    if text.len() > MOST_TEXT {
        return Err(bad(format!(
            "{} bytes long, more than the {MOST_TEXT} read",
            text.len()
        )));
    }
    let body = text.trim();
    let body = body.strip_suffix('!').unwrap_or(body);
    if body.contains('!') {
        return Err(bad("'!' ends a position and comes last".into()));
    }
    let mut lands = Vec::new();
    if body.is_empty() {
        return Ok(position(lands));
    }
    for (l, land_text) in body.split('+').enumerate() {
        let land = parse_land(land_text).map_err(|r| bad(format!("land {}: {r}", l + 1)))?;
        lands.push(land);
    }
    let mut settled = Vec::new();
    for land in lands {
        land::settle(land.regions, &mut settled);
    }
    if let Some(lives) = settled.iter().map(Land::lives).find(|&l| l > MOST_LIVES) {
        return Err(SproutsError::TooLarge {
            lives,
            most: MOST_LIVES,
        });
    }
    // A move divides a region's other boundaries in every way: a region whose ways are
    // too many to list is refused here (no move adds boundaries to a region).
    for region in settled.iter().flat_map(|l| &l.regions) {
        let divisions = moves::divisions(region);
        if divisions > MOST_DIVISIONS {
            return Err(SproutsError::TooManyDivisions {
                boundaries: region.boundaries.len(),
                divisions,
                most: MOST_DIVISIONS,
            });
        }
    }
    Ok(of_settled(&settled))
}

/// The start of `text`, for an error to quote.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

/// A land's text: regions between `|`, letters checked to be met twice each.
fn parse_land(text: &str) -> Result<Land, String> {
    let mut land = Land::default();
    let mut uppercase = [0u8; 256];
    let mut next = LETTER;
    for (r, region_text) in text.split('|').enumerate() {
        let mut lowercase = [0u8; 256];
        let mut region = Region::default();
        for (b, boundary_text) in region_text.split('.').enumerate() {
            let place = || format!("region {}, boundary {}", r + 1, b + 1);
            if boundary_text.is_empty() {
                return Err(format!("{}: empty (two separators in a row?)", place()));
            }
            if let Some(count) = boundary_text.strip_prefix("0*") {
                let count: usize = count
                    .parse()
                    .map_err(|_| format!("{}: 0* takes a count of spots", place()))?;
                if count > (MOST_LIVES / 3) as usize {
                    return Err(format!(
                        "{}: 0*{count} is more than the 40 spots this solver holds",
                        place()
                    ));
                }
                region.boundaries.extend((0..count).map(|_| vec![FRESH]));
                continue;
            }
            let mut boundary = Vec::new();
            let mut chars = boundary_text.chars().peekable();
            while let Some(c) = chars.next() {
                let (table, index) = match c {
                    '0' | '1' | '2' | '3' => {
                        boundary.push(match c {
                            '0' => FRESH,
                            '1' => ONE,
                            '2' => TWO,
                            _ => land::DEAD,
                        });
                        continue;
                    }
                    'a'..='l' => (&mut lowercase, c as usize - 'a' as usize),
                    'A'..='Y' => (&mut uppercase, c as usize - 'A' as usize),
                    'm' | 'n' => {
                        let index = expanded(&mut chars).ok_or_else(|| {
                            format!("{}: {c} is written {c}(k), k from 1", place())
                        })?;
                        let table = if c == 'm' {
                            &mut lowercase
                        } else {
                            &mut uppercase
                        };
                        (table, index)
                    }
                    other => return Err(format!("{}: {other:?} is not a spot", place())),
                };
                if index >= 240 || next as usize >= 240 + LETTER as usize {
                    return Err(format!("{}: too many letters", place()));
                }
                if table[index] == 0 {
                    table[index] = next;
                    next += 1;
                }
                boundary.push(table[index]);
            }
            if boundary.len() > 1 && boundary.contains(&FRESH) {
                return Err(format!(
                    "{}: a 0 (a spot with no curve) is a boundary of its own",
                    place()
                ));
            }
            region.boundaries.push(boundary);
        }
        check_twice(&region, &lowercase, |i| letter_name(false, i))
            .map_err(|e| format!("region {}: {e}", r + 1))?;
        land.regions.push(region);
    }
    let all = Region {
        boundaries: land
            .regions
            .iter()
            .flat_map(|r| r.boundaries.clone())
            .collect(),
    };
    check_twice(&all, &uppercase, |i| letter_name(true, i))?;
    Ok(land)
}

/// The index `k - 1` of `m(k)` or `n(k)`, the parenthesis and digits taken.
fn expanded(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<usize> {
    if chars.next() != Some('(') {
        return None;
    }
    let mut k: usize = 0;
    loop {
        match chars.next()? {
            ')' => return k.checked_sub(1),
            d @ '0'..='9' => k = k.checked_mul(10)?.checked_add(d as usize - '0' as usize)?,
            _ => return None,
        }
    }
}

/// Each letter of `names` is met exactly twice in `region`.
fn check_twice(
    region: &Region,
    names: &[u8; 256],
    name: impl Fn(usize) -> String,
) -> Result<(), String> {
    let mut count = [0usize; 256];
    for &m in region.boundaries.iter().flatten() {
        count[m as usize] += 1;
    }
    for (index, &mark) in names.iter().enumerate() {
        if mark != 0 && count[mark as usize] != 2 {
            let times = match count[mark as usize] {
                1 => "once".to_owned(),
                n => format!("{n} times"),
            };
            return Err(format!(
                "the letter {} is met {times}; a letter is a spot of one life met in two places",
                name(index)
            ));
        }
    }
    Ok(())
}

fn letter_name(upper: bool, index: usize) -> String {
    match (upper, index) {
        (false, i) if i < 12 => char::from(b'a' + i as u8).to_string(),
        (true, i) if i < 25 => char::from(b'A' + i as u8).to_string(),
        (false, i) => format!("m({})", i + 1),
        (true, i) => format!("n({})", i + 1),
    }
}

/// A position's code as text, runs of spots alone shortened (`0*3`); `!` for the
/// position with no land (no move left).
pub fn text(code: &[u8]) -> String {
    if code.is_empty() {
        return "!".to_owned();
    }
    let lands: Vec<String> = lands(code)
        .map(|land| {
            let regions: Vec<String> = land.split(|&c| c == REGION_END).map(region_text).collect();
            regions.join("|")
        })
        .collect();
    lands.join("+")
}

/// A position's lands, each as its regions, each as its boundaries, each as its
/// spots written as the notation writes them (`0`, `1`, `2` or a letter), spots
/// alone included one by one: what a picture of the position draws.
pub fn spots(code: &[u8]) -> Vec<Vec<Vec<Vec<String>>>> {
    lands(code)
        .map(|land| {
            land.split(|&c| c == REGION_END)
                .map(|region| {
                    region
                        .split(|&c| c == BOUNDARY_END)
                        .map(|b| b.iter().map(|&c| mark_text(c)).collect())
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// A region's code as text.
fn region_text(region: &[u8]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut alone = 0;
    for boundary in region.split(|&c| c == BOUNDARY_END) {
        if boundary == [FRESH] {
            alone += 1;
            continue;
        }
        push_alone(&mut parts, &mut alone);
        parts.push(boundary.iter().map(|&c| mark_text(c)).collect());
    }
    push_alone(&mut parts, &mut alone);
    parts.join(".")
}

fn push_alone(parts: &mut Vec<String>, alone: &mut usize) {
    match *alone {
        0 => {}
        1 => parts.push("0".to_owned()),
        n => parts.push(format!("0*{n}")),
    }
    *alone = 0;
}

fn mark_text(c: u8) -> String {
    match c {
        FRESH | ONE | TWO => char::from(b'0' + c).to_string(),
        c if c < SHARED => letter_name(false, (c - LOCAL) as usize),
        c => letter_name(true, (c - SHARED) as usize),
    }
}
