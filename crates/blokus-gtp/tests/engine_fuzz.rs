//! Any input line gets a well-formed response (or none for comments), never a panic.

use blokus_core::Rules;
use blokus_gtp::engine::{Engine, EngineConfig};
use proptest::prelude::*;

const WORDS: [&str; 30] = [
    "play",
    "genmove",
    "reg_genmove",
    "all_legal",
    "undo",
    "set_game",
    "clear_board",
    "final_score",
    "showboard",
    "loadsgf",
    "savesgf",
    "known_command",
    "get_place",
    "p",
    "g",
    "param_base",
    "b",
    "w",
    "1",
    "4",
    "blue",
    "Blokus",
    "Duo",
    "Trigon",
    "keep",
    "swap",
    "e8,d9,e9,f9,e10",
    "a1",
    "i4,h5,i5,j5,i6",
    "#",
];

fn engine() -> Engine {
    let player = blokus_ai::player_from_spec("random:seed=11").unwrap();
    Engine::new(
        Rules::by_name("duo").unwrap(),
        Some(player),
        EngineConfig::default(),
    )
}

fn check(e: &mut Engine, line: &str) {
    if let Some(r) = e.handle_line(line) {
        assert!(
            r.starts_with('=') || r.starts_with('?'),
            "{line:?} -> {r:?}"
        );
        assert!(r.ends_with("\n\n"), "{line:?} -> {r:?}");
        assert!(!r[..r.len() - 2].contains("\n\n"), "{line:?} -> {r:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(lines in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..80), 1..10)) {
        let mut e = engine();
        for bytes in lines {
            check(&mut e, &String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn random_word_salad(lines in proptest::collection::vec(
        (proptest::option::of(0u32..1000), proptest::collection::vec(0usize..WORDS.len(), 0..5)),
        1..30,
    )) {
        let mut e = engine();
        for (id, words) in lines {
            let mut line = id.map(|i| format!("{i} ")).unwrap_or_default();
            // `savesgf`/`loadsgf` only ever see the word list, never a real path.
            line.push_str(&words.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" "));
            if line.contains("savesgf") {
                continue;
            }
            check(&mut e, &line);
        }
    }
}

#[test]
fn set_game_with_every_variant_then_genmove() {
    let mut e = engine();
    for v in blokus_core::all_variants() {
        check(&mut e, &format!("set_game {}", v.game_name));
        assert_eq!(e.game().rules().v().id, v.id);
        for _ in 0..6 {
            check(&mut e, "g");
        }
        check(&mut e, "showboard");
        check(&mut e, "final_score");
    }
}
