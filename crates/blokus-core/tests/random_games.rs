//! Property tests over random games in every variant: no rule is ever broken (checked by
//! a naive from-scratch checker independent of the incremental state), generated move
//! lists are exactly the legal moves, and undo restores the exact position.

use std::collections::HashSet;

use blokus_core::{
    Colour, Game, Move, PieChoice, Position, RuleOptions, Rules, StartRule, VariantId,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Placement rules 2.1-2.4 checked from the board alone.
fn naive_legal(rules: &Rules, pos: &Position, colour: Colour, m: Move) -> bool {
    let t = rules.table();
    let g = t.geometry();
    let info = t.info(m);
    if pos.remaining(rules, colour, info.piece as usize) == 0 {
        return false;
    }
    let mine = |c| pos.owner(c) == Some(colour);
    if info
        .cells()
        .iter()
        .any(|&c| pos.owner(c).is_some() || g.edge_neighbours(c).iter().any(|&n| mine(n)))
    {
        return false;
    }
    if pos.pieces_placed(colour) > 0 {
        if !info
            .cells()
            .iter()
            .any(|&c| g.corner_neighbours(c).iter().any(|&n| mine(n)))
        {
            return false;
        }
        if rules.alternate_contact() {
            for p in info
                .cells()
                .iter()
                .flat_map(|&c| g.cell_points(c).iter().copied())
            {
                let around = g.points()[p];
                let covered = |k: usize| around[k % 6].is_some_and(|c| info.cells().contains(&c));
                let theirs = |k: usize| around[k % 6].is_some_and(mine);
                let straight = |f: &dyn Fn(usize) -> bool| {
                    (0..6).filter(|&k| f(k)).count() == 3
                        && (0..6).any(|k| f(k) && f(k + 1) && f(k + 2))
                };
                let touch_new = (0..6).any(covered);
                let touch_old = (0..6).any(theirs);
                if touch_new && touch_old && (straight(&covered) || straight(&theirs)) {
                    return false;
                }
            }
        }
        return true;
    }
    match rules.start() {
        StartRule::PerColour(cells) => info.cells().contains(&cells[colour.index()]),
        StartRule::Shared(cells) => info.cells().iter().any(|c| cells.contains(c)),
        StartRule::Anywhere => true,
    }
}

fn all_rules() -> Vec<Rules> {
    let mut v: Vec<Rules> = VariantId::ALL
        .map(VariantId::as_str)
        .iter()
        .map(|id| Rules::by_name(id).unwrap())
        .collect();
    for id in ["trigon", "trigon_3"] {
        let r = Rules::by_name(id).unwrap();
        v.push(Rules::new(
            r.variant.clone(),
            RuleOptions {
                alternate_contact: true,
                ..Default::default()
            },
        ));
    }
    v
}

/// Whether the naive checker sees every rule of this variant's current phase (openings
/// with mirror, alternation or pie constraints are only checked one way).
fn exact_phase(rules: &Rules, pos: &Position) -> bool {
    let all_started = Colour::all(rules.num_colours()).all(|c| pos.pieces_placed(c) > 0);
    all_started || !(rules.mirror_opening() || rules.start_alternation() || rules.v().pie)
}

fn play_random_game(rules: &Rules, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone());
    let t = rules.table();
    let mut ply = 0;
    while !game.is_over() {
        if game.position().awaiting_pie_choice() {
            game.choose_pie(if rng.gen_bool(0.5) {
                PieChoice::Keep
            } else {
                PieChoice::Swap
            })
            .unwrap();
            continue;
        }
        let colour = game.to_move();
        let moves = game.legal_moves();
        assert!(
            !moves.is_empty(),
            "{}: the colour to move has a legal move",
            rules.v().id
        );
        let set: HashSet<Move> = moves.iter().copied().collect();
        assert_eq!(set.len(), moves.len(), "no duplicates");
        for &m in &moves {
            assert!(
                naive_legal(rules, game.position(), colour, m),
                "{}: generated move is illegal",
                rules.v().id
            );
        }
        // Every few plies, compare with brute force over the whole table.
        if ply % 9 == 4 && exact_phase(rules, game.position()) {
            let brute = t
                .all()
                .filter(|&m| naive_legal(rules, game.position(), colour, m))
                .count();
            assert_eq!(
                brute,
                moves.len(),
                "{} ply {ply}: generated moves are exactly the legal moves",
                rules.v().id
            );
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let before = game.position().clone();
        game.play(m).unwrap();
        // Colours skipped had no legal move.
        for c in game.passes_after(game.events().len() - 1) {
            assert!(game.position().legal_moves(rules, c).is_empty());
        }
        game.undo().unwrap();
        assert_eq!(game.position(), &before, "undo restores the exact position");
        game.play(m).unwrap();
        ply += 1;
    }
    assert!(
        ply >= 2 * rules.num_colours(),
        "{}: a real game was played ({ply} plies)",
        rules.v().id
    );
    for c in 0..rules.num_colours() {
        let any = t
            .all()
            .any(|m| naive_legal(rules, game.position(), Colour::new(c), m));
        assert!(
            !any || !exact_phase(rules, game.position()),
            "{}: game ended while colour {c} could move",
            rules.v().id
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_games_never_break_a_rule(variant in 0usize..16, seed in any::<u64>()) {
        let rules = &all_rules()[variant];
        play_random_game(rules, seed);
    }
}

#[test]
fn every_variant_plays_to_the_end() {
    for (i, rules) in all_rules().iter().enumerate() {
        play_random_game(rules, i as u64);
    }
}
