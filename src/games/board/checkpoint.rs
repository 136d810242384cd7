//! What the vertex-deletion engine's normal-play searches learned: saved, restored,
//! and checked to be plausible.
use std::sync::PoisonError;

use super::canon;
use super::graph::Deletion;
use super::kinds::{Canon, Moves};
use super::sets::{members, Key};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::split::saved::Saved;

impl Deletion {
    /// What the normal-play searches learned: the board's table (`grid`, for boards it
    /// takes) and the graph's (keys of vertex sets or shapes).
    pub fn saved(&self) -> Result<Vec<(&'static str, Saved)>> {
        let mut tables = Vec::new();
        if let Some(board) = self.boards.saved()? {
            tables.push(("board", board));
        }
        let graph = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        let entries = graph.iter().map(|(k, &v)| (&k[..], v));
        tables.push(("graph", Saved::of(entries, graph.len())?));
        Ok(tables)
    }

    /// Enter a table `saved` gave back (checked first: a key of the wrong width for
    /// a board, a table this game has not, are errors).
    pub fn restore(&self, name: &str, saved: &Saved) -> Result<()> {
        saved.check()?;
        match name {
            "board" if self.boards.restore(saved)? => Ok(()),
            "graph" => {
                let mut graph = self.values.lock().unwrap_or_else(PoisonError::into_inner);
                graph
                    .try_reserve(saved.len())
                    .map_err(|_| alloc::too_large::<(Key, u32)>(saved.len()))?;
                for (key, value) in saved.entries() {
                    Saved::plausible(value, self.graph_moves(key)?)?;
                    graph.insert(Key::from_slice(key), value);
                }
                Ok(())
            }
            _ => Err(Error::Checkpoint(format!(
                "this game has no table {name:?}"
            ))),
        }
    }

    /// The most moves of the component a saved key of the graph's table stands for:
    /// a board's shape (`grid_key`), a vertex set (`canon::by_set`) or a size and
    /// canonical adjacency rows (`canon::canonical`).
    pub(super) fn graph_moves(&self, key: &[u64]) -> Result<u64> {
        let damaged = || Error::Checkpoint("a key that is no component of this graph".into());
        let (&head, rest) = key.split_first().ok_or_else(damaged)?;
        let ones = |words: &[u64]| words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        if let Canon::Grid { .. } = self.canon {
            // (height << 32 | width), then the bits of the shape's box (`grid_key`)
            let area = (head >> 32).saturating_mul(head & 0xFFFF_FFFF);
            if area > self.vertices as u64 || rest.len() as u64 != area.div_ceil(64) {
                return Err(damaged());
            }
            return Ok(self.moves.most_on_grid(ones(rest) as u32));
        }
        if head == canon::BY_SET {
            if rest.len() != self.vertices.div_ceil(64) || members(rest).any(|v| v >= self.vertices)
            {
                return Err(damaged());
            }
            return Ok(match self.moves {
                Moves::Neighbourhood => ones(rest),
                Moves::Edge => {
                    let degrees: u64 = members(rest)
                        .map(|v| {
                            let within = self.adjacency[v].iter().zip(rest).map(|(a, s)| a & s);
                            within.map(|w| u64::from(w.count_ones())).sum::<u64>()
                        })
                        .sum();
                    degrees / 2
                }
            });
        }
        if head > self.vertices as u64 || rest.len() != canon::key_words(head as usize) - 1 {
            return Err(damaged());
        }
        Ok(match self.moves {
            Moves::Neighbourhood => head,
            Moves::Edge => ones(rest) / 2,
        })
    }
}
