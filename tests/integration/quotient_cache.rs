//! The kept computation of each code's misère quotient (`misere::quotient_up_to`)
//! against a fresh computation: asked for heaps in any order, and resumed after
//! Ctrl-C, it gives exactly the quotient a new solver gives. (A test binary of its
//! own: it installs the interrupt hook.)
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use nimkit::code::TakeAndBreak;
use nimkit::error::Error;
use nimkit::misere::{self, MisereQuotient, QuotientSolver};

/// Candidates of at most 4096 elements, as for the quotient a search falls back on
/// (0.123 outgrows them: the same error both ways).
const LIMIT: usize = misere::SHARED_LIMIT;

fn fresh(code: &str, max_heap: usize) -> nimkit::error::Result<MisereQuotient> {
    let mut solver = QuotientSolver::new();
    solver.set_limit(LIMIT);
    solver.compute(&TakeAndBreak::parse(code).unwrap(), max_heap, &mut |_| {})?;
    Ok(solver.quotient())
}

fn kept(code: &str, max_heap: usize) -> nimkit::error::Result<MisereQuotient> {
    let rule = Arc::new(TakeAndBreak::parse(code).unwrap());
    misere::quotient_up_to(&rule, max_heap, LIMIT, &mut |_| {})
}

#[test]
fn kept_quotients_equal_fresh_ones_in_any_order() {
    // Further (resumed), back (read off, or started over where the quotient grew
    // since), past the proven period, and a quotient that outgrows its limit.
    let orders = [30, 60, 40, 200, 100, 10, 300, 25];
    for (code, orders) in [
        ("0.77", &orders[..]),
        ("0.75", &orders),
        ("0.123", &orders),
        ("0.07", &[35, 20]),
    ] {
        for &max_heap in orders {
            match (kept(code, max_heap), fresh(code, max_heap)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{code} up to {max_heap}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!("{code} up to {max_heap}: {a:?} but fresh {b:?}"),
            }
        }
    }
}

/// The thread whose work the hook stops (tests run side by side on threads).
static STOPPED: Mutex<Option<ThreadId>> = Mutex::new(None);

fn stop_requested() -> bool {
    *STOPPED.lock().unwrap() == Some(std::thread::current().id())
}

#[test]
fn a_computation_stopped_by_ctrl_c_resumes_to_the_same_quotient() {
    nimkit::interrupt::set_hook(stop_requested);
    // 0.156 keeps 34 elements from heap 243 on and is proven periodic at heap 7658:
    // Ctrl-C comes once heap 2000 is done (the hook is asked every 20 ms; the heaps
    // left take a good part of a second), and the kept computation resumes.
    let code = "0.156";
    let rule = Arc::new(TakeAndBreak::parse(code).unwrap());
    let me = std::thread::current().id();
    let mut report = |heap: usize| {
        if heap == 2000 {
            *STOPPED.lock().unwrap() = Some(me);
        }
    };
    let stopped = misere::quotient_up_to(&rule, 7000, LIMIT, &mut report);
    assert!(matches!(stopped, Err(Error::Interrupted)), "{stopped:?}");
    *STOPPED.lock().unwrap() = None;
    for max_heap in [20, 90, 7000] {
        assert_eq!(
            misere::quotient_up_to(&rule, max_heap, LIMIT, &mut |_| {}).unwrap(),
            fresh(code, max_heap).unwrap()
        );
    }
}
