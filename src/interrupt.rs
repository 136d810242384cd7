//! Ctrl-C for long native work, without Python in the core: the binding layer
//! installs a hook that says whether the user asked to stop, and long loops poll it
//! through a `Poll`, which calls it at most every 50 ms.
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
