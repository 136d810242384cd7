//! Sums of any games, written once (Ferguson, Part I, ch. 4; Smith for loopy games).
//!
//! A move in a sum is a move in one part. Normal play: the value of a sum is the XOR
//! of its parts' values (Sprague–Grundy); with one infinite part ∞(K) and the others
//! XOR-ing to `a`, it is ∞(K xor a); with two or more, the sum's own graph is searched
//! (its outcome is a draw). Misère play has no such rule: heaps under one rule merge
//! into one heap position (so that the misère quotient answers), anything else is
//! searched over the tuples of the parts' positions (`search::graph::Product`).
use std::any::Any;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::heaps::HeapsGame;
use super::{At, Game, GameRef, Limits, Memo, Value};
use crate::base::error::{Error, Result};
use crate::base::outcome::Outcome;
use crate::search::graph::{self, Product};

/// One part of a sum, compared and hashed as the game it is.
#[derive(Clone, Debug)]
pub struct Part(pub GameRef);

impl PartialEq for Part {
    fn eq(&self, other: &Self) -> bool {
        self.0.equals(&*other.0)
    }
}

impl Eq for Part {}

impl Hash for Part {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash_code());
    }
}

/// The game of sums: a position is its parts.
#[derive(Debug, Default)]
pub struct SumGame {
    memo: Memo<Vec<Part>>,
}

impl SumGame {
    /// The sum of `parts` (a sum among them is taken apart: sums are associative).
    pub fn of(parts: impl IntoIterator<Item = GameRef>) -> At<SumGame> {
        let mut flat = Vec::new();
        for part in parts {
            match part.as_any().downcast_ref::<At<SumGame>>() {
                Some(sum) => flat.extend(sum.position.iter().cloned()),
                None => flat.push(Part(part)),
            }
        }
        At::new(Arc::new(SumGame::default()), flat)
    }
}

/// The heaps of every part and their one rule, when every part is heaps under the
/// same rule for every heap.
fn merged_heaps(parts: &[Part]) -> Option<(Vec<u64>, &HeapsGame)> {
    let mut heaps = Vec::new();
    let mut game: Option<&HeapsGame> = None;
    for part in parts {
        let part: &dyn Any = part.0.as_any();
        let part = part.downcast_ref::<At<HeapsGame>>()?;
        part.game.rules().uniform()?;
        if game.is_some_and(|g| g.rules() != part.game.rules()) {
            return None;
        }
        game = Some(&part.game);
        heaps.extend_from_slice(&part.position);
    }
    game.map(|game| (heaps, game))
}

/// The misère outcomes of every tuple of the parts' positions.
struct Searched {
    product: Product,
    outcomes: Vec<Outcome>,
}

/// Lower bounds on a part's positions and moves, known before its graph is explored:
/// heaps under take limits reach every smaller size (exactly `moves_up_to` moves
/// below a heap), codes at least their `search_floor`; anything else one position.
fn floor(part: &Part) -> (u128, u128) {
    let Some(at) = part.0.as_any().downcast_ref::<At<HeapsGame>>() else {
        return (1, 0);
    };
    let rules = at.game.rules();
    let splits = rules.splits();
    let (mut positions, mut moves) = (1u128, 0u128);
    for (i, &n) in at.position.iter().enumerate() {
        let rule = rules.take_for(i);
        let (p, m) = if rule.interval().is_some() {
            (u128::from(n) + 1, rule.moves_up_to(n))
        } else {
            let (p, m) = rule.search_floor(n);
            (u128::from(p), u128::from(m))
        };
        if splits {
            // Multisets from different heaps may meet: the largest is a bound.
            (positions, moves) = (positions.max(p), moves.max(m));
        } else {
            // Tuples of sizes: each heap's moves for every size of the others.
            moves = moves
                .saturating_mul(p)
                .saturating_add(m.saturating_mul(positions));
            positions = positions.saturating_mul(p);
        }
    }
    (positions, moves)
}

/// Refuse before any work a product whose floors already pass the limits.
fn check_floors(parts: &[Part], limits: &Limits) -> Result<()> {
    let floors: Vec<_> = parts.iter().map(floor).collect();
    let positions = floors.iter().fold(1u128, |n, f| n.saturating_mul(f.0));
    if positions > u128::from(limits.max_positions) {
        return Err(Error::SumTooLarge {
            positions,
            limit: limits.max_positions,
        });
    }
    let moves = floors
        .iter()
        .map(|&(p, m)| m.saturating_mul(positions / p.max(1)))
        .fold(0u128, u128::saturating_add);
    let limit = graph::max_moves(limits.max_positions);
    if moves > limit {
        return Err(Error::SumTooManyMoves { moves, limit });
    }
    Ok(())
}

impl Searched {
    fn new(parts: &[Part], limits: &Limits) -> Result<Self> {
        check_floors(parts, limits)?;
        let graphs = parts
            .iter()
            .map(|part| part.0.graph(limits))
            .collect::<Result<Vec<_>>>()?;
        let product = Product::new(graphs, limits.max_positions)?;
        let outcomes = graph::outcomes(&product, true)?;
        Ok(Searched { product, outcomes })
    }
}

impl Game for SumGame {
    type Position = Vec<Part>;
    const FAMILY: &'static str = "sum";

    fn options(&self, p: &Vec<Part>, out: &mut Vec<Vec<Part>>) -> Result<()> {
        for (i, part) in p.iter().enumerate() {
            for option in part.0.options()? {
                let mut next = p.clone();
                next[i] = Part(option);
                out.push(next);
            }
        }
        Ok(())
    }

    fn value(&self, p: &Vec<Part>, limits: &Limits) -> Result<Option<Value>> {
        let (mut xor, mut infinite) = (0u64, None);
        for part in p {
            match part.0.value(limits)? {
                Value::Finite(v) => xor ^= v,
                Value::Infinite(_) if infinite.is_some() => return Ok(None),
                Value::Infinite(k) => infinite = Some(k),
            }
        }
        Ok(Some(match infinite {
            None => Value::Finite(xor),
            Some(k) => {
                let mut k: Vec<u64> = k.iter().map(|v| v ^ xor).collect();
                k.sort_unstable();
                Value::Infinite(k)
            }
        }))
    }

    fn misere(&self, p: &Vec<Part>, limits: &Limits) -> Result<Option<Outcome>> {
        if let Some((heaps, game)) = merged_heaps(p) {
            return game.misere(&heaps, limits);
        }
        // Tuple 0 is every part at its own start.
        Ok(Some(Searched::new(p, limits)?.outcomes[0]))
    }

    fn options_with(
        &self,
        p: &Vec<Part>,
        outcome: Outcome,
        misere: bool,
        limits: &Limits,
    ) -> Result<Option<Vec<Vec<Part>>>> {
        if !misere || merged_heaps(p).is_some() {
            return Ok(None);
        }
        // One search of the tuples answers for every option: a move in part `i` to
        // its node `s` is tuple `s * stride_i`.
        let searched = Searched::new(p, limits)?;
        let mut found = Vec::new();
        for (i, part) in p.iter().enumerate() {
            let starts = searched.product.part_graph(i).successors(0);
            for (s, option) in starts.iter().zip(part.0.options()?) {
                if searched.outcomes[searched.product.tuple(i, *s) as usize] == outcome {
                    let mut next = p.clone();
                    next[i] = Part(option);
                    found.push(next);
                }
            }
        }
        Ok(Some(found))
    }

    fn loopy(&self, p: &Vec<Part>, limits: &Limits) -> Result<Option<bool>> {
        for part in p {
            if part.0.loopy(limits)? {
                return Ok(Some(true));
            }
        }
        Ok(Some(false))
    }

    fn memo(&self) -> &Memo<Vec<Part>> {
        &self.memo
    }

    fn calls_out(&self, parts: &Vec<Part>) -> bool {
        parts.iter().any(|part| part.0.calls_out())
    }

    fn bounds_memory(&self, parts: &Vec<Part>) -> bool {
        parts.iter().any(|part| part.0.bounds_memory())
    }

    fn same_game(&self, _other: &Self) -> bool {
        true
    }

    fn hash_game(&self, _state: &mut dyn Hasher) {}
}
