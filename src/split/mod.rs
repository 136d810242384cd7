//! The engine for games that split into independent parts: a position falls apart
//! into components that no move joins, so in normal play its value is the XOR of
//! theirs (Sprague–Grundy), each found once under a key shared by every copy.
//!
//! A game tells the engine what `Split` asks (its components, their keys and
//! options, closed forms); the engine holds the rest and imports no game:
//! - `pruned`: the value search with the pruning of Beling and Rogalski;
//! - `dfpn`: normal-play outcomes by depth-first proof-number search over couples;
//! - `table`: the transposition tables (private, or shared between threads);
//! - `budget`: the memory bound, eviction and Ctrl-C;
//! - `misere`: misère outcomes over multisets of component keys;
//! - `plain`: the plain value search (past the pruned one's reach);
//! - `recorded`: a table that forgets nothing, for a certificate;
//! - `parallel`: one component searched on several threads;
//! - `saved`: a table as a checkpoint holds it.
pub mod budget;
pub mod dfpn;
pub mod misere;
pub mod parallel;
pub mod plain;
pub mod proof;
pub mod pruned;
pub mod recorded;
pub mod saved;
pub mod table;

pub use pruned::Split;
