//! `blokus variants` and `blokus show` through the real binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn blokus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args(args)
        .env_remove("NO_COLOR")
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

fn temp_file(name: &str, content: &str) -> String {
    let p = std::env::temp_dir().join(format!("blokus-cli-show-{}-{name}", std::process::id()));
    std::fs::write(&p, content).unwrap();
    p.display().to_string()
}

#[test]
fn variants_lists_every_variant_as_a_table_and_json() {
    let o = blokus(&["variants"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("id "), "{text}");
    for id in blokus_core::VariantId::ALL.map(blokus_core::VariantId::as_str) {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{id} "))),
            "{id} missing:\n{text}"
        );
    }
    let duo = text.lines().find(|l| l.starts_with("duo ")).unwrap();
    assert!(duo.contains("Blokus Duo") && duo.contains("14x14") && duo.contains("purple, orange"));
    let teams = text
        .lines()
        .find(|l| l.starts_with("classic_teams "))
        .unwrap();
    assert!(teams.contains("4 in 2 teams"), "{teams}");

    let o = blokus(&["variants", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), blokus_core::cube::AnyVariant::all().count());
    let rumis = list.iter().find(|x| x["id"] == "rumis_2x4").unwrap();
    assert_eq!(rumis["game_name"], "Blokus 3D Two-Player");
    assert_eq!(rumis["family"], "cube");
    assert_eq!(rumis["sites"][0]["levels"], 8);
    let trigon3 = list.iter().find(|x| x["id"] == "trigon_3").unwrap();
    assert_eq!(trigon3["game_name"], "Blokus Trigon Three-Player");
    assert_eq!(trigon3["cells"], 384);
    assert_eq!(trigon3["colours"].as_array().unwrap().len(), 3);
    let hexa = list.iter().find(|x| x["id"] == "polyomino_hexa").unwrap();
    assert_eq!(hexa["shared_pool"], true);
    assert_eq!(hexa["pieces_per_colour"], 56);
}

#[test]
fn show_prints_the_main_line_position_with_scores() {
    let o = blokus(&["show", &fixture("duo.blksgf")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("Blokus Duo (duo)\n"), "{text}");
    assert!(text.contains("First player: Alice"), "{text}");
    assert!(text.contains("After move 3 of 3"), "{text}");
    // The last move (e6,e7,e8) in lower case; the variation's b9 is not on the board.
    assert!(
        text.contains("\n 8 . . . . p . . . . . . . . . 8\n"),
        "{text}"
    );
    assert!(
        text.contains("\n 9 . . . P . . . . . . . . . . 9\n"),
        "{text}"
    );
    assert!(
        text.contains("\n 5 . . . . . . . O O O . . . . 5\n"),
        "{text}"
    );
    assert!(text.contains("Purple (P): -81 points"), "{text}");
    assert!(text.contains("*Orange (O): -84 points"), "{text}");
    assert!(!text.contains('\x1b'), "no colours when not a terminal");

    let o = blokus(&["show", &fixture("duo.blksgf"), "--move", "1", "--no-color"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("After move 1 of 3"), "{text}");
    assert!(
        text.contains("\n11 . . . p . . . . . . . . . . 11\n"),
        "{text}"
    );
    assert!(
        text.contains("\n 5 . . . . . . . . . + . . . . 5\n"),
        "{text}"
    );
}

#[test]
fn show_reads_json_records_too() {
    let json = r#"{"variant":"duo","events":[{"type":"place","colour":"purple","cells":["d9","c10","d10","e10","d11"]}]}"#;
    let path = temp_file("game.json", json);
    let o = blokus(&["show", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("After move 1 of 1"));
    std::fs::remove_file(path).unwrap();
}

#[test]
fn show_explains_bad_files() {
    let o = blokus(&["show", "/nonexistent/game.blksgf"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot read /nonexistent/game.blksgf"),
        "{}",
        stderr(&o)
    );

    let path = temp_file(
        "bad.blksgf",
        "(;GM[Blokus Duo];B[d9,c10,d10,e10,d11];W[e10])",
    );
    let o = blokus(&["show", &path]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("move 2 (W[e10]): cell e10 is already covered"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(path).unwrap();

    let path = temp_file("broken.blksgf", "(;GM[Blokus Duo];B[d9");
    let o = blokus(&["show", &path]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("SGF syntax error at line 1"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(path).unwrap();

    let o = blokus(&["show", &fixture("duo.blksgf"), "--move", "9"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("has only 3 moves"), "{}", stderr(&o));
}

#[test]
fn show_refuses_an_endless_file_without_reading_it_all() {
    let o = blokus(&["show", "/dev/zero"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("larger than 4 MiB"), "{}", stderr(&o));
}
