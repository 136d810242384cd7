//! A position's code: the bytes the search keys positions by. A land's code is what
//! `canon::key` writes: marks (`land::FRESH`, `ONE`, `TWO`: 0, 1, 2), letters as
//! `LOCAL + i` (lowercase, named within their region) or `SHARED + i` (uppercase,
//! within their land), boundaries and regions ended by bytes of their own; a
//! position's code is its lands' codes, sorted, between `LAND_END`s.

/// The codes of lowercase letters (within a region) and uppercase ones (within a land).
pub const LOCAL: u8 = 3;
pub const SHARED: u8 = 128;
pub const BOUNDARY_END: u8 = 251;
pub const REGION_END: u8 = 252;
pub const LAND_END: u8 = 253;

/// A position, as its code.
pub type Code = Box<[u8]>;

/// The lands' codes in a position's code.
pub fn lands(code: &[u8]) -> impl Iterator<Item = &[u8]> {
    code.split(|&c| c == LAND_END).filter(|l| !l.is_empty())
}
