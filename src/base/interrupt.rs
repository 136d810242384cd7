//! Ctrl-C for long native work, without Python in the core: the binding layer
//! installs a hook that says whether the user asked to stop, and long loops poll it
//! through a `Poll`, which asks the hook every `EVERY` of elapsed time.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::base::error::{Error, Result};

static HOOK: OnceLock<fn() -> bool> = OnceLock::new();

/// How often a loop asks the hook.
const EVERY: Duration = Duration::from_millis(20);

/// How often a loop reads the clock: the count of steps between two reads adapts so
/// that reads come about this far apart, however long a step takes (a loaded core
/// makes every step slower; a step's cost changes as a computation grows).
const LOOK: Duration = Duration::from_micros(500);

/// The most steps between two reads of the clock.
const MAX_STRIDE: u32 = 1 << 20;

/// Install the hook (once; later calls are ignored).
pub fn set_hook(hook: fn() -> bool) {
    let _ = HOOK.set(hook);
}

/// Whether the user asked to stop, asking the hook now (for work that cannot poll
/// as it goes, between its pieces).
pub fn requested() -> bool {
    HOOK.get().is_some_and(|hook| hook())
}

/// A long loop's view of the hook: cheap to tick on every step.
pub struct Poll {
    /// Steps left before the next read of the clock.
    countdown: u32,
    /// Steps between two reads of the clock.
    stride: u32,
    looked: Instant,
    asked: Instant,
    /// When to stop with `Error::Paused`, if ever.
    until: Option<Instant>,
    /// Whether the loop has made room by eviction (said by its `Error::Paused`).
    made_room: bool,
    /// Raised when work this loop is part of winds up (`Error::Abandoned`).
    stop: Option<Arc<AtomicBool>>,
    /// Whether the loop asks the hook (one on a helper thread leaves it to the thread
    /// Python waits on: a hook may need Python's lock).
    asks: bool,
}

impl Default for Poll {
    fn default() -> Self {
        let now = Instant::now();
        Poll {
            countdown: 1,
            stride: 1,
            looked: now,
            asked: now,
            until: None,
            made_room: false,
            stop: None,
            asks: true,
        }
    }
}

impl Poll {
    /// A poll that also stops the loop with `Error::Paused` once `until` has passed
    /// (a long search that hands back control now and then, so that its caller can
    /// save what it learned).
    pub fn until(until: Option<Instant>) -> Self {
        Poll {
            until,
            ..Poll::default()
        }
    }

    /// This poll, also stopping the loop once `stop` is raised; `asks`: whether it
    /// asks the hook too.
    pub fn watching(self, stop: Arc<AtomicBool>, asks: bool) -> Self {
        Poll {
            stop: Some(stop),
            asks,
            ..self
        }
    }

    /// The loop makes room by eviction: its `Error::Paused` says so from now on.
    pub fn making_room(&mut self) {
        self.made_room = true;
    }

    /// One step of work: `Error::Interrupted` once the user has asked to stop.
    #[inline]
    pub fn tick(&mut self) -> Result<()> {
        self.countdown -= 1;
        if self.countdown > 0 {
            return Ok(());
        }
        self.look()
    }

    /// Read the clock, adapt the stride, and ask the hook when it is time.
    #[cold]
    fn look(&mut self) -> Result<()> {
        let now = Instant::now();
        let gap = now.duration_since(self.looked);
        self.stride = if gap < LOOK / 2 {
            (self.stride * 2).min(MAX_STRIDE)
        } else if gap > LOOK * 2 {
            (self.stride / 2).max(1)
        } else {
            self.stride
        };
        self.countdown = self.stride;
        self.looked = now;
        if self.until.is_some_and(|until| now >= until) {
            return Err(Error::Paused {
                made_room: self.made_room,
            });
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(Error::Abandoned);
        }
        if !self.asks || now.duration_since(self.asked) < EVERY {
            return Ok(());
        }
        self.asked = now;
        if requested() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// Wait until `done()` (the waiting thread may be woken early by an unpark), asking
/// the hook every `EVERY`: true, and at once, if the user asks to stop meanwhile.
pub fn wait_until(done: impl Fn() -> bool) -> bool {
    while !done() {
        std::thread::park_timeout(EVERY);
        if !done() && requested() {
            return true;
        }
    }
    false
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
/// asks the hook every `EVERY` and raises the `Cancel` flag once the user asks to
/// stop; then `Error::Interrupted`, whatever `work` returned.
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
