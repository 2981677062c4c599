//! Rule tests: scoring examples of SPEC 6 and each variant's special rules.

use blokus_core::score::{colour_scores, side_results};
use blokus_core::Colour;
use blokus_core::{Game, Illegal, PieChoice, PlayerId, Position, RuleOptions, Rules};

/// Places the named pieces of `colour` anywhere they fit (ignoring placement rules,
/// like setup), in the given order.
fn place_anywhere(rules: &Rules, pos: &mut Position, colour: usize, pieces: &[&str]) {
    let t = rules.table();
    for name in pieces {
        let piece = t.pieces().find(name).unwrap();
        let m = t
            .all()
            .find(|&m| {
                t.info(m).piece as usize == piece && !t.cell_set(m).intersects(pos.occupied())
            })
            .unwrap();
        pos.place(rules, Colour::new(colour), m);
    }
}

fn names_except(rules: &Rules, skip: &[&str]) -> Vec<String> {
    let mut left: Vec<String> = skip.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    for p in &rules.table().pieces().pieces {
        for _ in 0..p.count {
            if let Some(i) = left.iter().position(|s| *s == p.name) {
                left.remove(i);
            } else {
                out.push(p.name.clone());
            }
        }
    }
    out
}

fn points_after(variant: &str, left: &[&str], last: Option<&str>) -> i32 {
    let rules = Rules::by_name(variant).unwrap();
    let mut pos = Position::new(&rules);
    let mut names = names_except(&rules, left);
    if let Some(l) = last {
        names.retain(|n| n != l);
        names.push(l.to_string());
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    place_anywhere(&rules, &mut pos, 0, &refs);
    colour_scores(&rules, &pos)[0].points
}

#[test]
fn spec_scoring_examples() {
    assert_eq!(points_after("classic", &[], Some("1")), 20);
    assert_eq!(points_after("classic", &[], Some("X")), 15);
    assert_eq!(points_after("classic", &["O", "T4"], None), -8);
    assert_eq!(
        points_after("classic", &["I3", "O", "T4", "L4", "I4", "F"], None),
        -24
    );
    assert_eq!(points_after("trigon", &["A6", "I3"], None), -9);
    assert_eq!(points_after("trigon", &["A4", "I3"], None), -7);
    assert_eq!(points_after("trigon", &["I3", "2"], None), -5);
}

#[test]
fn blksgf_points_differ_by_the_same_amount() {
    let rules = Rules::by_name("duo").unwrap();
    let mut pos = Position::new(&rules);
    place_anywhere(&rules, &mut pos, 0, &["F", "X"]);
    place_anywhere(&rules, &mut pos, 1, &["O"]);
    let s = colour_scores(&rules, &pos);
    assert_eq!(
        s[0].points - s[1].points,
        s[0].blksgf_points - s[1].blksgf_points
    );
    assert_eq!(s[0].blksgf_points, 10);
}

#[test]
fn junior_most_pieces_wins_then_fewer_cells() {
    let rules = Rules::by_name("junior").unwrap();
    let mut pos = Position::new(&rules);
    place_anywhere(&rules, &mut pos, 0, &["1", "1", "2"]);
    place_anywhere(&rules, &mut pos, 1, &["L5", "P"]);
    let r = side_results(&rules, &pos);
    assert_eq!((r[0].score, r[0].place), (3, 1));
    assert_eq!((r[1].score, r[1].place), (2, 2));
    place_anywhere(&rules, &mut pos, 1, &["1"]);
    let r = side_results(&rules, &pos);
    // Equal piece counts: Orange has fewer cells left.
    assert_eq!((r[0].place, r[1].place), (2, 1));
}

#[test]
fn teams_and_ignored_green() {
    let rules = Rules::by_name("classic_teams").unwrap();
    let mut pos = Position::new(&rules);
    place_anywhere(&rules, &mut pos, 0, &["F"]);
    place_anywhere(&rules, &mut pos, 2, &["X"]);
    let r = side_results(&rules, &pos);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].score, 2 * -89 + 10);
    assert_eq!(r[1].score, 2 * -89);
    assert_eq!(r[0].place, 1);

    let rules = Rules::by_name("classic_3").unwrap();
    let mut pos = Position::new(&rules);
    place_anywhere(&rules, &mut pos, 3, &["F", "X", "I5"]);
    let r = side_results(&rules, &pos);
    assert_eq!(r.len(), 3);
    assert!(
        r.iter().all(|s| s.score == -89 && s.place == 1),
        "Green's cells count for nobody"
    );
}

#[test]
fn classic_3_green_rotates_between_players() {
    let rules = Rules::by_name("classic_3").unwrap();
    let mut game = Game::new(rules.clone());
    let mut green_players = Vec::new();
    while green_players.len() < 4 {
        let p = game.position();
        if p.to_move() == Colour(3) {
            green_players.push(p.player_of(&rules, Colour(3)));
        }
        let m = game.legal_moves()[0];
        game.play(m).unwrap();
    }
    assert_eq!(green_players, [0, 1, 2, 0].map(PlayerId));
}

#[test]
fn trigon_2_mirror_opening() {
    let rules = Rules::by_name("trigon_2").unwrap();
    let mut game = Game::new(rules.clone());
    let blue = game.legal_moves()[100];
    game.play(blue).unwrap();
    // Yellow may not cover the reflection of Blue's piece.
    let reflected = blokus_core::position::reflect_move(&rules, blue).unwrap();
    for m in game.legal_moves() {
        assert!(!rules
            .table()
            .cell_set(m)
            .intersects(rules.table().cell_set(reflected)));
    }
    let yellow = game.legal_moves()[7];
    game.play(yellow).unwrap();
    // Red has exactly one legal move: Blue's reflection.
    assert_eq!(game.legal_moves(), vec![reflected]);
    let other = game.legal_moves_of(Colour(2));
    assert_eq!(other.len(), 1);
    game.play(reflected).unwrap();
    let green = game.legal_moves();
    assert_eq!(
        green,
        vec![blokus_core::position::reflect_move(&rules, yellow).unwrap()]
    );

    // Switched off, Red has the usual choice.
    let free = Rules::new(
        rules.variant.clone(),
        RuleOptions {
            no_mirror_opening: true,
            ..Default::default()
        },
    );
    let mut game = Game::new(free);
    game.play(blue).unwrap();
    game.play(yellow).unwrap();
    assert!(game.legal_moves().len() > 100);
}

#[test]
fn trigon_3_starting_points_alternate() {
    let rules = Rules::by_name("trigon_3").unwrap();
    let mut game = Game::new(rules.clone());
    let g = rules.table().geometry();
    let p14 = g.parse_cell("p14").unwrap();
    let blue = game
        .legal_moves()
        .into_iter()
        .find(|&m| rules.table().cell_set(m).contains(p14))
        .unwrap();
    game.play(blue).unwrap();
    let allowed: Vec<_> = ["x6", "h6"]
        .iter()
        .map(|c| g.parse_cell(c).unwrap())
        .collect();
    for m in game.legal_moves() {
        assert!(allowed
            .iter()
            .any(|&c| rules.table().cell_set(m).contains(c)));
    }
    let bad = rules
        .table()
        .all()
        .find(|&m| {
            rules
                .table()
                .cell_set(m)
                .contains(g.parse_cell("x11").unwrap())
        })
        .unwrap();
    assert_eq!(
        game.position().check(&rules, Colour(1), bad),
        Err(Illegal::StartNotAlternating)
    );
}

#[test]
fn polyomino_pie_rule() {
    let rules = Rules::by_name("polyomino_mini").unwrap();
    let mut game = Game::new(rules.clone());
    let t = rules.table();
    // The opening goes anywhere: every placement of every piece on the empty board.
    assert_eq!(game.legal_moves().len(), t.len());
    let centre = game
        .legal_moves()
        .into_iter()
        .find(|&m| t.info(m).piece == 4)
        .unwrap();
    game.play(centre).unwrap();
    assert_eq!(
        game.position().player_to_move(&rules),
        PlayerId(0),
        "the first player places both opening pieces"
    );
    let same = game
        .legal_moves_of(Colour(1))
        .into_iter()
        .find(|&m| t.info(m).piece == 4);
    assert!(same.is_none(), "the opening pieces differ in shape");
    let orange = game.legal_moves()[0];
    game.play(orange).unwrap();
    assert!(game.position().awaiting_pie_choice());
    assert_eq!(game.position().player_to_move(&rules), PlayerId(1));
    assert!(game.legal_moves().is_empty());
    game.choose_pie(PieChoice::Keep).unwrap();
    assert_eq!(game.to_move(), Colour(0));
    assert_eq!(
        game.position().player_of(&rules, Colour(0)),
        PlayerId(1),
        "keep: the chooser plays Blue"
    );
    game.undo().unwrap();
    game.choose_pie(PieChoice::Swap).unwrap();
    assert_eq!(game.position().player_of(&rules, Colour(0)), PlayerId(0));
    // From now on the corner rule applies.
    for m in game.legal_moves() {
        assert!(t
            .cell_set(m)
            .intersects(&game.position().attach_points(&rules, Colour(0))));
    }
}

#[test]
fn hexa_pool_is_shared() {
    let rules = Rules::by_name("polyomino_hexa").unwrap();
    let mut game = Game::new(rules.clone());
    let t = rules.table();
    let x = t.pieces().find("X").unwrap();
    let m = game
        .legal_moves()
        .into_iter()
        .find(|&m| t.info(m).piece as usize == x)
        .unwrap();
    game.play(m).unwrap();
    assert_eq!(game.position().remaining(&rules, Colour(1), x), 0);
    assert!(game
        .legal_moves()
        .iter()
        .all(|&m| t.info(m).piece as usize != x));
}

#[test]
fn alternate_contact_rule_forbids_straight_sides_at_shared_points() {
    let base = Rules::by_name("trigon").unwrap();
    let strict = Rules::new(
        base.variant.clone(),
        RuleOptions {
            alternate_contact: true,
            ..Default::default()
        },
    );
    let mut fewer = false;
    let mut game = Game::new(strict.clone());
    let mut loose = Game::new(base.clone());
    for ply in 0..24 {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let all: std::collections::HashSet<_> = loose.legal_moves().into_iter().collect();
        assert!(
            moves.iter().all(|m| all.contains(m)),
            "the alternate rule only removes moves"
        );
        fewer |= moves.len() < all.len();
        let m = moves[(ply * 7919) % moves.len()];
        game.play(m).unwrap();
        loose.play(m).unwrap();
    }
    assert!(fewer, "the alternate rule removed some move in 24 plies");
}

#[test]
fn illegal_moves_are_named() {
    let rules = Rules::by_name("duo").unwrap();
    let mut game = Game::new(rules);
    let e = game.play_text("a1").unwrap_err();
    assert!(e.to_string().contains("starting point"), "{e}");
    game.play_text("d9,c10,d10,e10,d11").unwrap();
    let e = game.play_text("d9").unwrap_err();
    assert!(e.to_string().contains("d9"), "{e}");
    game.play_text("i4,h5,i5,j5,i6").unwrap();
    let e = game.play_text("d12").unwrap_err();
    assert!(e.to_string().contains("edge"), "{e}");
    let e = game.play_text("a1").unwrap_err();
    assert!(e.to_string().contains("corner"), "{e}");
}
