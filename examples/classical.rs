//! Speed of the classical games' tables and values, on one core, in one run:
//! Wythoff's Grundy table against the straightforward mex over each cell's row, column
//! and diagonal; Green Hackenbush on a random graph of 10**6 edges.
//!
//!     cargo run --release --example classical
use std::hint::black_box;
use std::time::Instant;

use nimkit::games::hackenbush::Hackenbush;
use nimkit::games::wythoff::grundy_table;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Wythoff's values for both heaps below `n` by the definition: each cell the mex of
/// the cells before it in its row, column and diagonal, scanned one by one.
fn naive_table(n: usize) -> Vec<u32> {
    let mut table = vec![0u32; n * n];
    let mut seen = vec![0usize; 2 * n + 1];
    for a in 0..n {
        for b in 0..n {
            let stamp = a * n + b + 1;
            let mut mark = |v: u32| seen[v as usize] = stamp;
            (0..a).for_each(|x| mark(table[x * n + b]));
            (0..b).for_each(|y| mark(table[a * n + y]));
            (1..=a.min(b)).for_each(|t| mark(table[(a - t) * n + b - t]));
            table[a * n + b] = (0..).find(|&v| seen[v] != stamp).unwrap() as u32;
        }
    }
    table
}

fn seconds(work: impl FnOnce()) -> f64 {
    let start = Instant::now();
    work();
    start.elapsed().as_secs_f64()
}

fn main() {
    let n = 1024;
    let mut fast = Vec::new();
    let ours = seconds(|| fast = grundy_table(n, n, &mut |_| {}).unwrap());
    let mut slow = Vec::new();
    let naive = seconds(|| slow = naive_table(n));
    assert_eq!(fast, slow);
    let cells = (n * n) as f64;
    println!(
        "Wythoff table {n} x {n}: {:.0} M values/s, straightforward mex {:.1} M values/s: {:.0}x",
        cells / ours / 1e6,
        cells / naive / 1e6,
        naive / ours
    );
    for n in [4096, 8192, 16384] {
        let time = seconds(|| {
            black_box(grundy_table(n, n, &mut |_| {}).unwrap());
        });
        println!("Wythoff table {n} x {n}: {time:.2} s");
    }

    // A random graph of 10**6 edges over 300,000 nodes: cycles everywhere, a few loops
    // and multiple edges, ten ground nodes.
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let nodes = 300_000u32;
    let edges: Vec<(u32, u32)> = (0..1_000_000)
        .map(|_| (rng.random_range(0..nodes), rng.random_range(0..nodes)))
        .collect();
    let ground: Vec<u32> = (0..10).collect();
    let game = Hackenbush::new(nodes as usize, edges, &ground).unwrap();
    let start = game.start().unwrap();
    let mut value = 0;
    let time = seconds(|| value = game.value_of(&start).unwrap());
    println!(
        "Green Hackenbush, {} edges standing: value {value} in {time:.2} s",
        start.len()
    );
    // A random tree of 10**6 edges (no cycles: the colon principle alone).
    let tree: Vec<(u32, u32)> = (1..=1_000_000u32)
        .map(|v| (rng.random_range(0..v), v))
        .collect();
    let game = Hackenbush::new(1_000_001, tree, &[0]).unwrap();
    let start = game.start().unwrap();
    let time = seconds(|| value = game.value_of(&start).unwrap());
    println!("Green Hackenbush, a random tree of 10**6 edges: value {value} in {time:.2} s");
}
