//! Short parallel work started from outside rayon's pool (Python's thread, with the
//! GIL released), the calling thread working from the start.
//!
//! A parallel iterator started there hands its job to the pool and sleeps: nothing
//! runs until a sleeping worker wakes, that worker wakes the next, and the caller is
//! woken at the end. On a virtual machine each wake can take tens of microseconds,
//! as long as a whole step of a vector of learning environments. Here the caller
//! takes pieces at once; the pool's workers, asked to help, take pieces from the same
//! counter when they wake, and one that wakes after the work is done leaves at once.
//! The caller never waits for a worker to wake, only for a piece in a worker's hands.
use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

type Work<'a, E> = dyn Fn(usize) -> Result<(), E> + Sync + 'a;

enum Failure<E> {
    Error(E),
    Panic(Box<dyn Any + Send>),
}

struct Shared<E> {
    /// The caller's work with its lifetime erased. A helper calls it only after
    /// counting itself in `active` and then seeing `closed` unset; the caller sets
    /// `closed` and waits for `active` to reach zero before it returns.
    work: *const Work<'static, E>,
    pieces: usize,
    next: AtomicUsize,
    active: AtomicUsize,
    closed: AtomicBool,
    failed: Mutex<Option<Failure<E>>>,
}

// SAFETY: `work` is `Sync` and is called only as `Shared::work` says; the other
// fields are `Sync` for a `Send` error.
unsafe impl<E: Send> Send for Shared<E> {}
unsafe impl<E: Send> Sync for Shared<E> {}

impl<E> Shared<E> {
    /// Take pieces until none is left or one fails (the first failure is kept, and
    /// no piece starts after it).
    fn run(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.pieces {
                return;
            }
            // SAFETY: see `Shared::work`: the caller is inside `each_piece`.
            let work = unsafe { &*self.work };
            let failure = match catch_unwind(AssertUnwindSafe(|| work(i))) {
                Ok(Ok(())) => continue,
                Ok(Err(e)) => Failure::Error(e),
                Err(panic) => Failure::Panic(panic),
            };
            self.failed
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(failure);
            self.next.store(self.pieces, Ordering::Relaxed);
            return;
        }
    }
}

/// Closes the work to helpers and waits for those inside it, also when the caller
/// unwinds.
struct Close<'a, E>(&'a Shared<E>);

impl<E> Drop for Close<'_, E> {
    fn drop(&mut self) {
        self.0.closed.store(true, Ordering::SeqCst);
        // A helper inside finishes the piece in its hands: a short wait.
        while self.0.active.load(Ordering::SeqCst) != 0 {
            std::hint::spin_loop();
        }
    }
}

/// Run `work(i)` for every `i < pieces`, each once, on the calling thread and on the
/// pool's workers that wake in time; `work` must allow calls for different pieces at
/// once. The first error is returned (pieces not yet started are skipped), a panic
/// goes on in the caller.
pub fn each_piece<E: Send + 'static>(pieces: usize, work: &Work<'_, E>) -> Result<(), E> {
    // SAFETY: only the lifetime changes; `Close` keeps every call inside this function.
    let work = unsafe { std::mem::transmute::<*const Work<'_, E>, *const Work<'static, E>>(work) };
    let shared = Arc::new(Shared {
        work,
        pieces,
        next: AtomicUsize::new(0),
        active: AtomicUsize::new(0),
        closed: AtomicBool::new(false),
        failed: Mutex::new(None),
    });
    for _ in 1..rayon::current_num_threads().min(pieces) {
        let shared = Arc::clone(&shared);
        rayon::spawn(move || {
            shared.active.fetch_add(1, Ordering::SeqCst);
            if !shared.closed.load(Ordering::SeqCst) {
                shared.run();
            }
            shared.active.fetch_sub(1, Ordering::SeqCst);
        });
    }
    {
        let _close = Close(&shared);
        shared.run();
    }
    let failed = shared
        .failed
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    match failed {
        None => Ok(()),
        Some(Failure::Error(e)) => Err(e),
        Some(Failure::Panic(panic)) => resume_unwind(panic),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells `8 i .. 8 i + 8` of piece `i`, each piece taken once.
    fn pieces(cells: &mut [u32]) -> Vec<Mutex<Option<&mut [u32]>>> {
        cells.chunks_mut(8).map(|c| Mutex::new(Some(c))).collect()
    }

    #[test]
    fn every_piece_once() {
        for _ in 0..200 {
            let mut cells = vec![0u32; 1000];
            let slots = pieces(&mut cells);
            each_piece::<()>(slots.len(), &|i| {
                let piece = slots[i].lock().unwrap().take().expect("taken once");
                piece.iter_mut().for_each(|c| *c += 1);
                Ok(())
            })
            .unwrap();
            assert!(cells.iter().all(|&c| c == 1));
        }
    }

    #[test]
    fn the_first_error_stops_the_rest() {
        let done = AtomicUsize::new(0);
        let got = each_piece(10_000, &|i| {
            done.fetch_add(1, Ordering::Relaxed);
            if i == 3 {
                Err(i)
            } else {
                Ok(())
            }
        });
        assert_eq!(got, Err(3));
        assert!(done.load(Ordering::Relaxed) < 10_000);
    }

    #[test]
    fn a_panic_goes_on_in_the_caller() {
        let got = catch_unwind(|| {
            each_piece::<()>(100, &|i| if i == 50 { panic!("piece 50") } else { Ok(()) })
        });
        let message = got.unwrap_err();
        assert_eq!(message.downcast_ref::<&str>(), Some(&"piece 50"));
    }

    #[test]
    fn a_busy_pool_leaves_the_caller_to_work_alone() {
        // The caller is one of the pool's two workers and the other is held until the
        // work is done: the helper asked for cannot start before the caller returns.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let release = Arc::new(AtomicBool::new(false));
        let mut cells = vec![0u32; 100];
        pool.install(|| {
            let (held, holding) = std::sync::mpsc::channel();
            let wait = Arc::clone(&release);
            rayon::spawn(move || {
                held.send(()).unwrap();
                while !wait.load(Ordering::SeqCst) {
                    std::thread::yield_now();
                }
            });
            holding.recv().unwrap();
            let slots = pieces(&mut cells);
            let got = each_piece::<()>(slots.len(), &|i| {
                slots[i].lock().unwrap().take().unwrap().fill(7);
                Ok(())
            });
            release.store(true, Ordering::SeqCst);
            got
        })
        .unwrap();
        assert!(cells.iter().all(|&c| c == 7));
    }
}
