//! Play: a game in progress (`Session` for heaps under rules, with heap moves;
//! `any::Played` for any game, a move being the option it reaches: position,
//! history, turn, winner, review) and the computer players that choose its moves.
pub mod any;
pub mod players;
pub mod session;
