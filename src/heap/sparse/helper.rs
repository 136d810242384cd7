//! The second thread of the sparse-space method: it fills the next block of heaps
//! (`Block::fill`, the splits with a far rare part) while the first computes the
//! values of the current one, reading the values already computed where they are (a
//! `Prefix` of the store the first appends to meanwhile). A handoff a block, of a few dozen heaps: the threads wait
//! for each other by spinning, then yielding; the second parks when not asked for a
//! while, and quits when the computation ends, whichever way it ends.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::Thread;
use std::time::{Duration, Instant};

use super::block::Block;
use crate::heap::store::Prefix;
use crate::heap::width::{Value, Width};

/// One block for the second thread: what `Block::fill` needs, with the values of
/// heaps `0..known` (all written before the job is posted).
#[derive(Debug, Default)]
pub struct Job {
    pub block: Block,
    pub start: usize,
    pub known: usize,
    pub rare: Vec<usize>,
    pub splits: Vec<usize>,
    pub distinct: bool,
    pub stride: usize,
    pub generation: u64,
}

const IDLE: u8 = 0;
const POSTED: u8 = 1;
const DONE: u8 = 2;
const QUIT: u8 = 3;

/// Where the two threads meet.
pub struct Helper {
    state: AtomicU8,
    job: Mutex<Job>,
    /// The second thread, to wake when parked.
    thread: OnceLock<Thread>,
}

impl Helper {
    fn lock(&self) -> MutexGuard<'_, Job> {
        self.job.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wake(&self) {
        if let Some(thread) = self.thread.get() {
            thread.unpark();
        }
    }

    /// Hand over a job (`fill` writes it in place); the second thread starts on it.
    /// Nothing is posted when `fill` returns false (no memory for the job).
    pub fn post(&self, fill: impl FnOnce(&mut Job) -> bool) -> bool {
        if !fill(&mut self.lock()) {
            return false;
        }
        self.state.store(POSTED, Ordering::Release);
        self.wake();
        true
    }

    /// Whether a job is posted and not yet taken back.
    pub fn busy(&self) -> bool {
        matches!(self.state.load(Ordering::Acquire), POSTED | DONE)
    }

    /// Wait for the posted job and take it back (`take` reads it in place).
    pub fn finish<R>(&self, take: impl FnOnce(&mut Job) -> R) -> R {
        wait_while(&self.state, |s| s == POSTED, false);
        let found = take(&mut self.lock());
        self.state.store(IDLE, Ordering::Release);
        found
    }
}

/// Run `body` with a second thread serving it, reading the values through `values`.
///
/// # Safety
/// The store of `values` appends but does not move its room until `body` returns,
/// and every job's `known` values are written before it is posted.
pub unsafe fn with_helper<R>(values: Prefix, body: impl FnOnce(&Helper) -> R) -> R {
    let helper = Helper {
        state: AtomicU8::new(IDLE),
        job: Mutex::new(Job::default()),
        thread: OnceLock::new(),
    };
    let helper = &helper;
    std::thread::scope(|scope| {
        let server = scope.spawn(move || serve(helper, values));
        let _ = helper.thread.set(server.thread().clone());
        let _quit = Quit(helper);
        body(helper)
    })
}

/// Tells the second thread to quit when the first is done, or unwinds.
struct Quit<'a>(&'a Helper);

impl Drop for Quit<'_> {
    fn drop(&mut self) {
        // A job under way is finished first (the mutex is held while it runs).
        self.0.state.store(QUIT, Ordering::Release);
        self.0.wake();
    }
}

fn serve(helper: &Helper, values: Prefix) {
    loop {
        // Idle, or done with a job not yet taken back.
        if wait_while(&helper.state, |s| s == IDLE || s == DONE, true) == QUIT {
            return;
        }
        let mut job = helper.lock();
        if helper.state.load(Ordering::Acquire) == QUIT {
            return;
        }
        let job = &mut *job;
        // SAFETY: `with_helper`'s promise; the mutex orders the writes before this.
        unsafe {
            match values.width() {
                Width::U8 => fill::<u8>(job, values),
                Width::U16 => fill::<u16>(job, values),
                Width::U32 => fill::<u32>(job, values),
            }
        }
        // Only a job left posted turns done: a quit is not overwritten.
        let _ = helper
            .state
            .compare_exchange(POSTED, DONE, Ordering::AcqRel, Ordering::Acquire);
    }
}

/// Do `job`, the values of type `V`.
///
/// # Safety
/// As `Prefix::values`, for the job's `known` values.
unsafe fn fill<V: Value>(job: &mut Job, values: Prefix) {
    // SAFETY: the caller's promise.
    let known = unsafe { values.values::<V>(job.known) };
    let (splits, rare) = (&job.splits, &job.rare);
    job.block
        .fill(known, job.start, rare, splits, job.distinct, job.stride);
}

/// Wait while `state` is one `waiting` is true of; the state that ended the wait. Spins first (a
/// handoff takes microseconds), then yields; `park`: then parks a millisecond at a
/// time (an idle second thread).
fn wait_while(state: &AtomicU8, waiting: impl Fn(u8) -> bool, park: bool) -> u8 {
    let mut round = 0u32;
    loop {
        let now = state.load(Ordering::Acquire);
        if !waiting(now) {
            return now;
        }
        round = round.saturating_add(1);
        if round < 1 << 12 {
            std::hint::spin_loop();
        } else if !park || round < 1 << 13 {
            std::thread::yield_now();
        } else {
            std::thread::park_timeout(Duration::from_millis(1));
        }
    }
}

/// Chooses between one thread and two as a run goes, by measuring both: a second
/// thread pays only while it has a core of its own (another process busy on the
/// other core makes every handoff wait for a time slice). The run goes in cycles: a
/// probe of each way, then a long stretch of the faster.
#[derive(Debug, Clone, Default)]
pub struct Pace {
    /// Where in the cycle: 0 probes two threads, 1 one thread, 2 runs the faster.
    phase: u8,
    /// Heaps left in the phase, and when it began (`None` before its first heap).
    left: usize,
    began: Option<(Instant, usize)>,
    /// Seconds a heap with one thread and with two, as last probed.
    seconds: [f64; 2],
}

/// Heaps in a probe, and in a stretch of the faster way.
const PROBE: usize = 1 << 13;
const STRETCH: usize = 1 << 17;

impl Pace {
    /// Whether the heaps now go with two threads.
    pub fn two(&self) -> bool {
        match self.phase {
            0 => true,
            1 => false,
            _ => self.seconds[1] < self.seconds[0],
        }
    }

    /// Heap `n` is next: measure the phase and move on when it is over.
    pub fn at(&mut self, n: usize) {
        let now = Instant::now();
        let Some((began, first)) = self.began else {
            (self.began, self.left) = (Some((now, n)), PROBE);
            return;
        };
        let done = n.saturating_sub(first);
        if done < self.left {
            return;
        }
        if self.phase < 2 {
            let seconds = now.duration_since(began).as_secs_f64() / done.max(1) as f64;
            self.seconds[usize::from(self.phase == 0)] = seconds;
        }
        self.phase = (self.phase + 1) % 3;
        self.left = if self.phase == 2 { STRETCH } else { PROBE };
        self.began = Some((now, n));
    }
}
