//! Criterion benchmarks of the batch kernels on plain Rust arrays: `cargo bench`.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ndarray::{Array2, ArrayD, IxDyn};
use nimkit::batch;
use nimkit::rules::{Rules, TakeLimit};

const POSITIONS: usize = 1 << 20;

fn heaps<T: From<u8>>(m: usize) -> ArrayD<T> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    Array2::from_shape_fn((POSITIONS, m), |_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        T::from(state as u8)
    })
    .into_dyn()
}

fn families() -> [(&'static str, Rules); 3] {
    [
        ("normal", Rules::normal()),
        ("misere", Rules::misere()),
        ("max_take=4", Rules::new(false, TakeLimit::All(4)).unwrap()),
    ]
}

fn is_p_position(c: &mut Criterion) {
    let mut group = c.benchmark_group("is_p_position");
    group.throughput(Throughput::Elements(POSITIONS as u64));
    for m in [3, 8] {
        let (small, large) = (heaps::<u8>(m), heaps::<u64>(m));
        let mut out = ArrayD::from_elem(IxDyn(&[POSITIONS]), false);
        for (name, rules) in families() {
            group.bench_function(BenchmarkId::new(format!("u8/{name}"), m), |b| {
                b.iter(|| {
                    batch::is_p_position(small.view(), &rules, u64::MAX, out.view_mut()).unwrap()
                })
            });
            group.bench_function(BenchmarkId::new(format!("u64/{name}"), m), |b| {
                b.iter(|| {
                    batch::is_p_position(large.view(), &rules, u64::MAX, out.view_mut()).unwrap()
                })
            });
        }
    }
    group.finish();
}

fn winning_move(c: &mut Criterion) {
    let mut group = c.benchmark_group("winning_move");
    group.throughput(Throughput::Elements(POSITIONS as u64));
    let input = heaps::<u16>(3);
    let mut heap = ArrayD::<i64>::zeros(IxDyn(&[POSITIONS]));
    let mut take = ArrayD::<u64>::zeros(IxDyn(&[POSITIONS]));
    for (name, rules) in families() {
        group.bench_function(BenchmarkId::new(format!("u16/{name}"), 3), |b| {
            b.iter(|| {
                batch::winning_move(
                    input.view(),
                    &rules,
                    u64::MAX,
                    heap.view_mut(),
                    take.view_mut(),
                )
                .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, is_p_position, winning_move);
criterion_main!(benches);
