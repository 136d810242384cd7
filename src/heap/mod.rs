//! Heap rules: what one move may do to one heap. One file per family; `rules::Take`
//! borrows one of them per heap and is what the rest of the crate asks.
//!
//! - Nim and take limits need no data (`rules::Take::Any`, `rules::Take::UpTo`).
//! - `subtraction`: take exactly one element of a finite set.
//! - `code`: take-and-break codes (octal and hexadecimal), where a move may split a heap;
//!   `sparse` computes their Grundy values by the sparse-space method.
pub mod code;
pub mod sparse;
pub mod subtraction;
