//! Long native work without the GIL, its progress on a tqdm bar when asked.
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use crate::base::error::Result;

/// Run `work` without the GIL. `work` reports how far it has got (out of `total`)
/// through the callback it is given, which moves a `nimkit._progress` bar labelled
/// `what` when `progress` is asked for, and does nothing otherwise.
pub fn run<T: Send>(
    py: Python<'_>,
    progress: bool,
    total: usize,
    what: &str,
    work: impl Send + FnOnce(&mut dyn FnMut(usize)) -> Result<T>,
) -> PyResult<T> {
    if !progress {
        return Ok(py.detach(|| work(&mut |_| {}))?);
    }
    let bar = py
        .import("nimkit._progress")?
        .call_method1("counter", (total, what))?
        .unbind();
    let done = py.detach(|| work(&mut |n| tell(&bar, n)));
    bar.bind(py).call_method0("close")?;
    Ok(done?)
}

/// Tell a progress callback (a bar) that the work has got to `n`, taking the GIL. A
/// display error must not stop the work, but Ctrl-C, which Python raises in whatever
/// Python code runs when it comes, must: it is raised again for the work's next poll.
pub fn tell(bar: &Py<PyAny>, n: usize) {
    Python::attach(|py| {
        if let Err(error) = bar.bind(py).call1((n,)) {
            if error.is_instance_of::<PyKeyboardInterrupt>(py) {
                // SAFETY: called with the GIL held, as Python requires.
                unsafe { pyo3::ffi::PyErr_SetInterrupt() };
            }
        }
    });
}
