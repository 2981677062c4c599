//! Blokus tournaments as data: an [`Event`] holds its settings, its entrants and its
//! rounds; the organiser registers entrants, pairs a round, enters results, and reads the
//! [`Standings`] and the [`Crosstable`]. Pure logic, no I/O: the server stores events and
//! the command line plays their games. The pairing systems are documented exactly in
//! `docs/tournaments.md`.
//!
//! ```
//! use blokus_core::VariantId;
//! use blokus_tournament::{Event, EventConfig, NewEntrant, TableResult};
//!
//! let mut config = EventConfig::new("Club night", VariantId::Duo);
//! config.rounds = 3;
//! let names = ["Ada", "Bruno", "Chiara", "Dario"];
//! let mut event = Event::new(config, names.iter().map(|n| NewEntrant::person(n)).collect())?;
//! while !event.is_finished() {
//!     let round = event.pair_next_round()?.clone();
//!     for table in &round.tables {
//!         // The player in seat 0 wins every game here.
//!         event.record_result(round.number, table.number, TableResult::from_scores(vec![10, -5]))?;
//!     }
//! }
//! let standings = event.standings();
//! assert_eq!(standings.rows.len(), 4);
//! event.audit()?;
//! # Ok::<(), blokus_tournament::EventError>(())
//! ```

mod config;
mod crosstable;
mod entrant;
mod error;
mod event;
mod ledger;
pub mod pairing;
mod points;
mod rating;
mod result;
mod round;
mod standings;
mod tables;

pub use config::{
    ByeScore, EventConfig, PairingSystem, PlacePoints, ShortTables, Tiebreak, UnknownPairingSystem,
    UnknownTiebreak,
};
pub use crosstable::{Crosstable, Entry, Line};
pub use entrant::{Entrant, EntrantId, EntrantKind, NewEntrant, PairingNumber};
pub use error::EventError;
pub use event::Event;
pub use ledger::{Game, Ledger, Outcome, Record};
pub use points::{BadPoints, Points};
pub use rating::elo_estimates;
pub use result::{BadResult, TableResult};
pub use round::{Bye, Round, Table};
pub use standings::{Row, Standings};
pub use tables::{table_variant, TablePlan};
