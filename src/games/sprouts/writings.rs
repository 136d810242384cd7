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
        }
    }

    /// The code of the position of settled `lands`.
    pub fn code(&mut self, lands: &[Land]) -> Code {
        let mut codes: Vec<&[u8]> = Vec::with_capacity(lands.len());
        let mut raws = Vec::with_capacity(lands.len());
        for land in lands {
            let raw = raw(land);
            if !self.codes.contains_key(&raw) {
                let mut code = Vec::new();
                canon::key_within(land, self.tries, &mut code);
                let bytes = ENTRY_BYTES + raw.len() + code.len();
                if self.bytes + bytes > MOST_BYTES {
                    self.codes.clear();
                    self.bytes = 0;
                }
                self.bytes += bytes;
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
