//! Uniformly random playouts, fast.
//!
//! Each colour keeps a candidate list: every move that was legal when one of the colour's
//! attach points first appeared. A legal move stays legal until one of its cells becomes
//! forbidden or its piece runs out, and neither ever reverts, so the list is always a
//! superset of the legal moves without duplicates. Drawing uniformly from it and
//! discarding (for good) the entries that have become illegal therefore draws uniformly
//! from the legal moves, while each move is generated at most once per playout. A colour
//! whose list runs dry can never move again, which makes automatic passes free.

use std::ops::ControlFlow;

use rand::Rng;

use crate::bitset::CellSet;
use crate::movetable::Move;
use crate::position::{PieChoice, Position, MAX_COLOURS};
use crate::rules::Rules;

/// Reusable scratch space for random playouts of one variant. Allocates only when built
/// (and when a list first grows); a playout itself does not allocate.
pub struct Playout {
    candidates: [Vec<Move>; MAX_COLOURS],
    expanded: [CellSet; MAX_COLOURS],
    stamp: Vec<u32>,
    generation: u32,
    num_moves: usize,
    scratch: Vec<Move>,
    /// Per colour, every move that could ever be its first (covers a starting point, or
    /// anything for `Anywhere`): a fixed superset to draw first moves from.
    first_candidates: [Vec<Move>; MAX_COLOURS],
}

/// Draws from the first-move superset before falling back to full enumeration.
const FIRST_MOVE_TRIES: usize = 48;

impl Playout {
    /// Scratch space for games under `rules`.
    pub fn new(rules: &Rules) -> Playout {
        let num_moves = rules.table().len();
        Playout {
            candidates: Default::default(),
            expanded: [CellSet::EMPTY; MAX_COLOURS],
            stamp: vec![0; num_moves * rules.num_colours()],
            generation: 0,
            num_moves,
            scratch: Vec::with_capacity(4096),
            first_candidates: std::array::from_fn(|c| first_candidates(rules, c)),
        }
    }

    /// Plays uniformly random legal moves (and random pie choices) from `pos` to the end
    /// of the game. Returns the number of placements made.
    pub fn run(&mut self, rules: &Rules, pos: &mut Position, rng: &mut impl Rng) -> usize {
        self.begin(rules);
        let n = rules.num_colours();
        let mut dead = [false; MAX_COLOURS];
        let mut placed = 0;
        let mut c = pos.to_move();
        let mut idle = 0;
        while !pos.is_over() && idle < n {
            if pos.awaiting_pie_choice() {
                let choice = if rng.gen_bool(0.5) {
                    PieChoice::Keep
                } else {
                    PieChoice::Swap
                };
                let _ = pos.choose_pie(rules, choice);
                c = pos.to_move();
                continue;
            }
            let mv = if dead[c] {
                None
            } else {
                self.draw(rules, pos, c, rng)
            };
            match mv {
                Some(m) => {
                    pos.place(rules, c, m);
                    placed += 1;
                    idle = 0;
                    if rules.v().pie
                        && pos.pie_choice().is_none()
                        && pos.first_move(0).is_some()
                        && pos.first_move(1).is_some()
                    {
                        pos.set_awaiting_pie(true);
                        continue;
                    }
                }
                None => {
                    dead[c] = true;
                    idle += 1;
                }
            }
            c = (c + 1) % n;
        }
        pos.finish(rules);
        placed
    }

    /// Starts a new playout: forgets every candidate list. Call before the first
    /// [`Playout::draw`] of each playout (a position may only move forward between draws).
    pub fn begin(&mut self, rules: &Rules) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        for c in 0..rules.num_colours() {
            self.candidates[c].clear();
            self.expanded[c] = CellSet::EMPTY;
        }
    }

    /// A uniformly random legal move of `colour`, or `None` if it has none (then it never
    /// will have one again in this playout). Drawing several times and keeping the best
    /// gives biased playouts on the same machinery.
    pub fn draw(
        &mut self,
        rules: &Rules,
        pos: &Position,
        colour: usize,
        rng: &mut impl Rng,
    ) -> Option<Move> {
        if pos.pieces_placed(colour) == 0 {
            // Rejection sampling from a fixed superset stays uniform over the legal moves.
            let cands = &self.first_candidates[colour];
            for _ in 0..FIRST_MOVE_TRIES.min(cands.len()) {
                let m = cands[rng.gen_range(0..cands.len())];
                if pos.is_legal(rules, colour, m) {
                    return Some(m);
                }
            }
        }
        if pos.pieces_placed(colour) == 0 || pos.has_reserved_cells(rules, colour) {
            // First moves (and the rare mirror-opening reservations) use full generation.
            self.scratch.clear();
            let scratch = &mut self.scratch;
            let _ = pos.for_each_legal::<()>(rules, colour, |m| {
                scratch.push(m);
                ControlFlow::Continue(())
            });
            return (!scratch.is_empty()).then(|| scratch[rng.gen_range(0..scratch.len())]);
        }
        self.expand(rules, pos, colour);
        let list = &mut self.candidates[colour];
        while !list.is_empty() {
            let i = rng.gen_range(0..list.len());
            let m = list[i];
            if pos.still_legal(rules, colour, m) {
                return Some(m);
            }
            list.swap_remove(i);
        }
        None
    }

    /// Adds the moves at attach points that appeared since the last call.
    fn expand(&mut self, rules: &Rules, pos: &Position, colour: usize) {
        let attach = pos.attach_points(rules, colour);
        let fresh = attach.difference(&self.expanded[colour]);
        if fresh.is_empty() {
            return;
        }
        self.expanded[colour].union_with(&fresh);
        let t = rules.table();
        let forbidden = pos.forbidden(colour);
        let npieces = t.pieces().pieces.len();
        let base = colour * self.num_moves;
        let alt = rules.alternate_contact();
        let list = &mut self.candidates[colour];
        let mut available = [false; crate::position::MAX_PIECES];
        for (piece, a) in available.iter_mut().enumerate().take(npieces) {
            *a = pos.remaining(rules, colour, piece) > 0;
        }
        let stamps = &mut self.stamp[base..base + self.num_moves];
        for p in fresh.iter() {
            let status = t.edge_status(p, forbidden);
            for (piece, _) in available
                .iter()
                .enumerate()
                .take(npieces)
                .filter(|(_, &a)| a)
            {
                for &m in t.moves_at_status(p, piece, status) {
                    let s = &mut stamps[m.index()];
                    if *s == self.generation || t.info(m).hits(forbidden) {
                        continue;
                    }
                    if alt && !pos.still_legal(rules, colour, m) {
                        continue;
                    }
                    *s = self.generation;
                    list.push(m);
                }
            }
        }
    }
}

/// Every move that covers one of `colour`'s possible starting cells (all moves when
/// openings go anywhere).
fn first_candidates(rules: &Rules, colour: usize) -> Vec<Move> {
    if colour >= rules.num_colours() {
        return Vec::new();
    }
    let t = rules.table();
    let starts: CellSet = match rules.start() {
        crate::variant::StartRule::PerColour(cells) => std::iter::once(cells[colour]).collect(),
        crate::variant::StartRule::Shared(cells) => cells.iter().copied().collect(),
        crate::variant::StartRule::Anywhere => return t.all().collect(),
    };
    t.all()
        .filter(|&m| t.cell_set(m).intersects(&starts))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::VARIANT_IDS;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn playouts_end_games_legally_in_every_variant() {
        let mut rng = SmallRng::seed_from_u64(1);
        for id in VARIANT_IDS {
            let rules = Rules::by_name(id).unwrap();
            let mut p = Playout::new(&rules);
            for _ in 0..3 {
                let mut pos = Position::new(&rules);
                let n = p.run(&rules, &mut pos, &mut rng);
                assert!(n > 0 && pos.is_over(), "{id}");
                for c in 0..rules.num_colours() {
                    assert!(
                        !pos.has_legal_move(&rules, c),
                        "{id}: colour {c} could still move"
                    );
                }
            }
        }
    }
}
