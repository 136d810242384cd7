//! The value of a large component searched on several threads at once.
//!
//! The search is `pruned`'s, by aspiration: for v = 0, 1, ... a round asks every
//! option of the component whether it has value v, and a round no option ends gives
//! the value. In a round the options are dealt out one at a time: the caller's
//! thread takes them from the front, in the order one search would, and the others
//! from the back (the hardest first), until they meet. Each thread asks with a
//! search of its own (its own stack); they all read the table as it was, and share
//! what they learn, values and refuted values, in tables of atomic words
//! (`values::Fresh`), entered in the table at the end. A search about to start on a
//! part another thread is on puts it off once and asks about its other options
//! first, as ABDADA does, rather than search it twice. An option of value v ends the
//! round for all (the others abandon the options in their hands; what they learned
//! stays), and the next round asks about v + 1.
//!
//! Searches started apart do more work together than one (an option's search no
//! longer finds what the options before it taught): on 5 x 8 the two threads do
//! about 1.3 times the work of one, in 0.7 of its time.
//!
//! The thread the caller waits on asks about Ctrl-C (Python's signal handlers run
//! only on its main thread); the others watch a flag it, or any thread that fails,
//! raises.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;

use super::budget::Budget;
use super::pruned::{Answer, Begun, Move, Root, Round, Search, Split, Wide};
use super::values::{Fresh, Frozen, Packed};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt;

/// Components of fewer cells are searched on one thread: their search is over before
/// a thread starts.
pub const FROM_SIZE: u32 = 32;

/// The threads a search of a large component uses: rayon's (`RAYON_NUM_THREADS`),
/// but one when called from rayon's pool, whose threads are busy already.
pub fn threads() -> usize {
    if rayon::current_thread_index().is_some() {
        1
    } else {
        rayon::current_num_threads()
    }
}

fn quiet(_: usize) {}

/// The value of `part` searched by `threads` threads (the caller's among them) that
/// read `table` and share what they learn, entered in `table` at the end (also when
/// the search fails: Ctrl-C keeps what was learned); `report` hears its size now
/// and then.
pub fn value<S>(
    game: &mut S,
    table: &mut FxHashMap<S::Key, u32>,
    part: &S::Part,
    threads: usize,
    budget: Budget,
    report: &(dyn Fn(usize) + Sync),
) -> Result<std::result::Result<u32, Wide>>
where
    S: Split + Clone + Send,
    S::Part: Send + Sync,
    S::Key: Packed + Send + Sync,
{
    let mut fresh = Fresh::default();
    let found = (|| {
        let (table, fresh) = (&*table, &fresh);
        let stop = Arc::new(AtomicBool::new(false));
        let mut games: Vec<S> = (1..threads).map(|_| game.clone()).collect();
        let mut views: Vec<_> = (1..threads).map(|_| Frozen::new(table, fresh)).collect();
        let mut view = Frozen::new(table, fresh);
        let mut first = Search::new(game, &mut view, budget, report)?.watching(stop.clone(), true);
        let mut helpers = Vec::with_capacity(games.len());
        for (game, view) in games.iter_mut().zip(&mut views) {
            helpers.push(Search::new(game, view, budget, &quiet)?.watching(stop.clone(), false));
        }
        let mut root = match first.root(part)? {
            Begun::Done(found) => return Ok(found),
            Begun::Root(root) => root,
        };
        let found = root.aspire(|v, root| round(&mut first, &mut helpers, &stop, root, v))?;
        first.end(root, found)
    })();
    table
        .try_reserve(fresh.count())
        .map_err(|_| alloc::too_large::<(S::Key, u32)>(fresh.count()))?;
    table.extend(fresh.entries());
    found
}

/// The answers a thread got in a round: each move's index, the move as asking it
/// left it, and the answer.
type Answers = Vec<(usize, Move, Answer)>;

/// One round: every move of `root` asked whether it has value `v`, by the threads
/// of `first` (the caller's) and `helpers`.
fn round<S, T>(
    first: &mut Search<'_, S, T>,
    helpers: &mut [Search<'_, S, T>],
    stop: &AtomicBool,
    root: &mut Root<S::Part, S::Key>,
    v: u32,
) -> Result<Round>
where
    S: Split + Send,
    S::Part: Send + Sync,
    S::Key: Send,
    T: super::values::Values<S::Key> + Send,
{
    stop.store(false, Ordering::SeqCst);
    // The moves not yet dealt: the caller's thread takes them from the front, in
    // the order one search would, the others from the back.
    let left = Mutex::new(0..root.moves.len());
    let failure = Mutex::new(None);
    let (parts, moves) = (&root.parts, &root.moves);
    // Ask moves, one at a time, until none is left or the round ends.
    let work = |search: &mut Search<'_, S, T>, front: bool| -> Answers {
        let mut answers = Vec::new();
        while !stop.load(Ordering::SeqCst) {
            let mut left = left.lock().unwrap_or_else(PoisonError::into_inner);
            let Some(i) = (if front { left.next() } else { left.next_back() }) else {
                break;
            };
            drop(left);
            let mut m = moves[i];
            match search.settle(parts, &mut m, v) {
                Ok(answer) => {
                    let ends = match answer {
                        Err(Wide) => true,
                        Ok(found) => found == Some(v),
                    };
                    answers.push((i, m, answer));
                    if ends {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                Err(error) => {
                    // An error after the round ended is that thread's abandoning it.
                    if !stop.swap(true, Ordering::SeqCst) {
                        *failure.lock().unwrap_or_else(PoisonError::into_inner) = Some(error);
                    }
                }
            }
        }
        answers
    };
    let mut answers = std::thread::scope(|scope| {
        let caller = std::thread::current();
        let handles: Vec<_> = helpers
            .iter_mut()
            .map(|search| {
                let (work, caller) = (&work, caller.clone());
                scope.spawn(move || {
                    let answers = work(search, false);
                    caller.unpark();
                    answers
                })
            })
            .collect();
        let mut answers = work(first, true);
        // Ctrl-C while the others finish the moves in their hands.
        if interrupt::wait_until(|| handles.iter().all(|h| h.is_finished()))
            && !stop.swap(true, Ordering::SeqCst)
        {
            *failure.lock().unwrap_or_else(PoisonError::into_inner) = Some(Error::Interrupted);
        }
        for handle in handles {
            match handle.join() {
                Ok(more) => answers.extend(more),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        answers
    });
    if let Some(error) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(error);
    }
    answers.sort_unstable_by_key(|&(i, ..)| i);
    let mut end = None;
    for (i, m, answer) in answers {
        end = match (end, root.apply(i, m, answer, v)) {
            (_, Some(Round::Wide)) | (Some(Round::Wide), _) => Some(Round::Wide),
            (old, new) => new.or(old),
        };
    }
    Ok(root.sweep(end))
}
