//! The vertex-deletion engine as a family of games (`Game`).
use std::any::Any;
use std::fmt::Debug;
use std::hash::Hasher;
use std::marker::PhantomData;

use super::graph::Deletion;
use super::kinds::{Canon, Moves};
use super::sets::{members, Bits};
use crate::base::error::Result;
use crate::base::outcome::Outcome;
use crate::games::defined::Tag;
use crate::games::{Game, Limits, Memo, Part, Value};
use crate::split::budget::Budget;

/// A game played by deleting vertices: its name and what a move deletes.
pub trait Rule: Debug + Send + Sync + 'static {
    const FAMILY: &'static str;
    const MOVES: Moves;
}

/// What a vertex-deletion game is played on, whatever its rule: the engine, and what
/// its caller keeps with it (the vertices' names). The binding layer reads it through
/// `Game::extra`, one type for every rule.
#[derive(Debug)]
pub struct Played {
    pub engine: Deletion,
    pub tag: Option<Tag>,
}

/// A family of vertex-deletion games on one graph; a position is the set of vertices
/// left.
#[derive(Debug)]
pub struct OnGraph<R: Rule> {
    played: Played,
    memo: Memo<Bits>,
    rule: PhantomData<R>,
}

impl<R: Rule> OnGraph<R> {
    /// The game on a graph of `vertices` vertices and `edges`.
    pub fn new(vertices: usize, edges: &[(u64, u64)]) -> Result<Self> {
        Ok(Self::of(Deletion::new(
            vertices,
            edges,
            R::MOVES,
            Canon::Labels,
        )?))
    }

    /// The game on the cells of a `rows` x `cols` board (vertex `r * cols + c`).
    pub fn board(rows: usize, cols: usize) -> Result<Self> {
        Ok(Self::of(Deletion::board(rows, cols, R::MOVES)?))
    }

    fn of(engine: Deletion) -> Self {
        OnGraph {
            played: Played { engine, tag: None },
            memo: Memo::default(),
            rule: PhantomData,
        }
    }

    /// The game with what the caller keeps with it (the vertices' names).
    pub fn tagged(self, tag: Tag) -> Self {
        OnGraph {
            played: Played {
                tag: Some(tag),
                ..self.played
            },
            ..self
        }
    }

    pub fn tag(&self) -> Option<&Tag> {
        self.played.tag.as_ref()
    }

    pub fn engine(&self) -> &Deletion {
        &self.played.engine
    }
}

impl<R: Rule> Game for OnGraph<R> {
    type Position = Bits;
    const FAMILY: &'static str = R::FAMILY;

    fn options(&self, p: &Bits, out: &mut Vec<Bits>) -> Result<()> {
        out.extend(self.engine().options(p));
        Ok(())
    }

    fn value(&self, p: &Bits, limits: &Limits) -> Result<Option<Value>> {
        let value = self.engine().value(p, budget(limits), limits.report)?;
        Ok(Some(Value::Finite(value)))
    }

    fn normal(&self, p: &Bits, limits: &Limits) -> Result<Option<Outcome>> {
        let lost = self
            .engine()
            .value_is(p, 0, budget(limits), limits.report)?;
        Ok(Some(if lost { Outcome::P } else { Outcome::N }))
    }

    fn value_is(&self, p: &Bits, target: u32, limits: &Limits) -> Result<Option<bool>> {
        let engine = self.engine();
        engine
            .value_is(p, target, budget(limits), limits.report)
            .map(Some)
    }

    fn misere(&self, p: &Bits, limits: &Limits) -> Result<Option<Outcome>> {
        let wins = self
            .engine()
            .misere_wins(p, budget(limits), limits.report)?;
        Ok(Some(if wins { Outcome::N } else { Outcome::P }))
    }

    fn loopy(&self, _p: &Bits, _limits: &Limits) -> Result<Option<bool>> {
        Ok(Some(false)) // every move deletes a vertex
    }

    fn numbers(&self, p: &Bits) -> Option<Vec<u64>> {
        Some(members(p).map(|v| v as u64).collect())
    }

    fn split(&self, p: &Bits) -> Option<Vec<Part<Bits>>> {
        let engine = self.engine();
        let parts = engine.components(p).into_iter().map(|component| Part {
            key: engine
                .key(&component)
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect(),
            size: members(&component).count() as u32,
            position: component,
        });
        Some(parts.collect())
    }

    fn memo(&self) -> &Memo<Bits> {
        &self.memo
    }

    fn bounds_memory(&self, _p: &Bits) -> bool {
        true
    }

    fn extra(&self) -> Option<&dyn Any> {
        Some(&self.played)
    }

    fn same_game(&self, other: &Self) -> bool {
        let (a, b) = (self.engine(), other.engine());
        (a.vertices, a.canon, &a.adjacency) == (b.vertices, b.canon, &b.adjacency)
    }

    fn hash_game(&self, state: &mut dyn Hasher) {
        state.write_usize(self.engine().vertices);
        state.write_usize(self.engine().edges().len());
    }
}

pub(super) fn budget(limits: &Limits) -> Budget {
    Budget {
        max_memory: limits.max_memory,
        evict: limits.evict,
        ..Budget::default()
    }
}
