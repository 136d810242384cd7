//! The core's errors, mapped once to Python exceptions.
use pyo3::create_exception;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyValueError, PyZeroDivisionError,
};
use pyo3::PyErr;
use std::sync::{Mutex, PoisonError};

use crate::base::error::Error;

create_exception!(
    nimkit,
    IllegalMoveError,
    PyValueError,
    "A move that the position or the rules do not allow (a ValueError)."
);

impl From<Error> for PyErr {
    fn from(err: Error) -> PyErr {
        if let Error::Callback(foreign) = &err {
            // A Python exception from a game's own code: raised again as it was.
            if let Some(raised) = foreign.payload.downcast_ref::<PyErr>() {
                return pyo3::Python::attach(|py| raised.clone_ref(py));
            }
        }
        if let Error::OutOfMemory { .. } | Error::MemoryBound { .. } = err {
            PyMemoryError::new_err(err.to_string())
        } else if let Error::ValuesFile { .. } = err {
            PyOSError::new_err(err.to_string())
        } else if let Error::NoInverse { .. } = err {
            PyZeroDivisionError::new_err(err.to_string())
        } else if err == Error::Interrupted || err == Error::Abandoned {
            // What the program's signal handler raised (`interrupted`), or Ctrl-C's.
            RAISED
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
                .unwrap_or_else(|| PyKeyboardInterrupt::new_err(()))
        } else if err.is_illegal_move() {
            IllegalMoveError::new_err(err.to_string())
        } else {
            PyValueError::new_err(err.to_string())
        }
    }
}

/// The exception a signal handler raised to stop the core's work, raised again once
/// the work has wound up (a program's own handler may raise what it likes).
static RAISED: Mutex<Option<PyErr>> = Mutex::new(None);

/// Whether the user pressed Ctrl-C, for the core's long loops (`crate::base::interrupt`).
/// They run without the GIL; it is taken for the check, which runs Python's signal
/// handlers (what they raise is kept for the core's `Interrupted`).
pub fn interrupted() -> bool {
    pyo3::Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(raised) => {
            *RAISED.lock().unwrap_or_else(PoisonError::into_inner) = Some(raised);
            true
        }
    })
}
