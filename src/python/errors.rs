//! The core's errors, mapped once to Python exceptions.
use pyo3::create_exception;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyValueError, PyZeroDivisionError,
};
use pyo3::PyErr;
use std::sync::atomic::{AtomicBool, Ordering};
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
            PyValueError::new_err(format!("{err}{}", in_python(&err)))
        }
    }
}

/// What the core's message means in Python's terms, where it names no Python itself.
fn in_python(err: &Error) -> &'static str {
    match err {
        Error::NotForSets(_) => "; use nimkit.solve",
        Error::NotForSplits(_) => " (Position.outcome, Position.winning_moves, nimkit.Game)",
        Error::SplitPerHeap { .. } => " (code=...)",
        _ => "",
    }
}

/// The exception a signal handler raised to stop the core's work, raised again once
/// the work has wound up (a program's own handler may raise what it likes).
static RAISED: Mutex<Option<PyErr>> = Mutex::new(None);

/// Set when a signal handler raised while other Python code ran in the work (a
/// progress callback): the work's next poll stops it, as if the handler ran there.
static PENDING: AtomicBool = AtomicBool::new(false);

/// Keep `raised`, which a signal handler raised in Python code the work called, for
/// the work's next poll: it stops the work and is raised again once it has wound up.
/// Not through `PyErr_SetInterrupt`, which is lost where SIGINT is ignored (a
/// background job of a script), whatever the handler raised (a SIGTERM's too).
pub fn stop_with(raised: PyErr) {
    *RAISED.lock().unwrap_or_else(PoisonError::into_inner) = Some(raised);
    PENDING.store(true, Ordering::SeqCst);
}

/// What work that reported progress gave, or what a signal handler raised in its last
/// report, which came too late for a poll to see it.
pub fn unless_stopped<T>(done: crate::base::error::Result<T>) -> pyo3::PyResult<T> {
    let value = done?;
    if PENDING.swap(false, Ordering::SeqCst) {
        return Err(Error::Interrupted.into());
    }
    Ok(value)
}

/// Whether the user pressed Ctrl-C, for the core's long loops (`crate::base::interrupt`).
/// They run without the GIL; it is taken for the check, which runs Python's signal
/// handlers (what they raise is kept for the core's `Interrupted`).
pub fn interrupted() -> bool {
    if PENDING.swap(false, Ordering::SeqCst) {
        return true;
    }
    pyo3::Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(raised) => {
            *RAISED.lock().unwrap_or_else(PoisonError::into_inner) = Some(raised);
            true
        }
    })
}
