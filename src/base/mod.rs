//! The shared vocabulary every other module speaks: the core's errors, outcomes and
//! values, fallible allocation, what the CPU has, the Ctrl-C check of long loops, and short parallel
//! work the calling thread takes part in. It depends on nothing else in the crate.
pub mod alloc;
pub mod cpu;
pub mod error;
pub mod interrupt;
pub mod mex;
pub mod outcome;
pub mod pool;
pub mod value;
