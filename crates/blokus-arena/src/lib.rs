//! Tables of N seats played by built-in players and external GTP engines.
//!
//! One table is a variant plus a player per seat; [`play_game`] plays it to the end and
//! returns the game record and every seat's result (score, place, win share). Matches
//! ([`run_match`]) play many games between the same engines with rotating seats, several
//! at a time; [`record`] writes games as `.blksgf` with the players named.
//!
//! ```
//! use blokus_arena::{play_game, EngineSpec, Table};
//! use blokus_core::Rules;
//!
//! let seats = ["greedy", "random", "greedy:seed=3", "random"].map(EngineSpec::parse);
//! let table = Table::new(Rules::by_name("classic").unwrap(), seats.to_vec()).unwrap();
//! let result = play_game(&table, 1).unwrap();
//! assert!(result.game.is_over());
//! assert_eq!(result.seats.len(), 4);
//! assert!(result.seats.iter().any(|s| s.place == 1));
//! ```
#![deny(missing_docs)]

pub mod cube;
mod engine;
mod error;
pub mod matches;
pub mod record;
pub mod summary;
mod table;

pub use engine::EngineSpec;
pub use error::ArenaError;
pub use matches::{run_match, seating, MatchConfig, MatchGame};
pub use summary::{format_summary, summarize, summarize_points, Summary};
pub use table::{play_game, Loss, LossKind, SeatResult, Table, TableResult};
