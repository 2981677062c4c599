//! `blokus match` through the real binary: built-in players, and two `blokus gtp`
//! processes driven over GTP.

use std::process::Command;

fn blokus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_blokus"))
}

/// The standard output of a run that must have succeeded (else both streams are shown).
fn succeeded(out: &std::process::Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
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
    let stdout = succeeded(&out);
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
    let stdout = succeeded(&out);
    assert!(stdout.contains("2 games."), "{stdout}");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("GM[Blokus Duo]").count(), 2);
    // A full game: both colours placed many pieces and a result was recorded.
    assert!(text.matches(";B[").count() >= 16, "{text}");
    assert!(text.contains("RE["), "{text}");
    let _ = std::fs::remove_file(&sgf);
}

/// `--seed` reaches our GTP engine (through `set_random_seed`): the same seed gives the
/// same records, another seed other games, and each game has its own seed.
#[test]
fn the_match_seed_seeds_gtp_engines() {
    let exe = env!("CARGO_BIN_EXE_blokus");
    let engine = |player: &str| format!("gtp:'{exe}' gtp --game duo --player {player} --quiet");
    let records = |seed: &str, name: &str| -> Vec<String> {
        let sgf = temp_file(name);
        let out = blokus()
            .args(["match", &engine("random"), &engine("greedy")])
            .args(["--variant", "duo", "--games", "3", "--parallel", "2"])
            .args(["--seed", seed, "--quiet", "--sgf"])
            .arg(&sgf)
            .output()
            .unwrap();
        succeeded(&out);
        let text = std::fs::read_to_string(&sgf).unwrap();
        let _ = std::fs::remove_file(&sgf);
        let games: Vec<String> = text.split("(;").skip(1).map(str::to_string).collect();
        assert_eq!(games.len(), 3, "{text}");
        games
    };
    let first = records("5", "seed5a.blksgf");
    assert_eq!(first, records("5", "seed5b.blksgf"));
    assert_ne!(first, records("6", "seed6.blksgf"));
    // Games 1 and 3 have the same seats but their own seeds.
    assert_ne!(first[0], first[2]);
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
    let stdout = succeeded(&out);
    assert!(stdout.contains("2 games."), "{stdout}");
}

#[test]
fn four_seats_of_classic_mix_builtin_players_and_gtp_engines() {
    let exe = env!("CARGO_BIN_EXE_blokus");
    let engine =
        |seed: u32| format!("'{exe}' gtp --game classic --player greedy --seed {seed} --quiet");
    let sgf = temp_file("classic4.blksgf");
    let out = blokus()
        .args(["match", "greedy", &engine(1), "random", &engine(2)])
        .args(["--variant", "classic", "--games", "2", "--quiet", "--sgf"])
        .arg(&sgf)
        .output()
        .unwrap();
    let stdout = succeeded(&out);
    // One row per engine, then the game count (no Elo line with four engines).
    assert_eq!(stdout.lines().count(), 6, "{stdout}");
    assert!(stdout.ends_with("2 games.\n"), "{stdout}");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("GM[Blokus]").count(), 2, "{text}");
    // Seats rotate: in game 2 player 1 is the second engine.
    assert!(text.contains("player 1: greedy; player 2: '"), "{text}");
    assert!(text.contains("player 4: greedy"), "{text}");
    // All four colours placed pieces: a whole game, not an early forfeit.
    for colour in ["1", "2", "3", "4"] {
        assert!(text.matches(&format!(";{colour}[")).count() >= 8, "{text}");
    }
    let _ = std::fs::remove_file(&sgf);
}

#[test]
fn three_seats_of_trigon_3_with_one_gtp_engine() {
    let exe = env!("CARGO_BIN_EXE_blokus");
    let engine = format!("'{exe}' gtp --game trigon_3 --player greedy --quiet");
    let out = blokus()
        .args([
            "match",
            "random",
            &engine,
            "greedy",
            "--variant",
            "trigon_3",
        ])
        .args(["--games", "3", "--parallel", "2", "--quiet"])
        .output()
        .unwrap();
    let stdout = succeeded(&out);
    assert!(stdout.ends_with("3 games.\n"), "{stdout}");
    // Each engine's points over the games add up to the number of games.
    let points: f64 = stdout
        .lines()
        .skip(1)
        .take(3)
        .map(|l| {
            l.split_whitespace()
                .rev()
                .nth(1)
                .unwrap()
                .parse::<f64>()
                .unwrap()
        })
        .sum();
    assert!((points - 3.0).abs() < 0.2, "{stdout}");
}

#[test]
fn too_many_engines_for_the_variant_are_refused() {
    let out = blokus()
        .args([
            "match",
            "greedy",
            "random",
            "greedy",
            "--variant",
            "duo",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3 engines given: duo needs 2 to 2"), "{err}");
}

/// `--rules` sets the match's own rules: two GTP engines started without the mirrored
/// opening play Trigon two-player games to the end (with the default rules their moves
/// on the reserved cells would be forfeits), and the records say which rules.
#[test]
fn rule_options_reach_the_matchs_games() {
    let exe = env!("CARGO_BIN_EXE_blokus");
    let engine = |seed: u32| {
        format!("'{exe}' gtp --game trigon_2 --rules no_mirror_opening --player greedy --seed {seed} --quiet")
    };
    let sgf = temp_file("rules.blksgf");
    let out = blokus()
        .args(["match", &engine(1), &engine(2), "--variant", "trigon_2"])
        .args([
            "--games",
            "2",
            "--rules",
            "no_mirror_opening",
            "--quiet",
            "--sgf",
        ])
        .arg(&sgf)
        .output()
        .unwrap();
    let stdout = succeeded(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("forfeited"), "{stderr}");
    assert!(stdout.contains("2 games."), "{stdout}");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(
        text.matches("XRULES[no_mirror_opening]").count(),
        2,
        "{text}"
    );
    let _ = std::fs::remove_file(&sgf);

    let bad = blokus()
        .args(["match", "greedy", "random", "--rules", "no_mirror"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("no_mirror"), "{err}");
}
