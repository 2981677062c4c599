//! Chat per game: two channels, one for the seated players and one for spectators. Each
//! side reads and writes only its own channel (players never see what spectators say
//! about their game, and the players' talk stays between them). Lines are plain text:
//! clients render them as text, never as markup.

use serde::{Deserialize, Serialize};

use crate::ws::Bucket;

/// Most characters in one chat line.
pub const MAX_CHAT_CHARS: usize = 300;
/// Lines per channel a client receives as history when it arrives.
pub const HISTORY: usize = 100;
/// Most lines stored per game (both channels); later lines are refused.
pub const MAX_LINES_PER_GAME: u64 = 2000;

/// Which chat a line belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatChannel {
    /// The seated players (people holding a seat token).
    Players,
    /// Everybody watching without a seat.
    Spectators,
}

impl ChatChannel {
    /// Both channels.
    pub const ALL: [ChatChannel; 2] = [ChatChannel::Players, ChatChannel::Spectators];

    /// The stored (and wire) spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
        }
    }

    /// The channel of a connection holding `seats`.
    pub fn of(seats: &[usize]) -> ChatChannel {
        if seats.is_empty() {
            ChatChannel::Spectators
        } else {
            ChatChannel::Players
        }
    }

    /// The channel of a stored spelling.
    pub fn parse(text: &str) -> Option<ChatChannel> {
        ChatChannel::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

/// The text of a chat line: control characters (line breaks included) become spaces,
/// the ends are trimmed; 1 to [`MAX_CHAT_CHARS`] characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatText(String);

impl ChatText {
    /// Checks and cleans a line a client sent.
    ///
    /// # Errors
    /// A message for people when the line is empty or too long.
    pub fn new(text: &str) -> Result<ChatText, String> {
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let clean = clean.trim();
        if clean.is_empty() {
            return Err("an empty chat message was not sent".into());
        }
        let n = clean.chars().count();
        if n > MAX_CHAT_CHARS {
            return Err(format!(
                "a chat message has at most {MAX_CHAT_CHARS} characters (this one has {n})"
            ));
        }
        Ok(ChatText(clean.to_string()))
    }

    /// The text.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// One line of a game's chat, as stored and as sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// Number of the line in its game (both channels count), from 0.
    pub n: u64,
    /// Its channel.
    pub channel: ChatChannel,
    /// The seat of a player's line (`null` for spectators).
    pub seat: Option<usize>,
    /// The name shown when it was said: the seat's display name or colours, or the
    /// spectator's name.
    pub name: String,
    /// The text (plain text; never markup).
    pub text: String,
    /// When it was said (unix seconds).
    pub at: i64,
}

/// The rate of chat lines per connection, per seat and per spectator address: bursts
/// of 5, then one line every 2 seconds.
pub fn chat_bucket() -> Bucket {
    Bucket::new(0.5, 5.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_text_is_cleaned_and_limited() {
        assert_eq!(ChatText::new("  gg\nwp \t").unwrap().into_string(), "gg wp");
        assert_eq!(
            ChatText::new("<img src=x onerror=alert(1)>")
                .unwrap()
                .into_string(),
            "<img src=x onerror=alert(1)>",
            "kept as text: the pages never read it as markup"
        );
        assert!(ChatText::new(" \n ").unwrap_err().contains("empty"));
        assert!(ChatText::new(&"é".repeat(300)).is_ok());
        let e = ChatText::new(&"é".repeat(301)).unwrap_err();
        assert!(
            e.contains("at most 300 characters (this one has 301)"),
            "{e}"
        );
    }

    #[test]
    fn channels_follow_the_seats() {
        assert_eq!(ChatChannel::of(&[]), ChatChannel::Spectators);
        assert_eq!(ChatChannel::of(&[1]), ChatChannel::Players);
        for c in ChatChannel::ALL {
            assert_eq!(ChatChannel::parse(c.as_str()), Some(c));
        }
    }
}
