//! nimkit: an exact solver for Nim and its take-away relatives.

/// Run `$body` with the const `$m` bound to the heap count when it is one of the
/// counts worth a specialised loop (walks over a fixed count unroll); otherwise fall
/// through. For the batch kernels and self-play.
macro_rules! with_fixed_m {
    ($count:expr, $m:ident => $body:expr) => {
        match $count {
            1 => {
                const $m: usize = 1;
                $body
            }
            2 => {
                const $m: usize = 2;
                $body
            }
            3 => {
                const $m: usize = 3;
                $body
            }
            4 => {
                const $m: usize = 4;
                $body
            }
            8 => {
                const $m: usize = 8;
                $body
            }
            _ => {}
        }
    };
}

pub mod alloc;
pub mod batch;
pub mod error;
pub mod game;
pub mod games;
pub mod heap;
pub mod interrupt;
pub mod misere;
pub mod nimber;
pub mod outcome;
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
