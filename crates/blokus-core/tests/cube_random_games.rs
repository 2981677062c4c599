//! Property tests over random Blokus 3D games on every site and seating: the generated
//! move lists are exactly the moves a naive checker (working from the list of cubes
//! alone, independent of the incremental state) finds legal; colours go out only when
//! they have no legal placement; random playouts only draw legal moves; scores match a
//! naive top view; undo restores the position.

use blokus_core::Colour;
use std::collections::HashMap;

use blokus_core::cube::playout::CubePlayout;
use blokus_core::cube::score;
use blokus_core::cube::{CubeGame, CubeMove, CubeRules, Seating, Site, Stone, BUILTIN_SITES};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type Xyz = (usize, usize, usize);

/// The game so far as the naive checker sees it: cube -> colour, and stones used.
#[derive(Default)]
struct Naive {
    cubes: HashMap<Xyz, usize>,
    used: Vec<(usize, Stone)>,
}

fn faces((x, y, z): Xyz) -> [Option<Xyz>; 6] {
    [
        x.checked_sub(1).map(|x| (x, y, z)),
        Some((x + 1, y, z)),
        y.checked_sub(1).map(|y| (x, y, z)),
        Some((x, y + 1, z)),
        z.checked_sub(1).map(|z| (x, y, z)),
        Some((x, y, z + 1)),
    ]
}

impl Naive {
    /// SPEC 5.1's placement rules, from the cubes alone.
    fn legal(&self, rules: &CubeRules, colour: usize, stone: Stone, cubes: &[Xyz]) -> bool {
        let site = rules.site();
        let height = rules.table().height();
        if self.used.contains(&(colour, stone)) {
            return false;
        }
        let free_inside = cubes.iter().all(|&(x, y, z)| {
            site.is_base(x, y) && z < height && !self.cubes.contains_key(&(x, y, z))
        });
        let supported = cubes.iter().all(|&(x, y, z)| {
            z == 0 || cubes.contains(&(x, y, z - 1)) || self.cubes.contains_key(&(x, y, z - 1))
        });
        if !free_inside || !supported {
            return false;
        }
        if self.cubes.is_empty() {
            return true;
        }
        let has_own = self.cubes.values().any(|&c| c == colour);
        cubes.iter().any(|&c| {
            faces(c)
                .into_iter()
                .flatten()
                .filter_map(|n| self.cubes.get(&n))
                .any(|&owner| !has_own || owner == colour)
        })
    }

    fn all_legal(&self, rules: &CubeRules, colour: usize) -> Vec<CubeMove> {
        let t = rules.table();
        t.moves()
            .filter(|&m| self.legal(rules, colour, t.get(m).stone(), &xyz(rules, m)))
            .collect()
    }

    fn place(&mut self, rules: &CubeRules, colour: usize, m: CubeMove) {
        for c in xyz(rules, m) {
            self.cubes.insert(c, colour);
        }
        self.used.push((colour, rules.table().get(m).stone()));
    }

    /// +1 per base square whose topmost cube is the colour's, -1 per stone left.
    fn points(&self, colour: usize) -> i32 {
        let mut top: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
        for (&(x, y, z), &c) in &self.cubes {
            let e = top.entry((x, y)).or_insert((z, c));
            if z >= e.0 {
                *e = (z, c);
            }
        }
        let visible = top.values().filter(|&&(_, c)| c == colour).count() as i32;
        let placed = self.used.iter().filter(|u| u.0 == colour).count() as i32;
        visible - (Stone::ALL.len() as i32 - placed)
    }
}

fn xyz(rules: &CubeRules, m: CubeMove) -> Vec<Xyz> {
    let t = rules.table();
    t.get(m).cubes().iter().map(|&v| t.coords(v)).collect()
}

fn rules_of(site: usize, seating: usize) -> CubeRules {
    CubeRules::new(
        Seating::ALL[seating],
        Site::builtin(BUILTIN_SITES[site]).unwrap(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_games_follow_the_rules(site in 0..BUILTIN_SITES.len(), seating in 0..4usize, seed: u64) {
        let rules = rules_of(site, seating);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = CubeGame::new(rules.clone());
        let mut naive = Naive::default();
        let mut playout = CubePlayout::new(&rules);
        let n = rules.num_colours();
        while !game.is_over() {
            let colour = game.to_move();
            let legal = game.legal_moves();
            prop_assert_eq!(&legal, &naive.all_legal(&rules, colour.index()));
            prop_assert!(!legal.is_empty());
            // A playout draw from here is one of them.
            let drawn = playout.draw(&rules, game.position(), colour, &mut rng).unwrap();
            prop_assert!(legal.contains(&drawn));
            let before = *game.position();
            let m = legal[rng.gen_range(0..legal.len())];
            game.play(m).unwrap();
            naive.place(&rules, colour.index(), m);
            // Colours passed over had no placement then, and are out for good.
            let over = game.is_over();
            let skipped = (1..=n)
                .map(|k| Colour::new((colour.index() + k) % n))
                .take_while(|&c| over || c != game.to_move());
            for c in skipped {
                if !before.is_out(c) {
                    prop_assert!(naive.all_legal(&rules, c.index()).is_empty(), "colour {} could place", c.index());
                }
                prop_assert!(game.position().is_out(c));
            }
            if rng.gen_ratio(1, 8) {
                game.undo().unwrap();
                prop_assert_eq!(*game.position(), before);
                game.play(m).unwrap();
            }
        }
        let scores = score::colour_scores(&rules, game.position());
        for s in &scores {
            prop_assert_eq!(s.points, naive.points(s.colour.index()));
        }
    }

    #[test]
    fn playouts_place_only_legal_stones(site in 0..BUILTIN_SITES.len(), seating in 0..4usize, seed: u64) {
        let rules = rules_of(site, seating);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = CubeGame::new(rules.clone());
        for _ in 0..rng.gen_range(0..6) {
            if let Some(&m) = game.legal_moves().first() {
                game.play(m).unwrap();
            }
        }
        let mut pos = *game.position();
        let placed_before = pos.stones_placed();
        let placed = CubePlayout::new(&rules).run(&rules, &mut pos, &mut rng);
        prop_assert!(pos.is_over());
        prop_assert_eq!(pos.stones_placed(), placed_before + placed);
        // Every cube rests on the base or a cube, and each colour's cubes are those of
        // the stones it placed.
        let t = rules.table();
        for v in pos.occupied().iter() {
            let (x, y, z) = t.coords(v);
            prop_assert!(z == 0 || pos.occupied().contains(t.voxel(x, y, z - 1).unwrap()));
        }
        for c in Colour::all(rules.num_colours()) {
            let cubes: usize = Stone::ALL.iter().filter(|&&s| !pos.has_stone(c, s)).map(|s| s.size()).sum();
            let owned = pos.occupied().iter().filter(|&v| pos.owner(v) == Some(c)).count();
            prop_assert_eq!(cubes, owned);
        }
    }
}
