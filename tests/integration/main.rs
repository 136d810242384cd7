//! The Rust integration tests, one module a file, linked as one binary (a binary a
//! file took minutes to link on 2 cores). Run one file's tests with
//! `cargo test --test integration layers::` (its module name).
mod against_search;
mod batch;
mod board_certificates;
mod coin_turning;
mod common;
mod fuzz_replay;
mod games;
mod grundy_sequences;
mod hackenbush;
mod layers;
mod misere_quotients;
mod misere_values;
mod moore;
mod nimbers;
mod option_classes;
mod play;
mod properties;
mod pruned_search;
mod quotient_cache;
mod rules_and_moves;
mod sprouts;
mod subtraction;
mod subtraction_rules;
mod tables;
mod take_and_break;
mod theory_vs_search;
mod vertex_games;
mod wythoff;
