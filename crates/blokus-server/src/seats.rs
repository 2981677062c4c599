//! Seats (one per player of the variant) and their secret tokens.

use rand::RngCore;
use serde::{Deserialize, Serialize};

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
    /// AI strength 1..=9 (AI seats only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Whether a person holds the seat's token (always true for me/hotseat, false for AI).
    pub claimed: bool,
}

impl Seat {
    /// Whether a person plays this seat (everything but AI).
    pub fn is_human(&self) -> bool {
        self.kind != SeatKind::Ai
    }

    /// Whether the seat waits for a person to claim it by link.
    pub fn is_open(&self) -> bool {
        self.kind == SeatKind::Human && !self.claimed
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
}
