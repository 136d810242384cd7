//! Answers about every position below a start position, under any rules: the closed
//! forms where they hold, else a table from exact search: over the box below the start
//! (every position a game from the start can reach lies in that box), or, when moves
//! split heaps, over every multiset of heaps reachable from the start.
use std::sync::{Arc, Mutex, PoisonError};

use crate::base::error::{Error, Result};
use crate::base::outcome::Outcome;
use crate::heap::code::{Scan, TakeAndBreak};
use crate::heap::position::Move;
use crate::heap::rules::Rules;
use crate::misere::{self, MisereQuotient};
use crate::search::MultisetSolution;
use crate::search::{box_size, BoxSolution};
use crate::solve::theory::{self, Analysis, Method};

/// In misère play of a code or a subtraction set, positions with more objects than
/// this are answered by the misère quotient when there is one: their search would be
/// large (a few dozen objects already reach millions of positions). Smaller ones are
/// searched, and fall back on the quotient only when the search is too large.
const QUOTIENT_FIRST: u64 = 64;

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
    /// Remoteness of the positions, found on first demand, or why it cannot be (an
    /// interrupted computation leaves it to the next demand).
    remoteness: Arc<Mutex<Option<Result<Arc<Remoteness>>>>>,
}

/// An exact search's labels.
#[derive(Debug, Clone)]
enum Table {
    Box(Arc<BoxSolution>),
    Multiset(Arc<MultisetSolution>),
    /// Misère play of a code whose search is too large: its misère quotient.
    Quotient(Arc<MisereQuotient>, Arc<TakeAndBreak>),
}

impl Table {
    /// The table for `start`: the search, or the misère quotient for large misère
    /// positions (`QUOTIENT_FIRST`) and where the search is too large.
    fn solve(start: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        if start.iter().sum::<u64>() > QUOTIENT_FIRST {
            if let Some(table) = Table::by_quotient(start, rules)? {
                return Ok(table);
            }
        }
        match Table::search(start, rules, max_positions) {
            Err(
                err @ (Error::MultisetSearchTooLarge { .. }
                | Error::MultisetTooManyMoves { .. }
                | Error::SearchTooLarge { .. }),
            ) => {
                Table::by_quotient(start, rules)?.ok_or_else(|| without_quotient(err, start, rules))
            }
            other => other,
        }
    }

    /// The exact search below `start`.
    fn search(start: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        if rules.splits() {
            return MultisetSolution::solve(start, rules, max_positions)
                .map(|solution| Table::Multiset(Arc::new(solution)));
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

    /// The code's misère quotient, when the rules are misère play of one code and
    /// the quotient (computed once, kept by the rule: `misere::SHARED_MAX_HEAP`) covers
    /// `start`.
    fn by_quotient(start: &[u64], rules: &Rules) -> Result<Option<Self>> {
        // (Remoteness of closed-form rules searches too; the quotient knows none.)
        if rules.has_closed_form() {
            return Ok(None);
        }
        Ok(quotient(rules, start, true)?
            .filter(|(q, _)| q.covers(start))
            .map(|(q, rule)| Table::Quotient(q, rule)))
    }

    fn outcome(&self, heaps: &[u64]) -> Outcome {
        match self {
            Table::Box(table) => table.outcome(heaps),
            Table::Multiset(table) => table.outcome(heaps),
            Table::Quotient(q, _) => match q.is_p(heaps) {
                Ok(true) => Outcome::P,
                Ok(false) => Outcome::N,
                Err(_) => unreachable!("the solver covers the heaps"),
            },
        }
    }

    fn winning_moves(&self, heaps: &[u64], scan: Scan) -> Vec<Move> {
        match self {
            Table::Box(table) => table.winning_moves(heaps),
            Table::Multiset(table) => table.winning_moves(heaps),
            Table::Quotient(q, rule) => q
                .winning_moves(heaps, rule, scan)
                .expect("the solver covers the heaps"),
        }
    }

    fn remoteness(&self) -> Result<Vec<u32>> {
        match self {
            Table::Box(table) => table.remoteness(),
            Table::Multiset(table) => table.remoteness(),
            // A quotient knows outcomes, not how long games last.
            Table::Quotient(..) => Err(Error::NotForCodes("remoteness from a misère quotient")),
        }
    }

    fn remoteness_of(&self, values: &[u32], heaps: &[u64]) -> u32 {
        match self {
            Table::Box(table) => values[table.index(heaps)],
            Table::Multiset(table) => table.remoteness_of(values, heaps),
            Table::Quotient(..) => unreachable!("no remoteness table from a quotient"),
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
pub fn outcome(
    heaps: &[u64],
    rules: &Rules,
    max_positions: u64,
    solvers: &Solvers,
) -> Result<Outcome> {
    if rules.has_closed_form() {
        return theory::outcome(heaps, rules);
    }
    let big = heaps.iter().sum::<u64>() > QUOTIENT_FIRST;
    if let Some(outcome) = by_quotient(heaps, rules, big)? {
        return Ok(outcome);
    }
    match solvers.get(heaps, rules, max_positions) {
        Ok(solver) => Ok(solver.outcome(heaps)),
        Err(
            err @ (Error::MultisetSearchTooLarge { .. }
            | Error::MultisetTooManyMoves { .. }
            | Error::TooManyOptions { .. }),
        ) => by_quotient(heaps, rules, true)?.ok_or_else(|| without_quotient(err, heaps, rules)),
        Err(err) => Err(err),
    }
}

/// The search's error `search`, with why the code's misère quotient could not answer
/// for `heaps` instead, when the rules have one to try.
fn without_quotient(search: Error, heaps: &[u64], rules: &Rules) -> Error {
    let Ok(Some(rule)) = misere_code(rules) else {
        return search;
    };
    let top = heaps.iter().copied().max().unwrap_or(0);
    // The furthest quotient the rule holds (the one a user computed, or the shared).
    let reached = misere::kept_max_heap(&rule);
    let why = match misere::shared(&rule, false) {
        Ok(Some(q)) if !q.covers(heaps) => Error::BeyondQuotient {
            heap: top,
            max_heap: q.max_heap().max(reached.unwrap_or(0)),
        },
        // Why the shared quotient failed says most; else how far the kept one got.
        Ok(None) => match (misere::shared_failure(&rule), reached) {
            (Some(err), _) => err,
            (None, Some(r)) if (r as u64) < top => Error::BeyondQuotient {
                heap: top,
                max_heap: r,
            },
            _ => return search,
        },
        _ => return search,
    };
    Error::NoQuotient {
        search: Box::new(search),
        quotient: Box::new(why),
    }
}

/// The remoteness of one position: from a recent solver that covers it, or, when
/// that solver's box is too large for a remoteness table, from a solver of its own.
pub fn remoteness(
    heaps: &[u64],
    rules: &Rules,
    max_positions: u64,
    solvers: &Solvers,
) -> Result<u32> {
    let solver = solvers.get(heaps, rules, max_positions)?;
    match solver.remoteness(heaps) {
        Err(Error::RemotenessTooLarge { .. } | Error::BoxTooManyMoves { .. })
            if solver.start != heaps =>
        {
            Solver::new(heaps, rules, max_positions)?.remoteness(heaps)
        }
        other => other,
    }
}

/// The misère outcome from the code's misère quotient, when it covers `heaps`
/// (`compute`: compute the quotient if it is not known yet).
fn by_quotient(heaps: &[u64], rules: &Rules, compute: bool) -> Result<Option<Outcome>> {
    Ok(quotient(rules, heaps, compute)?
        .and_then(|(q, _)| q.is_p(heaps).ok())
        .map(|lost| if lost { Outcome::P } else { Outcome::N }))
}

/// The misère quotient of the rules' code when they are misère play of one code,
/// with the code: one the rule keeps that covers `heaps` (`misere::covering`), else
/// the shared one (computed once and kept by the rule, when `compute`).
fn quotient(
    rules: &Rules,
    heaps: &[u64],
    compute: bool,
) -> Result<Option<(Arc<MisereQuotient>, Arc<TakeAndBreak>)>> {
    let Some(rule) = misere_code(rules)? else {
        return Ok(None);
    };
    if let Some(q) = misere::covering(&rule, heaps) {
        return Ok(Some((q, rule)));
    }
    Ok(misere::shared(&rule, compute)?.map(|q| (q, rule)))
}

/// The code whose misère quotient answers for the rules: misère play of one code,
/// or of a subtraction set (the code with digit 3 at each element).
fn misere_code(rules: &Rules) -> Result<Option<Arc<TakeAndBreak>>> {
    if !rules.is_misere() {
        return Ok(None);
    }
    match rules.uniform() {
        Some(rule) => rule.misere_code(),
        None => Ok(None),
    }
}

/// How many recent solvers a `Solvers` keeps (each may hold a table of up to
/// `max_positions` positions).
const RECENT_SOLVERS: usize = 4;

/// The last few solvers built for an owner's questions, most recent first: a Python
/// `Rules` object, a game of heaps. The questions a user asks about one game, its
/// moves and the positions after them, then cost one search. Clones of a solver share
/// its tables. Two are always equal: rules compare by what they say, not by what
/// they have solved.
#[derive(Debug, Default)]
pub struct Solvers(Mutex<Vec<Solver>>);

impl PartialEq for Solvers {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Solvers {}

impl std::hash::Hash for Solvers {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl Solvers {
    /// A solver whose positions include `heaps`: one of the last few built, when its
    /// rules are these and its search covers `heaps`, else a new one with `heaps` as
    /// the start.
    pub fn get(&self, heaps: &[u64], rules: &Rules, max_positions: u64) -> Result<Solver> {
        if let Some(solver) = self.recent(heaps, rules, max_positions) {
            return Ok(solver);
        }
        // Searched without the lock, so that other threads are not held up meanwhile.
        let solver = Solver::new(heaps, rules, max_positions)?;
        let mut solvers = self.lock();
        solvers.truncate(RECENT_SOLVERS - 1);
        solvers.insert(0, solver.clone());
        Ok(solver)
    }

    /// A recent solver that answers for `heaps`, moved to the front.
    fn recent(&self, heaps: &[u64], rules: &Rules, max_positions: u64) -> Option<Solver> {
        let mut solvers = self.lock();
        let i = solvers.iter().position(|s| {
            s.max_positions >= max_positions && s.rules == *rules && s.covers(heaps)
        })?;
        let solver = solvers.remove(i);
        solvers.insert(0, solver.clone());
        Some(solver)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Solver>> {
        // A panic elsewhere cannot leave the list inconsistent: keep using it.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Solver {
    /// A solver for `start` and every position below it. Searches the box when the
    /// rules need it, refusing one of more than `max_positions` positions.
    pub fn new(start: &[u64], rules: &Rules, max_positions: u64) -> Result<Self> {
        rules.check_position(start)?;
        let table = if rules.has_closed_form() {
            None
        } else {
            Some(Table::solve(start, rules, max_positions)?)
        };
        // The solver answers winning moves, which scan the options of a heap, by
        // classes past the scan limit where a period gives them. Checked after the
        // search: one too large refuses with its own limit, more to the point for an
        // outcome.
        let top = start.iter().copied().max().unwrap_or(0);
        match &table {
            None => rules.check_scan_by_class_up_to(top)?,
            Some(Table::Quotient(q, rule)) => rule.check_scan(top, q.reach())?,
            Some(_) => rules.check_scan_up_to(top)?,
        }
        Ok(Solver {
            rules: rules.clone(),
            start: start.to_vec(),
            max_positions,
            table,
            remoteness: Arc::default(),
        })
    }

    /// A solver for every position reachable from any of `positions`, under rules that
    /// split heaps (the positions need not reach one another: the rows of a batch);
    /// `largest` is their largest heap.
    pub fn for_positions(
        positions: impl IntoIterator<Item = Vec<u64>>,
        largest: u64,
        rules: &Rules,
        max_positions: u64,
    ) -> Result<Self> {
        debug_assert!(
            rules.splits(),
            "other rules search the box spanned by the rows"
        );
        rules.check_scan_up_to(largest)?;
        let table = MultisetSolution::solve_all(positions, rules, max_positions)?;
        Ok(Solver {
            rules: rules.clone(),
            start: Vec::new(),
            max_positions,
            table: Some(Table::Multiset(Arc::new(table))),
            remoteness: Arc::default(),
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether `heaps` is one of the positions this solver answers for: the box below
    /// the start, or the multisets of heaps the start reaches when heaps split.
    pub fn covers(&self, heaps: &[u64]) -> bool {
        if !self.rules.splits() {
            return heaps.len() == self.start.len()
                && heaps.iter().zip(&self.start).all(|(n, bound)| n <= bound);
        }
        match &self.table {
            Some(Table::Multiset(table)) => table.contains(heaps),
            Some(Table::Quotient(q, _)) => q.covers(heaps),
            _ => heaps == self.start,
        }
    }

    /// P or N; `heaps` must lie in the box below the start.
    #[inline]
    pub fn outcome(&self, heaps: &[u64]) -> Outcome {
        match &self.table {
            None => theory::outcome_of(heaps, &self.rules),
            Some(table) => table.outcome(heaps),
        }
    }

    /// Grundy values, nim-sum, outcome and every winning move of `heaps`: refused
    /// for a code's heap with more options than a search looks through.
    pub fn analyse(&self, heaps: &[u64]) -> Result<Analysis> {
        self.check_every(heaps)?;
        Ok(self.analyse_by_class(heaps, Scan::Every))
    }

    /// `analyse`, or where a code's heap has too many options to list every winning
    /// move, the analysis with the first winning move only (found among one option of
    /// each class): `(analysis, whether every winning move is listed)`.
    pub fn analyse_listing(&self, heaps: &[u64]) -> Result<(Analysis, bool)> {
        match self.check_every(heaps) {
            Ok(()) => Ok((self.analyse_by_class(heaps, Scan::Every), true)),
            Err(Error::TooManyOptions { .. }) => {
                let mut analysis = self.analyse_by_class(heaps, Scan::First);
                analysis.winning_moves.truncate(1);
                Ok((analysis, false))
            }
            Err(err) => Err(err),
        }
    }

    /// Every winning move of `heaps`, in heap order, then smallest take first:
    /// refused as `analyse` is.
    pub fn winning_moves(&self, heaps: &[u64]) -> Result<Vec<Move>> {
        self.check_every(heaps)?;
        Ok(self.winning_moves_by_class(heaps, Scan::Every))
    }

    fn check_every(&self, heaps: &[u64]) -> Result<()> {
        self.rules
            .check_scan_up_to(heaps.iter().copied().max().unwrap_or(0))
    }

    /// As `analyse`, with the options of a code's heap looked through as `scan` says:
    /// by classes that the Grundy values (or the misère quotient) cannot tell apart,
    /// where a period gives them (`TakeAndBreak::scanned_options`). The first winning
    /// move is `analyse`'s first, from heaps of any size.
    pub fn analyse_by_class(&self, heaps: &[u64], scan: Scan) -> Analysis {
        match &self.table {
            None => theory::analyse_by_class(heaps, &self.rules, scan)
                .expect("closed form, heaps checked"),
            Some(table) => {
                let grundy = theory::grundy_values(heaps, &self.rules).expect("heaps checked");
                Analysis {
                    nim_sum: grundy.iter().fold(0, |s, &g| s ^ g),
                    grundy,
                    outcome: table.outcome(heaps),
                    winning_moves: table.winning_moves(heaps, scan),
                    method: match table {
                        Table::Quotient(..) => Method::Quotient,
                        Table::Box(_) | Table::Multiset(_) => Method::Search,
                    },
                }
            }
        }
    }

    /// The winning moves of `heaps` as `analyse_by_class` finds them.
    pub fn winning_moves_by_class(&self, heaps: &[u64], scan: Scan) -> Vec<Move> {
        match &self.table {
            None => {
                theory::analyse_by_class(heaps, &self.rules, scan)
                    .expect("closed form, heaps checked")
                    .winning_moves
            }
            Some(table) => table.winning_moves(heaps, scan),
        }
    }

    /// The remoteness of `heaps` (moves to the end when the winner hurries and the
    /// loser delays). The table is built on first use and shared by clones; refused
    /// when the positions below the start are more than `max_positions` or the moves
    /// they hold more than `search::MAX_BOX_MOVES`, and for a quotient's positions.
    pub fn remoteness(&self, heaps: &[u64]) -> Result<u32> {
        let mut slot = self
            .remoteness
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            match self.remoteness_table() {
                Err(err @ (Error::Interrupted | Error::OutOfMemory { .. })) => return Err(err),
                found => *slot = Some(found.map(Arc::new)),
            }
        }
        match slot.as_ref().expect("filled above") {
            Ok(table) => Ok(table.table.remoteness_of(&table.values, heaps)),
            Err(err) => Err(err.clone()),
        }
    }

    fn remoteness_table(&self) -> Result<Remoteness> {
        let start = &self.start;
        if !self.rules.splits() {
            let positions = box_size(start);
            if positions > u128::from(self.max_positions) {
                return Err(Error::RemotenessTooLarge {
                    heaps: start.clone(),
                    positions,
                    limit: self.max_positions,
                });
            }
        }
        let table = match &self.table {
            Some(Table::Quotient(..)) => return Err(Error::RemotenessFromQuotient(start.clone())),
            Some(table) => table.clone(),
            None => Table::search(start, &self.rules, self.max_positions)?,
        };
        let values = table.remoteness()?;
        Ok(Remoteness { table, values })
    }
}
