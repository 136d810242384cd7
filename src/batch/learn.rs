//! Kernels for learning agents, over many positions of a board at once: the exact
//! labels, whether chosen actions win, and how a policy's scores rank the winning
//! actions (top-k accuracy, with the exact accuracy of random play beside it).
//! Positions are rows of `board.heaps()` sizes; per-action outputs hold
//! `board.actions()` entries a position.
use rayon::prelude::*;

use super::agent_board::{Board, BoardError};
use super::env_game::EnvGame;
use crate::base::error::Result;
use crate::base::interrupt;

/// Positions per parallel task.
const ROWS: usize = 1 << 10;

fn expect(what: &'static str, got: usize, wanted: usize) -> Result<()> {
    if got == wanted {
        Ok(())
    } else {
        Err(BoardError::Length { what, got, wanted }.into())
    }
}

/// Poll for Ctrl-C between pieces of a long parallel run.
fn pieces(rows: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    const PIECE: usize = 1 << 18;
    (0..rows)
        .step_by(PIECE)
        .map(move |s| s..rows.min(s + PIECE))
}

/// Labels of every position: `legal` and `winning` per action, and whether the
/// position is P.
pub fn labels(
    board: &Board,
    rows: &[u64],
    legal: &mut [bool],
    winning: &mut [bool],
    p: &mut [bool],
) -> Result<()> {
    board.check(rows)?;
    labels_of_rows(board, rows, legal, winning, p)
}

/// `labels` of rows known to fit the game (the games of `Envs`: no check).
pub fn labels_of_rows<G: EnvGame + ?Sized>(
    board: &G,
    rows: &[u64],
    legal: &mut [bool],
    winning: &mut [bool],
    p: &mut [bool],
) -> Result<()> {
    let (m, a) = (board.width(), board.actions());
    let n = rows.len() / m;
    expect("legal", legal.len(), n * a)?;
    expect("winning", winning.len(), n * a)?;
    expect("p", p.len(), n)?;
    for piece in pieces(n) {
        if interrupt::requested() {
            return Err(crate::base::error::Error::Interrupted);
        }
        if a == 0 {
            // A game with no action at all: each position's outcome alone.
            rows[piece.start * m..piece.end * m]
                .par_chunks(m)
                .zip(p[piece].par_iter_mut())
                .for_each(|(row, p)| *p = board.label(row, &mut [], &mut []));
            continue;
        }
        rows[piece.start * m..piece.end * m]
            .par_chunks(ROWS * m)
            .zip(legal[piece.start * a..piece.end * a].par_chunks_mut(ROWS * a))
            .zip(winning[piece.start * a..piece.end * a].par_chunks_mut(ROWS * a))
            .zip(p[piece.clone()].par_chunks_mut(ROWS))
            .for_each(|(((rows, legal), winning), p)| {
                for (((row, legal), winning), p) in rows
                    .chunks_exact(m)
                    .zip(legal.chunks_exact_mut(a))
                    .zip(winning.chunks_exact_mut(a))
                    .zip(p)
                {
                    *p = board.label(row, legal, winning);
                }
            });
    }
    Ok(())
}

/// What one chosen action is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Illegal,
    /// Legal, and leaves a P-position.
    Wins,
    /// Legal, but leaves an N-position.
    Loses,
}

/// The verdict on `actions[i]` in position `i`.
pub fn judge(board: &Board, rows: &[u64], actions: &[i64], out: &mut [Verdict]) -> Result<()> {
    board.check(rows)?;
    let m = board.heaps();
    expect("actions", actions.len(), rows.len() / m)?;
    expect("out", out.len(), actions.len())?;
    rows.par_chunks(ROWS * m)
        .zip(actions.par_chunks(ROWS))
        .zip(out.par_chunks_mut(ROWS))
        .for_each(|((rows, actions), out)| {
            let mut after = vec![0; m];
            for ((row, &action), out) in rows.chunks_exact(m).zip(actions).zip(out) {
                after.copy_from_slice(row);
                *out = match board.apply(&mut after, action) {
                    super::env_game::Applied::Illegal => Verdict::Illegal,
                    _ if board.is_p(&after) => Verdict::Wins,
                    _ => Verdict::Loses,
                };
            }
        });
    Ok(())
}

/// How a policy's scores fare in one position.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Ranked {
    /// Legal and winning actions.
    pub legal: u32,
    pub winning: u32,
    /// Whether one of the `k` best-scored legal actions wins (ties go to the lower id).
    pub hit: bool,
    /// The chance that `k` distinct legal actions drawn at random include a winning
    /// one: `1 - C(legal - winning, k) / C(legal, k)`.
    pub random: f64,
}

/// For every position, how the `k` best-scored legal actions of `scores` (one row
/// of `board.actions()` scores a position; NaN ranks last) compare with the
/// winning actions.
pub fn rank(
    board: &Board,
    rows: &[u64],
    scores: &[f64],
    k: usize,
    out: &mut [Ranked],
) -> Result<()> {
    board.check(rows)?;
    let (m, a) = (board.heaps(), board.actions());
    let n = rows.len() / m;
    expect("scores", scores.len(), n * a)?;
    expect("out", out.len(), n)?;
    for piece in pieces(n) {
        if interrupt::requested() {
            return Err(crate::base::error::Error::Interrupted);
        }
        if a == 0 {
            continue; // no action to rank: every entry stays empty
        }
        rows[piece.start * m..piece.end * m]
            .par_chunks(ROWS * m)
            .zip(scores[piece.start * a..piece.end * a].par_chunks(ROWS * a))
            .zip(out[piece.clone()].par_chunks_mut(ROWS))
            .for_each(|((rows, scores), out)| {
                let (mut legal, mut winning) = (vec![false; a], vec![false; a]);
                let mut order: Vec<(f64, usize)> = Vec::with_capacity(a);
                for ((row, scores), out) in
                    rows.chunks_exact(m).zip(scores.chunks_exact(a)).zip(out)
                {
                    board.label(row, &mut legal, &mut winning);
                    order.clear();
                    order.extend((0..a).filter(|&i| legal[i]).map(|i| {
                        (
                            if scores[i].is_nan() {
                                f64::NEG_INFINITY
                            } else {
                                scores[i]
                            },
                            i,
                        )
                    }));
                    let by_score = |x: &(f64, usize), y: &(f64, usize)| {
                        y.0.total_cmp(&x.0).then(x.1.cmp(&y.1))
                    };
                    let best = k.min(order.len());
                    if best > 0 && best < order.len() {
                        order.select_nth_unstable_by(best - 1, by_score);
                    }
                    let w = winning.iter().filter(|&&b| b).count() as u32;
                    *out = Ranked {
                        legal: order.len() as u32,
                        winning: w,
                        hit: order[..best].iter().any(|&(_, i)| winning[i]),
                        random: random_hit(order.len() as u64, u64::from(w), k as u64),
                    };
                }
            });
    }
    Ok(())
}

/// `1 - C(legal - winning, k) / C(legal, k)`, as a product of ratios.
fn random_hit(legal: u64, winning: u64, k: u64) -> f64 {
    let losing = legal - winning;
    if winning == 0 {
        return 0.0;
    }
    if k > losing {
        return 1.0;
    }
    let miss: f64 = (0..k)
        .map(|j| (losing - j) as f64 / (legal - j) as f64)
        .product();
    1.0 - miss
}

#[cfg(test)]
mod tests {
    use super::random_hit;

    #[test]
    fn random_hit_is_the_hypergeometric_chance() {
        // 2 winning of 5 legal, 2 draws: 1 - C(3,2)/C(5,2) = 1 - 3/10.
        assert!((random_hit(5, 2, 2) - 0.7).abs() < 1e-12);
        assert_eq!(random_hit(5, 0, 3), 0.0);
        assert_eq!(random_hit(5, 3, 3), 1.0);
        assert!((random_hit(7, 1, 1) - 1.0 / 7.0).abs() < 1e-12);
    }
}
