//! Blokus 3D game records (docs/blokus3d.md): `.blksgf` with a game name of its own and
//! cubes written with their level, and the JSON record.
//!
//! ```text
//! (;FF[4]CA[UTF-8]AP[blokus]GM[Blokus 3D]XSITE[plaza]RE[...]
//! ;1[c3.1,d3.1];2[c3.2,d3.2,c4.1,c4.2]...)
//! ```
//!
//! The site is `XSITE[name]`; a site that is not built in is also written out in full in
//! `XSITEDEF[...]` (the site file format), so the record stands alone.

use crate::Colour;
use serde::{Deserialize, Serialize};

use super::game::CubeGame;
use super::notation;
use super::rules::CubeRules;
use super::score;
use super::site::Site;
use super::variant::{CubeVariantId, DEFAULT_SITE};
use crate::record::json;
use crate::record::sgf::{self, GameTree, Node, Property};
use crate::record::RecordError;

/// The `.blksgf` property naming the site.
pub const SITE_PROPERTY: &str = "XSITE";
/// The `.blksgf` property holding a site's definition (sites that are not built in).
pub const SITE_DEF_PROPERTY: &str = "XSITEDEF";

/// The move property of a colour: `B`/`W` with two colours, `1`..`4` otherwise.
fn colour_property(rules: &CubeRules, colour: Colour) -> String {
    if rules.num_colours() == 2 {
        ["B", "W"][colour.index()].to_string()
    } else {
        (colour.index() + 1).to_string()
    }
}

/// The result in the `.blksgf` convention: with two players `B+n`, `W+n` or `0` (the
/// difference of the players' scores), otherwise each colour's points space-separated.
pub fn result_text(rules: &CubeRules, pos: &super::CubePosition) -> String {
    if rules.seating().players() == 2 {
        let r = score::results(rules, pos);
        crate::record::margin_text(r[0].score - r[1].score)
    } else {
        score::colour_scores(rules, pos)
            .iter()
            .map(|s| s.points.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn variant_of(rules: &CubeRules) -> CubeVariantId {
    CubeVariantId::of_seating(rules.seating())
}

/// Whether the site is one of the built-in ones, unchanged.
fn is_builtin(site: &Site) -> bool {
    Site::builtin(site.name()).is_some_and(|b| *b == *site)
}

/// The root properties and move nodes of a game (for collections with more root
/// properties, such as a match's player names).
pub fn to_tree(game: &CubeGame, extra_root: Vec<Property>) -> GameTree {
    let rules = game.rules();
    let mut root = Node::default();
    root.push(Property::new("FF", "4"));
    root.push(Property::new("CA", "UTF-8"));
    root.push(Property::new("AP", "blokus"));
    root.push(Property::new("GM", variant_of(rules).game_name()));
    root.push(Property::new(SITE_PROPERTY, rules.site().name()));
    if !is_builtin(rules.site()) {
        root.push(Property::new(SITE_DEF_PROPERTY, rules.site().to_text()));
    }
    if game.is_over() {
        root.push(Property::new("RE", result_text(rules, game.position())));
    }
    for p in extra_root {
        root.push(p);
    }
    let mut nodes = vec![root];
    for &(colour, m) in game.moves() {
        let mut node = Node::default();
        node.push(Property::new(
            colour_property(rules, colour),
            notation::format_move(rules.table(), m),
        ));
        nodes.push(node);
    }
    GameTree {
        nodes,
        variations: Vec::new(),
    }
}

/// A game as a `.blksgf` record.
pub fn to_blksgf(game: &CubeGame) -> String {
    sgf::write(&[to_tree(game, Vec::new())])
}

/// The rules of a record from its game name and site.
fn rules_of(
    game_name: Option<&str>,
    site: Option<&str>,
    site_def: Option<&str>,
    site_key: &str,
) -> Result<CubeRules, RecordError> {
    let name = game_name.ok_or_else(|| RecordError::Game("the record names no game".into()))?;
    let variant = CubeVariantId::parse(name)
        .ok_or_else(|| RecordError::Game(format!("'{name}' is not a Blokus 3D game")))?;
    let site = match site_def {
        Some(text) => {
            std::sync::Arc::new(Site::parse(text).map_err(|e| RecordError::Property {
                id: site_key.to_string(),
                message: e.to_string(),
            })?)
        }
        None => {
            let name = site.unwrap_or(DEFAULT_SITE);
            Site::builtin(name).ok_or_else(|| RecordError::Property {
                id: site_key.to_string(),
                message: super::variant::UnknownSite(name.to_string()).to_string(),
            })?
        }
    };
    Ok(variant.rules(site))
}

/// Plays a record's moves, each checked by the rules.
fn replay<'a>(
    rules: CubeRules,
    moves: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<CubeGame, RecordError> {
    let mut game = CubeGame::new(rules);
    for (number, (colour_text, cubes)) in moves.enumerate() {
        let bad = |message: String| RecordError::Move {
            number: number + 1,
            text: format!("{colour_text}[{cubes}]"),
            message,
        };
        let rules = game.rules();
        let colour = Colour::all(rules.num_colours())
            .find(|&c| {
                colour_property(rules, c) == colour_text
                    || rules.colour_name(c).eq_ignore_ascii_case(colour_text)
            })
            .ok_or_else(|| bad(format!("'{colour_text}' is not a colour of this game")))?;
        if game.is_over() {
            return Err(bad("the game is already over".into()));
        }
        if colour != game.to_move() {
            return Err(bad(format!(
                "{} is to move, not {}",
                rules.colour_name(game.to_move()),
                rules.colour_name(colour)
            )));
        }
        game.play_text(cubes).map_err(|e| bad(e.to_string()))?;
    }
    Ok(game)
}

/// Reads the first game of a `.blksgf` text (main line), checking every move.
///
/// # Errors
/// A [`RecordError`] naming the property or move at fault.
pub fn from_blksgf(text: &str) -> Result<CubeGame, RecordError> {
    let trees = sgf::parse(text)?;
    let tree = trees
        .first()
        .ok_or_else(|| RecordError::Game("the file holds no game".into()))?;
    let line = tree.main_line();
    let root = line
        .first()
        .ok_or_else(|| RecordError::Game("the game has no root node".into()))?;
    let rules = rules_of(
        root.get("GM"),
        root.get(SITE_PROPERTY),
        root.get(SITE_DEF_PROPERTY),
        SITE_DEF_PROPERTY,
    )?;
    let is_move = |id: &str| matches!(id, "B" | "W" | "1" | "2" | "3" | "4");
    let moves = line.iter().flat_map(|n| {
        n.props
            .iter()
            .filter(|p| is_move(&p.id))
            .map(|p| (p.id.as_str(), p.values.first().map_or("", String::as_str)))
    });
    replay(rules, moves)
}

/// The fields of a 3D game's record (inside the header shared with the flat games').
#[derive(Serialize, Deserialize)]
struct Record {
    #[serde(default)]
    site: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    site_definition: Option<String>,
    events: Vec<Event>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Event {
    Place {
        colour: String,
        cubes: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stone: Option<String>,
    },
}

/// A game as a JSON record (the flat families' format with `site` and `cubes`).
pub fn to_json(game: &CubeGame) -> serde_json::Value {
    let rules = game.rules();
    let t = rules.table();
    let events = game
        .moves()
        .iter()
        .map(|&(colour, m)| Event::Place {
            colour: rules.colour_name(colour).to_string(),
            cubes: notation::move_cubes(t, m),
            stone: Some(t.get(m).stone().name().to_string()),
        })
        .collect();
    let variant = variant_of(rules);
    let record = Record {
        site: Some(rules.site().name().to_string()),
        site_definition: (!is_builtin(rules.site())).then(|| rules.site().to_text()),
        events,
    };
    json::write(
        variant.as_str(),
        variant.game_name(),
        record,
        serde_json::json!({
            "over": game.is_over(),
            "text": result_text(rules, game.position()),
            "colours": game.colour_scores(),
            "players": game.results(),
        }),
    )
}

/// Reads a JSON record, checking every move.
///
/// # Errors
/// A [`RecordError`] naming the field or move at fault.
pub fn from_json(text: &str) -> Result<CubeGame, RecordError> {
    let (variant, r) = json::read::<Record>(text)?;
    let rules = rules_of(
        Some(&variant),
        r.site.as_deref(),
        r.site_definition.as_deref(),
        "site_definition",
    )?;
    let moves: Vec<(String, String)> = r
        .events
        .into_iter()
        .map(|Event::Place { colour, cubes, .. }| (colour, cubes.join(",")))
        .collect();
    replay(rules, moves.iter().map(|(c, m)| (c.as_str(), m.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::sync::Arc;

    fn random_game(rules: CubeRules, seed: u64, limit: usize) -> CubeGame {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = CubeGame::new(rules);
        while !game.is_over() && game.moves().len() < limit {
            let moves = game.legal_moves();
            game.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        game
    }

    #[test]
    fn records_round_trip_for_every_variant() {
        let custom = Arc::new(
            Site::parse("name = yard\nheights = 2:3 3:4 4:5\nfootprint =\nooooo\noo.oo\nooooo\n")
                .unwrap(),
        );
        for (i, v) in CubeVariantId::ALL.into_iter().enumerate() {
            for site in [Site::builtin("diamond").unwrap(), custom.clone()] {
                let game = random_game(v.rules(site), i as u64, if i == 0 { 500 } else { 9 });
                let text = to_blksgf(&game);
                assert!(text.contains(&format!("GM[{}]", v.game_name())), "{text}");
                let back = from_blksgf(&text).unwrap();
                assert_eq!(back.moves(), game.moves());
                assert_eq!(back.rules().site(), game.rules().site());
                let json = to_json(&game).to_string();
                let back = from_json(&json).unwrap();
                assert_eq!(back.moves(), game.moves());
                assert_eq!(back.rules().seating(), v.seating());
            }
        }
    }

    #[test]
    fn two_colour_games_use_b_and_w() {
        let rules = CubeVariantId::Rumis2.rules_on("plaza").unwrap();
        let mut game = CubeGame::new(rules);
        game.play_text("a1.1,b1.1").unwrap();
        game.play_text("a2.1,b2.1,a2.2").unwrap();
        let text = to_blksgf(&game);
        assert!(text.contains(";B[a1.1,b1.1]\n;W[a2.1,b2.1,a2.2]"), "{text}");
        assert!(text.contains("GM[Blokus 3D Duo]XSITE[plaza]"), "{text}");
    }

    #[test]
    fn bad_records_name_the_fault() {
        let cases = [
            ("(;GM[Blokus Duo])", "'Blokus Duo' is not a Blokus 3D game"),
            (
                "(;GM[Blokus 3D]XSITE[moon])",
                "property XSITEDEF: unknown site 'moon'",
            ),
            (
                "(;GM[Blokus 3D];1[a1.1,b1.1];1[a2.1,b2.1])",
                "move 2 (1[a2.1,b2.1]): yellow is to move, not blue",
            ),
            (
                "(;GM[Blokus 3D];1[a1.2,b1.2])",
                "move 1 (1[a1.2,b1.2]): illegal move: a cube would have empty space under it",
            ),
            (
                "(;GM[Blokus 3D];1[a1.1,z9.1])",
                "move 1 (1[a1.1,z9.1]): cube z9.1 is off the site",
            ),
            (
                "(;GM[Blokus 3D]XSITEDEF[name = x])",
                "property XSITEDEF: site: 'heights' is missing",
            ),
        ];
        for (text, message) in cases {
            let err = from_blksgf(text).map(|_| ()).unwrap_err().to_string();
            assert!(err.starts_with(message), "{text}: {err}");
        }
        assert!(from_json("{\"variant\": \"rumis_9\", \"events\": []}").is_err());
        let newer = r#"{"format":"blokus-record","version":2,"variant":"rumis_2","events":[]}"#;
        let err = from_json(newer).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains("version 2 is newer"), "{err}");
    }

    /// The JSON record, key by key as documented: the refactorings of the shared
    /// header must not change it, and reading and writing again gives it back.
    #[test]
    fn the_json_record_text_is_stable() {
        let mut game = CubeGame::new(CubeVariantId::Rumis2.rules_on("plaza").unwrap());
        game.play_text("a1.1,b1.1").unwrap();
        let text = to_json(&game).to_string();
        assert_eq!(
            text,
            r#"{"events":[{"colour":"blue","cubes":["a1.1","b1.1"],"stone":"I2","type":"place"}],"format":"blokus-record","game_name":"Blokus 3D Duo","result":{"colours":[{"colour":0,"points":-8,"stones_left":10,"visible":2},{"colour":1,"points":-11,"stones_left":11,"visible":0}],"over":false,"players":[{"place":1,"player":0,"score":-8},{"place":2,"player":1,"score":-11}],"text":"B+3"},"site":"plaza","variant":"rumis_2","version":1}"#
        );
        assert_eq!(from_json(&text).map(|b| to_json(&b).to_string()), Ok(text));
    }
}
