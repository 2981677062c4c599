//! WebSocket wire types: what clients send. Server messages are built as JSON in
//! [`crate::view`] and [`crate::room`]; `docs/api.md` documents both directions.

use blokus_core::PieChoice;
use serde::Deserialize;

/// Cells of a move: a list of names, or one comma-separated string.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Cells {
    /// `["d9","c10"]`.
    List(Vec<String>),
    /// `"d9,c10"`.
    Text(String),
}

impl Cells {
    /// The move text (`d9,c10,...`), or `None` when there are implausibly many cells.
    pub fn to_text(&self) -> Option<String> {
        match self {
            Cells::List(v) if v.len() <= 16 && v.iter().all(|s| s.len() <= 8) => Some(v.join(",")),
            Cells::Text(t) if t.len() <= 200 => Some(t.clone()),
            _ => None,
        }
    }
}

/// A message from a client.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Take the seats of these tokens (one for `token`, several for hot-seat).
    Join {
        /// One seat token.
        #[serde(default)]
        token: Option<String>,
        /// Several seat tokens.
        #[serde(default)]
        tokens: Option<Vec<String>>,
    },
    /// Place a piece for the colour to move.
    Move {
        /// Covered cells.
        cells: Cells,
        /// The `ply` of the state the client saw; a mismatch is refused as stale.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// The Polyomino pie choice.
    Pie {
        /// `keep` or `swap`.
        choice: PieChoice,
    },
    /// Take back the last own move (and the AI's answers) against the AI or in hot-seat.
    Undo,
    /// Ask for a fresh state.
    Ping,
}
