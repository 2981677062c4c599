//! SPEC 9 reference figures, read from `tests/data/reference.txt`.

use blokus_core::Colour;
use blokus_core::{Game, Rules};

#[test]
fn reference_figures() {
    let data = include_str!("data/reference.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 4, "bad line: {line}");
        let rules = Rules::by_name(f[1]).unwrap();
        let expected: usize = f[3].parse().unwrap();
        let got = match f[0] {
            "placements" => rules.table().len(),
            "legal" => {
                let mut game = Game::new(rules);
                if f[2] != "-" {
                    for mv in f[2].split(';') {
                        game.play_text(mv).unwrap_or_else(|e| panic!("{line}: {e}"));
                    }
                }
                game.legal_moves().len()
            }
            other => panic!("unknown kind {other}"),
        };
        assert_eq!(got, expected, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 11);
}

#[test]
fn first_moves_for_every_colour_in_classic_and_duo() {
    // "Classic (any colour)": every colour has 58 first moves from its corner.
    let rules = Rules::by_name("classic").unwrap();
    let pos = blokus_core::Position::new(&rules);
    for c in 0..4 {
        assert_eq!(pos.legal_moves(&rules, Colour::new(c)).len(), 58);
    }
    let rules = Rules::by_name("duo").unwrap();
    let pos = blokus_core::Position::new(&rules);
    for c in 0..2 {
        assert_eq!(pos.legal_moves(&rules, Colour::new(c)).len(), 414);
    }
}
