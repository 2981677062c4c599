//! `blokus match` through the real binary: built-in players, and two `blokus gtp`
//! processes driven over GTP.

use std::process::Command;

fn blokus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_blokus"))
}

fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("blokus-cli-match-{}-{name}", std::process::id()))
}

#[test]
fn builtin_players_play_a_match_and_write_every_game() {
    let sgf = temp_file("builtin.blksgf");
    let out = blokus()
        .args([
            "match",
            "greedy",
            "random",
            "--variant",
            "duo",
            "--games",
            "4",
        ])
        .args(["--parallel", "2", "--quiet", "--sgf"])
        .arg(&sgf)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("4 games."), "{stdout}");
    assert!(stdout.contains("Elo difference"), "{stdout}");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("GM[Blokus Duo]").count(), 4, "{text}");
    let _ = std::fs::remove_file(&sgf);
}

#[test]
fn two_gtp_engines_play_a_full_game() {
    let exe = env!("CARGO_BIN_EXE_blokus");
    let engine =
        |seed: u32| format!("'{exe}' gtp --game duo --player greedy --seed {seed} --quiet");
    let sgf = temp_file("gtp.blksgf");
    let out = blokus()
        .args([
            "match",
            &engine(1),
            &engine(2),
            "--variant",
            "duo",
            "--games",
            "2",
        ])
        .args(["--quiet", "--sgf"])
        .arg(&sgf)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("2 games."), "{stdout}");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("GM[Blokus Duo]").count(), 2);
    // A full game: both colours placed many pieces and a result was recorded.
    assert!(text.matches(";B[").count() >= 16, "{text}");
    assert!(text.contains("RE["), "{text}");
    let _ = std::fs::remove_file(&sgf);
}

#[test]
fn bad_engines_and_settings_are_reported() {
    let out = blokus()
        .args(["match", "mcts:levle=2", "greedy", "--games", "1", "--quiet"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("levle"), "{err}");
    let out = blokus()
        .args([
            "match",
            "/nonexistent/engine",
            "greedy",
            "--games",
            "1",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot start engine"), "{err}");
    let out = blokus()
        .args(["match", "greedy", "random", "--variant", "nope", "--quiet"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
}

#[test]
fn the_polyomino_pie_choice_travels_over_gtp() {
    let exe = env!("CARGO_BIN_EXE_blokus");
    let engine = format!("'{exe}' gtp --game polyomino_mini --player greedy --quiet");
    let out = blokus()
        .args([
            "match",
            &engine,
            "random",
            "--variant",
            "polyomino_mini",
            "--games",
            "2",
        ])
        .arg("--quiet")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("2 games."), "{stdout}");
}
