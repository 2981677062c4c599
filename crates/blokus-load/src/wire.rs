//! The parts of the WebSocket and HTTP protocol (`docs/api.md`) that the harness speaks,
//! as typed messages. Server messages are read leniently (unknown fields and message
//! types are ignored) so the harness keeps working while the server adds fields.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::ledger::LastState;

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
pub struct SeatView<'a> {
    /// `me`, `hotseat`, `human` or `ai`.
    #[serde(borrow)]
    pub kind: Cow<'a, str>,
}

/// The `state` message, read without copying: only the fields the harness acts on
/// (every message of a flat-out run is read, so reading must cost the harness little,
/// or its own backlog becomes part of the latencies it measures).
#[derive(Debug, Clone, Deserialize)]
pub struct StateView<'a> {
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
    /// The seats.
    #[serde(default, borrow)]
    pub seats: Vec<SeatView<'a>>,
    /// This connection's seats.
    #[serde(default)]
    pub you: Option<Vec<usize>>,
    /// Legal moves, only for the connection that plays the side to move.
    #[serde(default, borrow)]
    pub legal: Option<Vec<Cow<'a, str>>>,
}

impl StateView<'_> {
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

    /// What the fault checks keep of it.
    pub fn last_state(&self) -> LastState {
        LastState {
            ply: self.ply,
            ai_to_move: self.ai_to_move(),
            over: self.over,
        }
    }
}

/// One event of a stored game's `moves`.
#[derive(Debug, Clone, Deserialize)]
pub struct EventView {
    /// Colour of a placement (absent for the pie choice).
    #[serde(default)]
    pub colour: Option<usize>,
    /// Cells of a placement.
    #[serde(default)]
    pub cells: Vec<String>,
}

/// The body of `GET /api/games/{id}`: the part the fault checks compare.
#[derive(Debug, Clone, Deserialize)]
pub struct StoredGame {
    /// Every event.
    #[serde(default)]
    pub moves: Vec<EventView>,
}

/// A message from the server.
#[derive(Debug, Clone)]
pub enum ServerMsg<'a> {
    /// The game's state.
    State(Box<StateView<'a>>),
    /// A placement was made as event `ply`.
    Move(MoveView<'a>),
    /// The last message was refused.
    Error(ErrorView<'a>),
    /// Passes, undo, game over and message types added later.
    Other,
}

/// The `move` message.
#[derive(Debug, Clone, Deserialize)]
pub struct MoveView<'a> {
    /// Event number.
    pub ply: usize,
    /// Colour placed.
    pub colour: usize,
    /// Covered cells.
    #[serde(borrow)]
    pub cells: Vec<Cow<'a, str>>,
}

/// The `error` message.
#[derive(Debug, Clone, Deserialize)]
pub struct ErrorView<'a> {
    /// Error code (`illegal`, `stale`, `rate_limited`, ...).
    #[serde(borrow)]
    pub code: Cow<'a, str>,
}

/// Just the `type` of a message.
#[derive(Deserialize)]
struct Tagged<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
}

impl<'a> ServerMsg<'a> {
    /// Reads a server message. The type is read first and then the message as that
    /// type, skipping what the harness does not use: serde's internally tagged enums
    /// would buffer every field of every message first.
    ///
    /// # Errors
    /// If the text is not a message of a known type with its fields.
    pub fn parse(text: &'a str) -> serde_json::Result<ServerMsg<'a>> {
        let tagged: Tagged = serde_json::from_str(text)?;
        Ok(match tagged.kind.as_ref() {
            "state" => ServerMsg::State(Box::new(serde_json::from_str(text)?)),
            "move" => ServerMsg::Move(serde_json::from_str(text)?),
            "error" => ServerMsg::Error(serde_json::from_str(text)?),
            _ => ServerMsg::Other,
        })
    }
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
pub fn move_key<S: AsRef<str>>(cells: &[S]) -> String {
    let mut c: Vec<&str> = cells.iter().map(AsRef::as_ref).collect();
    c.sort_unstable();
    c.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_server_messages_and_ignores_what_it_does_not_know() {
        let m = ServerMsg::parse(
            r#"{"type":"move","ply":3,"colour":1,"cells":["a1","b1"],"piece":"I2"}"#,
        )
        .unwrap();
        let ServerMsg::Move(mv) = m else { panic!() };
        assert_eq!(
            (mv.ply, mv.colour, move_key(&mv.cells)),
            (3, 1, "a1,b1".into())
        );
        let m = ServerMsg::parse(r#"{"type":"game_over","ply":9}"#).unwrap();
        assert!(matches!(m, ServerMsg::Other));
        // The type need not come first; fields the harness skips may be anything.
        let m = ServerMsg::parse(
            r#"{"ply":2,"over":false,"player_to_move":1,"you":[1],"type":"state",
                "moves":[{"colour":0,"cells":["e5"]},{"pie":"keep"}],
                "seats":[{"kind":"me"},{"kind":"ai","level":1}],"legal":["a1","b\u0032"],"new":1}"#,
        )
        .unwrap();
        let ServerMsg::State(s) = m else { panic!() };
        assert!(s.mine_to_move() && s.ai_to_move());
        assert_eq!(s.legal.unwrap(), ["a1", "b2"]);
        let m = ServerMsg::parse(r#"{"type":"error","code":"stale","message":"late"}"#).unwrap();
        assert!(matches!(m, ServerMsg::Error(e) if e.code == "stale"));
        assert!(ServerMsg::parse(r#"{"type":"move","ply":3}"#).is_err());
        assert!(ServerMsg::parse(r#"{"ply":3}"#).is_err());
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
        assert_eq!(move_key(&["b1", "a1"]), "a1,b1");
    }
}
