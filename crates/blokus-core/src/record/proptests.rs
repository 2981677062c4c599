//! Property tests: random games of every variant round-trip through both record formats,
//! and malformed input of any kind gives `Ok` or a clean error, never a panic.

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{blksgf, json, sgf};
use crate::{Game, PieChoice, RuleOptions, Rules, VariantId};

/// A random game: up to `max_events` events, random options where they apply.
fn random_game(variant_index: usize, seed: u64, max_events: usize) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let v = VariantId::ALL[variant_index % VariantId::ALL.len()].variant();
    let options = RuleOptions {
        alternate_contact: rng.gen_bool(0.3),
        no_mirror_opening: rng.gen_bool(0.2),
        no_start_alternation: rng.gen_bool(0.2),
    };
    let mut game = Game::new(Rules::new(v, options));
    for _ in 0..max_events {
        if game.is_over() {
            break;
        }
        if game.position().awaiting_pie_choice() {
            let c = if rng.gen_bool(0.5) {
                PieChoice::Keep
            } else {
                PieChoice::Swap
            };
            game.choose_pie(c).unwrap();
            continue;
        }
        let moves = game.legal_moves();
        let m = moves[rng.gen_range(0..moves.len())];
        game.play(m).unwrap();
    }
    game
}

fn same_game(a: &Game, b: &Game) {
    assert_eq!(a.rules().v().id, b.rules().v().id);
    assert_eq!(a.events(), b.events());
    assert_eq!(a.setup(), b.setup());
    assert_eq!(a.position(), b.position());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 28, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip(variant_index in 0usize..VariantId::ALL.len(), seed: u64) {
        let game = random_game(variant_index, seed, 400);
        let text = blksgf::write(&game);
        let back = blksgf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        same_game(&game, &back);
        prop_assert_eq!(blksgf::write(&back), text);
        let j = json::to_json(&game).to_string();
        let back = json::from_json(&j).unwrap_or_else(|e| panic!("{e}\n{j}"));
        same_game(&game, &back);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = sgf::parse(&text);
        let _ = blksgf::read(&text);
        let _ = json::from_json(&text);
        let _ = blksgf::read(&format!("(;GM[Blokus Duo];B[{text}])"));
    }

    #[test]
    fn mutated_records_never_panic(
        variant_index in 0usize..VariantId::ALL.len(),
        seed: u64,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let game = random_game(variant_index, seed, 12);
        for text in [blksgf::write(&game), json::to_json(&game).to_string()] {
            let mut bytes = text.into_bytes();
            for &(at, byte, kind) in &edits {
                let i = at % (bytes.len() + 1);
                match kind {
                    0 if i < bytes.len() => bytes[i] = byte,
                    1 if i < bytes.len() => { bytes.remove(i); }
                    _ => bytes.insert(i, byte),
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(g) = blksgf::read(&text) {
                let _ = blksgf::write(&g);
            }
            if let Ok(g) = json::from_json(&text) {
                let _ = json::to_json(&g);
            }
        }
    }

    #[test]
    fn sgf_trees_round_trip(values in proptest::collection::vec("[ -~\\n\\\\\\]]{0,12}", 1..6)) {
        let mut node = sgf::Node::default();
        for (i, v) in values.iter().enumerate() {
            node.push(sgf::Property::new(format!("P{i}"), v.clone()));
        }
        let tree = sgf::GameTree { nodes: vec![node.clone(), node], variations: vec![] };
        let back = sgf::parse(&sgf::write(std::slice::from_ref(&tree))).unwrap();
        prop_assert_eq!(back, vec![tree]);
    }
}

#[test]
fn every_variant_plays_to_the_end_and_round_trips() {
    for (i, id) in VariantId::ALL.map(VariantId::as_str).iter().enumerate() {
        let game = random_game(i, 7 + i as u64, 1000);
        assert!(game.is_over(), "{id}");
        let back = blksgf::read(&blksgf::write(&game)).unwrap();
        same_game(&game, &back);
        let back = json::from_json(&json::to_json(&game).to_string()).unwrap();
        same_game(&game, &back);
    }
}
