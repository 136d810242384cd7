//! Long native work without the GIL, its progress on a tqdm bar when asked.
use pyo3::exceptions::PyException;
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
    super::errors::unless_stopped(done)
}

/// Tell a progress callback (a bar) that the work has got to `n`, taking the GIL. A
/// display error (an `Exception`) must not stop the work, but what a signal handler
/// raises in whatever Python code runs when the signal comes (Ctrl-C's
/// KeyboardInterrupt, a SIGTERM handler's) must: it stops the work at its next poll
/// and is raised again then.
pub fn tell(bar: &Py<PyAny>, n: usize) {
    Python::attach(|py| {
        if let Err(error) = bar.bind(py).call1((n,)) {
            if !error.is_instance_of::<PyException>(py) {
                super::errors::stop_with(error);
            }
        }
    });
}
