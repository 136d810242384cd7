//! Ctrl-C for long native work, without Python in the core: the binding layer
//! installs a hook that says whether the user asked to stop, and long loops poll it
//! through a `Poll`, which calls it at most every 50 ms.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

static HOOK: OnceLock<fn() -> bool> = OnceLock::new();

/// How often a loop asks the hook.
const EVERY: Duration = Duration::from_millis(50);

/// Install the hook (once; later calls are ignored).
pub fn set_hook(hook: fn() -> bool) {
    let _ = HOOK.set(hook);
}

/// A long loop's view of the hook: cheap to tick on every step.
pub struct Poll {
    last: Instant,
    steps: u32,
}

impl Default for Poll {
    fn default() -> Self {
        Poll {
            last: Instant::now(),
            steps: 0,
        }
    }
}

impl Poll {
    /// One step of work: `Error::Interrupted` once the user has asked to stop.
    #[inline]
    pub fn tick(&mut self) -> Result<()> {
        self.steps = self.steps.wrapping_add(1);
        if !self.steps.is_multiple_of(4096) || self.last.elapsed() < EVERY {
            return Ok(());
        }
        self.last = Instant::now();
        match HOOK.get() {
            Some(hook) if hook() => Err(Error::Interrupted),
            _ => Ok(()),
        }
    }
}

/// Whether the user asked to stop, for work spread over threads (which cannot ask the
/// hook: Python runs its signal handlers on its main thread only).
#[derive(Default)]
pub struct Cancel(AtomicBool);

impl Cancel {
    /// True once the user has asked to stop: the work should wind up.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Run `work` on a helper thread (from which it may use every core) while this thread
/// asks the hook every 50 ms and raises the `Cancel` flag once the user asks to stop;
/// then `Error::Interrupted`, whatever `work` returned.
pub fn run_cancellable<R: Send>(work: impl FnOnce(&Cancel) -> R + Send) -> Result<R> {
    let cancel = Cancel::default();
    let Some(&hook) = HOOK.get() else {
        return Ok(work(&cancel));
    };
    let polling = std::thread::current();
    let result = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let result = work(&cancel);
            polling.unpark();
            result
        });
        while !worker.is_finished() {
            std::thread::park_timeout(EVERY);
            if !cancel.stopped() && !worker.is_finished() && hook() {
                cancel.0.store(true, Ordering::Relaxed);
            }
        }
        worker.join()
    });
    match result {
        _ if cancel.stopped() => Err(Error::Interrupted),
        Ok(result) => Ok(result),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
