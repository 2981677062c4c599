//! Game records for download, written by `blokus-core`'s record modules (the flat and
//! the Blokus 3D ones).

use blokus_core::cube::record as cube_record;
use blokus_core::record::{blksgf, json, sgf::Property};

use crate::clock::TimeControl;
use crate::room_game::RoomGame;
use crate::seats::{AiLevel, Seat, SeatKind};

fn seat_name(seat: &Seat) -> String {
    match (seat.kind, &seat.name) {
        (SeatKind::Ai, _) => format!("blokus AI level {}", seat.level.unwrap_or(AiLevel::DEFAULT)),
        (_, Some(name)) => name.to_string(),
        _ => "Human".to_string(),
    }
}

/// The game as `.blksgf` text (SPEC 10; docs/blokus3d.md for 3D games), with the
/// players' names (`PB`/`PW` in two-player games, `P1`..`P4` with more players, as the
/// reference program reads them) and the time control of a timed game (SGF `TM`, the
/// main time in seconds, and `OT`).
pub fn blksgf(game: &RoomGame, seats: &[Seat], clock: Option<TimeControl>) -> String {
    let mut extra = Vec::new();
    if seats.len() == 2 {
        extra.push(Property::new("PB", seat_name(&seats[0])));
        extra.push(Property::new("PW", seat_name(&seats[1])));
    } else {
        for (i, s) in seats.iter().enumerate() {
            extra.push(Property::new(format!("P{}", i + 1), seat_name(s)));
        }
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
    match game {
        RoomGame::Flat(g) => blksgf::write_with(g, &extra),
        RoomGame::Cube(g) => blokus_core::record::sgf::write(&[cube_record::to_tree(g, extra)]),
    }
}

/// The game as this project's JSON record.
pub fn json(game: &RoomGame) -> serde_json::Value {
    match game {
        RoomGame::Flat(g) => json::to_json(g),
        RoomGame::Cube(g) => cube_record::to_json(g),
    }
}
