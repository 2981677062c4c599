//! GTP command lines: every line of the input goes to one engine (a random player, so
//! `genmove` is cheap); each answer is a well-formed GTP response, never a panic.
//! `loadsgf` and `savesgf` are left out: they open paths named by the input (the record
//! readers have targets of their own).
#![no_main]

use blokus_core::Rules;
use blokus_gtp::engine::{Engine, EngineConfig};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let player = blokus_ai::player_from_spec("random:seed=7").expect("random player");
    let mut engine = Engine::new(
        Rules::by_name("duo").expect("duo"),
        Some(player),
        EngineConfig::default(),
    );
    for line in text.lines().take(64) {
        let lower = line.to_ascii_lowercase();
        if lower.contains("loadsgf") || lower.contains("savesgf") {
            continue;
        }
        if let Some(r) = engine.handle_line(line) {
            assert!(r.starts_with('=') || r.starts_with('?'), "{line:?} -> {r:?}");
            assert!(r.ends_with("\n\n"), "{line:?} -> {r:?}");
        }
    }
});
