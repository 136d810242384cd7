//! The top of a search laid out for workers elsewhere (a cluster: `nimkit.cluster`),
//! as questions a worker answers with the core's own search and a client settles
//! the root from, asking only what is still needed.
//!
//! - Normal play (`Questions`): the value of each part of the root by aspiration, as
//!   one search finds it: in round v every option of the part is asked "is your
//!   value v?" (the pruned search's cheap question); the first yes ends the round,
//!   none makes v the part's value.
//! - Misère play (`Top`), where the sum rule fails: the positions of the first
//!   `depth` moves, one of each (keyed by the multiset of their parts' keys); the
//!   positions at the bottom are asked their outcome, and a position above wins
//!   when it has no option or an option that loses, settled as soon as the answers
//!   in hand decide it.
//!
//! The layout depends only on the game (and the depth), so every worker lays out
//! the same top from its copy of the game and a question is named by its indices.
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::{GameRef, Limits, Part};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::base::outcome::Outcome;

/// The deepest misère top laid out: each level multiplies the positions by the moves.
pub const MAX_DEPTH: u32 = 4;

/// The most positions a misère top holds.
pub const MAX_NODES: usize = 1 << 21;

/// The key of a whole position: its parts' keys, sorted, each after its length.
fn position_key(parts: &[Part<GameRef>]) -> Vec<u8> {
    let mut keys: Vec<&[u8]> = parts.iter().map(|p| &p.key[..]).collect();
    keys.sort_unstable();
    let mut key = Vec::new();
    for k in keys {
        key.extend_from_slice(&(k.len() as u32).to_le_bytes());
        key.extend_from_slice(k);
    }
    key
}

fn parts_of(game: &GameRef) -> Result<Vec<Part<GameRef>>> {
    game.split().ok_or(Error::NoParts(game.family()))
}

/// A position of the misère top.
#[derive(Debug)]
struct Node {
    game: GameRef,
    key: Vec<u8>,
    size: u32,
    /// Its options' nodes; `None` for the positions asked of workers.
    options: Option<Vec<usize>>,
}

/// The misère top: the positions of the first `depth` moves, and what the workers
/// have said of those at the bottom.
#[derive(Debug)]
pub struct Top {
    nodes: Vec<Node>,
    /// The positions asked of workers, the largest first.
    work: Vec<usize>,
    /// What each node is known to be: `Some(true)` wins, `Some(false)` loses.
    known: Vec<Option<bool>>,
    /// The nodes of `work` whose answer could still change the root's.
    needed: Vec<bool>,
    depth: u32,
}

impl Top {
    /// The misère top of `game`'s search `depth` moves deep.
    pub fn new(game: &GameRef, depth: u64) -> Result<Top> {
        let depth = match u32::try_from(depth) {
            Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
            _ => {
                return Err(Error::TopDepth {
                    most: MAX_DEPTH,
                    asked: depth,
                })
            }
        };
        let mut top = Top {
            nodes: Vec::new(),
            work: Vec::new(),
            known: Vec::new(),
            needed: Vec::new(),
            depth,
        };
        let mut index = FxHashMap::default();
        let mut level = Vec::new();
        top.node_of(game, &mut index, &mut level)?;
        let mut poll = Poll::default();
        for _ in 0..depth {
            let mut next = Vec::new();
            for n in level {
                let moves = top.nodes[n].game.options()?;
                let mut options = alloc::with_capacity(moves.len())?;
                for option in moves {
                    poll.tick()?;
                    options.push(top.node_of(&option, &mut index, &mut next)?);
                }
                top.nodes[n].options = Some(options);
            }
            level = next;
        }
        top.work = (0..top.nodes.len())
            .filter(|&n| top.nodes[n].options.is_none())
            .collect();
        top.work
            .sort_by_key(|&n| std::cmp::Reverse(top.nodes[n].size));
        top.known = vec![None; top.nodes.len()];
        top.needed = vec![true; top.nodes.len()];
        top.settle();
        Ok(top)
    }

    /// The node of the position `game`, entered once under its key (a new one also
    /// in `fresh`, to be expanded at the next level).
    fn node_of(
        &mut self,
        game: &GameRef,
        index: &mut FxHashMap<Vec<u8>, usize>,
        fresh: &mut Vec<usize>,
    ) -> Result<usize> {
        let parts = parts_of(game)?;
        let key = position_key(&parts);
        if let Some(&n) = index.get(&key) {
            return Ok(n);
        }
        if self.nodes.len() == MAX_NODES {
            return Err(Error::TopTooLarge {
                depth: self.depth,
                most: MAX_NODES,
            });
        }
        alloc::grow_by(&mut self.nodes, 1)?;
        self.nodes.push(Node {
            game: Arc::clone(game),
            key: key.clone(),
            size: parts.iter().map(|p| p.size).sum(),
            options: None,
        });
        let n = self.nodes.len() - 1;
        index.insert(key, n);
        fresh.push(n);
        Ok(n)
    }

    /// How many positions are asked of workers in all.
    pub fn len(&self) -> usize {
        self.work.len()
    }

    pub fn is_empty(&self) -> bool {
        self.work.is_empty()
    }

    /// The `i`-th position asked of workers, its key and its size.
    pub fn work(&self, i: usize) -> Option<(&GameRef, &[u8], u32)> {
        let node = &self.nodes[*self.work.get(i)?];
        Some((&node.game, &node.key, node.size))
    }

    /// The positions still to ask: not answered, and able to change the root's
    /// answer.
    pub fn open(&self) -> Vec<usize> {
        let open = |&i: &usize| {
            let n = self.work[i];
            self.known[n].is_none() && self.needed[n]
        };
        (0..self.work.len()).filter(open).collect()
    }

    /// Enter a worker's answer: whether the `i`-th position wins.
    pub fn tell(&mut self, i: usize, wins: bool) -> Result<()> {
        let n = *self.work.get(i).ok_or_else(|| {
            Error::TopAnswers(format!(
                "the top asks {} positions, not {}",
                self.work.len(),
                i + 1
            ))
        })?;
        self.known[n] = Some(wins);
        self.settle();
        Ok(())
    }

    /// Whether the root wins, once the answers in hand decide it.
    pub fn answer(&self) -> Option<bool> {
        self.known[0]
    }

    /// Settle every node the answers decide (a post-order: options are smaller),
    /// then mark the nodes still needed: those reached from the root through
    /// nodes not settled.
    fn settle(&mut self) {
        let mut done = vec![false; self.nodes.len()];
        let mut stack = vec![0];
        while let Some(&n) = stack.last() {
            let Some(options) = &self.nodes[n].options else {
                done[n] = true;
                stack.pop();
                continue;
            };
            if done[n] {
                stack.pop();
                continue;
            }
            let before = stack.len();
            stack.extend(options.iter().filter(|&&m| !done[m]));
            if stack.len() > before {
                continue;
            }
            stack.pop();
            done[n] = true;
            let loses = |&m: &usize| self.known[m] == Some(false);
            let wins = |&m: &usize| self.known[m] == Some(true);
            self.known[n] = if options.is_empty() || options.iter().any(loses) {
                Some(true)
            } else if options.iter().all(wins) {
                Some(false)
            } else {
                None
            };
        }
        self.needed.fill(false);
        let mut stack = vec![0];
        while let Some(n) = stack.pop() {
            if self.needed[n] {
                continue;
            }
            self.needed[n] = true;
            if self.known[n].is_none() {
                stack.extend(self.nodes[n].options.iter().flatten());
            }
        }
    }

    /// A worker's answer for the `i`-th position: whether it wins in misère play.
    pub fn ask(&self, i: usize, limits: &Limits) -> Result<bool> {
        let (game, _, _) = self.work(i).ok_or_else(|| {
            Error::TopAnswers(format!("the top asks {} positions", self.work.len()))
        })?;
        Ok(game.outcome(true, limits)? == Outcome::N)
    }
}

/// A part of the root, valued by the aspiration's rounds.
#[derive(Debug)]
struct Asked {
    /// Its options (one of each key), their keys, and each one's value where a yes
    /// showed it.
    options: Vec<(GameRef, Vec<u8>)>,
    values: Vec<Option<u32>>,
    /// The round (the value asked about), and the options that said no to it.
    round: u32,
    refuted: Vec<bool>,
    value: Option<u32>,
}

impl Asked {
    /// Go to the next round while an option has this round's value; the part's value
    /// once every option has said no.
    fn advance(&mut self) {
        while self.value.is_none() {
            let round = self.round;
            if self.values.contains(&Some(round)) {
                self.round += 1;
                self.refuted.fill(false);
                continue;
            }
            let settled = |o: usize| self.refuted[o] || self.values[o].is_some();
            if (0..self.options.len()).all(settled) {
                self.value = Some(round);
            }
            break;
        }
    }
}

/// The normal-play questions: the value of each part of the root by aspiration.
#[derive(Debug)]
pub struct Questions {
    /// The root's parts met an odd number of times (a pair adds nothing).
    parts: Vec<Asked>,
}

/// A question: part, option, value asked about.
pub type Question = (usize, usize, u32);

impl Questions {
    pub fn new(game: &GameRef) -> Result<Questions> {
        let mut count: FxHashMap<Vec<u8>, (usize, GameRef)> = FxHashMap::default();
        let mut order = Vec::new();
        for part in parts_of(game)? {
            let entry = count.entry(part.key.clone()).or_insert_with(|| {
                order.push(part.key.clone());
                (0, Arc::clone(&part.position))
            });
            entry.0 += 1;
        }
        let mut parts = Vec::new();
        let mut poll = Poll::default();
        for key in order {
            let (times, part) = &count[&key];
            if times % 2 == 0 {
                continue;
            }
            let mut options: Vec<(GameRef, Vec<u8>)> = Vec::new();
            let mut seen = FxHashMap::default();
            for option in part.options()? {
                poll.tick()?;
                let key = position_key(&parts_of(&option)?);
                if seen.insert(key.clone(), ()).is_none() {
                    options.push((option, key));
                }
            }
            let n = options.len();
            let mut asked = Asked {
                options,
                values: vec![None; n],
                round: 0,
                refuted: vec![false; n],
                value: None,
            };
            asked.advance();
            parts.push(asked);
        }
        Ok(Questions { parts })
    }

    /// The questions of the rounds in hand: each option of a part not yet valued,
    /// asked about the part's round, unless it said no already or its value is
    /// known.
    pub fn open(&self) -> Vec<Question> {
        let mut open = Vec::new();
        for (p, part) in self.parts.iter().enumerate() {
            if part.value.is_some() {
                continue;
            }
            for o in 0..part.options.len() {
                if !part.refuted[o] && part.values[o].is_none() {
                    open.push((p, o, part.round));
                }
            }
        }
        open
    }

    /// The option a question is about, and its key.
    pub fn option(&self, (p, o, _): Question) -> Result<(&GameRef, &[u8])> {
        let found = self.parts.get(p).and_then(|part| part.options.get(o));
        let (game, key) = found.ok_or_else(|| {
            Error::TopAnswers(format!("no option {o} of part {p} in these questions"))
        })?;
        Ok((game, key))
    }

    /// Whether a question is moot: its part is valued, or past its round.
    pub fn stale(&self, (p, _, v): Question) -> bool {
        self.parts
            .get(p)
            .is_none_or(|part| part.value.is_some() || part.round != v)
    }

    /// Enter a worker's answer: whether the option's value is `v`.
    pub fn tell(&mut self, question: Question, is: bool) -> Result<()> {
        self.option(question)?;
        let (p, o, v) = question;
        let part = &mut self.parts[p];
        if is {
            part.values[o] = Some(v);
        } else if part.round == v {
            part.refuted[o] = true;
        }
        part.advance();
        Ok(())
    }

    /// The root's value, once every part's is known.
    pub fn answer(&self) -> Option<u32> {
        self.parts.iter().try_fold(0, |x, p| Some(x ^ p.value?))
    }

    /// A worker's answer: whether the option's value is `v`.
    pub fn ask(&self, question: Question, limits: &Limits) -> Result<bool> {
        let (game, _) = self.option(question)?;
        game.value_is(question.2, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cram::Cram;
    use crate::games::node_kayles::NodeKayles;
    use crate::games::sprouts::{notation, Sprouts};
    use crate::games::{At, Value};

    fn limits() -> Limits<'static> {
        Limits {
            max_positions: u64::MAX,
            max_memory: u64::MAX,
            evict: false,
            report: &|_| {},
        }
    }

    /// The questions answered one at a time, in a shuffled order of the open ones
    /// (as a cluster answers them), against the game's own search.
    fn check(game: GameRef, depth: u64, seed: u64) {
        let limits = limits();
        let mut pick = seed;
        let mut next = |n: usize| {
            pick = pick
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (pick >> 33) as usize % n
        };
        let mut questions = Questions::new(&game).unwrap();
        while questions.answer().is_none() {
            let open = questions.open();
            let q = open[next(open.len())];
            let is = questions.ask(q, &limits).unwrap();
            questions.tell(q, is).unwrap();
        }
        let Value::Finite(value) = game.value(&limits).unwrap() else {
            unreachable!("these games end")
        };
        assert_eq!(questions.answer().map(u64::from), Some(value), "{game:?}");
        let mut top = Top::new(&game, depth).unwrap();
        while top.answer().is_none() {
            let open = top.open();
            let i = open[next(open.len())];
            let wins = top.ask(i, &limits).unwrap();
            top.tell(i, wins).unwrap();
        }
        let wins = game.outcome(true, &limits).unwrap() == Outcome::N;
        assert_eq!(top.answer(), Some(wins), "{game:?} misère, depth {depth}");
    }

    #[test]
    fn the_answers_are_the_searched_ones() {
        for (rows, cols) in [(1, 7), (2, 5), (3, 4), (3, 5), (4, 4)] {
            let cram = Arc::new(Cram::board(rows, cols).unwrap());
            let all = cram.engine().all();
            for depth in 1..=3 {
                check(
                    Arc::new(At::new(Arc::clone(&cram), all.clone())),
                    depth,
                    depth,
                );
            }
        }
        let cram = Arc::new(Cram::board(3, 5).unwrap());
        let holes = cram
            .engine()
            .set_of([0, 1, 2, 4, 5, 6, 7, 9, 10, 11, 14])
            .unwrap();
        check(Arc::new(At::new(cram, holes)), 2, 5);
        let path: Vec<(u64, u64)> = (0..9).map(|v| (v, v + 1)).collect();
        let kayles = Arc::new(NodeKayles::new(10, &path).unwrap());
        let all = kayles.engine().all();
        check(Arc::new(At::new(kayles, all)), 2, 7);
        for spots in 1..=3 {
            let start = notation::start(spots).unwrap();
            check(
                Arc::new(At::new(Arc::new(Sprouts::default()), start)),
                2,
                spots,
            );
        }
    }

    #[test]
    fn equal_parts_cancel_and_settled_positions_are_not_asked() {
        // Two 1 x 2 strips: their values cancel, nothing is asked.
        let cram = Arc::new(Cram::board(1, 5).unwrap());
        let strips = cram.engine().set_of([0, 1, 3, 4]).unwrap();
        let game: GameRef = Arc::new(At::new(cram, strips));
        let questions = Questions::new(&game).unwrap();
        assert_eq!((questions.open(), questions.answer()), (vec![], Some(0)));
        // Misère 2 x 3 at depth 1: one option that loses settles the root, and the
        // other positions are asked no more.
        let cram = Arc::new(Cram::board(2, 3).unwrap());
        let all = cram.engine().all();
        let game: GameRef = Arc::new(At::new(cram, all));
        let mut top = Top::new(&game, 1).unwrap();
        let limits = limits();
        let losing = (0..top.len()).find(|&i| !top.ask(i, &limits).unwrap());
        if let Some(i) = losing {
            top.tell(i, false).unwrap();
            assert_eq!((top.answer(), top.open()), (Some(true), vec![]));
        }
    }

    #[test]
    fn bad_depths_questions_and_games_are_refused() {
        let cram = Arc::new(Cram::board(2, 3).unwrap());
        let all = cram.engine().all();
        let game: GameRef = Arc::new(At::new(cram, all));
        assert!(matches!(Top::new(&game, 0), Err(Error::TopDepth { .. })));
        assert!(matches!(Top::new(&game, 5), Err(Error::TopDepth { .. })));
        let mut top = Top::new(&game, 1).unwrap();
        assert!(matches!(top.tell(99, true), Err(Error::TopAnswers(_))));
        let mut questions = Questions::new(&game).unwrap();
        assert!(matches!(
            questions.tell((5, 0, 0), true),
            Err(Error::TopAnswers(_))
        ));
        let wythoff: GameRef = Arc::new(At::new(
            Arc::new(crate::games::wythoff::Wythoff::default()),
            (3, 5),
        ));
        assert!(matches!(Top::new(&wythoff, 1), Err(Error::NoParts(_))));
        assert!(matches!(Questions::new(&wythoff), Err(Error::NoParts(_))));
    }
}
