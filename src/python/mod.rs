//! The pyo3 binding layer: conversion, validation, GIL release, error mapping.
//! No game logic lives here.
mod batch;
mod boards;
mod classical;
mod code;
mod convert;
mod errors;
mod families;
mod games;
mod moves;
mod nimber;
mod play_any;
mod play_heaps;
mod position;
mod progress;
mod quotient;
mod rl;
mod rules;
mod scalar;
mod sprouts;
mod subtraction;
mod tables;
mod top;

/// Native core of nimkit; use the `nimkit` package, not this module.
#[pyo3::pymodule(name = "_core")]
mod core_module {
    #[pymodule_export]
    use super::batch::{
        batch_count_winning_moves, batch_is_p_position, batch_nim_sum, batch_winning_move,
        batch_winning_split,
    };
    #[pymodule_export]
    use super::boards::{
        board_size, cram_table, vertex_certificate, vertex_edges, vertex_every_position,
        vertex_misere_certificate, vertex_moves, vertex_names, vertex_restore, vertex_tables,
        vertex_value,
    };
    #[pymodule_export]
    use super::classical::{
        coin_rule, coin_values, corners_winning_rectangles, hackenbush_names,
        hackenbush_winning_chops, moore_k, wythoff_grundy_table, wythoff_pair,
    };
    #[pymodule_export]
    use super::code::{octal_classes, PyTakeAndBreak};
    #[pymodule_export]
    use super::errors::IllegalMoveError;
    #[pymodule_export]
    use super::families::native_game;
    #[pymodule_export]
    use super::games::{PyDigraph, PyNativeGame};
    #[pymodule_export]
    use super::moves::PyMove;
    #[pymodule_export]
    use super::nimber::{nim_inverse_array, nim_inverse_int, nim_multiply_array, nim_multiply_int};
    #[pymodule_export]
    use super::play_any::PyPlayed;
    #[pymodule_export]
    use super::play_heaps::{simulate, PyGame, PyPlayer};
    #[pymodule_export]
    use super::position::PyPosition;
    #[pymodule_export]
    use super::quotient::PyMisereQuotient;
    #[pymodule_export]
    use super::rl::{PyBoard, PyEnvs};
    #[pymodule_export]
    use super::rules::PyRules;
    #[pymodule_export]
    use super::scalar::{analyse, check_heaps, solve_box, solve_outcomes};
    #[pymodule_export]
    use super::sprouts::{
        sprouts_certificate, sprouts_restore, sprouts_saved, sprouts_spots, sprouts_step,
        sprouts_table,
    };
    #[pymodule_export]
    use super::subtraction::PySubtractionGame;
    #[pymodule_export]
    use super::tables::{count_p_positions, p_positions};
    #[pymodule_export]
    use super::top::PyTop;

    use pyo3::prelude::*;

    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        crate::base::interrupt::set_hook(super::errors::interrupted);
        // numpy's C API is imported on first use, and rust-numpy panics if that
        // import fails; a Ctrl-C pending after long work would make it fail. Import
        // it now, while nothing is pending.
        numpy::PyArray1::<u8>::zeros(module.py(), 0, false);
        module.add(
            "DEFAULT_MAX_POSITIONS",
            crate::solve::solver::DEFAULT_MAX_POSITIONS,
        )?;
        module.add("MAX_LISTED_MOVES", super::position::MAX_LISTED_MOVES)?;
        // Which build is installed (benchmarks print it): the test command's `quick`
        // profile keeps debug assertions on, the release build has none.
        let build = if cfg!(debug_assertions) {
            "quick (debug assertions on: not for timings)"
        } else {
            "release"
        };
        module.add("BUILD", build)?;
        // The package's version (maturin takes it from Cargo.toml): reading it here
        // spares `import nimkit` importlib.metadata, a fifth of its time.
        module.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
