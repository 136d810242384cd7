//! Play: a game of heaps in progress (`Session`: position, history, turn, winner,
//! review) and the computer players that choose its moves.
pub mod players;
pub mod session;
