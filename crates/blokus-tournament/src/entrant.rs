//! The people and programs who play in an event.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An entrant's id within its event: the order of registration, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntrantId(pub u32);

impl EntrantId {
    /// The id as an index into the event's entrant list.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for EntrantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A pairing number: drawn once, it places the entrant on the italo-svizzero circle and
/// breaks the last ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PairingNumber(pub u32);

impl fmt::Display for PairingNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Who or what plays an entrant's games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EntrantKind {
    /// A person, at a physical table or in the web app.
    Person,
    /// A built-in player, by its spec (`greedy`, `mcts:level=5`); the tournament does not
    /// interpret it.
    Bot {
        /// The player spec.
        spec: String,
    },
    /// An external GTP engine, by its command line.
    Engine {
        /// The command line that starts the engine.
        command: String,
    },
}

/// An entrant as registered, before the event gives it an id and a number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewEntrant {
    /// The name shown in pairings and standings; unique in the event (ignoring case).
    pub name: String,
    /// Who plays.
    pub kind: EntrantKind,
}

impl NewEntrant {
    /// A person.
    pub fn person(name: &str) -> NewEntrant {
        NewEntrant {
            name: name.to_string(),
            kind: EntrantKind::Person,
        }
    }
}

/// An entrant of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The id (order of registration).
    pub id: EntrantId,
    /// The name.
    pub name: String,
    /// Who plays.
    pub kind: EntrantKind,
    /// The pairing number, drawn when round 1 is paired.
    pub number: Option<PairingNumber>,
    /// The first round the entrant can be paired in (1 unless a late entry).
    pub first_round: u32,
    /// The first round the entrant is no longer paired in, after a withdrawal.
    pub withdrawn_from: Option<u32>,
}

impl Entrant {
    /// Whether the entrant is paired in `round`.
    pub fn plays_in(&self, round: u32) -> bool {
        round >= self.first_round && self.withdrawn_from.is_none_or(|w| round < w)
    }
}
