//! `blokus analyze` through the real binary: a game with a known blunder, the table,
//! the annotated record, and bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

use blokus_core::record::{blksgf, sgf};

fn blokus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args(args)
        .output()
        .expect("run blokus")
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cli_data")
        .join(name)
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_path(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("blokus-cli-analyze-{}-{name}", std::process::id()))
        .display()
        .to_string()
}

/// In `duo-blunder.blksgf`, Orange's 26th move puts the monomino on m4 where the L4
/// (or T4) keeps its corner: Purple then takes the corner and wins a game Orange was
/// winning. The analysis must call it a blunder and prefer another move.
#[test]
fn the_known_blunder_is_found_and_written_into_the_record() {
    let out = temp_path("blunder.blksgf");
    let o = blokus(&[
        "analyze",
        &fixture("duo-blunder.blksgf"),
        "--simulations",
        "300",
        "--seed",
        "1",
        "--quiet",
        "-o",
        &out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("Blokus Duo (duo), 300 simulations per position\n"),
        "{text}"
    );
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("26 "))
        .expect("a row for move 26");
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cols[..4], ["26", "orange", "1", "m4"], "{row}");
    let (before, after, loss): (f32, f32, f32) = (
        cols[4].parse().unwrap(),
        cols[5].parse().unwrap(),
        cols[6].parse().unwrap(),
    );
    assert!(before > 0.8 && after < 0.3, "{row}");
    assert!((before - after - loss).abs() < 0.002, "{row}");
    assert_eq!(cols[7], "blunder", "{row}");
    assert!(
        cols[8] != "(played)" && cols.len() == 10,
        "a preferred move: {row}"
    );
    // One row per move, then the final values and the counts per side.
    let moves = text
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .count();
    assert_eq!(moves, 33);
    // A finished Duo game is worth its win share (see docs/analysis.md).
    assert!(text.contains("\nFinal: purple 1.00, orange 0.00"), "{text}");
    assert!(text.contains("\norange: "), "{text}");
    assert!(text.ends_with(&format!("Annotated record written to {out}\n")));

    // The record: the same game, with the analysis in the comments.
    let written = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    let original = std::fs::read_to_string(fixture("duo-blunder.blksgf")).unwrap();
    let (a, b) = (
        blksgf::read(&written).unwrap(),
        blksgf::read(&original).unwrap(),
    );
    assert_eq!(a.events(), b.events());
    let tree = &sgf::parse(&written).unwrap()[0];
    let nodes = tree.main_line();
    assert!(nodes[0].get("C").unwrap().starts_with("Analysis by blokus"));
    let c26 = nodes[26].get("C").unwrap();
    // Duo's values are win shares: Orange was winning, and after m4 it is lost.
    assert!(c26.starts_with("orange: 1.00 before, 0.0"), "{c26}");
    assert!(c26.contains(": blunder. AI preferred "), "{c26}");
    // Purple's expected result after the blunder: a won game, whatever the seeded
    // search's last digit.
    let purple: f32 = c26
        .split("Expected results: purple ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("expected results in {c26}"));
    assert!(purple >= 0.95, "{c26}");
    assert!(nodes.iter().skip(1).all(|n| n.get("C").is_some()));
}

#[test]
fn bad_input_is_named() {
    let o = blokus(&["analyze", "/nonexistent/game.blksgf"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("/nonexistent/game.blksgf"),
        "{}",
        stderr(&o)
    );

    let o = blokus(&["analyze", &fixture("duo-blunder.blksgf"), "-s", "0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--simulations"), "{}", stderr(&o));

    let o = blokus(&["analyze", &fixture("duo-blunder.blksgf"), "--seconds", "0"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("'0' is not a positive number of seconds"),
        "{}",
        stderr(&o)
    );

    let empty = temp_path("empty.blksgf");
    std::fs::write(&empty, "(;GM[Blokus Duo]FF[4])").unwrap();
    let o = blokus(&["analyze", &empty, "-q"]);
    std::fs::remove_file(&empty).unwrap();
    assert!(!o.status.success());
    assert_eq!(
        stderr(&o),
        format!("blokus: {empty}: the record has no moves to analyse\n")
    );

    let same = fixture("duo-blunder.blksgf");
    let o = blokus(&["analyze", &same, "-o", &same, "-q"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("that is the record being analysed"),
        "{}",
        stderr(&o)
    );

    let broken = temp_path("broken.blksgf");
    std::fs::write(&broken, "(;GM[Blokus Duo];B[zz99])").unwrap();
    let o = blokus(&["analyze", &broken, "-q"]);
    std::fs::remove_file(&broken).unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).starts_with(&format!("blokus: {broken}: ")),
        "{}",
        stderr(&o)
    );
}
