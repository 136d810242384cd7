//! Sprouts on the engine for games that split: the published outcomes of the n-spot
//! games, the notation read back as written, and the engine's values against a plain
//! mex over whole positions (no sum rule, no pruning). The brute force on drawings,
//! independent of the core's positions, is in `tests/python/test_sprouts.py`.
use std::collections::{HashMap, HashSet};

use nimkit::games::sprouts::canon;
use nimkit::games::sprouts::code::Code;
use nimkit::games::sprouts::notation::{parse, start, text, SproutsError};
use nimkit::games::sprouts::search;
use nimkit::games::sprouts::writings::Writings;
use nimkit::games::sprouts::Sprouts;
use nimkit::split::budget::Budget;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn value(game: &Sprouts, code: &[u8]) -> u32 {
    game.value(code, Budget::default(), &|_| {}).unwrap()
}

/// Normal play: the first player wins the n-spot game iff n mod 6 is 3, 4 or 5
/// (Applegate, Jacobson and Sleator, "Computer Analysis of Sprouts", CMU-CS-91-144,
/// 1991, to n = 11; Lemoine and Viennot, arXiv 1008.2320, to n = 44), and its value
/// is then 1 (their nimber tables): checked to 8 spots here, the rest research-scale.
#[test]
fn n_spot_games_in_normal_play() {
    let game = Sprouts::default();
    for n in 0..=8u64 {
        let expected = u32::from(matches!(n % 6, 3..=5));
        assert_eq!(value(&game, &start(n).unwrap()), expected, "{n} spots");
        assert_eq!(
            game.value_is(&start(n).unwrap(), 0, Budget::default(), &|_| {})
                .unwrap(),
            expected == 0
        );
    }
}

/// Every position from up to 4 spots, its value by the engine (the proof-number
/// search of couples, the pruned search for the parts it values in full) against the
/// plain mex of its options' values over whole positions (no XOR of lands); and each
/// asked alone, by a family that knows nothing yet, whether its value is v and v + 1.
#[test]
fn engine_values_equal_the_plain_mex_of_whole_positions() {
    let mut plain: HashMap<Code, u32> = HashMap::new();
    fn mex_value(code: &Code, plain: &mut HashMap<Code, u32>) -> u32 {
        if let Some(&v) = plain.get(code) {
            return v;
        }
        let seen: HashSet<u32> = search::options(code)
            .iter()
            .map(|o| mex_value(o, plain))
            .collect();
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        plain.insert(code.clone(), v);
        v
    }
    for n in 1..=4 {
        mex_value(&start(n).unwrap(), &mut plain);
    }
    assert!(plain.len() > 1000, "{} positions", plain.len());
    let game = Sprouts::default();
    let is = |code: &Code, v| {
        Sprouts::default()
            .value_is(code, v, Budget::default(), &|_| {})
            .unwrap()
    };
    for (code, &v) in &plain {
        assert_eq!(value(&game, code), v, "{}", text(code));
        assert!(is(code, v), "{} is {v}", text(code));
        assert!(!is(code, v + 1), "{} is not {}", text(code), v + 1);
    }
}

/// Every position from up to 5 spots, written as text and read back, is the same
/// code (the canonical form is a fixed point), and so are its lands one by one.
#[test]
fn positions_read_back_as_written() {
    let mut seen: HashSet<Code> = HashSet::new();
    let mut todo: Vec<Code> = (0..=5).map(|n| start(n).unwrap()).collect();
    while let Some(code) = todo.pop() {
        if !seen.insert(code.clone()) {
            continue;
        }
        assert_eq!(parse(&text(&code)).unwrap(), code, "{}", text(&code));
        if seen.len() < 20_000 {
            todo.extend(search::options(&code));
        }
    }
    assert!(seen.len() >= 20_000);
}

/// `text` written another way at random: lands, regions and boundaries in another
/// order, each boundary rotated, a region at random its mirror image (its
/// boundaries reversed together), letters renamed (uppercase within the land,
/// lowercase within the region). Spots are single characters in these positions.
fn rewritten(text: &str, rng: &mut Pcg64Mcg) -> String {
    let mut lands: Vec<String> = text
        .split('+')
        .map(|land| {
            let mut upper: Vec<char> = ('A'..='Y').collect();
            shuffle(&mut upper, rng);
            let mut regions: Vec<String> = land
                .split('|')
                .map(|region| {
                    let mut lower: Vec<char> = ('a'..='l').collect();
                    shuffle(&mut lower, rng);
                    let mirror = rng.random_range(0..2) == 1;
                    let mut boundaries: Vec<String> = region
                        .split('.')
                        .flat_map(|b| match b.strip_prefix("0*") {
                            Some(n) => vec!["0".to_owned(); n.parse().unwrap()],
                            None => vec![b.to_owned()],
                        })
                        .map(|b| {
                            let mut marks: Vec<char> = b
                                .chars()
                                .map(|c| match c {
                                    'A'..='Y' => upper[c as usize - 'A' as usize],
                                    'a'..='l' => lower[c as usize - 'a' as usize],
                                    c => c,
                                })
                                .collect();
                            if mirror {
                                marks.reverse();
                            }
                            let turn = rng.random_range(0..marks.len());
                            marks.rotate_left(turn);
                            marks.into_iter().collect()
                        })
                        .collect();
                    shuffle(&mut boundaries, rng);
                    boundaries.join(".")
                })
                .collect();
            shuffle(&mut regions, rng);
            regions.join("|")
        })
        .collect();
    shuffle(&mut lands, rng);
    lands.join("+")
}

fn shuffle<T>(items: &mut [T], rng: &mut Pcg64Mcg) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.random_range(0..=i));
    }
}

/// Every position from up to 4 spots, each written in random other ways, read as
/// one code: the canonical form does not depend on how a position is written (at
/// 4 spots `AB|CD|E.FG|FG|ECD.AB` once had a second code, its tied writings cut
/// short before the least was met).
#[test]
fn random_writings_of_positions_are_one_code() {
    let mut rng = Pcg64Mcg::seed_from_u64(66);
    let mut seen: HashSet<Code> = HashSet::new();
    let mut todo: Vec<Code> = (1..=4).map(|n| start(n).unwrap()).collect();
    while let Some(code) = todo.pop() {
        if !seen.insert(code.clone()) {
            continue;
        }
        let written = text(&code);
        assert!(!written.contains('('), "{written}");
        for _ in 0..4 {
            let other = if code.is_empty() {
                written.clone()
            } else {
                rewritten(&written, &mut rng)
            };
            assert_eq!(parse(&other).unwrap(), code, "{written} written {other}");
        }
        todo.extend(search::options(&code));
    }
    assert!(seen.len() > 1_000, "{}", seen.len());
}

/// Ways of writing one position give one code: rotations, the order of boundaries,
/// regions and lands, a region's mirror image, the letters' names, dead spots.
#[test]
fn writings_of_one_position_are_one_code() {
    for writings in [
        &["1a1a", "a1a1", "1b1b", "31a1a3", "1a1a!"][..],
        &["0*3", "0.0.0", "0*2.0"],
        &["0*2.AB|AB", "AB|0.BA.0", "BA|0.0.BA"],
        &["0.1a2a+1", "1+0.1a2a", "1+2a1a.0"],
        &["12AB|AB.0", "0.BA|21BA"],
        &[
            "AB|CD|E.FG|FG|EAB.CD",
            "AB|CD|E.FG|FG|ECD.AB",
            "CD|AB|E.FG|FG|EAB.CD",
        ],
    ] {
        let codes: HashSet<Code> = writings.iter().map(|w| parse(w).unwrap()).collect();
        assert_eq!(codes.len(), 1, "{writings:?}");
    }
    // Simplified away: a region of one life, a spot of one life met once.
    assert_eq!(text(&parse("0*2.A|A").unwrap()), "0*2.2");
    assert_eq!(text(&parse("2|1").unwrap()), "1");
    assert_eq!(text(&parse("2.3").unwrap()), "!");
    assert_eq!(text(&parse("0*18|1a1a").unwrap()), "0*18+1a1a");
}

#[test]
fn malformed_strings_are_refused_with_the_reason() {
    for (bad, says) in [
        ("01", "a boundary of its own"),
        ("a", "met once"),
        ("aaa", "met 3 times"),
        ("0..0", "empty"),
        ("0x", "'x' is not a spot"),
        ("m(0)m(0)", "m(k)"),
        ("0!0", "comes last"),
        ("0*x", "count"),
    ] {
        match parse(bad) {
            Err(SproutsError::Notation { reason, .. }) => {
                assert!(reason.contains(says), "{bad}: {reason}")
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    assert!(matches!(start(41), Err(SproutsError::TooManySpots { .. })));
    assert!(matches!(parse("0*41"), Err(SproutsError::Notation { .. })));
    assert_eq!(
        parse("0*40.1"),
        Err(SproutsError::TooLarge {
            lives: 122,
            most: 120
        })
    );
    assert!(parse("0*40").is_ok());
    // Seventeen boundaries that are not alike in one region: 2**17 ways to divide.
    let many: Vec<String> = (0..17).map(|i| letter(i).to_string()).collect();
    let text = format!("{}|{}", many.join("."), many.join(""));
    assert!(matches!(
        parse(&text),
        Err(SproutsError::TooManyDivisions { boundaries: 17, .. })
    ));
}

/// Misère play of the n-spot games: a win for the first player at n = 1, 5, 6 and a
/// loss at 2, 3, 4 (OEIS A164950, from Lemoine and Viennot, arXiv 0908.4407, Fig. 1).
#[test]
fn n_spot_games_in_misere_play() {
    use nimkit::split::misere;
    let game = search::Positions::default();
    for (n, wins) in [(1, true), (2, false), (3, false), (4, false), (5, true)] {
        let found = misere::wins(&game, &start(n).unwrap(), Budget::default(), &|_| {});
        assert_eq!(found.unwrap(), wins, "{n} spots");
    }
}

/// The table of n-spot games, searched by one family, gives each game's own answer,
/// and refuses too many spots before searching any.
#[test]
fn the_table_gives_each_games_answer() {
    use nimkit::base::outcome::Outcome;
    use nimkit::games::sprouts::{table, Answer};
    let mut found = Vec::new();
    table(1..=5, false, Budget::default(), &mut |n, a| {
        found.push((n, a));
        Ok(())
    })
    .unwrap();
    let each: Vec<_> = (1..=5)
        .map(|n| {
            (
                n,
                Answer::Value(value(&Sprouts::default(), &start(n).unwrap())),
            )
        })
        .collect();
    assert_eq!(found, each);
    found.clear();
    table(4..=5, true, Budget::default(), &mut |n, a| {
        found.push((n, a));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        found,
        [
            (4, Answer::Misere(Outcome::P)),
            (5, Answer::Misere(Outcome::N))
        ]
    );
    let refused = table(1..=41, false, Budget::default(), &mut |_, _| {
        panic!("no n is searched")
    });
    assert!(refused.is_err());
}

/// A land's options stop when the poll says so (Ctrl-C in the misère search does
/// not wait for a land of many symmetric regions), and what stopped is not kept;
/// the searches' writings (fewer ties tried) are writings of the same options.
#[test]
fn options_stop_when_polled() {
    use nimkit::base::error::Error;
    let land = parse("AB.CD.EF.GH|AB|CD|EF|GH").unwrap();
    let mut calls = 0;
    let canonical = || Writings::new(canon::TRIES);
    let stopped = search::polled_options(&land, &mut canonical(), &mut || {
        calls += 1;
        if calls > 3 {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    });
    assert_eq!(stopped, Err(Error::Interrupted));
    assert_eq!(calls, 4);
    let whole = search::land_options(&land);
    assert!(!whole.is_empty());
    assert_eq!(
        search::polled_options(&land, &mut canonical(), &mut || Ok(())).unwrap(),
        whole
    );
    let searched = search::polled_options(&land, &mut Writings::default(), &mut || Ok(()));
    let rewritten: HashSet<Code> = searched
        .unwrap()
        .iter()
        .map(|o| parse(&text(o)).unwrap())
        .collect();
    assert_eq!(rewritten, whole.into_iter().collect());
}

fn letter(i: usize) -> char {
    char::from(b'A' + i as u8)
}
