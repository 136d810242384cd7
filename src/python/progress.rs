//! Long native work without the GIL, its progress on a tqdm bar when asked.
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
    let done = py.detach(|| {
        work(&mut |n| {
            Python::attach(|py| {
                // A display error must not stop the computation.
                let _ = bar.bind(py).call1((n,));
            })
        })
    });
    bar.bind(py).call_method0("close")?;
    Ok(done?)
}
