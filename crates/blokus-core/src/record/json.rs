//! This project's JSON game record (documented in `docs/json-record.md`).
//!
//! ```json
//! {"format": "blokus-record", "version": 1, "variant": "duo", "game_name": "Blokus Duo",
//!  "options": {"alternate_contact": false, "no_mirror_opening": false,
//!              "no_start_alternation": false},
//!  "setup": [], "to_move": "purple",
//!  "events": [{"type": "place", "colour": "purple", "piece": "X",
//!              "cells": ["d9", "c10", "d10", "e10", "d11"]}],
//!  "result": {"over": false, "text": "B+0", "colours": [...], "sides": [...]}}
//! ```
//!
//! Reading needs only `variant` and `events`; `game_name`, `piece` and `result` are
//! written for readers' convenience and ignored (the result is recomputed).

use serde::{Deserialize, Serialize};

use crate::game::{Game, GameError, GameEvent};
use crate::notation;
use crate::position::PieChoice;
use crate::record::{result_text, start_game, RecordError};
use crate::rules::Rules;
use crate::score;
use crate::variant::{self, RuleOptions};

/// The `format` value of every record.
pub const FORMAT: &str = "blokus-record";
/// The current `version`.
pub const VERSION: u32 = 1;

/// The fields every JSON record has, flat or Blokus 3D, around the fields of its board
/// family (`B`, flattened in): `format`, `version`, `variant`, `game_name` (written for
/// readers, ignored when read) and `result` (written, recomputed when read).
#[derive(Serialize, Deserialize)]
pub(crate) struct Envelope<B> {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    version: Option<u32>,
    variant: String,
    #[serde(default, skip_deserializing)]
    game_name: String,
    #[serde(flatten)]
    body: B,
    #[serde(default, skip_deserializing)]
    result: Option<serde_json::Value>,
}

/// A record of the current format and version with its board family's fields.
pub(crate) fn write<B: Serialize>(
    variant: &str,
    game_name: &str,
    body: B,
    result: serde_json::Value,
) -> serde_json::Value {
    let record = Envelope {
        format: Some(FORMAT.into()),
        version: Some(VERSION),
        variant: variant.into(),
        game_name: game_name.into(),
        body,
        result: Some(result),
    };
    serde_json::to_value(record).expect("a record serialises")
}

/// Reads a record's text into its variant and its board family's fields, refusing
/// malformed JSON, a foreign format, or a version newer than this program reads.
///
/// # Errors
/// [`RecordError::Json`] (with line and column) or [`RecordError::Property`] naming
/// the header field at fault.
pub(crate) fn read<B: serde::de::DeserializeOwned>(text: &str) -> Result<(String, B), RecordError> {
    let r: Envelope<B> =
        serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))?;
    if let Some(f) = &r.format {
        if f != FORMAT {
            return Err(RecordError::Property {
                id: "format".into(),
                message: format!("'{f}' is not '{FORMAT}'"),
            });
        }
    }
    if let Some(v) = r.version {
        if v > VERSION {
            return Err(RecordError::Property {
                id: "version".into(),
                message: format!("version {v} is newer than this program reads ({VERSION})"),
            });
        }
    }
    Ok((r.variant, r.body))
}

/// The fields of a flat game's record.
#[derive(Serialize, Deserialize)]
struct Record {
    #[serde(default)]
    options: RuleOptions,
    #[serde(default)]
    setup: Vec<Piece>,
    #[serde(default)]
    to_move: Option<String>,
    events: Vec<Event>,
}

#[derive(Serialize, Deserialize)]
struct Piece {
    colour: String,
    cells: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    piece: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Event {
    Place {
        colour: String,
        cells: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
    },
    Pie {
        choice: PieChoice,
    },
    /// A player's time ran out (0-based player index).
    Timeout {
        player: usize,
    },
}

fn piece_json(rules: &Rules, colour: crate::Colour, mv: crate::Move) -> Piece {
    let t = rules.table();
    Piece {
        colour: rules.colour_name(colour).to_string(),
        cells: notation::move_cells(t, mv),
        piece: Some(notation::piece_name(t, mv).to_string()),
    }
}

/// A game as a JSON record.
pub fn to_json(game: &Game) -> serde_json::Value {
    let rules = game.rules();
    let pos = game.position();
    let events = game
        .events()
        .iter()
        .map(|e| match *e {
            GameEvent::Place { colour, mv } => {
                let p = piece_json(rules, colour, mv);
                Event::Place {
                    colour: p.colour,
                    cells: p.cells,
                    piece: p.piece,
                }
            }
            GameEvent::Pie(choice) => Event::Pie { choice },
            GameEvent::TimeOut { player } => Event::Timeout {
                player: player.index(),
            },
        })
        .collect();
    let sides: Vec<serde_json::Value> = score::side_results(rules, pos)
        .into_iter()
        .map(|s| {
            serde_json::json!({
                "side": s.side,
                "name": score::side_name(rules, s.side),
                "score": s.score,
                "tiebreak": s.tiebreak,
                "place": s.place,
            })
        })
        .collect();
    let first = game
        .position_at(0)
        .map_or(crate::Colour(0), |p| p.to_move());
    let record = Record {
        options: rules.options,
        setup: game
            .setup()
            .iter()
            .map(|&(c, m)| piece_json(rules, c, m))
            .collect(),
        to_move: Some(rules.colour_name(first).to_string()),
        events,
    };
    write(
        rules.v().id.as_str(),
        rules.v().game_name,
        record,
        serde_json::json!({
            "over": game.is_over(),
            "text": result_text(rules, pos),
            "colours": score::colour_scores(rules, pos),
            "sides": sides,
        }),
    )
}

fn colour(rules: &Rules, field: &str, name: &str) -> Result<crate::Colour, RecordError> {
    rules
        .parse_colour(name)
        .ok_or_else(|| RecordError::Property {
            id: field.into(),
            message: format!(
                "'{name}' is not a colour of {} (colours: {})",
                rules.v().id,
                rules.v().colours.join(", ")
            ),
        })
}

/// Reads a JSON record, replaying every event through the rules.
///
/// # Errors
/// [`RecordError`]: malformed JSON (with line and column), an unknown variant or colour,
/// or the event number and cell at fault.
pub fn from_json(text: &str) -> Result<Game, RecordError> {
    let (variant, r) = read::<Record>(text)?;
    let v = variant::variant(&variant).map_err(|e| RecordError::Game(e.to_string()))?;
    let rules = Rules::new(v, r.options);
    let t = rules.table();
    let mut setup = Vec::new();
    for (i, p) in r.setup.iter().enumerate() {
        let c = colour(&rules, &format!("setup[{i}].colour"), &p.colour)?;
        let text = format!("{} {}", p.colour, p.cells.join(","));
        let mv = notation::parse_move(t, &p.cells.join(",")).map_err(|e| RecordError::Setup {
            text: text.clone(),
            message: e.to_string(),
        })?;
        setup.push((c, mv, text));
    }
    let to_move = match &r.to_move {
        Some(name) => Some(colour(&rules, "to_move", name)?),
        None => None,
    };
    let mut game = start_game(rules.clone(), setup, to_move)?;
    let mut number = 0;
    for (i, e) in r.events.iter().enumerate() {
        match e {
            Event::Place {
                colour: name,
                cells,
                ..
            } => {
                number += 1;
                let c = colour(&rules, &format!("events[{i}].colour"), name)?;
                let err = |message: String| RecordError::Move {
                    number,
                    text: format!("{name} {}", cells.join(",")),
                    message,
                };
                let mv =
                    notation::parse_move(t, &cells.join(",")).map_err(|e| err(e.to_string()))?;
                game.play_for(c, mv).map_err(|e| match e {
                    GameError::Illegal { message, .. } => err(message),
                    other => err(other.to_string()),
                })?;
            }
            Event::Timeout { player } => {
                let p = (*player < rules.v().players)
                    .then(|| crate::PlayerId::new(*player))
                    .ok_or_else(|| RecordError::Property {
                        id: format!("events[{i}].player"),
                        message: format!(
                            "{player} is not a player of {} (0..{})",
                            rules.v().id,
                            rules.v().players - 1
                        ),
                    })?;
                game.time_out(p).map_err(|e| RecordError::Property {
                    id: format!("events[{i}]"),
                    message: format!("after move {number}: {e}"),
                })?;
            }
            Event::Pie { choice } => {
                game.choose_pie(*choice)
                    .map_err(|_| RecordError::Property {
                        id: format!("events[{i}]"),
                        message: format!("no pie choice is pending after move {number}"),
                    })?;
            }
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err<T>(r: Result<T, RecordError>) -> RecordError {
        match r {
            Err(e) => e,
            Ok(_) => panic!("expected an error"),
        }
    }

    #[test]
    fn a_duo_game_round_trips_and_names_colours() {
        let mut g = Game::new(Rules::by_name("duo").unwrap());
        g.play_text("d9,c10,d10,e10,d11").unwrap();
        g.play_text("i4,h5,i5,j5,i6").unwrap();
        let v = to_json(&g);
        assert_eq!(v["variant"], "duo");
        assert_eq!(v["events"][0]["colour"], "purple");
        assert_eq!(v["events"][0]["piece"], "X");
        assert_eq!(v["events"][1]["cells"][0], "i4");
        let back = from_json(&v.to_string()).unwrap();
        assert_eq!(back.position(), g.position());
        assert_eq!(back.events(), g.events());
    }

    #[test]
    fn errors_name_the_event_and_cell() {
        let text = r#"{"variant":"duo","events":[
            {"type":"place","colour":"purple","cells":["d9","c10","d10","e10","d11"]},
            {"type":"place","colour":"orange","cells":["d9","c10","d10","e10","d11"]}]}"#;
        let e = err(from_json(text));
        assert_eq!(
            e.to_string(),
            "move 2 (orange d9,c10,d10,e10,d11): cell d9 is already covered"
        );
        let e = err(from_json(
            r#"{"variant":"duo","events":[{"type":"place","colour":"blue","cells":["a1"]}]}"#,
        ));
        assert!(
            e.to_string().contains("'blue' is not a colour of duo"),
            "{e}"
        );
        assert!(matches!(from_json("{"), Err(RecordError::Json(_))));
        assert!(matches!(
            from_json(r#"{"variant":"chess","events":[]}"#),
            Err(RecordError::Game(_))
        ));
    }

    /// The record text, key by key as documented: the shared header must not change it,
    /// and reading and writing again gives it back.
    #[test]
    fn the_record_text_is_stable() {
        let mut g = Game::new(Rules::by_name("duo").unwrap());
        g.play_text("d9,c10,d10,e10,d11").unwrap();
        let text = to_json(&g).to_string();
        assert_eq!(
            text,
            r#"{"events":[{"cells":["d9","c10","d10","e10","d11"],"colour":"purple","piece":"X","type":"place"}],"format":"blokus-record","game_name":"Blokus Duo","options":{"alternate_contact":false,"no_mirror_opening":false,"no_start_alternation":false},"result":{"colours":[{"all_placed_bonus":0,"blksgf_points":5,"cells_placed":5,"cells_remaining":84,"colour":0,"counted":true,"monomino_bonus":0,"pieces_placed":1,"points":-84},{"all_placed_bonus":0,"blksgf_points":0,"cells_placed":0,"cells_remaining":89,"colour":1,"counted":true,"monomino_bonus":0,"pieces_placed":0,"points":-89}],"over":false,"sides":[{"name":"purple","place":1,"score":-84,"side":0,"tiebreak":0},{"name":"orange","place":2,"score":-89,"side":1,"tiebreak":0}],"text":"B+5"},"setup":[],"to_move":"purple","variant":"duo","version":1}"#
        );
        assert_eq!(from_json(&text).map(|b| to_json(&b).to_string()), Ok(text));
    }
}
