//! The codes of lands met while options are listed. A move changes one region, so
//! most options leave the land's other pieces as they were, and the same pieces come
//! back in the options of other lands: of the 444,000 lands written in a search of 8
//! spots (normal play), 332,000 were met before (208,000 within one listing). Each
//! is kept by its writing as `settle` leaves it and made canonical once; a cache
//! bounded by its bytes, emptied when full.
use rustc_hash::FxHashMap;

use super::canon::{self, SEARCH_TRIES};
use super::code::{Code, LAND_END};
use super::land::Land;

#[derive(Debug)]
pub struct Writings {
    tries: usize,
    codes: FxHashMap<Vec<u8>, Vec<u8>>,
    bytes: usize,
    /// The bytes past which it is emptied (`MOST_BYTES`).
    most: usize,
}

/// The most bytes `Writings` holds, counted roughly (its writings, codes and slots).
const MOST_BYTES: usize = 64 << 20;

/// What an entry costs beside its bytes: its two vectors and slot.
const ENTRY_BYTES: usize = 64;

impl Writings {
    /// Codes whose ties are tried at most `tries` times (`canon::key_within`).
    pub fn new(tries: usize) -> Self {
        Writings {
            tries,
            codes: FxHashMap::default(),
            bytes: 0,
            most: MOST_BYTES,
        }
    }

    /// The code of the position of settled `lands`.
    pub fn code(&mut self, lands: &[Land]) -> Code {
        // Emptied before a position, never in the middle of one: its lands' codes
        // are read back below (the bound is passed by one position's lands at most).
        if self.bytes > self.most {
            self.codes.clear();
            self.bytes = 0;
        }
        let mut codes: Vec<&[u8]> = Vec::with_capacity(lands.len());
        let mut raws = Vec::with_capacity(lands.len());
        for land in lands {
            let raw = raw(land);
            if !self.codes.contains_key(&raw) {
                let mut code = Vec::new();
                canon::key_within(land, self.tries, &mut code);
                self.bytes += ENTRY_BYTES + raw.len() + code.len();
                self.codes.insert(raw.clone(), code);
            }
            raws.push(raw);
        }
        codes.extend(raws.iter().map(|r| &self.codes[r][..]));
        codes.sort_unstable();
        codes.join(&LAND_END).into_boxed_slice()
    }
}

/// The searches' writings (`canon::SEARCH_TRIES`).
impl Default for Writings {
    fn default() -> Self {
        Writings::new(SEARCH_TRIES)
    }
}

/// A land's marks as they stand, each region's and boundary's length first.
fn raw(land: &Land) -> Vec<u8> {
    let mut out = Vec::new();
    for region in &land.regions {
        out.extend_from_slice(&(region.boundaries.len() as u16).to_le_bytes());
        for boundary in &region.boundaries {
            out.extend_from_slice(&(boundary.len() as u16).to_le_bytes());
            out.extend_from_slice(boundary);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::sprouts::code::lands;
    use crate::games::sprouts::land::land_of_code;
    use crate::games::sprouts::notation::parse;

    /// A cache that fills up in the middle of a position still writes it whole, as
    /// a fresh one does (it once emptied itself between two lands of one position
    /// and panicked reading the first back: misère play of 10 spots).
    #[test]
    fn a_full_cache_writes_whole_positions() {
        let mut full = Writings {
            most: 1,
            ..Writings::new(SEARCH_TRIES)
        };
        for text in ["0*2.1a1a+0.0.0+2a2a", "0*3+1a1a+0.2", "0*2.1a1a+0.0.0+2a2a"] {
            let code = parse(text).unwrap();
            let settled: Vec<Land> = lands(&code).map(land_of_code).collect();
            assert_eq!(
                full.code(&settled),
                Writings::default().code(&settled),
                "{text}"
            );
        }
    }
}
