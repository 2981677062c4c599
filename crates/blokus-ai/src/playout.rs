//! Knowledge-guided playouts: fast, biased towards big pieces, allocation-free.
//!
//! Each colour keeps a candidate list: every move that was legal when one of its attach
//! points first appeared. A legal move stays legal until a cell of it becomes forbidden
//! or its piece runs out, and neither ever reverts, so the list is a superset of the
//! legal moves; entries found illegal when drawn are dropped for good. A colour whose
//! list runs dry can never move again, so passes cost nothing, and each move is
//! generated at most once per playout.
//!
//! The bias: a move is the best of up to [`DRAWS`] legal draws from the list, by piece
//! size (big pieces early) and then by how many opponents' attach points it covers.

use std::ops::ControlFlow;
use std::sync::Arc;

use blokus_core::position::MAX_COLOURS;
use blokus_core::{CellSet, Move, PieChoice, Position};
use rand::rngs::SmallRng;
use rand::Rng;

use crate::context::Context;
use crate::local::LocalTable;

/// Legal draws compared for each playout move.
pub const DRAWS: usize = 3;

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
            self.scratch.clear();
            let scratch = &mut self.scratch;
            let _ = pos.for_each_legal::<()>(rules, colour, |m| {
                scratch.push(m);
                ControlFlow::Continue(())
            });
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
