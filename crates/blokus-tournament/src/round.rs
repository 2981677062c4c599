//! A paired round: its tables, its byes and where the italo-svizzero scan ended.

use blokus_core::VariantId;
use serde::{Deserialize, Serialize};

use crate::entrant::{EntrantId, PairingNumber};
use crate::points::Points;
use crate::result::TableResult;

/// One table of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The table number, from 1 (table 1 seats the leaders).
    pub number: u32,
    /// The variant played there (a smaller table plays its family's smaller variant).
    pub variant: VariantId,
    /// The entrants in seat order: seat 0 moves first and plays the first colour(s).
    pub seats: Vec<EntrantId>,
    /// The result, once entered.
    pub result: Option<TableResult>,
}

/// A player who sits a round out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bye {
    /// Who.
    pub entrant: EntrantId,
    /// The match points it scores.
    pub points: Points,
}

/// A paired round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round number, from 1.
    pub number: u32,
    /// The tables, best scores first.
    pub tables: Vec<Table>,
    /// The byes.
    pub byes: Vec<Bye>,
    /// Italo-svizzero: the pairing number of the last player seated, where the next
    /// round's scan resumes.
    pub scan_end: Option<PairingNumber>,
}

impl Round {
    /// Whether every table has a result.
    pub fn is_complete(&self) -> bool {
        self.tables.iter().all(|t| t.result.is_some())
    }

    /// The numbers of the tables still waiting for a result.
    pub fn pending_tables(&self) -> Vec<u32> {
        self.tables
            .iter()
            .filter(|t| t.result.is_none())
            .map(|t| t.number)
            .collect()
    }

    /// The table an entrant sits at, if any.
    pub fn table_of(&self, id: EntrantId) -> Option<&Table> {
        self.tables.iter().find(|t| t.seats.contains(&id))
    }
}
