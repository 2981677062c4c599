//! The one interface every protocol and the server use to ask for a move.

use blokus_core::{Game, Move, PieChoice};

/// What a player decides to do in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Place a piece for the colour to move.
    Place(Move),
    /// Make the Polyomino pie choice.
    Pie(PieChoice),
    /// Give up (two-player variants only).
    Resign,
}

/// How long a player may think about one decision. `None` fields mean "player's default".
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    /// Wall-clock seconds.
    pub seconds: Option<f64>,
    /// Simulations (MCTS).
    pub simulations: Option<u64>,
}

/// A bad player spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// A Blokus player: given a game (not over), choose what the side to move does.
pub trait Player: Send {
    /// A short name for tables and GTP `name`.
    fn name(&self) -> String;

    /// Decides for the colour to move (or the pie choice when one is pending).
    /// The game is never over when this is called.
    fn decide(&mut self, game: &Game, budget: Budget) -> Decision;

    /// Forgets anything kept between moves (a new game starts).
    fn reset(&mut self) {}

    /// Searches the position (not over) and rates its candidate moves; `None` for
    /// players that do not value moves (only tree search does).
    fn rate_moves(&mut self, _game: &Game, _budget: Budget) -> Option<crate::Rating> {
        None
    }
}
