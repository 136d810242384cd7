//! A small game on a graph or board stepped by `Envs`: Node Kayles, Arc Kayles or
//! Cram, every position valued once by the retrograde pass (`EveryPosition`), so a
//! label is a look-up per move. A position is one word, the mask of the vertices
//! left; action `a` is the table's move `a` (a vertex, or an edge).
use super::env_game::{Applied, EnvGame};
use super::start::Start;
use crate::base::error::{FamilyError, Result};
use crate::games::board::every::{EveryPosition, MaskMove};

/// Why a start does not suit a table's game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableGameError {
    #[error("a game on a graph starts at one position of its vertices, not random heaps")]
    RandomStart,
    #[error("the start {0:#x} holds vertices the graph does not have")]
    Outside(u64),
}

impl FamilyError for TableGameError {}

/// The moves and every position's value and misère outcome, and the ending played.
#[derive(Debug)]
pub struct TableGame {
    every: EveryPosition,
    vertices: usize,
    misere: bool,
}

impl TableGame {
    /// The game of `every`, a table of the positions of `vertices` vertices.
    pub fn new(every: EveryPosition, vertices: usize, misere: bool) -> Self {
        TableGame {
            every,
            vertices,
            misere,
        }
    }

    /// How many vertices the graph has (the bits of a position).
    pub fn vertices(&self) -> usize {
        self.vertices
    }

    fn legal(m: &MaskMove, s: u32) -> bool {
        s & m.needs == m.needs
    }

    /// Whether the player to move in position `s` loses.
    fn loses(&self, s: u32) -> bool {
        if self.misere {
            self.every.misere_wins[s as usize] == 0
        } else {
            self.every.values[s as usize] == 0
        }
    }
}

impl EnvGame for TableGame {
    fn width(&self) -> usize {
        1
    }
    fn actions(&self) -> usize {
        self.every.moves.len()
    }
    fn is_misere(&self) -> bool {
        self.misere
    }
    fn fits(&self, start: &Start) -> Result<()> {
        match start {
            Start::Fixed(row) if row.len() == 1 && row[0] >> self.vertices == 0 => Ok(()),
            Start::Fixed(row) => Err(TableGameError::Outside(row[0]).into()),
            Start::Random { .. } => Err(TableGameError::RandomStart.into()),
        }
    }
    fn has_move(&self, row: &[u64]) -> bool {
        let s = row[0] as u32;
        self.every.moves.iter().any(|m| Self::legal(m, s))
    }
    fn apply(&self, row: &mut [u64], action: i64) -> Applied {
        let s = row[0] as u32;
        let m = usize::try_from(action)
            .ok()
            .and_then(|a| self.every.moves.get(a));
        match m {
            Some(m) if Self::legal(m, s) => {
                row[0] = u64::from(s & !m.deletes);
                Applied::Moved {
                    ended: !self.has_move(row),
                }
            }
            _ => Applied::Illegal,
        }
    }
    fn label(&self, row: &[u64], legal: &mut [bool], winning: &mut [bool]) -> bool {
        let s = row[0] as u32;
        for ((m, l), w) in self.every.moves.iter().zip(legal).zip(winning) {
            *l = Self::legal(m, s);
            *w = *l && self.loses(s & !m.deletes);
        }
        self.loses(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::env_game::Policy;
    use crate::batch::envs::{Envs, First};
    use std::sync::Arc;

    /// Node Kayles on the path of three vertices 0 - 1 - 2: taking the middle
    /// vertex takes all of them.
    fn path3(misere: bool) -> TableGame {
        let m = |v: u32, d: u32| MaskMove {
            needs: 1 << v,
            deletes: d,
        };
        let moves = vec![m(0, 0b011), m(1, 0b111), m(2, 0b110)];
        // Values by hand: {} 0, one vertex *1, two adjacent *1, 0&2 apart 0, all *2.
        let values = vec![0, 1, 1, 1, 1, 0, 1, 2];
        let misere_wins = vec![1, 0, 0, 0, 0, 1, 0, 1];
        let every = EveryPosition {
            moves,
            values,
            misere_wins,
        };
        TableGame::new(every, 3, misere)
    }

    #[test]
    fn labels_follow_the_table() {
        let g = path3(false);
        let (mut l, mut w) = ([false; 3], [false; 3]);
        assert!(!g.label(&[0b111], &mut l, &mut w));
        assert_eq!((l, w), ([true; 3], [false, true, false]));
        assert!(g.label(&[0b101], &mut l, &mut w));
        assert_eq!((l, w), ([true, false, true], [false; 3]));
        let g = path3(true);
        assert!(!g.label(&[0b111], &mut l, &mut w));
        assert_eq!(w, [true, false, true]);
    }

    #[test]
    fn a_move_deletes_and_an_illegal_one_changes_nothing() {
        let g = path3(false);
        let mut row = [0b101];
        assert_eq!(g.apply(&mut row, 1), Applied::Illegal);
        assert_eq!(g.apply(&mut row, 7), Applied::Illegal);
        assert_eq!(g.apply(&mut row, -1), Applied::Illegal);
        assert_eq!(g.apply(&mut row, 0), Applied::Moved { ended: false });
        assert_eq!(row, [0b100]);
        assert_eq!(g.apply(&mut row, 2), Applied::Moved { ended: true });
        assert!(g.fits(&Start::Fixed(vec![0b1000])).is_err());
    }

    #[test]
    fn an_opening_that_ends_the_game_is_drawn_again() {
        let opponent = Some((Policy::Random, First::Opponent));
        let mut envs = Envs::new(
            8,
            Arc::new(path3(false)),
            Start::Fixed(vec![0b111]),
            opponent,
            true,
        )
        .unwrap();
        // Taking the middle would leave the agent nothing: the opponent's opening is
        // drawn again until it takes an end, leaving the agent the other end.
        for &s in envs.rows() {
            assert!(s == 0b100 || s == 0b001, "{s:#b}");
        }
        envs.reset(Some(3)).unwrap();
        assert!(envs.moves().iter().all(|&m| m == 1));
        // A perfect opponent's only winning opening ends the game: no start is left.
        let perfect = Some((Policy::Perfect, First::Opponent));
        let start = Start::Fixed(vec![0b111]);
        assert!(Envs::new(2, Arc::new(path3(false)), start, perfect, true).is_err());
    }
}
