//! cargo fuzz run theory: the checks of ../check.rs on arbitrary bytes.
#![no_main]

#[path = "../check.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
