//! Nimber arithmetic for Python: one pair of ints, or uint64 arrays (the Python layer
//! broadcasts them to one shape), computed without the GIL.
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;

use super::convert::UInt;
use crate::base::alloc;
use crate::base::error::Error;
use crate::nimber;

/// The nim product of two nimbers below 2**64.
#[pyfunction]
pub fn nim_multiply_int(a: UInt, b: UInt) -> u64 {
    nimber::multiply(a.0, b.0)
}

/// The inverse of a nonzero nimber below 2**64.
#[pyfunction]
pub fn nim_inverse_int(a: UInt) -> PyResult<u64> {
    Ok(nimber::inverse(a.0).ok_or(Error::NoInverse { index: None })?)
}

/// Elementwise nim products of two arrays of one length (or `b` of length 1).
#[pyfunction]
pub fn nim_multiply_array<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u64>,
    b: PyReadonlyArray1<'py, u64>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let (a, b) = (a.as_slice()?, b.as_slice()?);
    if b.len() != a.len() && b.len() != 1 {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "arrays of {} and {} nimbers cannot be multiplied elementwise",
            a.len(),
            b.len()
        )));
    }
    let out = py.detach(|| {
        let mut out = alloc::filled(a.len(), 0u64)?;
        nimber::multiply_all(a, b, &mut out).map(|()| out)
    })?;
    Ok(out.into_pyarray(py))
}

/// Elementwise inverses (ZeroDivisionError names the first zero).
#[pyfunction]
pub fn nim_inverse_array<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u64>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let a = a.as_slice()?;
    let out = py.detach(|| {
        let mut out = alloc::filled(a.len(), 0u64)?;
        nimber::inverse_all(a, &mut out).map(|()| out)
    })?;
    Ok(out.into_pyarray(py))
}
