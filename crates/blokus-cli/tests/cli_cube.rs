//! Blokus 3D through the real binary: `blokus match` between built-in 3D players on
//! built-in and file sites (with its `.blksgf` read back by the core), `blokus bench`,
//! and the errors for unknown variants, sites and bad site files.

use std::process::{Command, Output};

fn blokus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args(args)
        .output()
        .expect("run blokus")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp(name: &str, content: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("blokus-cli-cube-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn a_match_on_a_site_file_writes_records_that_read_back() {
    let site = temp(
        "yard.site",
        "name = yard\nheights = 2:3 3:4 4:5\nfootprint =\nooooo\noo.oo\nooooo\n",
    );
    let sgf = temp("games.blksgf", "");
    let o = blokus(&[
        "match",
        "greedy",
        "random",
        "mcts:simulations=20",
        "--variant",
        "rumis_3",
        "--games",
        "3",
        "--site",
        site.to_str().unwrap(),
        "--sgf",
        sgf.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("3 games"), "{out}");
    let records = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(records.matches("GM[Blokus 3D Three-Player]").count(), 3);
    assert!(records.contains("XSITEDEF[name = yard"));
    let game = blokus_core::cube::record::from_blksgf(&records).unwrap();
    assert!(game.is_over() && game.rules().site().name() == "yard");
}

#[test]
fn bench_measures_a_3d_variant() {
    let o = blokus(&[
        "bench",
        "--variant",
        "rumis_4",
        "--site",
        "tower",
        "--seconds",
        "0.5",
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["variant"], "rumis_4/tower");
    assert!(v[0]["playouts_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_variants_sites_and_players_are_named() {
    let bad_site = temp(
        "bad.site",
        "name = bad\nheights = 2:3 3:3 4:3\nfootprint =\nox\n",
    );
    let cases: [(&[&str], &str); 4] = [
        (
            &["bench", "--variant", "rumis_5"],
            "unknown variant 'rumis_5' (known: classic,",
        ),
        (
            &[
                "match",
                "greedy",
                "random",
                "--variant",
                "rumis_2",
                "--site",
                "moon",
            ],
            "unknown site 'moon'",
        ),
        (
            &[
                "match",
                "greedy",
                "random",
                "--variant",
                "rumis_2",
                "--site",
                bad_site.to_str().unwrap(),
            ],
            "site line 4: 'x' in the footprint",
        ),
        (
            &["match", "greedy", "blokus gtp", "--variant", "rumis_2"],
            "built-in players only",
        ),
    ];
    for (args, message) in cases {
        let o = blokus(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(
            text(&o.stderr).contains(message),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

#[test]
fn show_prints_a_3d_record_with_heights_and_levels() {
    let path = temp(
        "show.blksgf",
        "(;FF[4]GM[Blokus 3D Duo]XSITE[plaza];B[a1.1,b1.1];W[a1.2,a2.1,a2.2];B[c1.1,d1.1,c2.1])",
    );
    let o = blokus(&["show", path.to_str().unwrap(), "--move", "2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Blokus 3D Duo (rumis_2)");
    assert_eq!(lines[1], "After move 2 of 3");
    assert_eq!(
        lines[2],
        "Site plaza (6 x 6, 4 levels); top view, colour and height:"
    );
    assert_eq!(lines[9], " 1 y2 B1 .  .  .  .");
    assert!(
        out.contains("\nLevel 2:\n") && !out.contains("Level 3"),
        "{out}"
    );
    assert!(
        out.contains("yellow: -8 points (2 on top, 10 stones left)"),
        "{out}"
    );
    let json = temp("show.json", &{
        let game = blokus_core::cube::record::from_blksgf(&std::fs::read_to_string(&path).unwrap())
            .unwrap();
        blokus_core::cube::record::to_json(&game).to_string()
    });
    let o = blokus(&["show", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("After move 3 of 3") && out.contains(" 1 Y2 B1 b1 b1 ."),
        "{out}"
    );
    let o = blokus(&["show", path.to_str().unwrap(), "--move", "9"]);
    assert!(text(&o.stderr).contains("has only 3 moves"));
}
