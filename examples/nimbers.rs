//! Speed of nimber arithmetic: the table-driven product and the tower inverse against
//! the recursive definitions they replace, on one core, in one run.
//!
//!     cargo run --release --example nimbers
use std::hint::black_box;
use std::time::Instant;

use nimkit::nimber::{inverse, inverse_naive, multiply, multiply_naive};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Nanoseconds per call of `f` over `inputs` (the best of three runs).
fn time<T: Copy>(inputs: &[T], f: impl Fn(T) -> u64) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let mut sink = 0;
            for &x in inputs {
                sink ^= f(black_box(x));
            }
            black_box(sink);
            start.elapsed().as_secs_f64() * 1e9 / inputs.len() as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let mut rng = Pcg64Mcg::seed_from_u64(0);
    let pairs: Vec<(u64, u64)> = (0..1_000_000)
        .map(|_| (rng.random(), rng.random()))
        .collect();
    let fast = time(&pairs, |(a, b)| multiply(a, b));
    let naive = time(&pairs, |(a, b)| multiply_naive(a, b));
    println!(
        "product: tables {fast:.1} ns, recursion {naive:.1} ns: {:.1}x",
        naive / fast
    );
    let values: Vec<u64> = pairs[..20_000].iter().map(|&(a, _)| a | 1).collect();
    let fast = time(&values, |a| inverse(a).unwrap());
    let naive = time(&values, |a| inverse_naive(a).unwrap());
    println!(
        "inverse: tower {fast:.1} ns, a^(2^64-2) by recursion {naive:.1} ns: {:.1}x",
        naive / fast
    );
}
