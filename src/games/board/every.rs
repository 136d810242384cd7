//! The value and misère outcome of every position of a small graph: every subset of
//! its vertices, by one retrograde pass (a position's options are its proper
//! subsets, so they are valued first). These are the tables learning environments
//! look positions up in (`nimkit.rl.jax`), and a check of the engine that shares
//! none of its search.
//!
//! The pass runs in blocks of masks sharing their top bits: a block's options lie in
//! blocks whose top bits are a subset of its own, so the blocks whose top bits have
//! the same number of ones are independent and run in parallel, one layer after
//! another, each block in increasing order.
use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use super::graph::Deletion;
use super::kinds::Moves;
use super::sets::members;
use crate::base::alloc;
use crate::base::error::{Error, FamilyError, Result};
use crate::base::interrupt;

/// The most vertices a table of every position is made for: 2**26 positions, a byte
/// each for the values and for the misère outcomes.
pub const MAX_TABLE_VERTICES: usize = 26;

/// The top bits that name a block (at most).
const BLOCK_BITS: usize = 12;

/// The blocks valued between two looks for Ctrl-C (each of at most 2**14 positions).
const PIECE: usize = 16;

/// What a table of every position refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error(
        "a table of every position is made for graphs of at most {MAX_TABLE_VERTICES} \
         vertices (2**{MAX_TABLE_VERTICES} positions), counting every vertex of the \
         game's graph, those not left included (a board's filled cells, the cells of \
         the grid a graph's names span); this one has {0}"
    )]
    TooManyVertices(usize),
    #[error("a position of this graph has a value of 255 or more, more than a table's byte holds")]
    ValueTooLarge,
}

impl FamilyError for TableError {}

/// A move as masks of the vertices: those it needs (the vertex picked, or an edge's
/// two ends) and those it deletes (the vertex's closed neighbourhood, or the two ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskMove {
    pub needs: u32,
    pub deletes: u32,
}

/// Every position of a graph, position `s` being the set of the vertices `v` with
/// bit `v` of `s` set.
#[derive(Debug)]
pub struct EveryPosition {
    /// The moves, in the order of the actions that name them: vertex `v` for Node
    /// Kayles, the edges `(u, v)`, `u < v`, in `Deletion::edges` order for Arc Kayles
    /// and Cram.
    pub moves: Vec<MaskMove>,
    /// The normal-play Grundy value of each position.
    pub values: Vec<u8>,
    /// Whether the player to move wins each position in misère play.
    pub misere_wins: Vec<u8>,
}

impl Deletion {
    /// How many vertices the graph has, those of no position left included.
    pub fn vertices(&self) -> usize {
        self.vertices
    }

    /// The moves of the whole graph as masks, in the order of `EveryPosition::moves`.
    pub fn mask_moves(&self) -> Result<Vec<MaskMove>> {
        if self.vertices > MAX_TABLE_VERTICES {
            return Err(TableError::TooManyVertices(self.vertices).into());
        }
        let mask = |vs: &mut dyn Iterator<Item = usize>| vs.fold(0u32, |m, v| m | 1 << v);
        Ok(match self.moves {
            Moves::Neighbourhood => (0..self.vertices)
                .map(|v| MaskMove {
                    needs: 1 << v,
                    deletes: 1 << v | mask(&mut members(&self.adjacency[v])),
                })
                .collect(),
            Moves::Edge => self
                .edges()
                .into_iter()
                .map(|(u, v)| MaskMove {
                    needs: 1 << u | 1 << v,
                    deletes: 1 << u | 1 << v,
                })
                .collect(),
        })
    }

    /// The value and misère outcome of every subset of the vertices (at most
    /// `MAX_TABLE_VERTICES`), on every thread of the pool; Ctrl-C is asked between
    /// pieces of a few blocks.
    pub fn every_position(&self) -> Result<EveryPosition> {
        let moves = self.mask_moves()?;
        let n = self.vertices;
        let size = 1usize << n;
        let values = atomic_bytes(size)?;
        let wins = atomic_bytes(size)?;
        let top = n.min(BLOCK_BITS);
        let low = n - top;
        for ones in 0..=top as u32 {
            let blocks: Vec<usize> = (0..1usize << top)
                .filter(|b| b.count_ones() == ones)
                .collect();
            // A few blocks at a time, Ctrl-C asked between them: a layer of a large
            // graph is seconds of work, a piece of it milliseconds.
            for piece in blocks.chunks(PIECE) {
                if interrupt::requested() {
                    return Err(Error::Interrupted);
                }
                let failed = piece
                    .par_iter()
                    .map(|&block| fill(block << low, 1 << low, &moves, &values, &wins))
                    .find_any(|done| done.is_err());
                if let Some(Err(error)) = failed {
                    return Err(error);
                }
            }
        }
        Ok(EveryPosition {
            moves,
            values: bytes(values)?,
            misere_wins: bytes(wins)?,
        })
    }
}

/// Value the `count` positions from `first` on, in increasing order.
fn fill(
    first: usize,
    count: usize,
    moves: &[MaskMove],
    values: &[AtomicU8],
    wins: &[AtomicU8],
) -> Result<()> {
    for s in first..first + count {
        let s32 = s as u32;
        let mut seen = [0u64; 4];
        let (mut any, mut wins_here) = (false, false);
        for m in moves.iter().filter(|m| s32 & m.needs == m.needs) {
            let option = (s32 & !m.deletes) as usize;
            let v = values[option].load(Ordering::Relaxed);
            seen[usize::from(v >> 6)] |= 1 << (v & 63);
            any = true;
            wins_here |= wins[option].load(Ordering::Relaxed) == 0;
        }
        let value = crate::base::mex::of_bits(seen);
        if value >= 255 {
            return Err(TableError::ValueTooLarge.into());
        }
        values[s].store(value as u8, Ordering::Relaxed);
        // With no move the player to move has lost normal play and won misère play.
        wins[s].store(u8::from(wins_here || !any), Ordering::Relaxed);
    }
    Ok(())
}

fn atomic_bytes(len: usize) -> Result<Vec<AtomicU8>> {
    let mut v = alloc::with_capacity(len)?;
    v.extend((0..len).map(|_| AtomicU8::new(0)));
    Ok(v)
}

fn bytes(atomics: Vec<AtomicU8>) -> Result<Vec<u8>> {
    let mut v = alloc::with_capacity(atomics.len())?;
    v.extend(atomics.into_iter().map(AtomicU8::into_inner));
    Ok(v)
}
