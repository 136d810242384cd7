//! The game of heaps solved: closed forms (`theory`), the solver that answers any
//! position under any `Rules` (closed forms where they exist, searches and misère
//! quotients otherwise), and tables of P-positions.
pub mod solver;
pub mod tables;
pub mod theory;
