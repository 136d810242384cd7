//! Who wins a game from a position against perfect play.

/// P (the previous player wins: the player to move loses), N (the next player wins),
/// or D, a draw: in a loopy game neither player can force a win, and play can go on
/// forever. Games that end (every heap game) are P or N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Previous player wins: the player to move loses.
    P,
    /// Next player wins: the player to move wins.
    N,
    /// Neither: with perfect play the game never ends.
    D,
}
