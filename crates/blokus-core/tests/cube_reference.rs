//! Blokus 3D reference figures (SPEC 5.1), read from `tests/data/cube_reference.txt`:
//! computed by this project, checked by hand where the text says so, and pinned.

use blokus_core::cube::{CubeGame, CubeRules, CubeTable, Seating, Site, Stone};

fn seating(id: &str) -> Seating {
    match id {
        "2" => Seating::Two,
        "3" => Seating::Three,
        "4" => Seating::Four,
        "2x4" => Seating::TwoWithFourColours,
        other => panic!("unknown seating {other}"),
    }
}

#[test]
fn cube_reference_figures() {
    let data = include_str!("data/cube_reference.txt");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in data
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let site = Site::builtin(f[1]).unwrap_or_else(|| panic!("unknown site: {line}"));
        let (expected, got): (Vec<usize>, Vec<usize>) = match f[0] {
            "placements" => {
                let t = CubeTable::new(site, f[2].parse().unwrap());
                let mut got: Vec<usize> = Stone::ALL.iter().map(|&s| t.placements_of(s)).collect();
                got.push(t.len());
                (f[3..].iter().map(|n| n.parse().unwrap()).collect(), got)
            }
            "legal" => {
                let mut game = CubeGame::new(CubeRules::new(seating(f[2]), site));
                if f[3] != "-" {
                    for mv in f[3].split(';') {
                        game.play_text(mv).unwrap_or_else(|e| panic!("{line}: {e}"));
                    }
                }
                (vec![f[4].parse().unwrap()], vec![game.legal_moves().len()])
            }
            other => panic!("unknown kind {other}"),
        };
        if got != expected {
            wrong.push(format!("{line}\n  got {got:?}"));
        }
        checked += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(checked, 15 + 20 + 10);
}
