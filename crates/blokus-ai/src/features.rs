//! Move features and the one-move heuristic shared by the greedy player and the priors
//! of the tree search.

use blokus_core::{CellSet, Move, Position};

use crate::context::Context;

/// What the heuristic needs to know about the position, computed once per position and
/// then shared by every candidate move.
pub struct MoveScorer<'a> {
    ctx: &'a Context,
    colour: usize,
    own_attach: CellSet,
    opp_attach: CellSet,
    forbidden: CellSet,
    opening: bool,
    /// Moves covering cells of their own point reflection break a mirroring opponent.
    anti_mirror: bool,
}

/// The features of one move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Cells covered.
    pub size: f32,
    /// Attach points the move creates for its colour.
    pub new_attach: f32,
    /// Opponents' attach points the move covers.
    pub blocked: f32,
    /// Mean distance from the board centre in [0, 1] (only in the opening, else 0).
    pub centre: f32,
    /// Whether the move covers part of its own point reflection.
    pub self_symmetric: bool,
}

impl<'a> MoveScorer<'a> {
    /// Prepares scoring moves of the colour to move.
    pub fn new(ctx: &'a Context, pos: &Position) -> MoveScorer<'a> {
        let colour = pos.to_move();
        let side = ctx.side_of_mover(pos, colour);
        let placed = pos.pieces_placed(colour);
        MoveScorer {
            ctx,
            colour,
            own_attach: pos.attach_points(&ctx.rules, colour),
            opp_attach: ctx.opponent_attach(pos, side),
            forbidden: *pos.forbidden(colour),
            opening: placed < 4,
            anti_mirror: is_mirrored(ctx, pos),
        }
    }

    /// The features of a legal move.
    pub fn features(&self, m: Move) -> Features {
        let t = self.ctx.rules.table();
        let cells = t.info(m).cells();
        let mut f = Features {
            size: cells.len() as f32,
            ..Features::default()
        };
        for &k in t.corner_cells(m) {
            if !self.forbidden.contains(k) && !self.own_attach.contains(k) {
                f.new_attach += 1.0;
            }
        }
        let set = t.cell_set(m);
        f.blocked = set.intersection(&self.opp_attach).len() as f32;
        if self.opening {
            f.centre = cells
                .iter()
                .map(|c| self.ctx.centre_dist[c.index()])
                .sum::<f32>()
                / f.size;
        }
        if self.anti_mirror {
            f.self_symmetric = cells
                .iter()
                .any(|c| self.ctx.reflect[c.index()].is_some_and(|r| set.contains(r)));
        }
        f
    }

    /// The heuristic value of a legal move (higher is better).
    pub fn score(&self, m: Move) -> f32 {
        let f = self.features(m);
        // Big pieces first: a cell left in hand costs a point at the end.
        let mut h = 2.0 * f.size + 0.9 * f.new_attach + 1.2 * f.blocked - 6.0 * f.centre;
        if f.self_symmetric {
            h += 30.0;
        }
        h
    }

    /// The colour whose moves are scored.
    pub fn colour(&self) -> usize {
        self.colour
    }
}

/// Whether the colour to move faces a position that is point-symmetric with the colours
/// swapped, in a two-colour game: a mirroring opponent could keep it so.
pub fn is_mirrored(ctx: &Context, pos: &Position) -> bool {
    if ctx.num_colours != 2 || ctx.reflect.iter().all(|r| r.is_none()) {
        return false;
    }
    let (a, b) = (pos.colour_cells(0), pos.colour_cells(1));
    if a.len() != b.len() || a.is_empty() {
        return false;
    }
    a.iter()
        .all(|c| ctx.reflect[c.index()].is_some_and(|r| b.contains(r)))
}
