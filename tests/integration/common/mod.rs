//! Helpers shared by the integration tests.
use nimkit::outcome::Outcome;
use nimkit::rules::Rules;
use nimkit::search::{advance, box_size, BoxSolution};
use nimkit::theory;

/// Every position of the box, in the order of `BoxSolution::is_p`.
pub fn positions(bounds: &[u64]) -> Vec<Vec<u64>> {
    let mut heaps = vec![0; bounds.len()];
    (0..box_size(bounds))
        .map(|_| {
            let here = heaps.clone();
            advance(&mut heaps, bounds);
            here
        })
        .collect()
}

/// The closed forms against the retrograde search on every position of the box: the
/// outcome and the exact list of winning moves. Returns the number of P-positions.
pub fn closed_forms_equal_search(bounds: &[u64], rules: &Rules) -> usize {
    let solution = BoxSolution::solve(bounds, rules, u64::MAX).unwrap();
    let mut p_positions = 0;
    for heaps in positions(bounds) {
        let analysis = theory::analyse(&heaps, rules).unwrap();
        assert_eq!(
            analysis.outcome,
            solution.outcome(&heaps),
            "outcome of {heaps:?} under {rules:?}"
        );
        assert_eq!(
            analysis.winning_moves,
            solution.winning_moves(&heaps),
            "winning moves of {heaps:?} under {rules:?}"
        );
        p_positions += usize::from(analysis.outcome == Outcome::P);
    }
    p_positions
}
