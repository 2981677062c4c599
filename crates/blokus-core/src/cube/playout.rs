//! Uniformly random playouts, without allocating.
//!
//! A move is drawn without listing the legal moves. Let A be the voxels where the colour
//! may make contact, and S the pairs (a, m) of a voxel a in A and a table move m of a
//! stone the colour has, covering a and reaching down exactly to the top of a's column
//! ([`CubeTable::at`] with a's drop). A pair is drawn uniformly from S and its move kept
//! if it fits (voxels empty, supported; contact holds since it covers a voxel of A), with
//! probability 1/k for a move covering k voxels of A. A legal move is in S exactly k
//! times, so every legal move is kept with the same probability: the draw is uniform over
//! the legal moves. After [`TRIES`] misses the legal moves are listed exactly, and a
//! colour with none is out for the rest of the game.
//!
//! [`CubeTable::at`]: super::table::CubeTable::at

use crate::Colour;
use rand::Rng;

use super::position::CubePosition;
use super::rules::CubeRules;
use super::stone::{Stone, STONE_COUNT};
use super::table::CubeMove;
use super::voxel::Voxel;

/// Rejection draws before listing the legal moves exactly.
pub const TRIES: usize = 128;

/// Reusable scratch space for random playouts under one [`CubeRules`]: allocates when
/// built, never during a playout.
pub struct CubePlayout {
    /// The candidate lists of the colour being drawn for: (contact voxel, drop, stone).
    lists: Vec<(Voxel, usize, Stone)>,
    /// The number of pairs up to and including each list.
    cumulative: Vec<u32>,
    /// The exact legal moves when the rejection draws miss.
    scratch: Vec<CubeMove>,
    /// Per move, the listing in which it was last seen (to list each move once).
    seen: Vec<u32>,
    listing: u32,
}

impl CubePlayout {
    /// Scratch space for games under `rules`.
    pub fn new(rules: &CubeRules) -> CubePlayout {
        let t = rules.table();
        let lists = t.inside().len() * STONE_COUNT;
        CubePlayout {
            lists: Vec::with_capacity(lists),
            cumulative: Vec::with_capacity(lists),
            scratch: Vec::with_capacity(t.len()),
            seen: vec![0; t.len()],
            listing: 0,
        }
    }

    /// Plays uniformly random legal moves from `pos` to the end of the game, colours in
    /// turn from the one to move. Returns the number of placements made.
    pub fn run(&mut self, rules: &CubeRules, pos: &mut CubePosition, rng: &mut impl Rng) -> usize {
        let n = rules.num_colours();
        let mut placed = 0;
        let mut c = pos.to_move();
        while !pos.is_over() {
            if !pos.is_out(c) {
                match self.draw(rules, pos, c, rng) {
                    Some(m) => {
                        pos.place(rules.table(), c, m);
                        placed += 1;
                    }
                    None => pos.set_out(c),
                }
            }
            c = c.next(n);
        }
        placed
    }

    /// A uniformly random legal placement of `colour`, or `None` if it has none.
    pub fn draw(
        &mut self,
        rules: &CubeRules,
        pos: &CubePosition,
        colour: Colour,
        rng: &mut impl Rng,
    ) -> Option<CubeMove> {
        let table = rules.table();
        let Some(contact) = pos.contact_voxels(colour) else {
            // The game's first stone: any grounded placement of a stone the colour has.
            let ground = table.grounded();
            for _ in 0..TRIES {
                let m = ground[rng.gen_range(0..ground.len())];
                if pos.fits(table.get(m), colour) {
                    return Some(m);
                }
            }
            return self.pick_exact(rules, pos, colour, rng, ground.iter().copied());
        };
        self.lists.clear();
        self.cumulative.clear();
        let mut total = 0u32;
        for v in contact.iter() {
            let Some(drop) = pos.drop_at(table, v) else {
                continue;
            };
            for stone in pos.stones_left(colour) {
                let n = table.at(v, drop, stone).len() as u32;
                if n > 0 {
                    total += n;
                    self.lists.push((v, drop, stone));
                    self.cumulative.push(total);
                }
            }
        }
        if total == 0 {
            return None;
        }
        for _ in 0..TRIES {
            let r = rng.gen_range(0..total);
            let i = self.cumulative.partition_point(|&c| c <= r);
            let first = if i == 0 { 0 } else { self.cumulative[i - 1] };
            let (v, drop, stone) = self.lists[i];
            let m = table.at(v, drop, stone)[(r - first) as usize];
            let p = table.get(m);
            if !pos.fits(p, colour) {
                continue;
            }
            let k = p.cubes().iter().filter(|&&c| contact.contains(c)).count();
            if k == 1 || rng.gen_range(0..k) == 0 {
                return Some(m);
            }
        }
        let lists = std::mem::take(&mut self.lists);
        let candidates = lists
            .iter()
            .flat_map(|&(v, drop, stone)| table.at(v, drop, stone).iter().copied());
        let picked = self.pick_exact(rules, pos, colour, rng, candidates);
        self.lists = lists;
        picked
    }

    /// Picks uniformly among the candidates that fit, each counted once. Every candidate
    /// makes contact, so fitting is being legal.
    fn pick_exact(
        &mut self,
        rules: &CubeRules,
        pos: &CubePosition,
        colour: Colour,
        rng: &mut impl Rng,
        candidates: impl Iterator<Item = CubeMove>,
    ) -> Option<CubeMove> {
        let table = rules.table();
        self.listing = self.listing.wrapping_add(1);
        if self.listing == 0 {
            self.seen.fill(0);
            self.listing = 1;
        }
        self.scratch.clear();
        for m in candidates {
            if self.seen[m.index()] != self.listing {
                self.seen[m.index()] = self.listing;
                if pos.fits(table.get(m), colour) {
                    self.scratch.push(m);
                }
            }
        }
        (!self.scratch.is_empty()).then(|| self.scratch[rng.gen_range(0..self.scratch.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::Seating;
    use super::super::site::Site;
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn playouts_end_with_every_colour_out() {
        let rules = CubeRules::new(Seating::Four, Site::builtin("plaza").unwrap());
        let mut playout = CubePlayout::new(&rules);
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..20 {
            let mut pos = CubePosition::new(&rules);
            let placed = playout.run(&rules, &mut pos, &mut rng);
            assert!(pos.is_over() && placed == pos.stones_placed() && placed > 4);
            // Out for good, even if others' cubes later gave a colour a placement.
            assert!((0..4).all(|c| pos.is_out(Colour::new(c))));
        }
    }

    /// The draw is uniform over the legal moves: a chi-square test on one position.
    #[test]
    fn draws_are_uniform() {
        let rules = CubeRules::new(Seating::Two, Site::builtin("tower").unwrap());
        let mut pos = CubePosition::new(&rules);
        let t = rules.table();
        for text in ["b2.1,c2.1,b2.2", "b3.1,c3.1,c3.2"] {
            let m = super::super::notation::parse_move(t, text).unwrap();
            pos.play(&rules, m).unwrap();
        }
        let legal = pos.legal_moves(t, Colour(0));
        let mut playout = CubePlayout::new(&rules);
        let mut rng = SmallRng::seed_from_u64(7);
        let draws = legal.len() * 200;
        let mut counts = std::collections::HashMap::new();
        for _ in 0..draws {
            let m = playout.draw(&rules, &pos, Colour(0), &mut rng).unwrap();
            *counts.entry(m).or_insert(0usize) += 1;
        }
        assert!(counts.keys().all(|m| legal.contains(m)));
        let expected = 200.0;
        let chi2: f64 = legal
            .iter()
            .map(|m| {
                let o = *counts.get(m).unwrap_or(&0) as f64;
                (o - expected).powi(2) / expected
            })
            .sum();
        // df = n - 1; the 99.9% quantile is below df + 5 sqrt(2 df) for these sizes.
        let df = (legal.len() - 1) as f64;
        assert!(
            chi2 < df + 5.0 * (2.0 * df).sqrt(),
            "chi2 {chi2} with {df} df"
        );
    }
}
