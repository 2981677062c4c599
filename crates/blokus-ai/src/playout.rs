//! Knowledge-guided playouts: fast, biased towards big pieces, allocation-free.
//!
//! In a colour's first [`SAMPLING_PLACEMENTS`] placements (twice as many on triangle
//! boards), while the board is open, a
//! move is sampled: a random attach point, a piece drawn with weight `size^3` among
//! those left (large pieces early), and the first placement of that piece over the
//! point, scanned from a random offset, that avoids the colour's forbidden cells (one
//! AND against the point's neighbourhood mask, see [`LocalTable`]). The bigger of
//! [`DRAWS`] such legal draws is played.
//!
//! Later (or when [`TRIES`] draws find nothing), each colour keeps a candidate list:
//! every move that was legal when one of its attach points first appeared. A legal
//! move stays legal until a cell of it becomes forbidden or its piece runs out, and
//! neither ever reverts, so the list is a superset of the legal moves; entries found
//! illegal when drawn are dropped for good. A colour whose list runs dry can never move
//! again, so passes cost nothing. The same best-of-draws bias applies.

use std::ops::ControlFlow;
use std::sync::Arc;

use blokus_core::position::{MAX_COLOURS, MAX_PIECES};
use blokus_core::{Cell, CellSet, GridKind, Move, PieChoice, Position};
use rand::rngs::SmallRng;
use rand::Rng;

use crate::context::Context;
use crate::local::LocalTable;

/// Legal draws compared for each playout move.
pub const DRAWS: usize = 2;
/// Draws tried before falling back to the candidate list.
pub const TRIES: usize = 10;
/// Placements of a colour during which its moves are sampled rather than listed, on
/// square boards; triangle boards (more pieces, more placements per attach point) sample
/// twice as long. Measured: these minimise CPU time per simulation.
pub const SAMPLING_PLACEMENTS: usize = 8;

/// The weight of a piece of `size` cells in a playout.
#[inline]
fn weight(size: u8) -> u32 {
    let s = size as u32;
    s * s * s
}

/// The `k`-th cell (0-based) of a set.
#[inline]
fn nth_cell(set: &CellSet, k: usize) -> Cell {
    set.iter().nth(k).expect("k < len")
}

/// Reusable scratch space for playouts of one variant. Allocates when built and when a
/// list first grows; a playout itself does not allocate.
pub struct Playouts {
    candidates: [Vec<Move>; MAX_COLOURS],
    expanded: [CellSet; MAX_COLOURS],
    stamp: Vec<u32>,
    generation: u32,
    num_moves: usize,
    scratch: Vec<Move>,
    local: Option<Arc<LocalTable>>,
    /// Colours that switched from sampling to candidate lists in this playout.
    listed: [bool; MAX_COLOURS],
    /// Placements of a colour during which its moves are sampled.
    sampling_placements: usize,
}

impl Playouts {
    /// Scratch space for games under the context's rules.
    pub fn new(ctx: &Context) -> Playouts {
        let num_moves = ctx.rules.table().len();
        Playouts {
            candidates: Default::default(),
            expanded: [CellSet::EMPTY; MAX_COLOURS],
            stamp: vec![0; num_moves * ctx.num_colours],
            generation: 0,
            num_moves,
            scratch: Vec::with_capacity(1024),
            local: LocalTable::get(&ctx.rules),
            listed: [false; MAX_COLOURS],
            sampling_placements: match ctx.rules.table().geometry().kind() {
                GridKind::Square => SAMPLING_PLACEMENTS,
                GridKind::Triangle => 2 * SAMPLING_PLACEMENTS,
            },
        }
    }

    /// Plays `pos` to the end of the game (the turn bookkeeping of `pos` is not kept up
    /// to date: only its placements, which is what scoring reads). `on_move(ply, colour,
    /// move)` sees every placement; `ply` counts on from `first_ply`.
    pub fn run(
        &mut self,
        ctx: &Context,
        pos: &mut Position,
        rng: &mut SmallRng,
        first_ply: usize,
        mut on_move: impl FnMut(usize, usize, Move),
    ) {
        if pos.is_over() {
            return;
        }
        let rules = &ctx.rules;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let n = ctx.num_colours;
        for c in 0..n {
            self.candidates[c].clear();
            self.expanded[c] = CellSet::EMPTY;
        }
        self.listed = [false; MAX_COLOURS];
        let mut dead = [false; MAX_COLOURS];
        let mut ply = first_ply;
        let mut idle = 0;
        let mut c = pos.to_move();
        while idle < n {
            if pos.awaiting_pie_choice() {
                let choice = if rng.gen_bool(0.5) {
                    PieChoice::Keep
                } else {
                    PieChoice::Swap
                };
                pos.choose_pie(rules, choice)
                    .expect("pie choice is pending");
                if pos.is_over() {
                    return;
                }
                c = pos.to_move();
                continue;
            }
            let mv = if dead[c] {
                None
            } else {
                self.pick(ctx, pos, c, rng)
            };
            match mv {
                Some(m) => {
                    on_move(ply, c, m);
                    ply += 1;
                    pos.place(rules, c, m);
                    idle = 0;
                    if pos.pieces_placed(c) == 1 {
                        // Candidates at starting points need no corner contact; later
                        // ones do, and the cheap check assumes it.
                        self.candidates[c].clear();
                        self.expanded[c] = CellSet::EMPTY;
                    }
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
    }

    /// A biased random legal move of `colour`, or `None` if it has none.
    fn pick(
        &mut self,
        ctx: &Context,
        pos: &Position,
        colour: usize,
        rng: &mut SmallRng,
    ) -> Option<Move> {
        // While the board is open, sampling is cheap and lists would be huge; later,
        // lists are exact and make passes free.
        if pos.pieces_placed(colour) < self.sampling_placements && !self.listed[colour] {
            if let Some(m) = self.sample(ctx, pos, colour, rng) {
                return Some(m);
            }
            if pos.pieces_placed(colour) == 0 {
                return self.any_legal(ctx, pos, colour, rng);
            }
        }
        self.listed[colour] = true;
        self.pick_listed(ctx, pos, colour, rng)
    }

    /// A move by sampling, or `None` if the draws found nothing (not proof of none).
    fn sample(
        &mut self,
        ctx: &Context,
        pos: &Position,
        colour: usize,
        rng: &mut SmallRng,
    ) -> Option<Move> {
        let rules = &ctx.rules;
        let t = rules.table();
        let mut weights = [0u32; MAX_PIECES];
        let mut total = 0;
        for (p, w) in weights.iter_mut().enumerate().take(ctx.num_pieces) {
            if pos.remaining(rules, colour, p) > 0 {
                *w = weight(ctx.sizes[p]);
                total += *w;
            }
        }
        if total == 0 {
            return None;
        }
        let first = pos.pieces_placed(colour) == 0;
        // The opening, mirror-opening reservations and the alternate contact rule need
        // the full check; otherwise a placement over an attach point that avoids the
        // forbidden cells is legal.
        let full_check = first
            || rules.alternate_contact()
            || (rules.mirror_opening()
                && rules
                    .v()
                    .mirror_pairs
                    .iter()
                    .any(|&(_, f)| f != colour && pos.pieces_placed(f) == 0));
        let attach = pos.attach_points(rules, colour);
        let n_attach = attach.len();
        if n_attach == 0 {
            // No starting points (the Polyomino opening): full generation.
            return self.any_legal(ctx, pos, colour, rng);
        }
        let forbidden = pos.forbidden(colour);
        let fits = |forb: u128, m: Move, mask: u128| {
            mask & forb == 0 && (!full_check || pos.is_legal(rules, colour, m))
        };
        let mut best: Option<Move> = None;
        let mut best_size = 0;
        let mut found = 0;
        for _ in 0..TRIES {
            let point = nth_cell(&attach, rng.gen_range(0..n_attach));
            let mut r = rng.gen_range(0..total);
            let mut piece = 0;
            while r >= weights[piece] {
                r -= weights[piece];
                piece += 1;
            }
            let hit = match &self.local {
                Some(local) => {
                    let list = local.moves_at(point, piece);
                    if list.is_empty() {
                        continue;
                    }
                    let forb = local.forbidden_mask(point, forbidden);
                    let off = rng.gen_range(0..list.len());
                    (0..list.len())
                        .map(|k| list[(off + k) % list.len()])
                        .find(|lm| fits(forb, lm.mv, lm.mask))
                        .map(|lm| lm.mv)
                }
                None => {
                    let list = t.moves_at(point, piece);
                    if list.is_empty() {
                        continue;
                    }
                    let off = rng.gen_range(0..list.len());
                    (0..list.len())
                        .map(|k| list[(off + k) % list.len()])
                        .find(|&m| {
                            !t.info(m).cells().iter().any(|&c| forbidden.contains(c))
                                && (!full_check || pos.is_legal(rules, colour, m))
                        })
                }
            };
            if let Some(m) = hit {
                let size = t.info(m).cells().len();
                if size > best_size {
                    best_size = size;
                    best = Some(m);
                }
                found += 1;
                if found == DRAWS {
                    break;
                }
            }
        }
        if best.is_some() {
            return best;
        }
        None
    }

    /// A random legal move, weighted like the draws, from full generation.
    fn any_legal(
        &mut self,
        ctx: &Context,
        pos: &Position,
        colour: usize,
        rng: &mut SmallRng,
    ) -> Option<Move> {
        let t = ctx.rules.table();
        let mut chosen = None;
        let mut sum = 0u32;
        let _ = pos.for_each_legal::<()>(&ctx.rules, colour, |m| {
            let w = weight(t.info(m).cells().len() as u8);
            sum += w;
            if rng.gen_range(0..sum) < w {
                chosen = Some(m);
            }
            ControlFlow::Continue(())
        });
        chosen
    }

    /// A move from the colour's candidate list, or `None` if it has none.
    fn pick_listed(
        &mut self,
        ctx: &Context,
        pos: &Position,
        colour: usize,
        rng: &mut SmallRng,
    ) -> Option<Move> {
        let rules = &ctx.rules;
        let t = rules.table();
        // Mirror-opening reservations and the alternate contact rule need the full check.
        let first = pos.pieces_placed(colour) == 0;
        let full_check = first
            || rules.alternate_contact()
            || (rules.mirror_opening()
                && rules
                    .v()
                    .mirror_pairs
                    .iter()
                    .any(|&(_, f)| f != colour && pos.pieces_placed(f) == 0));
        self.expand(ctx, pos, colour);
        let forbidden = *pos.forbidden(colour);
        let list = &mut self.candidates[colour];
        let mut best: Option<Move> = None;
        let mut best_size = 0;
        let mut draws = 0;
        while !list.is_empty() && draws < DRAWS {
            let i = rng.gen_range(0..list.len());
            let m = list[i];
            let info = t.info(m);
            let legal = pos.remaining(rules, colour, info.piece as usize) > 0
                && !t.cell_set(m).intersects(&forbidden)
                && (!full_check || pos.is_legal(rules, colour, m));
            if !legal {
                list.swap_remove(i);
                continue;
            }
            draws += 1;
            let size = info.cells().len();
            if size > best_size {
                best_size = size;
                best = Some(m);
            }
        }
        if best.is_none() && first {
            // No starting points (the Polyomino opening): full generation, once or twice
            // per playout.
            let scratch = &mut self.scratch;
            pos.legal_moves_into(rules, colour, scratch);
            best = (!scratch.is_empty()).then(|| scratch[rng.gen_range(0..scratch.len())]);
        }
        best
    }

    /// Adds the moves at attach points that appeared since the last call.
    fn expand(&mut self, ctx: &Context, pos: &Position, colour: usize) {
        let rules = &ctx.rules;
        let attach = pos.attach_points(rules, colour);
        let fresh = attach.difference(&self.expanded[colour]);
        if fresh.is_empty() {
            return;
        }
        self.expanded[colour].union_with(&fresh);
        let t = rules.table();
        let forbidden = pos.forbidden(colour);
        let base = colour * self.num_moves;
        let list = &mut self.candidates[colour];
        if let Some(local) = &self.local {
            for p in fresh.iter() {
                let forb = local.forbidden_mask(p, forbidden);
                for piece in 0..ctx.num_pieces {
                    if pos.remaining(rules, colour, piece) == 0 {
                        continue;
                    }
                    for lm in local.moves_at(p, piece) {
                        if lm.mask & forb != 0 {
                            continue;
                        }
                        let s = &mut self.stamp[base + lm.mv.index()];
                        if *s != self.generation {
                            *s = self.generation;
                            list.push(lm.mv);
                        }
                    }
                }
            }
            return;
        }
        for p in fresh.iter() {
            for piece in 0..ctx.num_pieces {
                if pos.remaining(rules, colour, piece) == 0 {
                    continue;
                }
                for &m in t.moves_at(p, piece) {
                    // Cell by cell: most placements fail at their first or second cell.
                    if t.info(m).cells().iter().any(|&c| forbidden.contains(c)) {
                        continue;
                    }
                    let s = &mut self.stamp[base + m.index()];
                    if *s == self.generation {
                        continue;
                    }
                    *s = self.generation;
                    list.push(m);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::{Rules, VARIANT_IDS};
    use rand::SeedableRng;

    #[test]
    fn playouts_play_legal_moves_to_the_end_in_every_variant() {
        let mut rng = SmallRng::seed_from_u64(5);
        for id in VARIANT_IDS {
            let mut rules = Rules::by_name(id).unwrap();
            for alt in [false, true] {
                rules.options.alternate_contact = alt;
                let ctx = Context::new(&rules);
                let mut playouts = Playouts::new(&ctx);
                for _ in 0..4 {
                    let mut pos = Position::new(&rules);
                    let mut moves = Vec::new();
                    playouts.run(&ctx, &mut pos, &mut rng, 0, |_, c, m| moves.push((c, m)));
                    // Replay with the rules' own checks.
                    let mut replay = Position::new(&rules);
                    for &(c, m) in &moves {
                        assert!(
                            replay.check_placement(&rules, c, m).is_ok(),
                            "{id}: illegal playout move"
                        );
                        replay.place(&rules, c, m);
                    }
                    for c in 0..rules.num_colours() {
                        assert!(
                            !replay.has_legal_move(&rules, c),
                            "{id}: colour {c} could still move"
                        );
                    }
                }
            }
        }
    }
}
