//! The classical families for Python: their constructors and tables.
use std::sync::Arc;

use numpy::ndarray::Array2;
use numpy::IntoPyArray;
use pyo3::prelude::*;

use super::convert::{self, UInt};
use super::games::PyNativeGame;
use super::progress;
use crate::error::Error;
use crate::games::staircase::Staircase;
use crate::games::wythoff::{self, Wythoff};
use crate::games::At;

/// Wythoff's game at heaps `a` and `b`.
#[pyfunction]
pub fn wythoff_game(a: UInt, b: UInt) -> PyNativeGame {
    PyNativeGame(Arc::new(At::new(Arc::new(Wythoff::default()), (a.0, b.0))))
}

/// Staircase Nim with `coins` on the steps, step 0 (the floor) first.
#[pyfunction]
pub fn staircase_game(coins: &Bound<'_, PyAny>) -> PyResult<PyNativeGame> {
    let coins = convert::uints(coins, "coins", "step")?;
    Staircase::check(&coins)?;
    let game = At::new(Arc::new(Staircase::default()), coins);
    Ok(PyNativeGame(Arc::new(game)))
}

/// The `k`-th P-position of Wythoff's game, `(⌊kφ⌋, ⌊kφ⌋ + k)`.
#[pyfunction]
pub fn wythoff_pair(k: UInt) -> (u128, u128) {
    let low = wythoff::lower(k.0);
    (low, low + u128::from(k.0))
}

/// The Grundy values of Wythoff's game for both heaps below `n`, in the narrowest
/// unsigned dtype that holds them.
#[pyfunction]
#[pyo3(signature = (n, progress = false))]
pub fn wythoff_grundy_table(py: Python<'_>, n: UInt<usize>, progress: bool) -> PyResult<Py<PyAny>> {
    let n = n.0;
    let table = progress::run(py, progress, n, "rows", |report| {
        wythoff::grundy_table(n, n, report)
    })?;
    let largest = table.iter().copied().max().unwrap_or(0);
    Ok(if largest <= u32::from(u8::MAX) {
        array(py, n, narrow::<u8>(&table)?)
    } else if largest <= u32::from(u16::MAX) {
        array(py, n, narrow::<u16>(&table)?)
    } else {
        array(py, n, table)
    })
}

/// An `n` by `n` array of `values`, row by row.
fn array<T: numpy::Element>(py: Python<'_>, n: usize, values: Vec<T>) -> Py<PyAny> {
    let shaped = Array2::from_shape_vec((n, n), values).expect("n * n values");
    shaped.into_pyarray(py).into_any().unbind()
}

/// The values as a narrower type (each fits), in fallibly allocated memory.
fn narrow<T: TryFrom<u32>>(table: &[u32]) -> Result<Vec<T>, Error> {
    let mut out = crate::alloc::with_capacity(table.len())?;
    out.extend(table.iter().map(|&v| T::try_from(v).ok().expect("fits")));
    Ok(out)
}
