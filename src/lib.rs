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

// The layers, lowest first: a module uses only those above it here (checked by
// tests/integration/layers.rs), so no circle runs between them. The bindings (`python`) sit on
// top.

// The shared vocabulary: errors, outcomes, values, allocation, Ctrl-C.
pub mod base;

// Heap rules (Nim, take limits, subtraction sets, take-and-break codes), positions.
pub mod heap;

// Nimber arithmetic.
pub mod nimber;

// Searches of positions and state graphs.
pub mod search;

// The engine for games that split into independent parts (boards, graphs).
pub mod split;

// Misère play: quotients, genera, values.
pub mod misere;

// The game of heaps solved: closed forms, the solver, P-position tables.
pub mod solve;

// Every impartial game on one protocol, sums, the classical families.
pub mod games;

// A game in progress and the computer players.
pub mod play;

// Kernels over arrays of positions, and environments for learning.
pub mod batch;

// The paths tests and benchmarks use.
pub use base::{alloc, error, interrupt, outcome, value};
pub use heap::{code, position, rules, subtraction};
pub use play::{players, session};
pub use solve::{solver, tables, theory};

#[cfg(feature = "python")]
mod python;
