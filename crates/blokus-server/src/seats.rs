//! Seats (one per player of the variant) and their secret tokens.

use std::ops::RangeInclusive;

use blokus_ai::{MctsOptions, MctsPlayer, Player};
use rand::RngCore;
use serde::{Deserialize, Serialize};

use crate::names::DisplayName;

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// The creator of the game.
    Me,
    /// Another person, who claims the seat by opening the game's link.
    Human,
    /// A computer player.
    Ai,
    /// A person at the creator's device (hot-seat): the creator holds its token.
    Hotseat,
}

/// One seat of a game as stored (tokens live in their own table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Who sits here.
    pub kind: SeatKind,
    /// AI strength (AI seats only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<AiLevel>,
    /// Whether a person holds the seat's token (always true for me/hotseat, false for AI).
    pub claimed: bool,
    /// A `human` seat kept for one person (the opponent of a rematch): its token exists
    /// but is handed only to them; nobody can claim it by link.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reserved: bool,
    /// The display name its player chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<DisplayName>,
}

impl Seat {
    /// A new seat of a kind: `me` and `hotseat` are held by the creator from the start.
    pub fn new(kind: SeatKind, level: Option<AiLevel>) -> Seat {
        Seat {
            kind,
            level,
            claimed: matches!(kind, SeatKind::Me | SeatKind::Hotseat),
            reserved: false,
            name: None,
        }
    }

    /// Whether a person plays this seat (everything but AI).
    pub fn is_human(&self) -> bool {
        self.kind != SeatKind::Ai
    }

    /// Whether the seat waits for a person to claim it by link.
    pub fn is_open(&self) -> bool {
        self.kind == SeatKind::Human && !self.claimed && !self.reserved
    }

    /// Whether the seat's player is there to play: AI seats always, an invited person
    /// once they took the seat. Nobody moves while a seat is not taken.
    pub fn is_taken(&self) -> bool {
        self.kind != SeatKind::Human || self.claimed
    }
}

/// A seat's secret token, as handed to the person who holds it (creation, `join`,
/// rematch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatToken {
    /// Seat index.
    pub seat: usize,
    /// The token.
    pub token: String,
}

/// The strength of an AI seat: a level of the search player, in [`AiLevel::RANGE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct AiLevel(u8);

impl AiLevel {
    /// The levels a game may ask for.
    pub const RANGE: RangeInclusive<u8> = 1..=blokus_ai::mcts::MAX_LEVEL;
    /// The level of an AI seat created without one: quick, and beatable by beginners.
    pub const DEFAULT: AiLevel = AiLevel(3);

    /// The level.
    pub fn get(self) -> u8 {
        self.0
    }

    /// The player of a seat at this level, with a fresh seed so games differ. It never
    /// resigns (the web game has no resignation) and thinks on one thread (the hub's
    /// limiter hands out the cores).
    pub fn player(self, seed: u64) -> Box<dyn Player> {
        Box::new(MctsPlayer::new(MctsOptions {
            level: self.0,
            seed,
            resign: false,
            threads: 1,
            ..MctsOptions::default()
        }))
    }
}

impl TryFrom<u8> for AiLevel {
    type Error = String;

    fn try_from(level: u8) -> Result<AiLevel, String> {
        if AiLevel::RANGE.contains(&level) {
            Ok(AiLevel(level))
        } else {
            Err(format!(
                "AI level {level} is not in {}..{}",
                AiLevel::RANGE.start(),
                AiLevel::RANGE.end()
            ))
        }
    }
}

impl From<AiLevel> for u8 {
    fn from(level: AiLevel) -> u8 {
        level.0
    }
}

impl std::fmt::Display for AiLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Where a game stands, for the lobby: computed from the game and its seats only by
/// [`GameStatus::of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// A seat waits for a person to claim it.
    Open,
    /// Being played.
    Running,
    /// Over.
    Finished,
}

impl GameStatus {
    /// Every status, in lobby order.
    pub const ALL: [GameStatus; 3] = [GameStatus::Open, GameStatus::Running, GameStatus::Finished];

    /// The status of a game that is `over` or not, with these seats.
    pub fn of(over: bool, seats: &[Seat]) -> GameStatus {
        if over {
            GameStatus::Finished
        } else if seats.iter().any(Seat::is_open) {
            GameStatus::Open
        } else {
            GameStatus::Running
        }
    }

    /// The stored (and wire) spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Running => "running",
            GameStatus::Finished => "finished",
        }
    }
}

impl rusqlite::ToSql for GameStatus {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

impl rusqlite::types::FromSql for GameStatus {
    fn column_result(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = v.as_str()?;
        GameStatus::ALL
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| {
                rusqlite::types::FromSqlError::Other(format!("unknown status '{text}'").into())
            })
    }
}

/// A new random secret: 128 bits as 32 hex digits, from the OS generator.
pub fn new_token() -> String {
    random_hex(16)
}

/// A new game id: 64 random bits as 16 hex digits (unguessable enough for links).
pub fn new_game_id() -> String {
    random_hex(8)
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buf);
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether text looks like a token (32 lowercase hex digits); checked before any lookup.
pub fn is_token(text: &str) -> bool {
    text.len() == 32
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether text looks like a game id (16 lowercase hex digits).
pub fn is_game_id(text: &str) -> bool {
    text.len() == 16
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_hex() {
        let a = new_token();
        let b = new_token();
        assert!(is_token(&a) && is_token(&b));
        assert_ne!(a, b);
        assert!(is_game_id(&new_game_id()));
        assert!(!is_token("xyz"));
        assert!(!is_game_id("../../etc/passwd"));
    }

    #[test]
    fn levels_out_of_range_are_refused_and_statuses_follow_the_seats() {
        assert!(AiLevel::try_from(0).is_err());
        assert!(AiLevel::try_from(*AiLevel::RANGE.end() + 1).is_err());
        assert_eq!(AiLevel::try_from(9).unwrap().get(), 9);
        assert!(serde_json::from_str::<AiLevel>("12").is_err());
        let open = Seat::new(SeatKind::Human, None);
        let me = Seat::new(SeatKind::Me, None);
        let reserved = Seat {
            reserved: true,
            ..open.clone()
        };
        assert!(me.claimed && !open.claimed && open.is_open() && !reserved.is_open());
        assert!(me.is_taken() && !open.is_taken() && !reserved.is_taken());
        assert_eq!(
            GameStatus::of(false, &[me.clone(), reserved]),
            GameStatus::Running
        );
        assert_eq!(
            GameStatus::of(false, &[me.clone(), open.clone()]),
            GameStatus::Open
        );
        assert_eq!(
            GameStatus::of(false, &[me.clone(), me.clone()]),
            GameStatus::Running
        );
        assert_eq!(GameStatus::of(true, &[me, open]), GameStatus::Finished);
    }
}
