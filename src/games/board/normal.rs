//! Normal play on the vertex-deletion engine: the value of a position, by the
//! bitboards (`grid`) or the pruned search of a graph, with eviction past the memory
//! bound; and the plain search (`split::plain`) that checks them.
use std::sync::PoisonError;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::graph::{Deletion, Graph};
use super::sets::{key_bits, Bits, Key};
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::split::budget::{Budget, Evictions, Step, STALLS};
use crate::split::plain;
use crate::split::pruned::{Search, Wide};
use crate::split::table::{self, Private};

impl Deletion {
    /// The normal-play Grundy value of `set` within `budget`, searched to the end
    /// (a search in steps is `value_until`); `report` hears now and then how many
    /// components are valued. Boards go to their bitboards (`grid`); other graphs are
    /// searched with pruning (`pruned`), or plainly if a value of 64 or more comes up.
    pub fn value(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<u64> {
        let budget = Budget {
            until: None,
            ..budget
        };
        self.evicting(budget, |budget| self.value_once(set, budget, report))
    }

    /// The value of `set` as `value` finds it, searched until `until` at most:
    /// `Step::Paused` if the time ran out first, what the search learned kept, so that
    /// asking again goes on (a run with a checkpoint saves between its steps).
    pub fn value_until(
        &self,
        set: &[u64],
        budget: Budget,
        until: Instant,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<Step<u64>> {
        let budget = Budget {
            until: Some(until),
            ..budget
        };
        match self.evicting(budget, |budget| self.value_once(set, budget, report)) {
            Ok(value) => Ok(Step::Done(value)),
            Err(Error::Paused { made_room }) => Ok(Step::Paused { made_room }),
            Err(error) => Err(error),
        }
    }

    /// `ask`, and with `budget.evict` asked again each time it stops at the bound
    /// (searches on several threads, whose shared tables are not pruned under them;
    /// one search makes room in place, `pruned::Search::make_room`, and its error
    /// past the bound is final: its stack does not fit), once room is made (`evict`);
    /// the bound's error after `STALLS` rounds in a row that kept no more than before
    /// (the search cannot go on within it), the count going on
    /// across the steps of a search paused and asked again, whose steps grow once
    /// one has made room in place (`Evictions::stretch`).
    pub(super) fn evicting<T>(
        &self,
        budget: Budget,
        mut ask: impl FnMut(Budget) -> Result<T>,
    ) -> Result<T> {
        let lock = || {
            self.evictions
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        let mut went = *lock();
        let budget = went.stretch(budget);
        let done = loop {
            match ask(budget) {
                Err(
                    error @ Error::MemoryBound {
                        made_room: false, ..
                    },
                ) if budget.evict => {
                    let kept = match self.evict(budget.max_memory) {
                        Ok(kept) => kept,
                        Err(error) => break Err(error),
                    };
                    if kept > went.most {
                        went = Evictions {
                            most: kept,
                            stalls: 0,
                            ..went
                        };
                    } else {
                        went.stalls += 1;
                        if went.stalls == STALLS {
                            break Err(error);
                        }
                    }
                }
                done => break done,
            }
        };
        // A paused search goes on where it was; any other end starts the count anew.
        *lock() = match done {
            Err(Error::Paused { made_room }) => Evictions {
                doublings: went.doublings + u32::from(made_room),
                ..went
            },
            _ => Evictions::default(),
        };
        done
    }

    /// Room in the tables, for searches bounded by `bound` bytes: the values of the
    /// smallest components dropped (`table::evict`; a graph's by the bits of their
    /// keys, which grow with the component). The sizes of the values kept, summed.
    pub(super) fn evict(&self, bound: u64) -> Result<u64> {
        let board = self.boards.evict(bound)?;
        let mut graph = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        let poll = &mut Poll::default();
        Ok(board + table::evict(&mut graph, bound, self.component_key_heap(), key_bits, poll)?)
    }

    pub(super) fn value_once(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<u64> {
        if let Some(value) = self.boards.value(set, budget, report)? {
            return Ok(value);
        }
        let mut graph = self.graph()?;
        let mut table = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        let mut value = 0;
        for component in self.components(set) {
            let found = Search::new(&mut graph, &mut Private::new(&mut table)?, budget, report)?
                .value(&component)?;
            value ^= u64::from(match found {
                Ok(v) => v,
                Err(Wide) => self.plain_value(component, &mut table, budget, report)?,
            });
        }
        Ok(value)
    }

    /// Whether the normal-play value of `set` is `target` (as `pruned::Search::sum_is`
    /// asks it: an outcome, or whether an option wins, costs a fraction of a value).
    pub fn value_is(
        &self,
        set: &[u64],
        target: u32,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        self.evicting(budget, |budget| {
            self.value_is_once(set, target, budget, report)
        })
    }

    pub(super) fn value_is_once(
        &self,
        set: &[u64],
        target: u32,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        if let Some(is) = self.boards.value_is(set, target, budget, report)? {
            return Ok(is);
        }
        let parts = self.components(set);
        let mut graph = self.graph()?;
        let found = {
            let mut table = self.values.lock().unwrap_or_else(PoisonError::into_inner);
            Search::new(&mut graph, &mut Private::new(&mut table)?, budget, report)?
                .sum_is(&parts, target)?
        };
        match found {
            Ok(is) => Ok(is),
            // A value of 64 or more came up: the plain search values it.
            Err(Wide) => Ok(self.value_once(set, budget, report)? == u64::from(target)),
        }
    }

    /// The normal-play value of `set` by the plain search alone, in a table of its
    /// own: the reference the pruned search is checked against.
    pub fn plain_value_of(&self, set: &[u64]) -> Result<u64> {
        let mut table = FxHashMap::default();
        let mut value = 0;
        for component in self.components(set) {
            let budget = Budget::default();
            value ^= u64::from(self.plain_value(component, &mut table, budget, &|_| {})?);
        }
        Ok(value)
    }

    /// The value of a connected component by the engine's plain search
    /// (`split::plain`), in `values`.
    pub(super) fn plain_value(
        &self,
        component: Bits,
        values: &mut FxHashMap<Key, u32>,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<u32> {
        plain::value(&mut Graph(self), component, values, budget, report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board::kinds::Moves;

    /// A search in short steps (each paused, then asked again from the top, as a run
    /// with a checkpoint goes) that makes room in place still ends, and still pauses
    /// once it has: Cram 3 x 13 (2) in 32 KiB and steps of a millisecond or of no
    /// time, on one thread (a pause drops the stack, which a table that small cannot
    /// give back: steps that did not grow never ended).
    #[test]
    fn short_steps_that_evict_end() {
        for step in [1, 0].map(std::time::Duration::from_millis) {
            let engine = Deletion::board(3, 13, Moves::Edge).unwrap();
            let set = engine.all();
            let one = rayon::ThreadPoolBuilder::new().num_threads(1).build();
            let (mut steps, mut made_room) = (0, 0);
            let found = one.unwrap().install(|| loop {
                assert!(steps < 20_000, "no end after {steps} steps of {step:?}");
                steps += 1;
                let budget = Budget {
                    max_memory: 32 << 10,
                    evict: true,
                    ..Budget::default()
                };
                match engine.value_until(&set, budget, Instant::now() + step, &|_| {}) {
                    Ok(Step::Paused { made_room: true }) => made_room += 1,
                    Ok(Step::Paused { made_room: false }) => {}
                    found => break found,
                }
            });
            assert_eq!(found, Ok(Step::Done(2)));
            assert!(made_room > 0, "no pause after making room in {steps} steps");
        }
    }

    /// A search stopped at the bound is asked again after room is made, until
    /// `STALLS` rounds keep no more; not one that had made room in place (its stack
    /// does not fit the bound: asking again cannot help).
    #[test]
    fn asked_again_at_the_bound_unless_room_was_made_in_place() {
        let engine = Deletion::board(2, 3, Moves::Edge).unwrap();
        let budget = Budget {
            max_memory: 1 << 10,
            evict: true,
            ..Budget::default()
        };
        for (made_room, rounds) in [(false, STALLS), (true, 1)] {
            let mut asked = 0;
            let found: Result<()> = engine.evicting(budget, |_| {
                asked += 1;
                Err(Error::MemoryBound {
                    needed: 2 << 10,
                    bound: 1 << 10,
                    entries: 0,
                    made_room,
                })
            });
            assert!(matches!(found, Err(Error::MemoryBound { .. })));
            assert_eq!(asked, rounds, "made room in place: {made_room}");
        }
    }
}
