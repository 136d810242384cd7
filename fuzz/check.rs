// The fuzz check, shared by the cargo-fuzz target (fuzz_targets/theory.rs) and the
// corpus replay test (tests/fuzz_replay.rs): it decodes bytes into rules, boxes,
// positions and moves, checks the closed forms against the search on a small box,
// and feeds arbitrary values to every public core function, which must answer with
// a result or an error, never a panic.
use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use ndarray::{Array2, Array3};
use nimkit::code::TakeAndBreak;
use nimkit::heap::HeapRule;
use nimkit::heap::Parts;
use nimkit::misere::solver::QuotientSolver;
use nimkit::outcome::Outcome;
use nimkit::players::{perfect_move, random_move, ComputerPlayer, Style};
use nimkit::position::{Move, Position};
use nimkit::rules::{Rules, TakeLimit};
use nimkit::search::MultisetSolution;
use nimkit::search::{advance, box_size, solve_outcomes, BoxSolution};
use nimkit::session::Session;
use nimkit::solver::Solver;
use nimkit::subtraction::{grundy_by_definition, GrundySequence, SubtractionSet};
use nimkit::{batch, tables, theory};
use num_bigint::BigUint;

/// Run every check on `data`; running out of bytes just ends the run early.
pub fn check(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = small_box(&mut u)
        .and_then(|_| subtraction(&mut u))
        .and_then(|_| anything(&mut u))
        .and_then(|_| set_box(&mut u))
        .and_then(|_| codes(&mut u));
}

/// Take-and-break codes: any text parses or is refused without a panic; a small
/// code's closed forms equal the search over multisets of heaps on small positions,
/// and arbitrary moves (splits included) are played or refused, never a panic.
fn codes(u: &mut Unstructured<'_>) -> Result<()> {
    let text: String = u.arbitrary()?;
    let _ = TakeAndBreak::parse(&text);
    let d0 = [0u8, 4, 8, 12][u.int_in_range(0..=3)?];
    let digits: Vec<u8> = (0..u.int_in_range(1..=3)?)
        .map(|_| u.int_in_range(0..=15))
        .collect::<Result<_>>()?;
    let after: String = digits.iter().map(|d| format!("{d:x}")).collect();
    let bang = if u.arbitrary()? { "!" } else { "" };
    let Ok(code) = TakeAndBreak::parse(&format!("{d0:x}{bang}.{after}")) else {
        return Ok(());
    };
    let misere: bool = u.arbitrary()?;
    let code = Arc::new(code);
    let rules = Rules::new(
        misere,
        TakeLimit::Uniform(HeapRule::Code(Arc::clone(&code))),
    )
    .expect("valid rules");
    let heaps: Vec<u64> = (0..u.int_in_range(1..=3)?)
        .map(|_| u.int_in_range(0..=7))
        .collect::<Result<_>>()?;
    let search = MultisetSolution::solve(&heaps, &rules, 100_000).expect("small positions");
    if misere {
        // The misère quotient of the heaps up to 7 (or an error: too many elements)
        // agrees with the search wherever it answers.
        // Candidates capped as the shared quotient caps them: some codes (8.3d1) need
        // candidates of 10**5 elements and gigabytes by heap 6.
        let mut solver = QuotientSolver::new();
        solver.set_limit(nimkit::misere::SHARED_LIMIT);
        if solver.compute(&code, 7, &mut |_| ()).is_ok() {
            let quotient = solver.quotient();
            // Even order (x and a x pair the elements off, a the game of one move),
            // but for the trivial quotient of heaps none of which has a move (0!.08
            // to heap 7: a move takes two and leaves three distinct heaps).
            let trivial = quotient.order() == 1 && quotient.p_portion().is_empty();
            assert!(quotient.order().is_multiple_of(2) || trivial, "{code:?}");
            let p = quotient.is_p(&heaps).expect("heaps up to 7");
            assert_eq!(
                p,
                search.outcome(&heaps) == Outcome::P,
                "{heaps:?} {code:?}"
            );
        }
    } else {
        let analysis = theory::analyse(&heaps, &rules).expect("closed form");
        assert_eq!(
            analysis.outcome,
            search.outcome(&heaps),
            "{heaps:?} {rules:?}"
        );
        assert_eq!(analysis.winning_moves, search.winning_moves(&heaps));
    }
    let mut game = Session::new(heaps.clone(), rules.clone(), 0).expect("small positions");
    for _ in 0..u.int_in_range(0..=6)? {
        let parts: Vec<u64> = (0..u.int_in_range(0..=3)?)
            .map(|_| u.arbitrary())
            .collect::<Result<_>>()?;
        let mv = Move::split(
            u.int_in_range(0..=3)?,
            u.arbitrary()?,
            Parts::new(&parts).unwrap_or(Parts::NONE),
        );
        if game.push(mv).is_ok() {
            assert!(Position::new(game.heaps().to_vec()).moves(&rules).is_ok());
        }
    }
    while game.pop().is_some() {}
    assert_eq!(game.heaps(), heaps.as_slice());
    Ok(())
}

/// A small subtraction set with its Grundy sequence.
fn small_set(u: &mut Unstructured<'_>) -> Result<Arc<GrundySequence>> {
    let elements: Vec<u64> = (0..u.int_in_range(1..=3)?)
        .map(|_| u.int_in_range(1..=7))
        .collect::<Result<_>>()?;
    let set = SubtractionSet::new(elements).expect("small positive elements");
    Ok(Arc::new(
        GrundySequence::find(set, 100_000).expect("small sets settle early"),
    ))
}

/// Rules with subtraction sets on a small box: the fast search against the reference,
/// the closed forms where they hold, and the batch kernels (searching in misère play).
fn set_box(u: &mut Unstructured<'_>) -> Result<()> {
    let heaps = u.int_in_range(1..=3)?;
    let bounds: Vec<u64> = (0..heaps)
        .map(|_| u.int_in_range(0..=8))
        .collect::<Result<_>>()?;
    let take = if u.arbitrary()? {
        TakeLimit::Uniform(HeapRule::Set(small_set(u)?))
    } else {
        let mut takes = Vec::with_capacity(heaps);
        for _ in 0..heaps {
            takes.push(match u.int_in_range(0..=2)? {
                0 => HeapRule::Nim,
                1 => HeapRule::Limit(u.int_in_range(1..=5)?),
                _ => HeapRule::Set(small_set(u)?),
            });
        }
        TakeLimit::PerHeap(takes)
    };
    let rules = Rules::new(u.arbitrary()?, take).expect("valid rules");
    let solution = BoxSolution::solve(&bounds, &rules, 10_000).expect("a small box");
    let fast = solve_outcomes(&bounds, &rules, 10_000).expect("a small box");
    assert_eq!(fast, solution.is_p(), "{bounds:?} {rules:?}");
    let mut rows = Vec::new();
    let mut position = vec![0u64; heaps];
    for _ in 0..box_size(&bounds) {
        if rules.has_closed_form() {
            let analysis = theory::analyse(&position, &rules).expect("closed form");
            assert_eq!(analysis.outcome, solution.outcome(&position));
            assert_eq!(analysis.winning_moves, solution.winning_moves(&position));
        }
        rows.extend_from_slice(&position);
        advance(&mut position, &bounds);
    }
    let rows = Array2::from_shape_vec((rows.len() / heaps, heaps), rows)
        .unwrap()
        .into_dyn();
    let mut ps = ndarray::ArrayD::<bool>::from_elem(ndarray::IxDyn(&[rows.shape()[0]]), false);
    batch::is_p_position(rows.view(), &rules, 10_000, ps.view_mut()).expect("a small box");
    assert_eq!(
        ps.as_slice().unwrap(),
        solution.is_p(),
        "{bounds:?} {rules:?}"
    );
    Ok(())
}

/// A small subtraction set: its detected period against the definition.
fn subtraction(u: &mut Unstructured<'_>) -> Result<()> {
    let elements: Vec<u64> = (0..u.int_in_range(0..=5)?)
        .map(|_| u.int_in_range(0..=24))
        .collect::<Result<_>>()?;
    let Ok(set) = SubtractionSet::new(elements) else {
        return Ok(());
    };
    let g = GrundySequence::find(set, 1_000_000).expect("small sets settle early");
    let (pre, period) = g.period();
    let length = pre + 4 * period + 100;
    assert_eq!(
        g.first(length).unwrap(),
        grundy_by_definition(g.set(), length)
    );
    let n: u64 = u.arbitrary()?;
    let _ = g.grundy(n);
    Ok(())
}

fn limit(u: &mut Unstructured<'_>, small: bool) -> Result<u64> {
    if small {
        u.int_in_range(1..=9)
    } else {
        u.arbitrary()
    }
}

fn rules(u: &mut Unstructured<'_>, heaps: usize, small: bool) -> Result<Option<Rules>> {
    let take = match u.int_in_range(0..=2)? {
        0 => TakeLimit::default(),
        1 => TakeLimit::limit(limit(u, small)?),
        _ => {
            // Arbitrary input may miscount the limits on purpose.
            let count = if small { heaps } else { u.int_in_range(0..=6)? };
            let mut ks = Vec::with_capacity(count);
            for _ in 0..count {
                ks.push(if u.arbitrary()? {
                    Some(limit(u, small)?)
                } else {
                    None
                });
            }
            TakeLimit::per_heap(ks)
        }
    };
    Ok(Rules::new(u.arbitrary()?, take).ok())
}

/// Theory against search, and the tables against both, on a box of at most 3 heaps.
fn small_box(u: &mut Unstructured<'_>) -> Result<()> {
    let heaps = u.int_in_range(0..=3)?;
    let mut bounds = Vec::with_capacity(heaps);
    for _ in 0..heaps {
        bounds.push(u.int_in_range(0..=9)?);
    }
    let rules = rules(u, heaps, true)?.expect("small limits are valid");
    let solution = BoxSolution::solve(&bounds, &rules, 10_000).expect("a small box");
    let fast = solve_outcomes(&bounds, &rules, 10_000).expect("a small box");
    assert_eq!(fast, solution.is_p(), "{bounds:?} {rules:?}");
    let mut position = vec![0u64; heaps];
    let mut listed = Vec::new();
    for _ in 0..box_size(&bounds) {
        let analysis = theory::analyse(&position, &rules).expect("limits fit");
        assert_eq!(
            analysis.outcome,
            solution.outcome(&position),
            "{position:?} {rules:?}"
        );
        assert_eq!(analysis.winning_moves, solution.winning_moves(&position));
        if analysis.outcome == Outcome::P {
            listed.extend_from_slice(&position);
        }
        advance(&mut position, &bounds);
    }
    assert_eq!(tables::p_positions(&bounds, &rules).unwrap(), listed);
    let rows = listed
        .len()
        .checked_div(heaps)
        .unwrap_or(usize::from(!rules.is_misere()));
    assert_eq!(
        tables::count_p_positions(&bounds, &rules).unwrap(),
        BigUint::from(rows)
    );
    Ok(())
}

/// Arbitrary heaps, rules and moves through every public function.
fn anything(u: &mut Unstructured<'_>) -> Result<()> {
    let heaps: Vec<u64> = (0..u.int_in_range(0..=6)?)
        .map(|_| u.arbitrary())
        .collect::<Result<_>>()?;
    let Some(rules) = rules(u, heaps.len(), false)? else {
        return Ok(());
    };
    let _ = theory::analyse(&heaps, &rules);
    let _ = theory::grundy_values(&heaps, &rules);
    let position = Position::new(heaps.clone());
    let _ = position.count_moves(&rules);
    let mv = Move::new(u.int_in_range(0..=7)?, u.arbitrary()?);
    if let Ok(next) = position.after(mv, &rules) {
        let _ = theory::outcome(next.heaps(), &rules);
    }
    if let Ok(solver) = Solver::new(&heaps, &rules, 10_000) {
        let _ = perfect_move(&heaps, &solver);
    }
    let mut rng = rand_pcg::Pcg64Mcg::new(u.arbitrary()?);
    let _ = random_move(&heaps, &rules, &mut rng);
    if let Ok(mut game) = Session::new(heaps.clone(), rules.clone(), u.int_in_range(0..=2)?) {
        let mut player = ComputerPlayer::new(Style::Random, u.arbitrary()?);
        for _ in 0..u.int_in_range(0..=8)? {
            let mv = match player.choose(game.heaps(), game.solver()) {
                Some(mv) if u.arbitrary()? => mv,
                _ => Move::new(u.int_in_range(0..=7)?, u.arbitrary()?),
            };
            let _ = game.push(mv);
        }
        let _ = game.review();
        let _ = (game.winner(), game.pop());
    }
    let rows = Array2::from_shape_vec((1, heaps.len()), heaps.clone())
        .unwrap()
        .into_dyn();
    let signed: Vec<i64> = heaps.iter().map(|&h| h as i64).collect();
    let cube = Array3::from_shape_vec((1, 1, heaps.len()), signed)
        .unwrap()
        .into_dyn();
    let mut sums = ndarray::ArrayD::<u64>::zeros(ndarray::IxDyn(&[1]));
    let mut ps = ndarray::ArrayD::<bool>::from_elem(ndarray::IxDyn(&[1, 1]), false);
    let _ = batch::nim_sum(rows.view(), &rules, sums.view_mut());
    let _ = batch::is_p_position(cube.view(), &rules, 10_000, ps.view_mut());
    let _ = tables::count_p_positions(&heaps, &rules);
    if tables::count_p_positions(&heaps, &rules).is_ok_and(|c| c <= BigUint::from(10_000u32)) {
        let _ = tables::p_positions(&heaps, &rules);
    }
    Ok(())
}
