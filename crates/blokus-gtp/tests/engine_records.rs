//! `savesgf` and `loadsgf` through the engine, with real files.

use blokus_core::Rules;
use blokus_gtp::engine::{Engine, EngineConfig};

fn engine(variant: &str) -> Engine {
    let player = blokus_ai::player_from_spec("random:seed=5").unwrap();
    Engine::new(
        Rules::by_name(variant).unwrap(),
        Some(player),
        EngineConfig::default(),
    )
}

fn ask(e: &mut Engine, line: &str) -> String {
    e.handle_line(line).expect("a response")
}

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("blokus-engine-{}-{name}", std::process::id()))
}

#[test]
fn save_then_load_restores_the_game_and_earlier_positions() {
    let path = temp_path("trigon.blksgf");
    let p = path.display().to_string();
    let mut e = engine("trigon");
    for _ in 0..10 {
        assert!(ask(&mut e, "g").starts_with("= "));
    }
    assert_eq!(ask(&mut e, &format!("savesgf {p}")), "= \n\n");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.starts_with("(;GM[Blokus Trigon]"), "{saved}");

    let mut other = engine("duo");
    assert_eq!(ask(&mut other, &format!("loadsgf {p}")), "= \n\n");
    assert_eq!(other.game().position(), e.game().position());
    assert_eq!(ask(&mut other, &format!("loadsgf {p} 4")), "= \n\n");
    assert_eq!(other.game().moves().count(), 3);
    assert!(ask(&mut other, &format!("loadsgf {p} 0")).starts_with("? invalid move number"));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn loading_bad_files_gives_clear_errors() {
    let mut e = engine("duo");
    let r = ask(&mut e, "loadsgf /nonexistent/x.blksgf");
    assert!(r.starts_with("? cannot read /nonexistent/x.blksgf"), "{r}");
    let path = temp_path("bad.blksgf");
    std::fs::write(&path, "(;GM[Blokus Duo];B[d9,c10,d10,e10,d11];W[d9])").unwrap();
    let r = ask(&mut e, &format!("loadsgf {}", path.display()));
    assert!(
        r.contains("move 2 (W[d9]): cell d9 is already covered"),
        "{r}"
    );
    // The game is unchanged by a failed load.
    assert_eq!(e.game().moves().count(), 0);
    std::fs::remove_file(&path).unwrap();
    let r = ask(&mut e, "savesgf /nonexistent/dir/x.blksgf");
    assert!(r.starts_with("? cannot write"), "{r}");
}
