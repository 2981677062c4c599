//! `blokus solve` through the real binary.

use std::collections::HashSet;
use std::process::{Command, Output};

fn blokus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args(args)
        .env("BLOKUS_NO_PROGRESS", "1")
        .output()
        .expect("run blokus")
}

fn ok(args: &[&str]) -> String {
    let out = blokus(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn fails(args: &[&str], needle: &str) {
    let out = blokus(args);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

#[test]
fn counts_the_2339_pentomino_tilings_of_6x10() {
    let out = ok(&[
        "solve",
        "tiling",
        "--size",
        "6x10",
        "--pieces",
        "pentominoes",
        "--count",
    ]);
    assert!(out.starts_with("2339 "), "{out}");
    let json = ok(&[
        "solve",
        "tiling",
        "--size",
        "10x6",
        "--pieces",
        "pentominoes",
        "--count",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["solutions"], 2339);
}

#[test]
fn json_solution_of_tetro_strict_covers_the_rectangle() {
    let out = ok(&[
        "solve",
        "tetro_8x10",
        "--strict",
        "--format",
        "json",
        "--seed",
        "5",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["puzzle"], "tetro_8x10 --strict");
    let placements = v["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 20);
    let mut cells = HashSet::new();
    let mut pairs = HashSet::new();
    for p in placements {
        assert!(pairs.insert((p["colour"].to_string(), p["piece"].to_string())));
        for c in p["cells"].as_array().unwrap() {
            assert!(cells.insert(c.as_str().unwrap().to_string()));
        }
    }
    assert_eq!(cells.len(), 80);
    assert!(cells.contains("a1") && cells.contains("h10"));
    // Same seed, same answer.
    assert_eq!(
        out,
        ok(&[
            "solve",
            "tetro_8x10",
            "--strict",
            "--format",
            "json",
            "--seed",
            "5"
        ])
    );
}

#[test]
fn text_board_of_a_general_tiling() {
    let out = ok(&[
        "solve",
        "tiling",
        "--size",
        "5x4",
        "--pieces",
        "L4x2,O,T4x2",
        "--no-color",
    ]);
    let rows: Vec<&str> = out.lines().collect();
    assert!(rows[0].trim_start().starts_with('a'));
    assert!(rows[1].trim_start().starts_with('4'));
    assert!(out.contains("5 pieces placed"));
}

#[test]
fn all_88_as_blksgf_and_json() {
    let sgf = ok(&["solve", "all_88", "--format", "blksgf", "--seed", "3"]);
    assert!(sgf.starts_with("(;"), "{sgf}");
    assert!(sgf.contains("GM[Blokus Trigon]"));
    let game = blokus_core::record::blksgf::read(&sgf).expect("our record reads back");
    assert_eq!(game.moves().count(), 88);
}

#[test]
fn clear_errors() {
    fails(&["solve", "nonsense"], "unknown puzzle 'nonsense'");
    fails(&["solve", "all_88", "--strict"], "no strict form");
    fails(
        &["solve", "tetro_8x10", "--decreasing"],
        "no decreasing form",
    );
    fails(
        &["solve", "tetro_8x10", "--count"],
        "--count is for rectangle tilings",
    );
    fails(
        &["solve", "penta_15x16", "--format", "blksgf"],
        "game board",
    );
    fails(
        &[
            "solve",
            "tiling",
            "--size",
            "7x10",
            "--pieces",
            "pentominoes",
        ],
        "impossible size",
    );
    fails(
        &[
            "solve",
            "tiling",
            "--size",
            "6x10",
            "--pieces",
            "pentominoes,Q9",
        ],
        "unknown piece 'Q9'",
    );
    fails(
        &["solve", "tiling", "--size", "6by10", "--pieces", "O"],
        "bad size",
    );
    fails(&["solve", "tiling", "--pieces", "O"], "needs --size");
    fails(
        &["solve", "tiling", "--size", "3x2", "--pieces", "I3,V3"],
        "no tiling of 3x2",
    );
    fails(
        &["solve", "tiling", "--size", "100x100", "--pieces", "O"],
        "not supported",
    );
    fails(
        &["solve", "tetro_8x10", "--size", "8x10"],
        "--size and --pieces are for",
    );
}
