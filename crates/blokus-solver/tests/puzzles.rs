//! Every puzzle's solution, checked by the independent checker in `checker/`.

mod checker;

use blokus_solver::count::count;
use blokus_solver::play::{self, Hint};
use blokus_solver::puzzle::{self, Form, PlacementOut};
use blokus_solver::tiling::{parse_pieces, Tiling};

fn solve(id: &str, strict: bool, decreasing: bool, seed: u64) -> Vec<PlacementOut> {
    puzzle::solve(id, Form { strict, decreasing }, seed, &mut |_| {})
        .expect("known puzzle")
        .expect("a solution")
        .placements()
}

const TETRO: [(&str, usize); 5] = [("I4", 4), ("L4", 4), ("O", 4), ("T4", 4), ("Z4", 4)];
const PENTA: [(&str, usize); 12] = [
    ("F", 4),
    ("I5", 4),
    ("L5", 4),
    ("N", 4),
    ("P", 4),
    ("T5", 4),
    ("U", 4),
    ("V5", 4),
    ("W", 4),
    ("X", 4),
    ("Y", 4),
    ("Z5", 4),
];

#[test]
fn tetro_8x10_both_forms_several_seeds() {
    for seed in 0..4 {
        for strict in [false, true] {
            let p = solve("tetro_8x10", strict, false, seed);
            checker::check_tiling(8, 10, &TETRO, true, strict, &p)
                .unwrap_or_else(|e| panic!("seed {seed} strict {strict}: {e}"));
        }
    }
}

#[test]
fn penta_15x16_plain() {
    let p = solve("penta_15x16", false, false, 0);
    checker::check_tiling(15, 16, &PENTA, true, false, &p).unwrap();
}

#[test]
fn penta_15x16_strict() {
    let p = solve("penta_15x16", true, false, 1);
    checker::check_tiling(15, 16, &PENTA, true, true, &p).unwrap();
}

#[test]
fn all_88_places_every_trigon_piece_legally() {
    let p = solve("all_88", false, false, 3);
    checker::check_board("trigon", false, &p).unwrap();
}

#[test]
fn all_84_both_forms_several_seeds_checked() {
    // The same seed gives the same board in both forms, so each seed tests one form.
    for seed in 0..4 {
        let decreasing = seed % 2 == 1;
        let p = solve("all_84", false, decreasing, seed);
        checker::check_board("classic", decreasing, &p)
            .unwrap_or_else(|e| panic!("seed {seed} decreasing {decreasing}: {e}"));
    }
}

#[test]
fn all_84_same_seed_same_solution_and_seeds_differ() {
    let a = solve("all_84", false, true, 4);
    assert_eq!(a, solve("all_84", false, true, 4));
    assert_ne!(a, solve("all_84", false, true, 5));
}

#[test]
fn all_84_hints_continue_a_partial_solution() {
    let info = puzzle::find("all_84").unwrap();
    let form = Form {
        strict: false,
        decreasing: true,
    };
    let mut placed = solve("all_84", false, true, 1);
    placed.truncate(30);
    for _ in 0..3 {
        match play::hint(info, form, &placed, 0, 1_000_000).unwrap() {
            Hint::Next(p) => placed.push(p),
            other => panic!("unexpected {other:?}"),
        }
        assert!(play::check(info, form, &placed).is_ok());
    }
}

#[test]
fn same_seed_same_solution() {
    assert_eq!(
        solve("tetro_8x10", true, false, 7),
        solve("tetro_8x10", true, false, 7)
    );
}

#[test]
fn general_tilings_and_the_6x10_count() {
    let t = Tiling {
        width: 10,
        height: 6,
        kinds: parse_pieces("pentominoes").unwrap(),
        colours: None,
        strict: false,
    };
    let (sol, _) = blokus_solver::tiling::solve(t.clone(), 3, &mut |_| {}).unwrap();
    let placements = puzzle::Solution::Tiling {
        tiling: t.clone(),
        placements: sol.unwrap(),
    }
    .placements();
    let names: Vec<(&str, usize)> = PENTA.iter().map(|&(n, _)| (n, 1)).collect();
    checker::check_tiling(10, 6, &names, false, false, &placements).unwrap();
    assert_eq!(count(t, &mut |_| {}).unwrap().up_to_symmetry, 2339);
}

#[test]
fn checker_rejects_broken_solutions() {
    let good = solve("tetro_8x10", true, false, 0);
    // Two pieces swapped colours: counts still match but a colour gets a piece twice
    // or the strict rule breaks; either way the checker must object to some swap.
    let mut rejected = 0;
    for j in 1..good.len() {
        let mut bad = good.clone();
        let c = bad[0].colour.clone();
        bad[0].colour = bad[j].colour.clone();
        bad[j].colour = c;
        if bad[0].colour != good[0].colour
            && checker::check_tiling(8, 10, &TETRO, true, true, &bad).is_err()
        {
            rejected += 1;
        }
    }
    assert!(rejected > 0);
    let mut missing = good.clone();
    missing.pop();
    assert!(checker::check_tiling(8, 10, &TETRO, true, false, &missing).is_err());
    let mut moved = good.clone();
    moved[0].cells[0] = "h10".into();
    assert!(checker::check_tiling(8, 10, &TETRO, true, false, &moved).is_err());
}
