//! What can go wrong at a table.

use blokus_gtp::client::GtpError;

/// Why a game or match could not be played. A player's illegal move or resignation is
/// not an error: it ends that game with a [`Loss`](crate::Loss).
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A built-in player spec is invalid.
    #[error("{0}")]
    Spec(String),
    /// An external engine could not be started or stopped answering.
    #[error(transparent)]
    Gtp(#[from] GtpError),
    /// An external engine's answer to `genmove` is not a move.
    #[error("engine '{engine}' answered genmove with '{answer}': {reason}")]
    BadAnswer {
        /// The engine's command line.
        engine: String,
        /// What it answered.
        answer: String,
        /// Why that is not a move.
        reason: String,
    },
    /// The settings make no sense (zero games, a seat list of the wrong length, ...).
    #[error("{0}")]
    Config(String),
}
