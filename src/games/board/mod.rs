//! The games on graphs and boards — Node Kayles, Arc Kayles, Cram — on one
//! vertex-deletion engine, an implementation of the engine for games that split
//! (`crate::split`).
//!
//! Lowest first: `sets` (bitsets of vertices), `kinds` (what a move deletes, how
//! copies are told apart), `canon` (canonical labellings), `lines` (paths and
//! cycles in closed form), `endgame` (small boards by table), `cells` (bitboards), `grid` (a board's
//! components searched), `bitboards` (a board's tables);
//! then the engine `graph` (`Deletion`: the graph, its components and keys) with
//! its `normal` and `misere` searches, `checkpoint`, `certify` (what proves a
//! board's value) and `misere_proof` (what proves a misère outcome); `every` values every position
//! of a small graph at once (the learning environments' tables); `on_graph` makes it
//! a family of games.
pub mod bitboards;
pub mod canon;
pub mod cells;
pub mod certify;
pub mod checkpoint;
pub mod endgame;
pub mod every;
pub mod graph;
pub mod grid;
pub mod kinds;
pub mod lines;
pub mod misere;
pub mod misere_proof;
pub mod normal;
pub mod on_graph;
pub mod sets;
