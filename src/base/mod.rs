//! The shared vocabulary every other module speaks: the core's errors, outcomes and
//! values, fallible allocation, and the Ctrl-C check of long loops. It depends on
//! nothing else in the crate.
pub mod alloc;
pub mod error;
pub mod interrupt;
pub mod outcome;
pub mod value;
