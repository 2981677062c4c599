//! The parts of the WebSocket and HTTP protocol (`docs/api.md`) that the harness speaks,
//! as typed messages. Server messages are read leniently (unknown fields and message
//! types are ignored) so the harness keeps working while the server adds fields.

use serde::{Deserialize, Serialize};

/// A message the harness sends over a game's WebSocket.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg<'a> {
    /// Take the seat of this token.
    Join {
        /// The seat token.
        token: &'a str,
    },
    /// Place a piece; `ply` is the ply of the state the move was chosen in.
    Move {
        /// The move in canonical spelling (`d9,c10,...`).
        cells: &'a str,
        /// The ply the client saw.
        ply: usize,
    },
    /// The Polyomino pie choice.
    Pie {
        /// `keep` or `swap`.
        choice: &'a str,
    },
    /// Ask for a fresh state.
    Ping,
}

/// A seat as the `state` message describes it.
#[derive(Debug, Clone, Deserialize)]
pub struct SeatView {
    /// `me`, `hotseat`, `human` or `ai`.
    pub kind: String,
}

/// One event of the `state` message's `moves`.
#[derive(Debug, Clone, Deserialize)]
pub struct EventView {
    /// Colour of a placement (absent for the pie choice).
    #[serde(default)]
    pub colour: Option<usize>,
    /// Cells of a placement.
    #[serde(default)]
    pub cells: Vec<String>,
    /// `keep`/`swap` for the pie choice.
    #[serde(default)]
    pub pie: Option<String>,
}

/// The `state` message (and the body of `GET /api/games/{id}`).
#[derive(Debug, Clone, Deserialize)]
pub struct StateView {
    /// Events so far.
    pub ply: usize,
    /// No colour can move any more.
    pub over: bool,
    /// The seat to move (`null` once over).
    #[serde(default)]
    pub player_to_move: Option<usize>,
    /// Player 2 has to make the pie choice.
    #[serde(default)]
    pub awaiting_pie: bool,
    /// Every event.
    #[serde(default)]
    pub moves: Vec<EventView>,
    /// The seats.
    #[serde(default)]
    pub seats: Vec<SeatView>,
    /// This connection's seats.
    #[serde(default)]
    pub you: Option<Vec<usize>>,
    /// Legal moves, only for the connection that plays the side to move.
    #[serde(default)]
    pub legal: Option<Vec<String>>,
}

impl StateView {
    /// Whether an AI seat is to move in a running game.
    pub fn ai_to_move(&self) -> bool {
        !self.over
            && self
                .player_to_move
                .and_then(|p| self.seats.get(p))
                .is_some_and(|s| s.kind == "ai")
    }

    /// Whether the connection that received this state plays the seat to move.
    pub fn mine_to_move(&self) -> bool {
        match (self.player_to_move, &self.you) {
            (Some(p), Some(you)) => !self.over && you.contains(&p),
            _ => false,
        }
    }
}

/// A message from the server.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The game's state.
    State(Box<StateView>),
    /// A placement was made as event `ply`.
    Move {
        /// Event number.
        ply: usize,
        /// Colour placed.
        colour: usize,
        /// Covered cells.
        cells: Vec<String>,
    },
    /// The last message was refused.
    Error {
        /// Error code (`illegal`, `stale`, `rate_limited`, ...).
        code: String,
        /// Why, for people.
        #[serde(default)]
        message: String,
    },
    /// Passes, undo, game over and message types added later.
    #[serde(other)]
    Other,
}

/// `POST /api/games` answer.
#[derive(Debug, Clone, Deserialize)]
pub struct Created {
    /// Game id.
    pub id: String,
    /// Tokens of the `me` seats.
    pub tokens: Vec<SeatToken>,
}

/// A seat and its token.
#[derive(Debug, Clone, Deserialize)]
pub struct SeatToken {
    /// Seat index.
    pub seat: usize,
    /// Its secret.
    pub token: String,
}

/// A game in the `GET /api/games?mine=` listing.
#[derive(Debug, Clone, Deserialize)]
pub struct Listed {
    /// Game id.
    pub id: String,
    /// Events so far.
    pub plies: usize,
    /// `open`, `running` or `finished`.
    pub status: String,
}

/// `GET /api/games?mine=` answer (only the part the harness reads).
#[derive(Debug, Clone, Deserialize)]
pub struct Listing {
    /// The games the given tokens hold.
    #[serde(default)]
    pub mine: Vec<Listed>,
}

/// A variant summary of `GET /api/variants/{id}` (only the part the harness reads).
#[derive(Debug, Clone, Deserialize)]
pub struct VariantInfo {
    /// Number of players (seats).
    pub players: usize,
}

/// The normalised spelling of a move for comparisons: its cells sorted.
pub fn move_key(cells: &[String]) -> String {
    let mut c: Vec<&str> = cells.iter().map(String::as_str).collect();
    c.sort_unstable();
    c.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_server_messages_and_ignores_what_it_does_not_know() {
        let m: ServerMsg = serde_json::from_str(
            r#"{"type":"move","ply":3,"colour":1,"cells":["a1","b1"],"piece":"I2"}"#,
        )
        .unwrap();
        assert!(matches!(
            m,
            ServerMsg::Move {
                ply: 3,
                colour: 1,
                ..
            }
        ));
        let m: ServerMsg = serde_json::from_str(r#"{"type":"game_over","ply":9}"#).unwrap();
        assert!(matches!(m, ServerMsg::Other));
        let m: ServerMsg = serde_json::from_str(
            r#"{"type":"state","ply":2,"over":false,"player_to_move":1,"you":[1],
                "seats":[{"kind":"me"},{"kind":"ai","level":1}],"legal":["a1"],"new":1}"#,
        )
        .unwrap();
        let ServerMsg::State(s) = m else { panic!() };
        assert!(s.mine_to_move() && s.ai_to_move());
    }

    #[test]
    fn writes_documented_client_messages() {
        let m = ClientMsg::Move {
            cells: "d9,c10",
            ply: 4,
        };
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"type":"move","cells":"d9,c10","ply":4}"#
        );
        assert_eq!(
            serde_json::to_string(&ClientMsg::Ping).unwrap(),
            r#"{"type":"ping"}"#
        );
        assert_eq!(move_key(&["b1".into(), "a1".into()]), "a1,b1");
    }
}
