//! Game records for download, written by `blokus-core`'s record module.

use blokus_core::record::{blksgf, json, sgf::Property};
use blokus_core::Game;

use crate::clock::TimeControl;
use crate::seats::{AiLevel, Seat, SeatKind};

fn seat_name(seat: &Seat) -> String {
    match seat.kind {
        SeatKind::Ai => format!("blokus AI level {}", seat.level.unwrap_or(AiLevel::DEFAULT)),
        _ => "Human".to_string(),
    }
}

/// The game as `.blksgf` text (SPEC 10), with player names for two-player games and
/// the time control of a timed game (SGF `TM`, the main time in seconds, and `OT`).
pub fn blksgf(game: &Game, seats: &[Seat], clock: Option<TimeControl>) -> String {
    let mut extra = Vec::new();
    if seats.len() == 2 {
        extra.push(Property::new("PB", seat_name(&seats[0])));
        extra.push(Property::new("PW", seat_name(&seats[1])));
    }
    match clock {
        Some(TimeControl::Fischer { base, increment }) => {
            extra.push(Property::new("TM", base.to_string()));
            extra.push(Property::new(
                "OT",
                format!("{increment} s per move (Fischer)"),
            ));
        }
        Some(TimeControl::Correspondence { days }) => {
            extra.push(Property::new("OT", format!("{days} days per move")));
        }
        None => {}
    }
    blksgf::write_with(game, &extra)
}

/// The game as this project's JSON record.
pub fn json(game: &Game) -> serde_json::Value {
    json::to_json(game)
}
