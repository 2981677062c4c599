//! What an organiser's action can run into.

use crate::entrant::EntrantId;
use crate::result::BadResult;

/// Why an action on an event was refused; the event is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    /// The settings do not make a playable event.
    #[error("{0}")]
    Config(String),
    /// An empty name, or one with control characters.
    #[error("'{0}' is not a usable name")]
    BadName(String),
    /// A name already registered (names are compared ignoring case).
    #[error("an entrant named '{0}' is already registered")]
    DuplicateName(String),
    /// No such entrant.
    #[error("no entrant {0}")]
    UnknownEntrant(EntrantId),
    /// The entrant has already withdrawn.
    #[error("{0} has already withdrawn")]
    AlreadyWithdrawn(String),
    /// A round robin's schedule is fixed once it starts.
    #[error("a round robin takes no late entries")]
    LateRoundRobin,
    /// Every round is paired.
    #[error("the event has all its {0} rounds")]
    Finished(u32),
    /// The current round still waits for results.
    #[error("round {round} still waits for the result of table(s) {tables:?}")]
    RoundIncomplete {
        /// The round.
        round: u32,
        /// The tables without a result.
        tables: Vec<u32>,
    },
    /// Not enough players to fill a table.
    #[error("{players} player(s) cannot fill a table of {seats}; an event needs at least {seats} (or smaller tables)")]
    TooFewPlayers {
        /// Players to pair.
        players: usize,
        /// Seats per table.
        seats: usize,
    },
    /// A result for a round that is not the current one.
    #[error("results are entered for the current round ({current}), not round {round}")]
    WrongRound {
        /// The round given.
        round: u32,
        /// The current round (0 before round 1).
        current: u32,
    },
    /// No such table in the round.
    #[error("round {round} has no table {table}")]
    UnknownTable {
        /// The round.
        round: u32,
        /// The table given.
        table: u32,
    },
    /// A result that does not fit its table.
    #[error("table {table}: {error}")]
    BadResult {
        /// The table.
        table: u32,
        /// What is wrong.
        error: BadResult,
    },
    /// Pairing numbers drawn by hand that cannot be used.
    #[error("hand-drawn numbers: {0}")]
    Draw(String),
    /// A replay that differs from the stored event.
    #[error("audit failed: {0}")]
    Audit(String),
}
