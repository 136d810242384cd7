//! Properties of the closed forms on huge heaps (up to u64::MAX), where no search reaches.
use nimkit::heap::HeapRule;
use nimkit::outcome::Outcome;
use nimkit::position::{Move, Position};
use nimkit::rules::{Rules, TakeLimit};
use nimkit::theory;
use proptest::prelude::*;

fn heap() -> impl Strategy<Value = u64> {
    prop_oneof![0..20u64, any::<u64>(), (u64::MAX - 20)..=u64::MAX]
}

fn limit() -> impl Strategy<Value = u64> {
    prop_oneof![1..10u64, 1..=u64::MAX, Just(u64::MAX), Just(u64::MAX - 1)]
}

/// A position with 0 to 6 heaps and rules that fit it.
fn game() -> impl Strategy<Value = (Vec<u64>, Rules)> {
    prop::collection::vec(heap(), 0..7).prop_flat_map(|heaps| {
        let n = heaps.len();
        let limits = prop_oneof![
            Just(TakeLimit::default()),
            limit().prop_map(TakeLimit::limit),
            prop::collection::vec(prop::option::of(limit()), n).prop_map(TakeLimit::per_heap),
        ];
        (Just(heaps), any::<bool>(), limits)
            .prop_map(|(heaps, misere, limit)| (heaps, Rules::new(misere, limit).unwrap()))
    })
}

/// Some legal move of `heaps`, picked by `heap_pick` and `take_pick`, if there is one.
fn some_move(heaps: &[u64], rules: &Rules, heap_pick: usize, take_pick: u64) -> Option<Move> {
    let movable: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
    let heap = *movable.get(heap_pick % movable.len().max(1))?;
    let take = rules.take_for(heap);
    Some(
        take.nth(heaps[heap], take_pick % take.count(heaps[heap]))
            .on(heap),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn winning_moves_reach_p_positions((heaps, rules) in game()) {
        let analysis = theory::analyse(&heaps, &rules).unwrap();
        // N without a winning move only where no move is left: the misère end.
        let misere_end = rules.is_misere() && heaps.iter().all(|&n| n == 0);
        prop_assert_eq!(
            analysis.outcome == Outcome::N,
            !analysis.winning_moves.is_empty() || misere_end
        );
        for mv in analysis.winning_moves {
            let next = Position::new(heaps.clone()).after(mv, &rules).unwrap();
            prop_assert_eq!(theory::outcome(next.heaps(), &rules).unwrap(), Outcome::P);
            if !rules.is_misere() {
                prop_assert_eq!(theory::nim_sum(next.heaps(), &rules).unwrap(), 0);
            }
        }
    }

    #[test]
    fn no_move_from_p_reaches_p((mut heaps, rules) in game(), heap_pick: usize, take_pick: u64) {
        // Make a P-position from a random one by playing its winning move.
        if let Some(&mv) = theory::analyse(&heaps, &rules).unwrap().winning_moves.first() {
            heaps = Position::new(heaps).after(mv, &rules).unwrap().heaps().to_vec();
        }
        if theory::outcome(&heaps, &rules).unwrap() == Outcome::P {
            if let Some(mv) = some_move(&heaps, &rules, heap_pick, take_pick) {
                let next = Position::new(heaps.clone()).after(mv, &rules).unwrap();
                prop_assert_eq!(theory::outcome(next.heaps(), &rules).unwrap(), Outcome::N);
            }
        }
    }

    #[test]
    fn grundy_is_below_the_modulus(n in heap(), k in limit()) {
        let g = HeapRule::Limit(k).grundy(n);
        prop_assert!(g <= k && g <= n);
        prop_assert_eq!(HeapRule::Nim.grundy(n), n);
    }
}
