//! WebSocket wire types in both directions: what clients send ([`ClientMsg`]), what the
//! server sends ([`ServerMsg`]) and the error codes of both HTTP and WebSocket
//! ([`ErrorCode`]). `docs/api.md` documents them.

use blokus_core::Colour;
use blokus_core::PieChoice;
use serde::{Deserialize, Serialize};

use crate::chat::{ChatChannel, ChatLine};
use crate::seats::SeatToken;
use crate::view::AnyView;

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
        /// The display name of the person joining (see [`ClientMsg::Name`]).
        #[serde(default)]
        name: Option<String>,
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
    /// Ask whether a placement would be legal now for the colour to move, and if not
    /// why; answered by a `check` message (nothing is played).
    Check {
        /// Covered cells (cubes in Blokus 3D).
        cells: Cells,
    },
    /// Take back the last own move (and the AI's answers) against the AI or in hot-seat.
    Undo {},
    /// Ask for a fresh state.
    Ping {},
    /// Say something: players talk in the players' chat, spectators in theirs.
    Chat {
        /// The line (at most 300 characters).
        text: String,
    },
    /// Set a display name: a player's for their own seats (or one hot-seat seat they
    /// hold, with `seat`), shown to everybody; a spectator's for their chat lines.
    Name {
        /// The name.
        name: String,
        /// One seat of this connection to name.
        #[serde(default)]
        seat: Option<usize>,
    },
    /// Ask for a rematch of the finished game, or accept the one asked for.
    Rematch {},
}

/// The machine-readable code of an error, in HTTP bodies (`error`) and WebSocket
/// `error` messages (`code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A malformed request or an invalid value (HTTP 400).
    BadRequest,
    /// No such game, puzzle, variant or path (HTTP 404).
    NotFound,
    /// The HTTP method is not served at this path (HTTP 405).
    MethodNotAllowed,
    /// Not logged in, or a wrong user name or password (HTTP 401).
    Unauthorized,
    /// Not allowed for this client (HTTP 403).
    Forbidden,
    /// Conflicts with the game's state (HTTP 409).
    Conflict,
    /// A request body, address or headers over the limit (HTTP 413, 414, 431).
    TooLarge,
    /// A request that took too long (HTTP 408).
    Timeout,
    /// A limit of the server was reached (HTTP 503).
    Busy,
    /// The client acts too fast (HTTP 429, or a WebSocket message refused).
    RateLimited,
    /// A server-side failure (HTTP 500).
    Internal,
    /// A WebSocket message that cannot be read (not JSON, unknown type or field).
    Malformed,
    /// `join` without tokens or with too many.
    BadJoin,
    /// A token that holds no seat of this game.
    BadToken,
    /// A move by a connection that has not joined with a seat.
    NotJoined,
    /// A move for a colour the connection does not play.
    NotYourTurn,
    /// A move sent for an older state (`ply` mismatch).
    Stale,
    /// The game is over.
    GameOver,
    /// A move while the pie choice is pending.
    PiePending,
    /// A pie choice when none is due.
    NoPie,
    /// A move the rules forbid.
    Illegal,
    /// An undo that is not allowed here.
    UndoRefused,
    /// A move while an invited person has not taken their seat.
    WaitingForOpponent,
    /// A display name that is empty, too long or has characters names may not have.
    BadName,
    /// A chat message that is empty or too long, or a chat that is full.
    BadChat,
    /// A rematch asked for before the game is over or by a spectator.
    RematchRefused,
}

/// A refused client message: its code and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The code.
    pub code: ErrorCode,
    /// The explanation.
    pub message: String,
}

impl Refusal {
    /// A refusal.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

/// The `state` message: the game as every client sees it plus what this connection may
/// do. `GET /api/games/{id}` answers the same without `you` and `can_undo`.
#[derive(Serialize)]
pub struct StateMsg<'a> {
    /// The shared part.
    #[serde(flatten)]
    pub game: &'a AnyView,
    /// The seats this connection holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<&'a [usize]>,
    /// Whether this connection may take moves back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_undo: Option<bool>,
    /// The legal moves of the colour to move, for its players only (else `null`).
    pub legal: Option<&'a [String]>,
    /// The pieces having a legal move (with `legal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_pieces: Option<&'a [usize]>,
}

/// A message from the server.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<'a> {
    /// The whole state.
    State(StateMsg<'a>),
    /// A piece was placed (before the `state` that includes it).
    Move {
        /// Number of the event.
        ply: usize,
        /// Colour index.
        colour: Colour,
        /// Covered cells.
        cells: Vec<String>,
        /// Piece name.
        piece: String,
    },
    /// Colours that cannot move any more were passed after event `ply`.
    Pass {
        /// Number of the event after which they pass.
        ply: usize,
        /// Colour indices.
        colours: Vec<Colour>,
        /// Colour names.
        names: Vec<String>,
    },
    /// A player's time ran out: event `ply` records it (with two players the game
    /// ends; with more, the seat's colours pass from now on).
    TimeOut {
        /// Number of the event.
        ply: usize,
        /// The seat whose time ran out.
        seat: usize,
    },
    /// The game ended at `ply` events.
    GameOver {
        /// Number of events of the finished game.
        ply: usize,
    },
    /// Events from `ply` on were taken back.
    Undo {
        /// The first event removed.
        ply: usize,
    },
    /// The answer to a `check`.
    Check {
        /// The move text asked about, as sent.
        cells: String,
        /// Whether the colour to move may place it now.
        legal: bool,
        /// Why not (the rules' words), when not legal.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A line of chat, to the connections of its channel.
    Chat(&'a ChatLine),
    /// The recent lines of the channel this connection reads (on connecting and after
    /// `join`): replaces what the client shows.
    ChatHistory {
        /// The channel.
        channel: ChatChannel,
        /// Its last lines, oldest first.
        lines: &'a [ChatLine],
    },
    /// The number of spectators changed.
    Viewers {
        /// Connections without a seat.
        spectators: usize,
    },
    /// The asker's seats in the rematch (to the asking connection only).
    Rematch {
        /// The new game's id.
        id: &'a str,
        /// Its page.
        url: String,
        /// The tokens of the asker's seats in it.
        tokens: Vec<SeatToken>,
    },
    /// A refused message or a failure.
    Error {
        /// The code.
        code: ErrorCode,
        /// The explanation.
        message: &'a str,
    },
}

impl ServerMsg<'_> {
    /// The JSON text of the message.
    pub fn text(&self) -> std::sync::Arc<str> {
        serde_json::to_string(self)
            .expect("server messages serialise")
            .into()
    }

    /// An `error` message.
    pub fn error(refusal: &Refusal) -> std::sync::Arc<str> {
        ServerMsg::Error {
            code: refusal.code,
            message: &refusal.message,
        }
        .text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_message_refuses_unknown_fields() {
        for ok in [
            r#"{"type":"ping"}"#,
            r#"{"type":"undo"}"#,
            r#"{"type":"join","token":"x"}"#,
            r#"{"type":"join","token":"x","name":"Ada"}"#,
            r#"{"type":"chat","text":"gg"}"#,
            r#"{"type":"name","name":"Ada"}"#,
            r#"{"type":"name","name":"Bo","seat":1}"#,
            r#"{"type":"rematch"}"#,
        ] {
            assert!(serde_json::from_str::<ClientMsg>(ok).is_ok(), "{ok}");
        }
        for bad in [
            r#"{"type":"ping","x":1}"#,
            r#"{"type":"undo","all":true}"#,
            r#"{"type":"pie","choice":"keep","x":1}"#,
            r#"{"type":"chat","text":"gg","channel":"players"}"#,
            r#"{"type":"chat"}"#,
        ] {
            assert!(serde_json::from_str::<ClientMsg>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn server_messages_carry_their_type_and_codes_in_snake_case() {
        let e = ServerMsg::error(&Refusal::new(ErrorCode::NotYourTurn, "wait"));
        assert_eq!(
            &*e,
            r#"{"type":"error","code":"not_your_turn","message":"wait"}"#
        );
        assert_eq!(
            &*ServerMsg::GameOver { ply: 3 }.text(),
            r#"{"type":"game_over","ply":3}"#
        );
    }
}
