//! Misère Sprouts: the outcome of the n-spot game for each n from FIRST to LAST,
//! each searched by a fresh family (nothing learned for one n is kept for the next),
//! with the seconds it took; checked against Lemoine and Viennot's table (OEIS
//! A164950) to 20 spots.
//!
//!     cargo run --release --example sprouts_misere -- 9 14
use std::time::Instant;

use nimkit::base::outcome::Outcome;
use nimkit::games::sprouts::{table, Answer};
use nimkit::split::budget::Budget;

/// Whether the first player wins the n-spot game in misère play, n = 1..20.
const PUBLISHED: [u8; 20] = [1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0];

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let (Some(Ok(first)), Some(Ok(last))) = (args.next(), args.next()) else {
        eprintln!("usage: sprouts_misere FIRST LAST (numbers of spots)");
        std::process::exit(2);
    };
    println!("spots  outcome  published  seconds");
    for n in first..=last {
        let start = Instant::now();
        let mut found = None;
        let searched = table(n..=n, true, Budget::default(), &mut |_, answer| {
            found = Some(answer);
            Ok(())
        });
        if let Err(error) = searched {
            eprintln!("{n} spots: {error}");
            std::process::exit(1);
        }
        let Some(Answer::Misere(outcome)) = found else {
            unreachable!("a misère table answers each n")
        };
        let index = usize::try_from(n).ok().and_then(|n| n.checked_sub(1));
        let published = match index.and_then(|i| PUBLISHED.get(i)) {
            Some(1) => "N",
            Some(_) => "P",
            None => "-",
        };
        let outcome = if outcome == Outcome::N { "N" } else { "P" };
        let seconds = start.elapsed().as_secs_f64();
        println!("{n:>5}  {outcome:>7}  {published:>9}  {seconds:>7.2}");
    }
}
