//! The check the families with a theorem share: every position a start reaches, the
//! theorem's value and winning moves against retrograde search of its state graph.
use nimkit::games::{AnyGame, At, Game, Limits, Value};
use nimkit::search::graph::{self, Explored};
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

const LIMITS: Limits = Limits {
    max_positions: 1 << 22,
    max_memory: u64::MAX,
    evict: false,
    report: &|_| {},
};

/// Checks every position `start` reaches: the theorem's value against the search's,
/// and the winning moves against the options the search calls P. Adds the positions
/// checked to `checked`, as numbers.
pub fn check_against_search<G: Game>(
    game: Arc<G>,
    start: G::Position,
    checked: &mut BTreeSet<Vec<u64>>,
) where
    G::Position: Debug + Hash,
{
    let explored = Explored::explore(
        start,
        1 << 22,
        &mut |p, out| game.options(p, out),
        &mut |_| {},
    )
    .unwrap();
    let values = graph::values(&explored.graph).unwrap();
    for (id, p) in explored.positions.iter().enumerate() {
        let at = At::new(Arc::clone(&game), p.clone());
        assert_eq!(at.value(&LIMITS).unwrap(), values[id], "{p:?}");
        let expected: BTreeSet<Vec<u64>> = explored
            .graph
            .successors(id as u32)
            .iter()
            .filter(|&&q| values[q as usize] == Value::Finite(0))
            .map(|&q| game.numbers(&explored.positions[q as usize]).unwrap())
            .collect();
        let found: BTreeSet<Vec<u64>> = at
            .winning_moves(false, &LIMITS)
            .unwrap()
            .iter()
            .map(|g| g.numbers().unwrap())
            .collect();
        let expected = if values[id] == Value::Finite(0) {
            BTreeSet::new()
        } else {
            expected
        };
        assert_eq!(found, expected, "{p:?}");
        checked.insert(game.numbers(p).unwrap());
    }
}
