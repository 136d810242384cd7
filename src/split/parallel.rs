//! The value of a large component searched on several threads at once.
//!
//! The search is `pruned`'s, by aspiration: for v = 0, 1, ... a round asks every
//! option of the component whether it has value v, and a round no option ends gives
//! the value (whether a component has value t asks about 0 to t alone, an outcome
//! about 0). In a round each thread takes a run of the options, in the order one
//! search would ask them (easiest first), and asks them one at a time from its
//! front; a thread whose run is done takes options from the back of the longest
//! run left. Options next to each other share the most positions, so a thread
//! finds in the table much of what its next option needs (dealt one each from the
//! front and the back instead, 5 x 8 took 15% longer). Each thread asks with a
//! search of its own (its own stack); they all read the table as it was, and share
//! what they learn, values and refuted values, in tables of atomic words
//! (`table::Fresh`), entered in the table at the end. A search about to start on a
//! part another thread is on puts it off once and asks about its other options
//! first, as ABDADA does, rather than search it twice. An option of value v ends the
//! round for all (the others abandon the options in their hands; what they learned
//! stays), and the next round asks about v + 1.
//!
//! Searches started apart do more work together than one (an option's search no
//! longer finds what the options before it taught), yet on 5 x 8 the two threads
//! take about half of one's time.
//!
//! The thread the caller waits on asks about Ctrl-C (Python's signal handlers run
//! only on its main thread); the others watch a flag it, or any thread that fails,
//! raises.
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;

use super::budget::{Budget, STALLS};
use super::pruned::{Answer, Begun, Move, Root, Round, Search, Split, Wide};
use super::table::{self, Fresh, Frozen, Packed};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::{self, Poll};

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
/// and then. The rounds stop after asking about `upto` (an outcome asks about 0
/// alone): None if the value is larger.
///
/// With `budget.evict`, a round that reaches the bound has room made in `table`
/// (`table::evict`) and goes on where it was, what its moves answered kept; the
/// bound's error after `STALLS` evictions in a row with no answer and nothing
/// larger kept.
pub fn value<S>(
    game: &mut S,
    table: &mut FxHashMap<S::Key, u32>,
    part: &S::Part,
    upto: u32,
    threads: usize,
    budget: Budget,
    report: &(dyn Fn(usize) + Sync),
) -> Result<Answer>
where
    S: Split + Clone + Send,
    S::Part: Send + Sync,
    S::Key: Packed + Send + Sync,
{
    let mut root = None;
    let (mut most, mut answered, mut stalls) = (0, 0, 0);
    loop {
        let mut fresh = Fresh::default();
        let found = search(
            game, table, &fresh, part, upto, threads, budget, report, &mut root,
        );
        table
            .try_reserve(fresh.count())
            .map_err(|_| alloc::too_large::<(S::Key, u32)>(fresh.count()))?;
        table.extend(fresh.entries());
        let Some(begun) = &root else {
            return found;
        };
        match found {
            Err(
                error @ Error::MemoryBound {
                    made_room: false, ..
                },
            ) if budget.evict => {
                let size =
                    |key: &S::Key| (0..S::Key::WORDS).map(|i| key.word(i).count_ones()).sum();
                let poll = &mut Poll::default();
                let kept = table::evict(table, budget.max_memory, game.key_heap(), size, poll)?;
                if kept > most || begun.answered > answered {
                    (most, answered, stalls) = (kept.max(most), begun.answered, 0);
                } else {
                    stalls += 1;
                    if stalls == STALLS {
                        return Err(error);
                    }
                }
            }
            found => return found,
        }
    }
}

/// One try of `value`, its searches reading `table` and sharing `fresh`: the root,
/// begun here or by a try before (`root`), is left in `root` if the try fails.
#[allow(clippy::too_many_arguments)]
fn search<S>(
    game: &mut S,
    table: &FxHashMap<S::Key, u32>,
    fresh: &Fresh<S::Key>,
    part: &S::Part,
    upto: u32,
    threads: usize,
    budget: Budget,
    report: &(dyn Fn(usize) + Sync),
    root: &mut Option<Root<S::Part, S::Key>>,
) -> Result<Answer>
where
    S: Split + Clone + Send,
    S::Part: Send + Sync,
    S::Key: Packed + Send + Sync,
{
    let stop = Arc::new(AtomicBool::new(false));
    let mut games: Vec<S> = (1..threads).map(|_| game.clone()).collect();
    let mut views: Vec<_> = (1..threads).map(|_| Frozen::new(table, fresh)).collect();
    let mut view = Frozen::new(table, fresh);
    let mut first = Search::new(game, &mut view, budget, report)?.watching(stop.clone(), true);
    let mut helpers = Vec::with_capacity(games.len());
    for (game, view) in games.iter_mut().zip(&mut views) {
        helpers.push(Search::new(game, view, budget, &quiet)?.watching(stop.clone(), false));
    }
    let begun = match root.take() {
        Some(begun) => {
            let begun = root.insert(begun);
            first.adopt(begun)?;
            begun
        }
        None => match first.root(part)? {
            Begun::Done(found) => return Ok(found.map(Some)),
            Begun::Root(begun) => root.insert(begun),
        },
    };
    let found = begun.aspire(upto, |v, root| {
        round(&mut first, &mut helpers, &stop, root, v)
    })?;
    let begun = root.take().expect("the root searched");
    first.end(begun, found)
}

/// The moves `0..moves` cut into `threads` runs, one a thread.
fn runs(moves: usize, threads: usize) -> Vec<Range<usize>> {
    (0..threads)
        .map(|t| t * moves / threads..(t + 1) * moves / threads)
        .collect()
}

/// The move thread `mine` asks next: the next of its run, or once its run is done,
/// the last of the longest run left (None when every run is done).
fn next(runs: &mut [Range<usize>], mine: usize) -> Option<usize> {
    runs[mine].next().or_else(|| {
        let longest = runs.iter_mut().max_by_key(|run| run.len())?;
        longest.next_back()
    })
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
    T: super::table::Values<S::Key> + Send,
{
    stop.store(false, Ordering::SeqCst);
    // The moves not yet answered in this round (all, but in a round asked again).
    let asked: Vec<usize> = (0..root.moves.len())
        .filter(|&i| !root.moves[i].lacks(v))
        .collect();
    let runs = Mutex::new(runs(asked.len(), helpers.len() + 1));
    let failure = Mutex::new(None);
    let (parts, moves) = (&root.parts, &root.moves);
    // Ask moves, one at a time, until none is left or the round ends.
    let work = |search: &mut Search<'_, S, T>, mine: usize| -> Answers {
        let mut answers = Vec::new();
        while !stop.load(Ordering::SeqCst) {
            let Some(i) = next(
                &mut runs.lock().unwrap_or_else(PoisonError::into_inner),
                mine,
            ) else {
                break;
            };
            let i = asked[i];
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
                    // An error after the round ended is that thread's abandoning it;
                    // the user's Ctrl-C is never lost to another thread's error.
                    if !stop.swap(true, Ordering::SeqCst) || error == Error::Interrupted {
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
            .enumerate()
            .map(|(t, search)| {
                let (work, caller) = (&work, caller.clone());
                scope.spawn(move || {
                    let answers = work(search, t + 1);
                    caller.unpark();
                    answers
                })
            })
            .collect();
        let mut answers = work(first, 0);
        // Ctrl-C while the others finish the moves in their hands.
        if interrupt::wait_until(|| handles.iter().all(|h| h.is_finished())) {
            stop.store(true, Ordering::SeqCst);
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
    // The answers got are taken also when the round fails: asked again, it goes on.
    answers.sort_unstable_by_key(|&(i, ..)| i);
    let mut end = None;
    for (i, m, answer) in answers {
        end = match (end, root.apply(i, m, answer, v)) {
            (_, Some(Round::Wide)) | (Some(Round::Wide), _) => Some(Round::Wide),
            (old, new) => new.or(old),
        };
    }
    let end = root.sweep(end);
    match failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(error) => Err(error),
        None => Ok(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move is dealt once, each thread asking its own run in order before it
    /// takes the others' last moves.
    #[test]
    fn each_move_is_dealt_once() {
        for threads in 1..5 {
            for moves in 0..40 {
                let mut runs = runs(moves, threads);
                let own = runs.clone();
                let mut dealt = vec![Vec::new(); threads];
                let mut t = 0;
                while let Some(i) = next(&mut runs, t % threads) {
                    dealt[t % threads].push(i);
                    t += 1 + i % 3;
                }
                let mut all: Vec<usize> = dealt.concat();
                all.sort_unstable();
                assert_eq!(all, (0..moves).collect::<Vec<_>>(), "{moves} {threads}");
                for (mine, got) in dealt.iter().enumerate() {
                    let ours = got.iter().take_while(|&i| own[mine].contains(i)).count();
                    let run: Vec<usize> = own[mine].clone().take(ours).collect();
                    assert_eq!(got[..ours], run, "{moves} {threads} {mine}");
                    assert!(got[ours..].iter().all(|i| !own[mine].contains(i)));
                }
            }
        }
    }
}
