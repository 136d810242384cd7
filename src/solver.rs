//! Answers about every position below a start position, under any rules: the closed
//! forms where they hold, else a table from exact search: over the box below the start
//! (every position a game from the start can reach lies in that box), or, when moves
//! split heaps, over every multiset of heaps reachable from the start.
use std::sync::{Arc, OnceLock};

use crate::error::{Error, Result};
use crate::multiset::MultisetSolution;
use crate::position::Move;
use crate::rules::Rules;
use crate::search::{box_size, BoxSolution};
use crate::theory::{self, Analysis, Outcome};

/// The default limit on the positions a search may label.
pub const DEFAULT_MAX_POSITIONS: u64 = 10_000_000;

/// Outcomes, winning moves and (when affordable) remoteness below a start position.
#[derive(Debug, Clone)]
pub struct Solver {
    rules: Rules,
    start: Vec<u64>,
    max_positions: u64,
    /// The searched positions, when the closed forms do not decide outcomes.
    table: Option<Table>,
    /// Remoteness of the positions, found on first demand (`None`: over `max_positions`).
    remoteness: Arc<OnceLock<Option<Remoteness>>>,
}

/// An exact search's labels.
#[derive(Debug, Clone)]
enum Table {
    Box(Arc<BoxSolution>),
    Multiset(Arc<MultisetSolution>),
}

impl Table {
    fn solve(start: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        if rules.splits() {
            return MultisetSolution::solve(start, rules, max_positions)
                .map(|s| Table::Multiset(Arc::new(s)));
        }
        let solution = BoxSolution::solve(start, rules, max_positions).map_err(|e| match e {
            Error::BoxTooLarge { positions, limit } => Error::SearchTooLarge {
                bounds: start.to_vec(),
                positions,
                limit,
            },
            other => other,
        })?;
        Ok(Table::Box(Arc::new(solution)))
    }

    fn outcome(&self, heaps: &[u64]) -> Outcome {
        match self {
            Table::Box(table) => table.outcome(heaps),
            Table::Multiset(table) => table.outcome(heaps),
        }
    }

    fn winning_moves(&self, heaps: &[u64]) -> Vec<Move> {
        match self {
            Table::Box(table) => table.winning_moves(heaps),
            Table::Multiset(table) => table.winning_moves(heaps),
        }
    }

    fn remoteness(&self) -> Result<Vec<u32>> {
        match self {
            Table::Box(table) => table.remoteness(),
            Table::Multiset(table) => table.remoteness(),
        }
    }

    fn remoteness_of(&self, values: &[u32], heaps: &[u64]) -> u32 {
        match self {
            Table::Box(table) => values[table.index(heaps)],
            Table::Multiset(table) => table.remoteness_of(values, heaps),
        }
    }
}

#[derive(Debug)]
struct Remoteness {
    table: Table,
    values: Vec<u32>,
}

/// The outcome of one position: the closed forms, else a solver for it as the start.
/// Unlike a `Solver`, looks for no winning move, so any heap the rules reach will do.
pub fn outcome(heaps: &[u64], rules: &Rules, max_positions: u64) -> Result<Outcome> {
    if rules.has_closed_form() {
        theory::outcome(heaps, rules)
    } else {
        Ok(Solver::new(heaps, rules, max_positions)?.outcome(heaps))
    }
}

impl Solver {
    /// A solver for `start` and every position below it. Searches the box when the
    /// rules need it, refusing one of more than `max_positions` positions.
    pub fn new(start: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        rules.check_position(start)?;
        // The solver answers winning moves, which scan every option of a heap.
        rules.check_scan_up_to(start.iter().copied().max().unwrap_or(0))?;
        let table = if rules.has_closed_form() {
            None
        } else {
            Some(Table::solve(start, rules, max_positions)?)
        };
        Ok(Solver {
            rules: rules.clone(),
            start: start.to_vec(),
            max_positions,
            table,
            remoteness: Arc::default(),
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// P or N; `heaps` must lie in the box below the start.
    #[inline]
    pub fn outcome(&self, heaps: &[u64]) -> Outcome {
        match &self.table {
            None => theory::outcome(heaps, &self.rules).expect("closed form, heaps checked"),
            Some(table) => table.outcome(heaps),
        }
    }

    /// Grundy values, nim-sum, outcome and every winning move of `heaps`.
    pub fn analyse(&self, heaps: &[u64]) -> Analysis {
        match &self.table {
            None => theory::analyse(heaps, &self.rules).expect("closed form, heaps checked"),
            Some(table) => {
                let grundy = theory::grundy_values(heaps, &self.rules).expect("heaps checked");
                Analysis {
                    nim_sum: grundy.iter().fold(0, |s, &g| s ^ g),
                    grundy,
                    outcome: table.outcome(heaps),
                    winning_moves: table.winning_moves(heaps),
                }
            }
        }
    }

    /// Every winning move of `heaps`, in heap order, then smallest take first.
    pub fn winning_moves(&self, heaps: &[u64]) -> Vec<Move> {
        match &self.table {
            None => theory::winning_moves(heaps, &self.rules).expect("closed form"),
            Some(table) => table.winning_moves(heaps),
        }
    }

    /// The remoteness of `heaps` (moves to the end when the winner hurries and the
    /// loser delays), or `None` when the positions below the start are more than
    /// `max_positions`. The table is built on first use and shared by clones.
    pub fn remoteness(&self, heaps: &[u64]) -> Option<u32> {
        let table = self.remoteness.get_or_init(|| {
            if !self.rules.splits() && box_size(&self.start) > u128::from(self.max_positions) {
                return None;
            }
            let table = match &self.table {
                Some(table) => table.clone(),
                None => Table::solve(&self.start, &self.rules, self.max_positions).ok()?,
            };
            let values = table.remoteness().ok()?;
            Some(Remoteness { table, values })
        });
        table
            .as_ref()
            .map(|t| t.table.remoteness_of(&t.values, heaps))
    }
}
