//! `blokus tournament` through the real binary: built-in players and `blokus gtp` engines
//! in one event, every game written, the event's JSON replaying to itself, bad settings
//! refused before any game.

use std::process::Command;

use blokus_tournament::Event;

fn blokus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_blokus"))
}

fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "blokus-cli-tournament-{}-{name}",
        std::process::id()
    ))
}

#[test]
fn an_event_of_bots_and_gtp_engines_runs_to_its_final_table() {
    let exe = env!("CARGO_BIN_EXE_blokus");
    let engine = format!("'{exe}' gtp --game duo --player greedy --seed 5 --quiet");
    let (sgf, json) = (temp_file("games.blksgf"), temp_file("event.json"));
    let out = blokus()
        .args([
            "tournament",
            "greedy",
            "random",
            &format!("Gtp={engine}"),
            "random",
        ])
        .args([
            "--system",
            "swiss",
            "--rounds",
            "3",
            "--parallel",
            "2",
            "--quiet",
        ])
        .arg("--sgf")
        .arg(&sgf)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("3 rounds of duo (swiss)"), "{stdout}");
    for name in ["greedy", "random", "random (2)", "Gtp", "Elo", "Crosstable"] {
        assert!(stdout.contains(name), "{name} missing:\n{stdout}");
    }
    // 4 entrants, 2 tables a round, 3 rounds: 6 full games with results.
    let games = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(games.matches("GM[Blokus Duo]").count(), 6, "{games}");
    assert_eq!(games.matches("RE[").count(), 6);
    assert!(
        games.contains("PB[Gtp]") || games.contains("PW[Gtp]"),
        "{games}"
    );
    // The stored event is complete and replays to the same pairings.
    let event: Event = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(event.is_finished());
    assert_eq!(event.audit(), Ok(()));
    let st = event.standings();
    let total: f64 = st.rows.iter().map(|r| r.points.to_f64()).sum();
    assert_eq!(total, 6.0, "one point per game");
    let _ = std::fs::remove_file(&sgf);
    let _ = std::fs::remove_file(&json);
}

#[test]
fn bad_settings_are_refused_before_any_game() {
    let sgf = temp_file("refused.blksgf");
    let cases: [(&[&str], &str); 6] = [
        (&["greedy"], "cannot fill a table of 2"),
        (
            &["greedy", "random", "--variant", "chess"],
            "unknown variant 'chess'",
        ),
        (
            &["greedy", "random", "--system", "knockout"],
            "unknown pairing system 'knockout'",
        ),
        (&["greedy", "random", "--rounds", "0"], "at least 1 round"),
        (&["greedy", "mcts:levle=2"], "unknown option 'levle'"),
        (
            &["greedy", "random", "--tiebreaks", "buchholz,luck"],
            "unknown tiebreak 'luck'",
        ),
    ];
    for (args, message) in cases {
        let out = blokus()
            .arg("tournament")
            .args(args)
            .args(["--quiet", "--sgf"])
            .arg(&sgf)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!sgf.exists(), "{args:?} wrote a file");
    }
}

#[test]
fn a_classic_event_seats_four_and_plays_smaller_tables_of_three() {
    let json = temp_file("classic.json");
    let out = blokus()
        .args([
            "tournament",
            "random",
            "greedy",
            "random",
            "greedy",
            "random",
            "greedy",
        ])
        .args([
            "--variant",
            "classic",
            "--short-tables",
            "smaller",
            "--rounds",
            "2",
        ])
        .args(["--quiet", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let event: Event = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(event.is_finished());
    for round in event.rounds() {
        // 6 entrants at 4 seats: two tables of 3 playing classic_3.
        let sizes: Vec<usize> = round.tables.iter().map(|t| t.seats.len()).collect();
        assert_eq!(sizes, [3, 3]);
        assert!(round
            .tables
            .iter()
            .all(|t| t.variant.as_str() == "classic_3"));
    }
    // Places 4 / 2 / 0 at a table of 3: 6 points a table, two tables, two rounds.
    let total: f64 = event
        .standings()
        .rows
        .iter()
        .map(|r| r.points.to_f64())
        .sum();
    assert_eq!(total, 24.0, "{stdout}");
    let _ = std::fs::remove_file(&json);
}
