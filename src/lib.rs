//! nimkit: an exact solver for Nim and its take-away relatives.
pub mod alloc;
pub mod batch;
pub mod error;
pub mod game;
pub mod heap;
pub mod interrupt;
pub mod misere;
pub mod multiset;
pub mod players;
pub mod position;
pub mod rules;
pub mod search;
pub mod solver;
pub mod tables;
pub mod theory;

pub use heap::{code, subtraction};

#[cfg(feature = "python")]
mod python;
