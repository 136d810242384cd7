//! The pyo3 binding layer: conversion, validation, GIL release, error mapping.
//! No game logic lives here.
mod convert;
mod errors;
mod scalar;

/// Native core of nimkit; use the `nimkit` package, not this module.
#[pyo3::pymodule(name = "_core")]
mod core_module {
    #[pymodule_export]
    use super::errors::IllegalMoveError;
    #[pymodule_export]
    use super::scalar::{
        after, analyse, check_heaps, check_move_args, check_rules, illegal_reason, legal_moves,
        solve_box,
    };
}
