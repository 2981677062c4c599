//! `.blksgf` records (SPEC 10): the main line of an SGF tree as a [`Game`].
//!
//! Reading accepts what other Blokus programs write: cells in any order and case, moves
//! as one comma-separated value (or, as very old files do, one value per cell), setup in
//! any node before the first move, unknown properties (ignored). Writing produces one
//! spelling per game: `GM`, `FF`, `CA`, `AP` first, setup in the root node, one node per
//! move, cells ordered `a1, b1, ..., a2, ...`.
//!
//! This project's own properties (other readers ignore unknown properties):
//! - `XRULES` (root): the rule options in force, one value each (`alternate_contact`,
//!   `no_mirror_opening`, `no_start_alternation`); written, possibly as the single empty
//!   value `XRULES[]`, for every variant that has options.
//! - `XPIE` (own node after the opening): the Polyomino pie choice, `keep` or `swap`.
//!
//! A record without `XRULES` comes from a program that may not know the point-reflection
//! opening of `trigon_2`/`trigon_teams` or the alternating starting points of
//! `trigon_3`: if its moves break one of those rules, it is read again with them off.

use crate::game::{Game, GameError, GameEvent};
use crate::ids::Colour;
use crate::movetable::Move;
use crate::notation;
use crate::position::PieChoice;
use crate::record::sgf::{self, GameTree, Node, Property};
use crate::record::{result_text, start_game, RecordError};
use crate::rules::Rules;
use crate::variant::{self, RuleOptions, VariantId};

/// Our property holding the rule options.
pub const RULES_PROP: &str = "XRULES";
/// Our property holding the pie choice.
pub const PIE_PROP: &str = "XPIE";
/// This project's property of a player whose time ran out: the player's number, from 1.
pub const TIMEOUT_PROP: &str = "XTIMEOUT";

/// Writes a game as a `.blksgf` record.
pub fn write(game: &Game) -> String {
    sgf::write(&[to_tree(game, &[])])
}

/// Writes a game as a `.blksgf` record with extra root properties (e.g. `PB`, `PW`,
/// `DT`, `EV`), written after the game properties.
pub fn write_with(game: &Game, extra_root: &[Property]) -> String {
    sgf::write(&[to_tree(game, extra_root)])
}

/// Reads the main line of the first game tree of a `.blksgf` record.
///
/// # Errors
/// [`RecordError`] naming the property, move number or cell at fault.
pub fn read(text: &str) -> Result<Game, RecordError> {
    let trees = sgf::parse(text)?;
    from_tree(&trees[0])
}

/// The SGF property identifier of a colour's moves: `B`/`W` with two colours, else
/// `1`..`4`.
pub fn move_prop(rules: &Rules, colour: Colour) -> String {
    if rules.num_colours() == 2 {
        ["B", "W"][colour.index()].to_string()
    } else {
        (colour.index() + 1).to_string()
    }
}

/// The SGF property identifier of a colour's setup pieces: `AB`/`AW` or `A1`..`A4`.
pub fn setup_prop(rules: &Rules, colour: Colour) -> String {
    format!("A{}", move_prop(rules, colour))
}

fn options_applicable(rules: &Rules) -> bool {
    let v = rules.v();
    v.has_alternate_contact() || !v.mirror_pairs.is_empty() || v.alternate_starts
}

fn option_values(o: &RuleOptions) -> Vec<String> {
    o.enabled().into_iter().map(String::from).collect()
}

/// The SGF tree of a game: root properties, setup, one node per event.
pub fn to_tree(game: &Game, extra_root: &[Property]) -> GameTree {
    let rules = game.rules();
    let t = rules.table();
    let mut root = Node::default();
    root.push(Property::new("GM", rules.v().game_name));
    root.push(Property::new("FF", "4"));
    root.push(Property::new("CA", "UTF-8"));
    root.push(Property::new(
        "AP",
        format!("blokus:{}", env!("CARGO_PKG_VERSION")),
    ));
    let opts = option_values(&rules.options);
    if options_applicable(rules) || !opts.is_empty() {
        let values = if opts.is_empty() {
            vec![String::new()]
        } else {
            opts
        };
        root.push(Property::multi(RULES_PROP, values));
    }
    for p in extra_root {
        root.push(p.clone());
    }
    if game.is_over() && rules.v().players == 2 && !extra_root.iter().any(|p| p.id == "RE") {
        root.push(Property::new("RE", result_text(rules, game.position())));
    }
    if !game.setup().is_empty() {
        for c in Colour::all(rules.num_colours()) {
            let pieces: Vec<String> = game
                .setup()
                .iter()
                .filter(|(sc, _)| *sc == c)
                .map(|&(_, m)| notation::format_move(t, m))
                .collect();
            if !pieces.is_empty() {
                root.push(Property::multi(setup_prop(rules, c), pieces));
            }
        }
        let first = game.position_at(0).map_or(Colour(0), |p| p.to_move());
        root.push(Property::new("PL", move_prop(rules, first)));
    }
    let mut nodes = vec![root];
    for e in game.events() {
        let prop = match *e {
            GameEvent::Place { colour, mv } => {
                Property::new(move_prop(rules, colour), notation::format_move(t, mv))
            }
            GameEvent::Pie(choice) => Property::new(PIE_PROP, pie_name(choice)),
            GameEvent::TimeOut { player } => {
                Property::new(TIMEOUT_PROP, (player.index() + 1).to_string())
            }
        };
        nodes.push(Node { props: vec![prop] });
    }
    GameTree {
        nodes,
        variations: Vec::new(),
    }
}

fn pie_name(c: PieChoice) -> &'static str {
    match c {
        PieChoice::Keep => "keep",
        PieChoice::Swap => "swap",
    }
}

/// Replays the main line of a tree into a game.
///
/// # Errors
/// [`RecordError`] naming the property, move number or cell at fault.
pub fn from_tree(tree: &GameTree) -> Result<Game, RecordError> {
    let nodes = tree.main_line();
    let root = nodes
        .first()
        .ok_or_else(|| RecordError::Game("empty game tree".into()))?;
    let gm = root.get("GM").ok_or_else(|| {
        RecordError::Game("missing GM property: which game is this record of?".into())
    })?;
    let v = variant::variant(gm).map_err(|_| {
        RecordError::Game(format!(
            "GM[{gm}]: unknown game (known: {})",
            VariantId::ALL
                .iter()
                .map(|id| id.game_name())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    let explicit = root.props.iter().find(|p| p.id == RULES_PROP);
    let mut options = RuleOptions::default();
    if let Some(p) = explicit {
        for value in p.values.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
            options.enable(value).map_err(|e| RecordError::Property {
                id: RULES_PROP.into(),
                message: e.to_string(),
            })?;
        }
    }
    let rules = Rules::new(v.clone(), options);
    match replay(rules.clone(), &nodes) {
        Err(e @ RecordError::Move { .. }) if explicit.is_none() => {
            // Other programs lack the mirrored opening and alternating start rules.
            let relaxed = RuleOptions {
                no_mirror_opening: true,
                no_start_alternation: true,
                ..options
            };
            let lenient = Rules::new(v, relaxed);
            if rules.mirror_opening() || rules.start_alternation() {
                replay(lenient, &nodes).map_err(|_| e)
            } else {
                Err(e)
            }
        }
        other => other,
    }
}

/// The colour a move property names, if it is one.
fn move_colour(rules: &Rules, id: &str) -> Option<Colour> {
    let n = rules.num_colours();
    if n == 2 {
        return match id {
            "B" | "1" => Some(Colour(0)),
            "W" | "2" => Some(Colour(1)),
            _ => None,
        };
    }
    if let Ok(k) = id.parse::<usize>() {
        return (1..=n).contains(&k).then(|| Colour::new(k - 1));
    }
    // Property names of very old files.
    ["BLUE", "YELLOW", "RED", "GREEN"][..n]
        .iter()
        .position(|c| *c == id)
        .map(Colour::new)
}

/// The colour a setup property adds pieces of, if it is one.
fn setup_colour(rules: &Rules, id: &str) -> Option<Colour> {
    id.strip_prefix('A')
        .and_then(|rest| move_colour(rules, rest))
}

fn bracket(id: &str, values: &[String]) -> String {
    let mut s = id.to_string();
    for v in values {
        s.push('[');
        s.push_str(v);
        s.push(']');
    }
    s
}

fn replay(rules: Rules, nodes: &[&Node]) -> Result<Game, RecordError> {
    let mut setup: Vec<(Colour, Move, String)> = Vec::new();
    let mut to_move: Option<Colour> = None;
    let mut game: Option<Game> = None;
    let mut number = 0;
    for node in nodes {
        for p in &node.props {
            let id = p.id.as_str();
            let is_setup = id == "AE" || id == "PL" || setup_colour(&rules, id).is_some();
            if is_setup {
                if game.is_some() {
                    return Err(RecordError::Property {
                        id: id.into(),
                        message: format!(
                            "setup after move {number} is not supported (only before the first move)"
                        ),
                    });
                }
                apply_setup(&rules, p, &mut setup, &mut to_move)?;
                continue;
            }
            if let Some(colour) = move_colour(&rules, id) {
                let text = p.values.join(",");
                if text.trim().is_empty() {
                    continue; // An SGF pass: colours pass implicitly here.
                }
                number += 1;
                let g = match &mut game {
                    Some(g) => g,
                    None => game.insert(start_game(
                        rules.clone(),
                        std::mem::take(&mut setup),
                        to_move,
                    )?),
                };
                let err = |message: String| RecordError::Move {
                    number,
                    text: bracket(id, &p.values),
                    message,
                };
                let mv =
                    notation::parse_move(rules.table(), &text).map_err(|e| err(e.to_string()))?;
                g.play_for(colour, mv).map_err(|e| match e {
                    GameError::Illegal { message, .. } => err(message),
                    other => err(other.to_string()),
                })?;
                continue;
            }
            if id == TIMEOUT_PROP {
                let value = p.values.first().map_or("", |v| v.trim());
                let player = value
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=rules.v().players).contains(&n))
                    .ok_or_else(|| RecordError::Property {
                        id: id.into(),
                        message: format!(
                            "'{value}' is not a player of {} (1..{})",
                            rules.v().game_name,
                            rules.v().players
                        ),
                    })?;
                let g = match &mut game {
                    Some(g) => g,
                    None => game.insert(start_game(
                        rules.clone(),
                        std::mem::take(&mut setup),
                        to_move,
                    )?),
                };
                g.time_out(crate::PlayerId::new(player - 1)).map_err(|e| {
                    RecordError::Property {
                        id: id.into(),
                        message: format!("after move {number}: {e}"),
                    }
                })?;
                continue;
            }
            if id == PIE_PROP {
                let choice = match p.values.first().map_or("", |v| v.trim()) {
                    "keep" => PieChoice::Keep,
                    "swap" => PieChoice::Swap,
                    other => {
                        return Err(RecordError::Property {
                            id: id.into(),
                            message: format!("'{other}' is not a pie choice (keep or swap)"),
                        })
                    }
                };
                let g = game.as_mut().ok_or_else(|| RecordError::Property {
                    id: id.into(),
                    message: "pie choice before the opening".into(),
                })?;
                g.choose_pie(choice).map_err(|_| RecordError::Property {
                    id: id.into(),
                    message: format!("no pie choice is pending after move {number}"),
                })?;
            }
        }
    }
    match game {
        Some(g) => Ok(g),
        None => start_game(rules, setup, to_move),
    }
}

fn apply_setup(
    rules: &Rules,
    p: &Property,
    setup: &mut Vec<(Colour, Move, String)>,
    to_move: &mut Option<Colour>,
) -> Result<(), RecordError> {
    let id = p.id.as_str();
    if id == "PL" {
        let value = p.values.first().map_or("", |v| v.trim());
        let c = move_colour(rules, &value.to_ascii_uppercase())
            .or_else(|| rules.parse_colour(value))
            .ok_or_else(|| RecordError::Property {
                id: "PL".into(),
                message: format!("'{value}' is not a colour of {}", rules.v().game_name),
            })?;
        *to_move = Some(c);
        return Ok(());
    }
    for value in &p.values {
        let text = bracket(id, std::slice::from_ref(value));
        let mv = notation::parse_move(rules.table(), value).map_err(|e| RecordError::Setup {
            text: text.clone(),
            message: e.to_string(),
        })?;
        if id == "AE" {
            let i =
                setup
                    .iter()
                    .position(|(_, m, _)| *m == mv)
                    .ok_or_else(|| RecordError::Setup {
                        text: text.clone(),
                        message: "no such piece was set up".into(),
                    })?;
            setup.remove(i);
        } else if let Some(c) = setup_colour(rules, id) {
            setup.push((c, mv, text));
        }
    }
    Ok(())
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

    const DUO: &str = "(;GM[Blokus Duo]FF[4]PB[Ann]\n;B[d9,c10,d10,e10,d11]\n;W[i4,h5,i5,j5,i6])";

    #[test]
    fn reads_a_hand_written_duo_record() {
        let g = read(DUO).unwrap();
        assert_eq!(g.moves().count(), 2);
        assert_eq!(g.legal_moves().len(), 696);
        let text = write(&g);
        assert!(
            text.starts_with("(;GM[Blokus Duo]FF[4]CA[UTF-8]AP[blokus:"),
            "{text}"
        );
        assert!(
            text.contains("\n;B[d9,c10,d10,e10,d11]\n;W[i4,h5,i5,j5,i6])"),
            "{text}"
        );
    }

    #[test]
    fn any_cell_order_and_case_is_accepted() {
        let g = read("(;GM[Blokus Duo];B[D11,e10,d10,c10,d9])").unwrap();
        assert_eq!(g.moves().count(), 1);
    }

    #[test]
    fn errors_name_the_move_and_cell() {
        let e = err(read(
            "(;GM[Blokus Duo];B[d9,c10,d10,e10,d11];W[i4,h5,i5,j5,i6];B[i5])",
        ));
        assert_eq!(e.to_string(), "move 3 (B[i5]): cell i5 is already covered");
        let e = err(read("(;GM[Blokus Duo];B[d9,c10,d10,e10,zz11])"));
        assert!(
            e.to_string()
                .starts_with("move 1 (B[d9,c10,d10,e10,zz11]): cell 'zz11'"),
            "{e}"
        );
        let e = err(read("(;GM[Blokus Quattro];B[a1])"));
        assert!(
            e.to_string().contains("GM[Blokus Quattro]: unknown game"),
            "{e}"
        );
        assert!(err(read("(;FF[4])")).to_string().contains("missing GM"));
        let e = err(read("(;GM[Blokus Duo]PL[Q])"));
        assert!(e.to_string().starts_with("property PL:"), "{e}");
        let e = err(read("(;GM[Blokus Duo]AB[a1][a1])"));
        assert_eq!(e.to_string(), "setup AB[a1]: cell a1 is already covered");
        let e = err(read("(;GM[Blokus Duo];B[d9,c10,d10,e10,d11];AB[a1])"));
        assert!(e.to_string().contains("setup after move 1"), "{e}");
        let e = err(read("(;GM[Blokus Trigon]XRULES[fast])"));
        assert!(e.to_string().contains("unknown rule option 'fast'"), "{e}");
    }

    #[test]
    fn setup_and_player_to_move() {
        let text = "(;GM[Blokus Duo]AB[e8,e9,f9,d10,e10][g6,f7,g7,h7,g8]AW[i4,h5,i5,j5,i6][j7,j8,j9,k9,j10]PL[W])";
        let g = read(text).unwrap();
        assert_eq!(g.setup().len(), 4);
        assert_eq!(g.to_move(), Colour(1));
        let again = read(&write(&g)).unwrap();
        assert_eq!(again.position(), g.position());
        let removed = read("(;GM[Blokus Duo]AB[e8,e9,f9,d10,e10]AE[e8,e9,f9,d10,e10])").unwrap();
        assert!(removed.setup().is_empty());
    }

    #[test]
    fn four_colour_games_use_numbered_properties() {
        let mut g = Game::new(Rules::by_name("classic_2").unwrap());
        g.play_text("a20").unwrap();
        g.play_text("t20").unwrap();
        let text = write(&g);
        assert!(text.contains(";1[a20]\n;2[t20]"), "{text}");
        assert!(!text.contains("XRULES"));
        assert_eq!(read(&text).unwrap().position(), g.position());
    }

    #[test]
    fn rule_options_are_stored_in_our_own_property() {
        let opts = RuleOptions {
            alternate_contact: true,
            ..RuleOptions::default()
        };
        let g = Game::new(Rules::new(variant::variant("trigon").unwrap(), opts));
        let text = write(&g);
        assert!(text.contains("XRULES[alternate_contact]"), "{text}");
        assert!(read(&text).unwrap().rules().options.alternate_contact);
        let plain = write(&Game::new(Rules::by_name("trigon_3").unwrap()));
        assert!(plain.contains("XRULES[]"), "{plain}");
    }

    #[test]
    fn records_of_programs_without_the_mirror_rule_still_read() {
        // Blue and Yellow open, then Red does not mirror Blue.
        let rules = Rules::new(
            variant::variant("trigon_2").unwrap(),
            RuleOptions {
                no_mirror_opening: true,
                ..RuleOptions::default()
            },
        );
        let mut g = Game::new(rules);
        for _ in 0..3 {
            let m = g.legal_moves()[0];
            g.play(m).unwrap();
        }
        let text = write(&g).replace("XRULES[no_mirror_opening]", "");
        let back = read(&text).unwrap();
        assert!(back.rules().options.no_mirror_opening);
        assert_eq!(back.position(), g.position());
    }

    #[test]
    fn pie_choice_round_trips() {
        let mut g = Game::new(Rules::by_name("polyomino_mini").unwrap());
        let m = g.legal_moves()[0];
        g.play(m).unwrap();
        let m = g.legal_moves()[0];
        g.play(m).unwrap();
        g.choose_pie(PieChoice::Swap).unwrap();
        let text = write(&g);
        assert!(text.contains(";XPIE[swap]"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.events(), g.events());
    }
}
