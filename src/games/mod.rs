//! Every impartial game: one protocol, sums written once, and one file per family.
//!
//! A family implements `Game` on its own typed positions (static dispatch inside the
//! family): the options of a position, and, where a theorem gives them, its value
//! and misère outcome. `At` binds a family to a position, and `AnyGame` is what the
//! rest of the crate (sums, the binding layer) asks of any game: options as games,
//! the value, the outcome in either ending, the explored state graph. What no
//! theorem answers comes from a search of the state graph (`search::graph`), draws
//! included, kept by the family (`Memo`).
//!
//! Families: `heaps` (heaps under heap rules: `Position` + `Rules`), `defined` (a
//! game whose options come from a callback: games defined in Python), `digraph` (a
//! token on a directed graph), `sum` (sums of any games), and the classical families:
//! `wythoff`, `moore`, `staircase`, `coins` (coin turning in a row), `corners`
//! (Turning Corners), `hackenbush` (Green Hackenbush); and the games on graphs and
//! boards, on one vertex-deletion engine (`board`): `node_kayles`, `arc_kayles`,
//! `cram`; and `sprouts`, the engine's second game.
pub mod arc_kayles;
pub mod board;
pub mod coins;
pub mod corners;
pub mod cram;
pub mod defined;
pub mod digraph;
pub mod hackenbush;
pub mod heaps;
pub mod moore;
pub mod node_kayles;
pub mod sprouts;
pub mod staircase;
pub mod sum;
pub mod top;
pub mod wythoff;

use std::any::Any;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use crate::base::error::{Error, Result};
use crate::base::outcome::Outcome;
pub use crate::base::value::Value;
use crate::search::graph::{self, Explored, Graph};

/// How far a question may search.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// The most positions an explored state graph may hold (for a sum, the product of
    /// its components' too).
    pub max_positions: u64,
    /// The most bytes a search of a game on a graph or board may hold (`budget`).
    pub max_memory: u64,
    /// Whether such a search makes room past `max_memory` (`budget::Budget::evict`).
    pub evict: bool,
    /// Hears how many positions a search has found, now and then.
    pub report: &'a (dyn Fn(usize) + Sync),
}

impl Limits<'_> {
    /// Refuse a memory bound (or eviction) that `game` would ignore: no search of it
    /// holds one (only the games on graphs and boards, alone or in a sum, do).
    pub fn check_for(&self, game: &dyn AnyGame) -> Result<()> {
        let bounded = self.max_memory != u64::MAX || self.evict;
        if bounded && !game.bounds_memory() {
            return Err(Error::Unbounded(game.family()));
        }
        Ok(())
    }
}

/// A family of impartial games, on its own positions.
pub trait Game: Debug + Send + Sync + 'static {
    type Position: Clone + Eq + Hash + Debug + Send + Sync + 'static;

    /// The family's name, for the binding layer (which game class to build).
    const FAMILY: &'static str;

    /// Append the options of `p` to `out`.
    fn options(&self, p: &Self::Position, out: &mut Vec<Self::Position>) -> Result<()>;

    /// The normal-play value where a theorem gives it (`None`: search).
    fn value(&self, _p: &Self::Position, _limits: &Limits) -> Result<Option<Value>> {
        Ok(None)
    }

    /// Whether the normal-play value is `target`, where the family asks it for less
    /// than the value (`None`: from the value).
    fn value_is(
        &self,
        _p: &Self::Position,
        _target: u32,
        _limits: &Limits,
    ) -> Result<Option<bool>> {
        Ok(None)
    }

    /// The normal-play outcome where a theorem gives it without the value (`None`: from
    /// the value).
    fn normal(&self, _p: &Self::Position, _limits: &Limits) -> Result<Option<Outcome>> {
        Ok(None)
    }

    /// The misère outcome where a theorem or a family's own search gives it (`None`:
    /// search the state graph).
    fn misere(&self, _p: &Self::Position, _limits: &Limits) -> Result<Option<Outcome>> {
        Ok(None)
    }

    /// The options of `p` whose outcome is `outcome` (in the ending asked), where the
    /// family finds them at once (`None`: each option is asked).
    fn options_with(
        &self,
        _p: &Self::Position,
        _outcome: Outcome,
        _misere: bool,
        _limits: &Limits,
    ) -> Result<Option<Vec<Self::Position>>> {
        Ok(None)
    }

    /// Whether play from `p` can come back to a position it left, where the family
    /// knows without a search (`None`: search the state graph for a cycle).
    fn loopy(&self, _p: &Self::Position, _limits: &Limits) -> Result<Option<bool>> {
        Ok(None)
    }

    /// The position as numbers, for families whose positions are numbers (the binding
    /// layer reads them).
    fn numbers(&self, _p: &Self::Position) -> Option<Vec<u64>> {
        None
    }

    /// The position as text, for families whose positions are written as strings
    /// (Sprouts' notation).
    fn text(&self, _p: &Self::Position) -> Option<String> {
        None
    }

    /// The independent parts of `p` (components, Sprouts' lands) where the family
    /// splits (`None`: it does not), for work laid out elsewhere (`top`).
    fn split(&self, _p: &Self::Position) -> Option<Vec<Part<Self::Position>>> {
        None
    }

    /// The searches the family keeps (`Memo`).
    fn memo(&self) -> &Memo<Self::Position>;

    /// Whether questions about `p` call code outside the core (a callback): the
    /// binding layer then keeps its interpreter's lock rather than taking it again
    /// for every call.
    fn calls_out(&self, _p: &Self::Position) -> bool {
        false
    }

    /// Whether questions about `p` hold to `Limits::max_memory` (and make room past
    /// it with `Limits::evict`): only searches that bound their tables do.
    fn bounds_memory(&self, _p: &Self::Position) -> bool {
        false
    }

    /// What the family's binding reads beyond the protocol, one type for the whole
    /// family (the games on graphs and boards: `board::on_graph::Played`), so that no
    /// binding downcasts to each family's own type.
    fn extra(&self) -> Option<&dyn Any> {
        None
    }

    /// Whether two family objects are the same game (positions aside): by default the
    /// same object (a callback, a graph); families given by value override it.
    fn same_game(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }

    /// A hash of the family object, consistent with `same_game`.
    fn hash_game(&self, state: &mut dyn Hasher) {
        state.write_usize(self as *const Self as *const () as usize);
    }
}

/// Searched state graphs a family keeps, so that the positions a search labelled are
/// answered again at once (the options of a start lie in its graph).
#[derive(Debug)]
pub struct Memo<P>(Mutex<Vec<Arc<Searched<P>>>>);

impl<P> Default for Memo<P> {
    fn default() -> Self {
        Memo(Mutex::new(Vec::new()))
    }
}

/// How many searched graphs a family keeps (the most recent).
const KEPT_SEARCHES: usize = 8;

/// A state graph explored from a start, and what its labelling found.
#[derive(Debug)]
pub struct Searched<P> {
    pub explored: Explored<P>,
    values: Mutex<Option<Arc<[Value]>>>,
    outcomes: [Mutex<Option<Arc<[Outcome]>>>; 2],
    remoteness: [Mutex<Option<Arc<[u32]>>>; 2],
}

impl<P: Clone + Eq + Hash> Searched<P> {
    /// Smith's values of every node, labelled on first demand.
    pub fn values(&self) -> Result<Arc<[Value]>> {
        let mut slot = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(graph::values(&self.explored.graph)?.into());
        }
        Ok(Arc::clone(slot.as_ref().expect("filled above")))
    }

    /// The outcome of every node in normal or misère play, on first demand.
    pub fn outcomes(&self, misere: bool) -> Result<Arc<[Outcome]>> {
        let mut slot = self.outcomes[usize::from(misere)]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            let both = graph::Both::new(&self.explored.graph)?;
            *slot = Some(graph::outcomes(&both, misere)?.into());
        }
        Ok(Arc::clone(slot.as_ref().expect("filled above")))
    }

    /// The remoteness of every node in normal or misère play (`u32::MAX`: a draw), on
    /// first demand.
    pub fn remoteness(&self, misere: bool) -> Result<Arc<[u32]>> {
        let mut slot = self.remoteness[usize::from(misere)]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            let both = graph::Both::new(&self.explored.graph)?;
            *slot = Some(graph::remoteness(&both, misere)?.1.into());
        }
        Ok(Arc::clone(slot.as_ref().expect("filled above")))
    }
}

impl<P: Clone + Eq + Hash> Memo<P> {
    /// The options of `p`, from a kept search that holds it.
    pub fn options(&self, p: &P) -> Option<Vec<P>> {
        let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter().find_map(|searched| {
            let explored = &searched.explored;
            let id = explored.id(p)?;
            let next = explored.graph.successors(id);
            Some(
                next.iter()
                    .map(|&v| explored.positions[v as usize].clone())
                    .collect(),
            )
        })
    }

    /// The searched graph that holds `p`: one kept, or a new search from `p`.
    pub fn search<G: Game<Position = P>>(
        &self,
        game: &G,
        p: &P,
        limits: &Limits,
    ) -> Result<Arc<Searched<P>>> {
        let lock = || self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = lock().iter().find(|s| s.explored.id(p).is_some()) {
            return Ok(Arc::clone(found));
        }
        // Searched without the lock: other questions go on meanwhile.
        let explored = Explored::explore(
            p.clone(),
            limits.max_positions,
            &mut |q, out| game.options(q, out),
            &mut |count| (limits.report)(count),
        )?;
        let searched = Arc::new(Searched {
            explored,
            values: Mutex::new(None),
            outcomes: [Mutex::new(None), Mutex::new(None)],
            remoteness: [Mutex::new(None), Mutex::new(None)],
        });
        let mut kept = lock();
        kept.truncate(KEPT_SEARCHES - 1);
        kept.insert(0, Arc::clone(&searched));
        Ok(searched)
    }
}

/// A game of any family: what sums and the binding layer ask.
pub trait AnyGame: Debug + Send + Sync + Any {
    /// The family's name (`Game::FAMILY`).
    fn family(&self) -> &'static str;

    /// Every option, as a game of the same family.
    fn options(&self) -> Result<Vec<GameRef>>;

    /// Smith's value in normal play (a Grundy value when the game ends).
    fn value(&self, limits: &Limits) -> Result<Value>;

    /// Whether the value in normal play is `target` (`Game::value_is`).
    fn value_is(&self, target: u32, limits: &Limits) -> Result<bool>;

    /// The outcome in normal or misère play.
    fn outcome(&self, misere: bool, limits: &Limits) -> Result<Outcome>;

    /// The moves that win: the options that are P-positions (in the ending asked); from
    /// a draw, where no move wins, the moves that keep the draw (options that are D).
    fn winning_moves(&self, misere: bool, limits: &Limits) -> Result<Vec<GameRef>>;

    /// How many moves the game lasts when the winner hurries and the loser does not
    /// (`None`: a draw), from a search of every position it reaches.
    fn remoteness(&self, misere: bool, limits: &Limits) -> Result<Option<u32>>;

    /// Whether play can come back to a position it left (a cycle in the game graph).
    fn loopy(&self, limits: &Limits) -> Result<bool>;

    /// The position as numbers (`Game::numbers`).
    fn numbers(&self) -> Option<Vec<u64>>;

    /// The position as text (`Game::text`).
    fn text(&self) -> Option<String>;

    /// The independent parts, each a game of the same family (`Game::split`).
    fn split(&self) -> Option<Vec<Part<GameRef>>>;

    /// The state graph the game reaches (node 0 is this game), each node as a game.
    fn explore(&self, limits: &Limits) -> Result<(Graph, Vec<GameRef>)>;

    /// The graph alone, for searches over sums.
    fn graph(&self, limits: &Limits) -> Result<Graph>;

    /// Whether questions call code outside the core (`Game::calls_out`).
    fn calls_out(&self) -> bool;

    /// Whether questions hold to `Limits::max_memory` (`Game::bounds_memory`).
    fn bounds_memory(&self) -> bool;

    /// The game as `Any`, for what asks after one family (a sum merges heaps).
    fn as_any(&self) -> &dyn Any;

    /// What the family's binding reads beyond the protocol (`Game::extra`).
    fn extra(&self) -> Option<&dyn Any>;

    /// Equality with a game of any family (same family and position).
    fn equals(&self, other: &dyn AnyGame) -> bool;

    /// A hash consistent with `equals`.
    fn hash_code(&self) -> u64;
}

/// One independent part of a position (`Game::split`).
#[derive(Debug, Clone)]
pub struct Part<P> {
    /// The same for every copy of the part (its canonical form, as bytes).
    pub key: Vec<u8>,
    /// How hard it is to search, roughly (cells, lives).
    pub size: u32,
    pub position: P,
}

/// A shared handle on a game of any family.
pub type GameRef = Arc<dyn AnyGame>;

/// A family's game at one position.
#[derive(Debug)]
pub struct At<G: Game> {
    pub game: Arc<G>,
    pub position: G::Position,
}

impl<G: Game> At<G> {
    pub fn new(game: Arc<G>, position: G::Position) -> Self {
        At { game, position }
    }

    fn at(&self, position: G::Position) -> GameRef {
        Arc::new(At::new(Arc::clone(&self.game), position))
    }

    /// Every position this one reaches, explored afresh.
    fn explored(&self, limits: &Limits) -> Result<Explored<G::Position>> {
        Explored::explore(
            self.position.clone(),
            limits.max_positions,
            &mut |q, out| self.game.options(q, out),
            &mut |count| (limits.report)(count),
        )
    }

    fn searched(&self, limits: &Limits) -> Result<(Arc<Searched<G::Position>>, usize)> {
        let searched = self
            .game
            .memo()
            .search(&*self.game, &self.position, limits)?;
        let id = searched
            .explored
            .id(&self.position)
            .expect("the search holds the position") as usize;
        Ok((searched, id))
    }
}

impl<G: Game> AnyGame for At<G> {
    fn family(&self) -> &'static str {
        G::FAMILY
    }

    fn options(&self) -> Result<Vec<GameRef>> {
        let found = match self.game.memo().options(&self.position) {
            Some(found) => found,
            None => {
                let mut found = Vec::new();
                self.game.options(&self.position, &mut found)?;
                found
            }
        };
        Ok(found.into_iter().map(|p| self.at(p)).collect())
    }

    fn value_is(&self, target: u32, limits: &Limits) -> Result<bool> {
        match self.game.value_is(&self.position, target, limits)? {
            Some(is) => Ok(is),
            None => Ok(self.value(limits)? == Value::Finite(u64::from(target))),
        }
    }

    fn value(&self, limits: &Limits) -> Result<Value> {
        if let Some(value) = self.game.value(&self.position, limits)? {
            return Ok(value);
        }
        let (searched, id) = self.searched(limits)?;
        Ok(searched.values()?[id].clone())
    }

    fn outcome(&self, misere: bool, limits: &Limits) -> Result<Outcome> {
        if misere {
            if let Some(outcome) = self.game.misere(&self.position, limits)? {
                return Ok(outcome);
            }
        } else if let Some(outcome) = self.game.normal(&self.position, limits)? {
            return Ok(outcome);
        } else if let Some(value) = self.game.value(&self.position, limits)? {
            return Ok(value.outcome());
        }
        let (searched, id) = self.searched(limits)?;
        Ok(searched.outcomes(misere)?[id])
    }

    fn winning_moves(&self, misere: bool, limits: &Limits) -> Result<Vec<GameRef>> {
        let wanted = match self.outcome(misere, limits)? {
            Outcome::P => return Ok(Vec::new()),
            Outcome::N => Outcome::P,
            Outcome::D => Outcome::D,
        };
        let found = match self
            .game
            .options_with(&self.position, wanted, misere, limits)?
        {
            Some(found) => found.into_iter().map(|p| self.at(p)).collect(),
            None => {
                let mut found = Vec::new();
                for option in self.options()? {
                    if option.outcome(misere, limits)? == wanted {
                        found.push(option);
                    }
                }
                found
            }
        };
        Ok(found)
    }

    fn remoteness(&self, misere: bool, limits: &Limits) -> Result<Option<u32>> {
        let (searched, id) = self.searched(limits)?;
        let remote = searched.remoteness(misere)?[id];
        Ok((remote != u32::MAX).then_some(remote))
    }

    fn loopy(&self, limits: &Limits) -> Result<bool> {
        if let Some(loopy) = self.game.loopy(&self.position, limits)? {
            return Ok(loopy);
        }
        self.searched(limits)?.0.explored.graph.has_cycle()
    }

    fn numbers(&self) -> Option<Vec<u64>> {
        self.game.numbers(&self.position)
    }

    fn text(&self) -> Option<String> {
        self.game.text(&self.position)
    }

    fn split(&self) -> Option<Vec<Part<GameRef>>> {
        let parts = self.game.split(&self.position)?;
        let as_games = parts.into_iter().map(|part| Part {
            key: part.key,
            size: part.size,
            position: self.at(part.position),
        });
        Some(as_games.collect())
    }

    fn explore(&self, limits: &Limits) -> Result<(Graph, Vec<GameRef>)> {
        let explored = self.explored(limits)?;
        let games = explored
            .positions
            .iter()
            .map(|p| self.at(p.clone()))
            .collect();
        Ok((explored.graph, games))
    }

    fn graph(&self, limits: &Limits) -> Result<Graph> {
        Ok(self.explored(limits)?.graph)
    }

    fn calls_out(&self) -> bool {
        self.game.calls_out(&self.position)
    }

    fn bounds_memory(&self) -> bool {
        self.game.bounds_memory(&self.position)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn extra(&self) -> Option<&dyn Any> {
        self.game.extra()
    }

    fn equals(&self, other: &dyn AnyGame) -> bool {
        other.as_any().downcast_ref::<At<G>>().is_some_and(|other| {
            self.game.same_game(&other.game) && self.position == other.position
        })
    }

    fn hash_code(&self) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        G::FAMILY.hash(&mut hasher);
        self.game.hash_game(&mut hasher);
        self.position.hash(&mut hasher);
        hasher.finish()
    }
}
