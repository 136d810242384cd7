//! The Grundy value of a game that falls apart into components, searched with the
//! pruning of Beling and Rogalski ("On pruning search trees of impartial games",
//! Artificial Intelligence 283, 2020), as their `igs` does:
//!
//! - A search asks "is the value of this component in the set R?" and gets the value
//!   or "no". A component with n options has its value in {0..=n}; each option,
//!   once valued, strikes one candidate (its value, or the largest candidate if its
//!   value is not a candidate but the largest), so an option need only be asked
//!   about the candidates left but the largest, and the search stops as soon as no
//!   candidate is in R.
//! - At the top the value is found by aspiration: for v = 0, 1, ... each option is
//!   asked only "is yours v?", and the first v no option has is the value.
//! - Every option is looked up before any is searched (an enhanced transposition
//!   cutoff); options that split into small parts come first; of an option's parts
//!   all but the hardest are valued in full and the hardest is asked the narrowed
//!   question.
//!
//! Candidates below 64 are kept one by one and larger ones only counted (no search
//! asks for one by name). A value of 64 or more anywhere gives up with `Wide`, and
//! the caller searches plainly. The search is iterative (its depth is the number
//! of moves in a game, which follows the input) and polls for Ctrl-C.
//!
//! What it learns goes to a table (`table::Values`): a map and a cache of its own,
//! or, for one of several searches on different threads (`parallel`), tables they
//! share; a search on a part another is on puts it off (`Values::busy`).
use std::hash::Hash;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::budget::{Budget, Spend};
use super::table::Values;
use crate::base::alloc;
use crate::base::error::{Error, Result};

/// A game searched by components.
pub trait Split {
    /// A connected component, as the search holds it.
    type Part: Clone;
    /// What tells copies of a component apart: equal keys, equal values.
    type Key: Eq + Hash + Clone;

    fn key(&self, part: &Self::Part) -> Self::Key;

    /// The value of `part` when a closed form gives it without search.
    fn known(&self, part: &Self::Part) -> Option<u32>;

    /// The options of `part` (each the whole position left), in the order to try
    /// them.
    fn options(&mut self, part: &Self::Part, out: &mut Vec<Self::Part>);

    /// The components with a move of an option, appended to `parts` (equal pairs
    /// may be left out), but for those whose value is plain at a glance: the XOR of
    /// their values.
    fn split(&mut self, option: &Self::Part, parts: &mut Vec<Self::Part>) -> u32;

    /// How hard `part` is to search, roughly (its cells).
    fn size(&self, part: &Self::Part) -> u32;

    /// The same of the component `key` stands for: an eviction keeps the values of
    /// the largest, the costliest to find again.
    fn key_size(&self, key: &Self::Key) -> u32;

    /// The bytes a key holds on the heap, as the table's size is estimated.
    fn key_heap(&self) -> usize {
        0
    }

    /// The bytes `key` holds on the heap, where that can be more than `key_heap`.
    fn heap_of(&self, _key: &Self::Key) -> usize {
        0
    }

    /// A second key, shared by copies of `part` that `key` tells apart (a canonical
    /// labelling, say, too costly to compute at every look-up): asked only of a part
    /// about to be searched, and entered with its value.
    fn alias(&mut self, _part: &Self::Part) -> Option<Self::Key> {
        None
    }
}

/// The search met a value of 64 or more: search plainly instead.
pub struct Wide;

/// What a search ends with: a value, "not in the set asked about", or `Wide`.
pub type Answer = std::result::Result<Option<u32>, Wide>;

/// The value an aspiration asked up to `u32::MAX` found (it finds one: `Wide` if
/// it came to 64).
pub fn full(answer: Answer) -> std::result::Result<u32, Wide> {
    answer.and_then(|value| value.ok_or(Wide))
}

/// The candidates for a component's value: those below 64 as bits, the rest counted.
#[derive(Clone, Copy, Debug)]
struct Candidates {
    low: u64,
    high: usize,
}

impl Candidates {
    /// {0, 1, ..., n - 1}.
    fn first(n: usize) -> Self {
        Candidates {
            low: low_bits(n),
            high: n.saturating_sub(64),
        }
    }

    /// The bits of the candidates below 64 without the largest candidate.
    fn without_largest(&self) -> u64 {
        if self.high > 0 {
            self.low
        } else {
            self.low & !top_bit(self.low)
        }
    }

    /// Strike one candidate: `v` if it is one but the largest, else the largest.
    fn strike(&mut self, v: u32) {
        let bit = if v < 64 { 1u64 << v } else { 0 };
        if self.without_largest() & bit != 0 {
            self.low &= !bit;
        } else {
            self.strike_largest();
        }
    }

    fn strike_largest(&mut self) {
        if self.high > 0 {
            self.high -= 1;
        } else {
            self.low &= !top_bit(self.low);
        }
    }
}

fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn top_bit(set: u64) -> u64 {
    if set == 0 {
        0
    } else {
        1u64 << (63 - set.leading_zeros())
    }
}

/// Every value up to the largest in `set`.
fn upto(set: u64) -> u64 {
    if set == 0 {
        0
    } else {
        u64::MAX >> set.leading_zeros()
    }
}

/// `{v ^ x : v in set}`, for `x` below 64.
fn xored(set: u64, x: u32) -> u64 {
    if x == 0 {
        return set;
    }
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let v = rest.trailing_zeros();
        rest &= rest - 1;
        out |= 1u64 << (v ^ x);
    }
    out
}

/// An option still to be valued: its unknown parts `parts[first..first + len]` and
/// the XOR of the values of those already known.
#[derive(Clone, Copy)]
pub struct Move {
    first: u32,
    len: u32,
    known: u32,
    /// Put off once already: another search was on its part.
    deferred: bool,
    /// 1 + the value it last said it has not (0: none yet): a round asked again
    /// after an error skips the moves it has answered.
    not: u32,
}

impl Move {
    /// Whether it has said it has not value `v`.
    pub fn lacks(&self, v: u32) -> bool {
        self.not == v + 1
    }
}

/// How a search for a value begins: with the value (or `Wide`) at once, or with a
/// root to search.
pub enum Begun<P, K> {
    Done(std::result::Result<u32, Wide>),
    Root(Root<P, K>),
}

/// A component whose value is being searched, by aspiration: the moves left to ask
/// (a settled move has no part left), and the values options are known to have.
pub struct Root<P, K> {
    key: K,
    alias: Option<K>,
    count: usize,
    skip: u64,
    /// The first value not yet asked about in full.
    from: u32,
    /// How many answers its moves have given.
    pub answered: u64,
    pub parts: Vec<P>,
    pub moves: Vec<Move>,
    bytes: usize,
}

/// How a round of a root's search ends: some option has the value asked about, none
/// has, or a value of 64 or more came up.
pub enum Round {
    Has,
    Lacks,
    Wide,
}

impl<P, K> Root<P, K> {
    /// The value by aspiration: for v = 0, 1, ... (but the values options are known
    /// to have) `round` asks the moves whether they have v; the first v none has is
    /// the value. Asked only up to v = `upto`: None if every option of those has
    /// one, and the value is larger. Asked again after an error, it goes on from the
    /// round in hand.
    pub fn aspire(
        &mut self,
        upto: u32,
        mut round: impl FnMut(u32, &mut Self) -> Result<Round>,
    ) -> Result<Answer> {
        for v in self.from..self.count as u32 {
            if v > upto {
                return Ok(Ok(None));
            }
            if v >= 64 {
                return Ok(Err(Wide));
            }
            if self.skip >> v & 1 == 1 {
                continue;
            }
            match round(v, self)? {
                Round::Has => self.from = v + 1,
                Round::Lacks => return Ok(Ok(Some(v))),
                Round::Wide => return Ok(Err(Wide)),
            }
        }
        let value = self.count as u32;
        Ok(Ok((value <= upto).then_some(value)))
    }

    /// Take move `i`'s answer (`m`: the move as asking it left it) in a round asking
    /// about `v`: the end of the round it makes, if it makes one.
    pub fn apply(&mut self, i: usize, m: Move, answer: Answer, v: u32) -> Option<Round> {
        self.answered += 1;
        match answer {
            Err(Wide) => Some(Round::Wide),
            Ok(None) => {
                self.moves[i] = Move { not: v + 1, ..m };
                None
            }
            Ok(Some(w)) => {
                self.moves[i].len = 0;
                // v too: a round asked again after an error skips it.
                if w < 64 {
                    self.skip |= 1 << w;
                }
                (w == v).then_some(Round::Has)
            }
        }
    }

    /// The end of a round (`end`, if an answer made one; else no move has the value
    /// asked about), the moves settled in it dropped.
    pub fn sweep(&mut self, end: Option<Round>) -> Round {
        self.moves.retain(|m| m.len > 0);
        end.unwrap_or(Round::Lacks)
    }
}

/// The options of a component, looked up: the candidates the options made only of
/// known parts leave, and the rest, easiest first, each with its hardest part first.
struct Options<P> {
    count: usize,
    candidates: Candidates,
    parts: Vec<P>,
    moves: Vec<Move>,
}

/// A component being asked whether its value is in `requested`.
struct Frame<P, K> {
    key: K,
    alias: Option<K>,
    requested: u64,
    upto: u64,
    candidates: Candidates,
    parts: Vec<P>,
    moves: Vec<Move>,
    next: usize,
    exact: bool,
}

/// One search over `game`, entering what it learns in `table` (`report` hears its
/// size now and then), within `budget`.
pub struct Search<'a, S: Split, T> {
    game: &'a mut S,
    table: &'a mut T,
    report: &'a (dyn Fn(usize) + Sync),
    spend: Spend,
    /// Room reused for the options of each component met (copied out only for a
    /// component to be searched: most are settled by looking their options up).
    all: Vec<S::Part>,
    split: Vec<S::Part>,
    parts: Vec<S::Part>,
    moves: Vec<(u64, Move)>,
    aliases: Aliases,
}

/// How often aliases find a value: when they often do (a graph with symmetries),
/// every look-up that misses asks the alias too, not only a part about to be
/// searched.
#[derive(Default)]
struct Aliases {
    asked: u32,
    found: u32,
}

impl Aliases {
    /// Counts of the latest aliases asked, halved now and then.
    const WINDOW: u32 = 1 << 12;

    fn count(&mut self, found: bool) {
        self.asked += 1;
        self.found += u32::from(found);
        if self.asked == Self::WINDOW {
            (self.asked, self.found) = (self.asked / 2, self.found / 2);
        }
    }

    /// Whether more than one alias asked in four found a value.
    fn eager(&self) -> bool {
        self.found * 4 > self.asked
    }
}

impl<'a, S: Split, T: Values<S::Key>> Search<'a, S, T> {
    pub fn new(
        game: &'a mut S,
        table: &'a mut T,
        budget: Budget,
        report: &'a (dyn Fn(usize) + Sync),
    ) -> Result<Self> {
        let mut spend = Spend::new(budget);
        spend.counted(table.bytes(), table.count(), 0, game.key_heap());
        Ok(Search {
            game,
            table,
            report,
            spend,
            all: Vec::new(),
            split: Vec::new(),
            parts: Vec::new(),
            moves: Vec::new(),
            aliases: Aliases::default(),
        })
    }

    /// This search, stopping once `stop` is raised (one of several on different
    /// threads); `asks`: whether it asks about Ctrl-C too.
    pub fn watching(self, stop: Arc<AtomicBool>, asks: bool) -> Self {
        Search {
            spend: self.spend.watching(stop, asks),
            ..self
        }
    }

    /// The value of a component, by aspiration; `Ok(Err(Wide))` if it met a value of
    /// 64 or more.
    pub fn value(&mut self, part: &S::Part) -> Result<std::result::Result<u32, Wide>> {
        let mut root = match self.root(part)? {
            Begun::Done(found) => return Ok(found),
            Begun::Root(root) => root,
        };
        let found = root.aspire(u32::MAX, |v, root| {
            let mut end = None;
            for i in 0..root.moves.len() {
                let mut m = root.moves[i];
                let answer = self.settle(&root.parts, &mut m, v)?;
                end = root.apply(i, m, answer, v);
                if end.is_some() {
                    break;
                }
            }
            Ok(root.sweep(end))
        })?;
        Ok(full(self.end(root, found)?))
    }

    /// Look a component up, or set up the search of its value: its options looked
    /// up.
    pub fn root(&mut self, part: &S::Part) -> Result<Begun<S::Part, S::Key>> {
        let key = self.game.key(part);
        if let Some(v) = self.table.get(&key) {
            return Ok(Begun::Done(Ok(v)));
        }
        if let Some(v) = self.game.known(part) {
            return Ok(Begun::Done(Ok(v)));
        }
        let alias = self.game.alias(part);
        if let Some(v) = self.aliased(&key, alias.as_ref())? {
            return Ok(Begun::Done(Ok(v)));
        }
        let Some(Options {
            count,
            candidates,
            parts,
            moves,
        }) = self.options(part, u64::MAX)?
        else {
            // Options of known values struck every candidate below 64.
            return Ok(Begun::Done(Err(Wide)));
        };
        let bytes = held_bytes(&parts, &moves);
        self.charge(bytes)?;
        Ok(Begun::Root(Root {
            key,
            alias,
            count,
            // The values the options made of known parts have.
            skip: !candidates.low & low_bits(count + 1),
            from: 0,
            answered: 0,
            parts,
            moves,
            bytes,
        }))
    }

    /// Ask a root's move `m` whether its value is `v`: its parts but the hardest
    /// valued in full, the hardest asked the narrowed question. The option's value
    /// (perhaps another), or None if it is not `v`.
    pub fn settle(&mut self, parts: &[S::Part], m: &mut Move, v: u32) -> Result<Answer> {
        while m.len > 1 {
            let rest = &parts[(m.first + m.len - 1) as usize];
            match self.in_set(rest, u64::MAX)? {
                Ok(Some(w)) => m.known ^= w,
                _ => return Ok(Err(Wide)),
            }
            m.len -= 1;
        }
        if m.known >= 64 {
            return Ok(Err(Wide));
        }
        let known = m.known;
        let answer = self.in_set(&parts[m.first as usize], 1 << (v ^ known))?;
        Ok(answer.map(|found| found.map(|w| w ^ known)))
    }

    /// Take on `root`, begun by another search (one that stopped with an error): its
    /// moves held on this one's stack.
    pub fn adopt(&mut self, root: &Root<S::Part, S::Key>) -> Result<()> {
        self.charge(root.bytes)
    }

    /// The end of a root's search: its value, if found, entered.
    pub fn end(&mut self, root: Root<S::Part, S::Key>, found: Answer) -> Result<Answer> {
        self.spend.release(root.bytes);
        if let Ok(Some(value)) = found {
            self.remember(root.key, value)?;
            if let Some(alias) = root.alias {
                self.remember(alias, value)?;
            }
        }
        Ok(found)
    }

    /// Whether the components `parts` (and a heap of `target`) add up to 0, as
    /// Lemoine and Viennot ask it: every part but the hardest valued, and the hardest
    /// asked only whether it has the one value that would make the sum 0, so that
    /// one option of that value (or none, once each is ruled out) settles it.
    pub fn sum_is(
        &mut self,
        parts: &[S::Part],
        target: u32,
    ) -> Result<std::result::Result<bool, Wide>> {
        let Some(hardest) = (0..parts.len()).max_by_key(|&i| self.game.size(&parts[i])) else {
            return Ok(Ok(target == 0));
        };
        let mut wanted = target;
        for (i, part) in parts.iter().enumerate() {
            if i != hardest {
                match self.value(part)? {
                    Ok(v) => wanted ^= v,
                    Err(Wide) => return Ok(Err(Wide)),
                }
            }
        }
        if let Some(v) = self.game.known(&parts[hardest]) {
            return Ok(Ok(v == wanted));
        }
        if wanted >= 64 {
            return Ok(self.value(&parts[hardest])?.map(|v| v == wanted));
        }
        Ok(match self.in_set(&parts[hardest], 1 << wanted)? {
            Ok(found) => Ok(found == Some(wanted)),
            Err(Wide) => Err(Wide),
        })
    }

    /// Whether the value of `part` is in `requested` (values below 64): the value
    /// (perhaps one not asked about), or None if it is not in the set.
    fn in_set(&mut self, part: &S::Part, requested: u64) -> Result<Answer> {
        let held = self.spend.held();
        let answer = self.in_set_from(part, requested);
        if answer.is_err() {
            // Abandoned (a search on several threads goes on): its frames are gone.
            self.spend.set_held(held);
        }
        answer
    }

    fn in_set_from(&mut self, part: &S::Part, requested: u64) -> Result<Answer> {
        let mut stack: Vec<Frame<S::Part, S::Key>> = Vec::new();
        let mut answer = match self.open(part, requested, false)? {
            Opened::Answer(a) => return Ok(a),
            Opened::Busy => unreachable!("a part not to be put off"),
            Opened::Frame(frame) => {
                stack.push(frame);
                None
            }
        };
        while let Some(frame) = stack.last_mut() {
            self.spend.tick()?;
            if let Some(a) = answer.take() {
                let m = &mut frame.moves[frame.next];
                if m.len > 1 {
                    // A part valued in full.
                    match a {
                        Ok(Some(w)) => m.known ^= w,
                        _ => return Ok(Err(Wide)),
                    }
                    m.len -= 1;
                } else {
                    match a {
                        Err(Wide) => return Ok(Err(Wide)),
                        Ok(Some(w)) => frame.candidates.strike(w ^ m.known),
                        Ok(None) => {
                            frame.candidates.strike_largest();
                            frame.exact = false;
                        }
                    }
                    frame.next += 1;
                }
            }
            let ask = if let Some(&m) = frame.moves.get(frame.next) {
                if frame.candidates.low & frame.requested == 0 {
                    Err(None)
                } else if m.len > 1 {
                    Ok((m.first + m.len - 1, u64::MAX))
                } else if m.known >= 64 {
                    return Ok(Err(Wide));
                } else {
                    let wanted = frame.candidates.without_largest() & frame.upto;
                    Ok((m.first, xored(wanted, m.known)))
                }
            } else {
                let only = frame.candidates.low;
                if only == 0 {
                    if frame.exact {
                        return Ok(Err(Wide));
                    }
                    Err(None)
                } else if frame.exact || frame.upto & only != 0 {
                    Err(Some(only.trailing_zeros()))
                } else {
                    Err(None)
                }
            };
            match ask {
                Ok((index, wanted)) => {
                    let child = frame.parts[index as usize].clone();
                    let later = frame.next + 1 < frame.moves.len();
                    match self.open(&child, wanted, later && !frame.moves[frame.next].deferred)? {
                        Opened::Answer(a) => answer = Some(a),
                        Opened::Busy => {
                            // Another thread is searching it: its value will likely
                            // be in the table once the other options are asked.
                            let mut m = frame.moves.remove(frame.next);
                            m.deferred = true;
                            frame.moves.push(m);
                        }
                        Opened::Frame(f) => {
                            alloc::grow(&mut stack)?;
                            stack.push(f);
                        }
                    }
                }
                Err(result) => {
                    let frame = stack.pop().expect("the loop holds a frame");
                    self.spend.release(held_bytes(&frame.parts, &frame.moves));
                    self.table.searching(&frame.key, false);
                    match result {
                        Some(v) => {
                            self.remember(frame.key, v)?;
                            if let Some(alias) = frame.alias {
                                self.remember(alias, v)?;
                            }
                        }
                        None => self.table.refute(frame.key, frame.requested)?,
                    }
                    if stack.is_empty() {
                        return Ok(Ok(result));
                    }
                    answer = Some(Ok(result));
                }
            }
        }
        unreachable!("the last frame returns")
    }

    /// Look `part` up, or set up the search of it (or, if `defer` and another
    /// search is on it, put it off).
    fn open(
        &mut self,
        part: &S::Part,
        requested: u64,
        defer: bool,
    ) -> Result<Opened<S::Part, S::Key>> {
        let key = self.game.key(part);
        // Closed forms were tried, and remembered, when the option was looked up.
        if let Some(v) = self.table.get(&key) {
            return Ok(Opened::Answer(Ok(Some(v))));
        }
        // Values an earlier search showed it has not are not asked about again (a
        // search for the value itself asks about every value).
        let requested = match requested {
            u64::MAX => requested,
            _ => match self.table.refuted(&key) {
                Some(not) if requested & !not == 0 => return Ok(Opened::Answer(Ok(None))),
                Some(not) => requested & !not,
                None => requested,
            },
        };
        if defer && self.table.busy(&key) {
            return Ok(Opened::Busy);
        }
        let Some(options) = self.options(part, requested)? else {
            self.table.refute(key, requested)?;
            return Ok(Opened::Answer(Ok(None)));
        };
        let alias = self.game.alias(part);
        if let Some(v) = self.aliased(&key, alias.as_ref())? {
            return Ok(Opened::Answer(Ok(Some(v))));
        }
        self.charge(held_bytes(&options.parts, &options.moves))?;
        self.table.searching(&key, true);
        Ok(Opened::Frame(Frame {
            key,
            alias,
            requested,
            upto: upto(requested),
            candidates: options.candidates,
            parts: options.parts,
            moves: options.moves,
            next: 0,
            exact: true,
        }))
    }

    /// The options of `part`, each looked up; None as soon as the values of those
    /// known leave no candidate in `requested`.
    fn options(&mut self, part: &S::Part, requested: u64) -> Result<Option<Options<S::Part>>> {
        let mut all = std::mem::take(&mut self.all);
        let mut split = std::mem::take(&mut self.split);
        let mut parts = std::mem::take(&mut self.parts);
        let mut moves = std::mem::take(&mut self.moves);
        all.clear();
        parts.clear();
        moves.clear();
        self.game.options(part, &mut all);
        let found = self.gather(&all, &mut split, &mut parts, &mut moves, requested);
        let options = match found {
            Ok(Some(candidates)) => copied(candidates, all.len(), &parts, &mut moves).map(Some),
            other => other.map(|_| None),
        };
        (self.all, self.split, self.parts, self.moves) = (all, split, parts, moves);
        options
    }

    /// Split each of `all` into parts and look them up: the options of known value
    /// strike candidates, the rest go to `parts` and `moves` (with their hardness).
    /// None as soon as no candidate is left in `requested`.
    fn gather(
        &mut self,
        all: &[S::Part],
        split: &mut Vec<S::Part>,
        parts: &mut Vec<S::Part>,
        moves: &mut Vec<(u64, Move)>,
        requested: u64,
    ) -> Result<Option<Candidates>> {
        let mut candidates = Candidates::first(all.len() + 1);
        for option in all {
            split.clear();
            let known = self.game.split(option, split);
            let mut m = Move {
                first: parts.len() as u32,
                len: 0,
                known,
                deferred: false,
                not: 0,
            };
            let (mut hardness, mut hardest) = (0u64, 0u64);
            for p in split.iter() {
                let key = self.game.key(p);
                let found = match self.table.get(&key) {
                    Some(v) => Some(v),
                    None => match self.game.known(p) {
                        Some(v) => {
                            // Remembered, so that the closed form is worked out once.
                            self.remember(key, v)?;
                            Some(v)
                        }
                        None if self.aliases.eager() => {
                            let alias = self.game.alias(p);
                            self.aliased(&key, alias.as_ref())?
                        }
                        None => None,
                    },
                };
                if let Some(v) = found {
                    m.known ^= v;
                    continue;
                }
                let size = u64::from(self.game.size(p));
                hardness += size * size;
                alloc::grow(parts)?;
                parts.push(p.clone());
                if size > hardest {
                    hardest = size;
                    let last = parts.len() - 1;
                    parts.swap(m.first as usize, last);
                }
                m.len += 1;
            }
            if m.len == 0 {
                candidates.strike(m.known);
                if candidates.low & requested == 0 {
                    return Ok(None);
                }
            } else {
                alloc::grow(moves)?;
                moves.push((hardness, m));
            }
        }
        Ok(Some(candidates))
    }

    /// The value a part's alias has in the table (entered under its key too).
    fn aliased(&mut self, key: &S::Key, alias: Option<&S::Key>) -> Result<Option<u32>> {
        let Some(alias) = alias else {
            return Ok(None);
        };
        let found = self.table.get(alias);
        self.aliases.count(found.is_some());
        let Some(v) = found else {
            return Ok(None);
        };
        self.remember(key.clone(), v)?;
        Ok(Some(v))
    }

    fn remember(&mut self, key: S::Key, value: u32) -> Result<()> {
        let typical = self.game.key_heap();
        let bytes = self.table.bytes_with(&key);
        if let Err(error) = self.spend.room_for(bytes, self.table.count(), typical) {
            self.make_room(error)?;
            let bytes = self.table.bytes_with(&key);
            self.spend.room_for(bytes, self.table.count(), typical)?;
        }
        self.spend
            .keep(self.game.heap_of(&key).saturating_sub(typical))?;
        self.table.enter(key, value)?;
        if self.table.count().is_multiple_of(REPORT_EVERY) {
            (self.report)(self.table.count());
        }
        Ok(())
    }

    /// `bytes` more on the stack (room made past the bound as `make_room` says).
    fn charge(&mut self, bytes: usize) -> Result<()> {
        if let Err(error) = self.spend.charge(bytes) {
            self.spend.release(bytes);
            self.make_room(error)?;
            self.spend.charge(bytes)?;
        }
        Ok(())
    }

    /// Room made in the table, past the bound `error` names, by dropping the values of
    /// the smallest components, where the search may (`Budget::evict`) and the table
    /// is its own: the search goes on where it is, as it never reads back an entry
    /// it relies on. `error` otherwise (the caller makes room and asks again).
    fn make_room(&mut self, error: Error) -> Result<()> {
        if !matches!(error, Error::MemoryBound { .. }) || !self.spend.evicts() {
            return Err(error);
        }
        let game = &*self.game;
        let (bound, key_heap) = (self.spend.bound(), game.key_heap());
        let size = |key: &S::Key| game.key_size(key);
        // Before the eviction, which may itself pause.
        self.spend.making_room();
        match self.table.evict(bound, key_heap, &size, self.spend.poll()) {
            Some(kept) => kept?,
            None => return Err(error),
        };
        self.spend
            .counted(self.table.bytes(), self.table.count(), 0, key_heap);
        Ok(())
    }
}

/// How many new table entries between two reports of progress.
const REPORT_EVERY: usize = 1 << 12;

/// The options gathered, copied out of the room they were gathered in, the easiest
/// first (ties in the order the game gave).
fn copied<P: Clone>(
    candidates: Candidates,
    count: usize,
    parts: &[P],
    moves: &mut [(u64, Move)],
) -> Result<Options<P>> {
    moves.sort_unstable_by_key(|&(hardness, m)| (hardness, m.first));
    let mut kept = alloc::with_capacity(moves.len())?;
    kept.extend(moves.iter().map(|&(_, m)| m));
    let mut held = alloc::with_capacity(parts.len())?;
    held.extend_from_slice(parts);
    Ok(Options {
        count,
        candidates,
        parts: held,
        moves: kept,
    })
}

fn held_bytes<P>(parts: &[P], moves: &[Move]) -> usize {
    std::mem::size_of_val(parts) + std::mem::size_of_val(moves)
}

enum Opened<P, K> {
    Answer(Answer),
    Frame(Frame<P, K>),
    /// Put off: another search is on it.
    Busy,
}
