//! Move features and the one-move heuristic shared by the greedy player and the priors
//! of the tree search.

use blokus_core::{Cell, CellSet, Move, Position};
use blokus_core::{Colour, Side};

use crate::context::Context;

/// What the heuristic needs to know about the position, computed once per position and
/// then shared by every candidate move.
pub struct MoveScorer<'a> {
    ctx: &'a Context,
    colour: Colour,
    own_attach: CellSet,
    opp_attach: CellSet,
    /// Opponents' attach points and their edge neighbours still open to them: where
    /// they can grow next.
    opp_zone: CellSet,
    forbidden: CellSet,
    opening: bool,
    /// The symmetry a mirroring opponent may be copying moves with: moves covering
    /// cells of their own image under it cannot be copied.
    mirror: Option<(&'a [Cell], &'a [f32])>,
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
    /// Cells of the move in the opponents' zone (their attach points and the edge
    /// neighbours of those still open to them).
    pub zone: f32,
    /// The colour's own attach points the move spoils (edge-adjacent to it).
    pub own_spoiled: f32,
    /// Mean distance from the board centre in [0, 1] (only in the opening, else 0).
    pub centre: f32,
    /// Facing a mirroring opponent: the smallest distance between a cell the move takes
    /// from its colour (covers or borders, not yet forbidden) and that cell's image
    /// (small: it spoils a place where symmetry could be broken); else 0.
    pub mirror_gap: f32,
    /// Facing a mirroring opponent: the smallest such distance over the attach points
    /// the move creates (how close its colour can get next); else 0.
    pub mirror_approach: f32,
    /// Whether the move covers part of its own image under the symmetry that maps the
    /// position onto itself with the players' colours swapped (so it cannot be copied).
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
            opp_zone: opponent_zone(ctx, pos, side),
            forbidden: *pos.forbidden(colour),
            opening: placed < 4,
            mirror: mirror_symmetry(ctx, pos).map(|k| {
                (
                    ctx.symmetries[k].as_slice(),
                    ctx.symmetry_gaps[k].as_slice(),
                )
            }),
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
        f.blocked = cells
            .iter()
            .filter(|&&c| self.opp_attach.contains(c))
            .count() as f32;
        f.zone = cells.iter().filter(|&&c| self.opp_zone.contains(c)).count() as f32;
        f.own_spoiled = t
            .edge_cells(m)
            .iter()
            .filter(|&&c| self.own_attach.contains(c))
            .count() as f32;
        if self.opening {
            f.centre = cells
                .iter()
                .map(|c| self.ctx.centre_dist[c.index()])
                .sum::<f32>()
                / f.size;
        }
        if let Some((map, gaps)) = self.mirror {
            let set = t.cell_set(m);
            f.self_symmetric = cells.iter().any(|c| set.contains(map[c.index()]));
            f.mirror_gap = cells
                .iter()
                .chain(t.edge_cells(m))
                .filter(|&&k| !self.forbidden.contains(k))
                .map(|k| gaps[k.index()])
                .fold(f32::MAX, f32::min);
            f.mirror_approach = t
                .corner_cells(m)
                .iter()
                .filter(|&&k| !self.forbidden.contains(k))
                .map(|k| gaps[k.index()])
                .fold(f32::MAX, f32::min);
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

    /// The tree search's prior heuristic of a legal move (higher is better): the
    /// one-move heuristic of [`MoveScorer::score`] weighted towards contact: cells
    /// where the opponents could grow next count extra, spoiling one's own attach
    /// points counts against.
    pub fn prior_score(&self, m: Move) -> f32 {
        let f = self.features(m);
        let mut h = 2.0 * f.size + 1.2 * f.new_attach + 1.0 * f.blocked + 2.5 * f.zone
            - 2.0 * f.own_spoiled
            - 6.0 * f.centre;
        if f.self_symmetric {
            h += 30.0;
        }
        h
    }

    /// Whether the position is symmetric under a board symmetry with the players'
    /// colours swapped (see [`mirror_symmetry`]).
    pub fn facing_mirror(&self) -> bool {
        self.mirror.is_some()
    }

    /// The colour whose moves are scored.
    pub fn colour(&self) -> Colour {
        self.colour
    }

    /// The scored colour's attach points.
    pub(crate) fn own_attach(&self) -> &CellSet {
        &self.own_attach
    }

    /// The cells the scored colour may no longer cover.
    pub(crate) fn forbidden(&self) -> &CellSet {
        &self.forbidden
    }

    /// The other sides' attach points.
    pub(crate) fn opponent_attach(&self) -> &CellSet {
        &self.opp_attach
    }

    /// The other sides' zone: their attach points and the edge neighbours of those
    /// still open to them.
    pub(crate) fn opponent_zone(&self) -> &CellSet {
        &self.opp_zone
    }
}

/// Attach points of every scored colour of other sides than `side`, with their edge
/// neighbours that colour may still cover.
fn opponent_zone(ctx: &Context, pos: &Position, side: Side) -> CellSet {
    let g = ctx.rules.table().geometry();
    let mut out = CellSet::EMPTY;
    for c in Colour::all(ctx.num_colours) {
        if ctx.scoring_side(pos, c).is_none_or(|s| s == side) || pos.pieces_placed(c) == 0 {
            continue;
        }
        let theirs = pos.forbidden(c);
        for a in pos.attach_points(&ctx.rules, c).iter() {
            out.insert(a);
            for &n in g.edge_neighbours(a) {
                if !theirs.contains(n) {
                    out.insert(n);
                }
            }
        }
    }
    out
}

/// The board symmetry (index into [`Context::symmetries`]) that maps the position onto
/// itself with each colour of one player swapped for the other player's colour that
/// moves right after it, in a two-player game: a mirroring opponent could keep it so
/// (point reflection in Duo, also a diagonal there; a rotation in Trigon two-player).
pub fn mirror_symmetry(ctx: &Context, pos: &Position) -> Option<usize> {
    let v = ctx.rules.v();
    if v.players != 2 || !matches!(ctx.num_colours, 2 | 4) {
        return None;
    }
    let pairs = (0..ctx.num_colours).step_by(2).map(|c| (c, c + 1));
    let mut any = false;
    for (a, b) in pairs.clone() {
        let (ca, cb) = (
            pos.colour_cells(Colour::new(a)),
            pos.colour_cells(Colour::new(b)),
        );
        if ca.len() != cb.len()
            || pos.pieces_placed(Colour::new(a)) != pos.pieces_placed(Colour::new(b))
        {
            return None;
        }
        any |= !ca.is_empty();
    }
    if !any {
        return None;
    }
    ctx.symmetries.iter().position(|map| {
        pairs.clone().all(|(a, b)| {
            let cb = pos.colour_cells(Colour::new(b));
            pos.colour_cells(Colour::new(a))
                .iter()
                .all(|c| cb.contains(map[c.index()]))
        })
    })
}
