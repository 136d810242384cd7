//! The value of an impartial game, loopy games included.
use crate::base::outcome::Outcome;

/// Smith's generalised Sprague–Grundy value: a finite Grundy value, or ∞ with the set
/// K of finite values among the options (sorted).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    Finite(u64),
    Infinite(Vec<u64>),
}

impl Value {
    /// The normal-play outcome the value gives: P for 0; N for another finite value
    /// or ∞ with 0 in K (a move to a P-position); else a draw.
    pub fn outcome(&self) -> Outcome {
        match self {
            Value::Finite(0) => Outcome::P,
            Value::Finite(_) => Outcome::N,
            Value::Infinite(k) if k.contains(&0) => Outcome::N,
            Value::Infinite(_) => Outcome::D,
        }
    }
}
