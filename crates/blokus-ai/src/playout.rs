//! Knowledge-guided playouts on blokus-core's uniform legal draws ([`Playout`]).
//!
//! A playout move is first a *last good reply* (see [`Replies`]) if one is remembered
//! and still legal. Otherwise two kinds of knowledge shape it:
//! - **Local replies.** The cells where an opponent's last placements let it grow (its
//!   new attach points and their edge neighbours) are *local*; a local cell that is
//!   also an attach point of the colour to move counts double. Fights at the contact
//!   line decide Blokus games; uniform playouts ignore them and misjudge every contested
//!   position.
//! - **Piece size.** Big pieces first: in a colour's first placements pieces below a
//!   minimum size count only when nothing bigger is there (nobody opens with small
//!   pieces), and among moves of equal local value bigger pieces are likelier.
//! - **Partner colours.** In Trigon two-player and Trigon teams, where each side plays
//!   two colours, a move of equal local value that takes none of the partner colour's
//!   attach points comes first: a colour that blocks its own partner does the
//!   opponent's work.
//!
//! How the move is found depends on the board. On small boards (Duo, Junior) the
//! colour's whole list of legal moves is searched: the moves covering the most local
//! value (counted up to a cap) win, and one of them is drawn with a weight growing with
//! its piece's size and corners. On bigger boards, where the lists are long, a few
//! placements through the shared attach points are tried (the one covering the most
//! local value is played, ties drawn by size), else the move is the best of a few
//! uniform legal draws by local value, then size, then how much the learnt policy
//! likes the piece.
//!
//! Allocation-free per playout.

use blokus_core::movetable::MoveInfo;
use blokus_core::playout::{play_out, Playout, PlayoutPolicy};
use blokus_core::position::MAX_COLOURS;
use blokus_core::{ByColour, Colour};
use blokus_core::{Cell, CellSet, GridKind, Move, Position, Rules};
use rand::rngs::SmallRng;
use rand::Rng;

use crate::context::Context;
use crate::replies::Replies;

/// Uniform legal draws compared for a playout move that is not a local reply.
pub const DRAWS: usize = 3;

/// Tries (drawn placements through shared attach points, legal or not) per local reply
/// on the boards that do not search the whole list (Classic, Trigon), where many moves
/// pass through each attach point: with 24 instead of 12 (and [`SIZE_GAMMA_BIG`]) the
/// search scored 37.6% instead of 31.9% against the reference's level 5 in 480 Classic
/// two-player games each.
const LOCAL_TRIES: usize = 24;

/// Placements looked back at for local cells (own side's skipped): in a two-colour game
/// the opponent's last two.
const RECENT: usize = 3;

/// Weight of a piece among playout moves of equal local value: this to the power of its
/// size, on Duo-sized boards (with [`CORNER_GAMMA`])...
const SIZE_GAMMA_SMALL: f32 = 3.0;

/// ...and on bigger boards, where a big piece matters more against a small one.
const SIZE_GAMMA_BIG: f32 = 5.0;

/// Local value counted at most in a whole-list playout move: beyond it, more local
/// cells covered no longer outrank a bigger piece.
const LOCAL_CAP: u32 = 5;

/// Weight factor per corner of a piece (beyond the first) among whole-list candidates of
/// equal local value: pieces that open more attach points grow further.
const CORNER_GAMMA: f32 = 1.8;

/// Boards with at most this many cells (Duo, Junior: 196) count as small above.
const SMALL_BOARD_CELLS: usize = 200;

/// Playouts from a base with fewer placements a colour than this end once their winner
/// is certain (see [`Playouts::set_base`]).
const SETTLED_BEFORE: usize = 10;

/// Reusable scratch space for playouts of one variant. Allocates when built; a playout
/// itself does not allocate.
pub struct Playouts {
    playout: Playout,
    /// Per cell, its local value for the colour to move (0: not local).
    local: Vec<u8>,
    /// The cells with a local value (to clear them).
    local_cells: Vec<Cell>,
    /// Local cells that are attach points of the colour to move, with their edge status
    /// and the cumulative count of table moves through them.
    hot: Vec<(Cell, usize, u32)>,
    /// The last placements (colour, move), oldest first, at most [`RECENT`].
    recent: [(usize, Move); RECENT],
    num_recent: usize,
    /// The board's size gamma to the power of each size (index = cells).
    gamma: Vec<f32>,
    /// Last good replies learnt in this search.
    replies: Replies,
    /// The placements of the current simulation (from before the root on), in order.
    seq: Vec<(usize, Move)>,
    /// Per piece, the learnt policy's rank of it (all 0 without a policy).
    piece_ranks: Vec<u8>,
    /// Whether a playout move that is not a last good reply is chosen from the colour's
    /// whole list of legal moves (small boards) rather than from a few draws.
    whole_list: bool,
    /// Per piece, its weight among whole-list candidates of equal local value.
    piece_gamma: Vec<f32>,
    /// Whole-list candidates of the best local value so far, with their cumulative
    /// weights.
    candidates: Vec<(Move, f32)>,
    /// Whether a playout ends as soon as its winner is certain (see
    /// [`Playouts::set_base`]).
    stop_when_settled: bool,
    /// Whether moves that spare the partner colours' attach points come first among
    /// those of equal local value (see [`spares_partners`]).
    spare_partners: bool,
}

impl Playouts {
    /// Scratch space for games under the context's rules.
    pub fn new(ctx: &Context) -> Playouts {
        let cells = ctx.rules.table().geometry().num_cells();
        let small = cells <= SMALL_BOARD_CELLS;
        let size_gamma = if small {
            SIZE_GAMMA_SMALL
        } else {
            SIZE_GAMMA_BIG
        };
        Playouts {
            playout: Playout::new(&ctx.rules),
            local: vec![0; cells],
            local_cells: Vec::with_capacity(cells),
            hot: Vec::with_capacity(64),
            recent: [(0, Move::new(0)); RECENT],
            num_recent: 0,
            gamma: (0..=ctx.max_size as i32 + 1)
                .map(|s| size_gamma.powi(s - ctx.max_size as i32))
                .collect(),
            replies: Replies::new(ctx),
            seq: Vec::with_capacity(256),
            piece_ranks: {
                let pieces = ctx.rules.table().pieces().pieces.len();
                ctx.policy
                    .as_ref()
                    .map_or_else(|| vec![0; pieces], |w| w.piece_ranks(pieces))
            },
            whole_list: small,
            piece_gamma: piece_gammas(ctx, size_gamma),
            candidates: Vec::with_capacity(1024),
            stop_when_settled: false,
            spare_partners: spares_partners(ctx),
        }
    }

    /// Makes `pos` the base of the next simulations (the search's root): every colour's
    /// legal moves are listed there once, and each [`Playouts::restart`] starts from
    /// those lists instead of generating them again.
    ///
    /// In a game of two sides, a playout from a base early in the game (fewer than
    /// [`SETTLED_BEFORE`] placements a colour) ends once every colour of one side has run
    /// out of moves behind on score: the other side can only add to its score, so the
    /// winner is certain, and its remaining placements would only widen the margin. This
    /// saves a good part of a playout where they are longest; late in the game the
    /// playouts are short and the margin is left whole.
    pub fn set_base(&mut self, ctx: &Context, pos: &Position) {
        self.playout.set_base(&ctx.rules, pos);
        self.stop_when_settled =
            ctx.num_sides == 2 && pos.moves_played() < SETTLED_BEFORE * ctx.rules.num_colours();
    }

    /// Whether the playout in `pos` may stop: every colour of `colour`'s side is `out`
    /// of moves and the side is behind (see [`Playouts::set_base`]).
    fn settled(&self, ctx: &Context, pos: &Position, colour: Colour, out: &[bool]) -> bool {
        if !self.stop_when_settled {
            return false;
        }
        let Some(side) = ctx.scoring_side(pos, colour) else {
            return false;
        };
        let side_out = Colour::all(ctx.rules.num_colours())
            .filter(|&c| ctx.scoring_side(pos, c) == Some(side))
            .all(|c| out[c.index()]);
        let score = ctx.side_scores(pos);
        side_out && score[side.index()] < score[1 - side.index()]
    }

    /// Starts a new simulation: from the base set by [`Playouts::set_base`] (the
    /// positions asked about next must be reached from it by placements), or from any
    /// position without a base.
    pub fn restart(&mut self) {
        self.playout.restart();
    }

    /// Every legal placement of `colour` in `pos`, from the move lists kept up to date
    /// since the last [`Playouts::restart`] (for expanding tree nodes on the way down).
    pub fn legal_moves(&mut self, ctx: &Context, pos: &Position, colour: Colour) -> &[Move] {
        self.playout.legal_moves(&ctx.rules, pos, colour)
    }

    /// Plays `pos` to the end of the game (the turn bookkeeping of `pos` is not kept up
    /// to date: only its placements, which is what scoring reads), going on from the
    /// move lists since the last [`Playouts::restart`]. `recent` are the
    /// placements (colour, move) that led to `pos`, oldest first (the last few are
    /// used). `on_move(ply, colour, move)` sees every placement; `ply` counts on from
    /// `first_ply`.
    pub fn run(
        &mut self,
        ctx: &Context,
        pos: &mut Position,
        rng: &mut SmallRng,
        first_ply: usize,
        recent: &[(usize, Move)],
        on_move: impl FnMut(usize, usize, Move),
    ) {
        /// The guided move choice on core's game loop.
        struct Guided<'a, F> {
            playouts: &'a mut Playouts,
            ctx: &'a Context,
            ply: usize,
            on_move: F,
        }
        impl<F: FnMut(usize, usize, Move)> PlayoutPolicy<SmallRng> for Guided<'_, F> {
            fn choose(
                &mut self,
                _rules: &Rules,
                pos: &Position,
                colour: Colour,
                rng: &mut SmallRng,
            ) -> Option<Move> {
                self.playouts.choose(self.ctx, pos, colour.index(), rng)
            }
            fn settled(
                &mut self,
                _rules: &Rules,
                pos: &Position,
                colour: Colour,
                out: &ByColour<bool, MAX_COLOURS>,
            ) -> bool {
                self.playouts.settled(self.ctx, pos, colour, &out.0)
            }
            fn placing(&mut self, colour: Colour, mv: Move) {
                (self.on_move)(self.ply, colour.index(), mv);
                self.ply += 1;
                self.playouts.remember(colour.index(), mv);
                self.playouts.seq.push((colour.index(), mv));
            }
        }
        self.seq.clear();
        self.seq.extend_from_slice(recent);
        self.num_recent = 0;
        for &(c, m) in recent.iter().rev().take(RECENT).rev() {
            self.remember(c, m);
        }
        let mut policy = Guided {
            playouts: self,
            ctx,
            ply: first_ply,
            on_move,
        };
        play_out(&ctx.rules, pos, rng, &mut policy);
        self.clear_local();
    }

    /// Learns the last good replies of the simulation just played out to `pos`; the
    /// first `before_root` placements given to [`Playouts::run`] were made before the
    /// search's root (context only).
    pub fn learn(&mut self, ctx: &Context, pos: &Position, before_root: usize) {
        let winner = ctx.sole_winner(pos);
        self.replies.learn(ctx, pos, &self.seq, before_root, winner);
    }

    /// The placements (colour index, move) of the simulation last played out: the
    /// `recent` given to [`Playouts::run`], then the playout's own.
    pub fn sequence(&self) -> &[(usize, Move)] {
        &self.seq
    }

    /// Forgets the last good replies (a new search that does not continue the last).
    pub fn forget_replies(&mut self) {
        self.replies.clear();
    }

    fn remember(&mut self, colour: usize, m: Move) {
        if self.num_recent == RECENT {
            self.recent.rotate_left(1);
            self.num_recent -= 1;
        }
        self.recent[self.num_recent] = (colour, m);
        self.num_recent += 1;
    }

    fn clear_local(&mut self) {
        for &k in &self.local_cells {
            self.local[k.index()] = 0;
        }
        self.local_cells.clear();
        self.hot.clear();
    }

    /// The playout move of `colour`, or `None` if it has no legal move.
    fn choose(
        &mut self,
        ctx: &Context,
        pos: &Position,
        colour: usize,
        rng: &mut SmallRng,
    ) -> Option<Move> {
        let rules = &ctx.rules;
        let t = rules.table();
        let min = min_size(ctx, pos.pieces_placed(Colour::new(colour)));
        // First placements and reserved cells: core's exact draws.
        let plain = pos.pieces_placed(Colour::new(colour)) == 0
            || pos.has_reserved_cells(rules, Colour::new(colour));
        if !plain {
            if let Some(m) = self.good_reply(ctx, pos, colour, min) {
                return Some(m);
            }
            // Also for a colour without a list at the base (the search of its first
            // placement), though each simulation then makes its list from scratch: a
            // colour playing out by the drawn tries plays worse, so the search would
            // undervalue it and misjudge which first placement is best.
            let whole = self.whole_list;
            self.mark_local(ctx, pos, colour, !whole);
            if whole {
                return self.most_local(ctx, pos, colour, min, rng);
            }
        } else {
            self.clear_local();
        }
        let partners = self.partner_attach(ctx, pos, colour);
        if !plain {
            if let Some(m) = self.local_reply(ctx, pos, colour, min, partners.as_ref(), rng) {
                return Some(m);
            }
        }
        let local = &self.local;
        let ranks = &self.piece_ranks;
        let key = |m: Move| {
            let info = t.info(m);
            let cells = info.cells();
            let size = cells.len() as u32;
            let value = rank_value(local_value(local, cells), info, partners.as_ref());
            let rank = ranks.get(info.piece as usize).map_or(0, |&r| u32::from(r));
            u32::from(size >= min as u32) * 65_536 + value * 256 + size * 16 + rank
        };
        self.playout
            .draw_best(rules, pos, Colour::new(colour), rng, DRAWS, key)
    }

    /// Among all legal moves of `colour`: those big enough for the opening (if any),
    /// of those the ones covering the most local value (counted up to [`LOCAL_CAP`]),
    /// and of those one drawn by its piece's weight; `None` if there is no legal move.
    fn most_local(
        &mut self,
        ctx: &Context,
        pos: &Position,
        colour: usize,
        min: usize,
        rng: &mut SmallRng,
    ) -> Option<Move> {
        let rules = &ctx.rules;
        let t = rules.table();
        let moves = self.playout.legal_moves(rules, pos, Colour::new(colour));
        let cands = &mut self.candidates;
        cands.clear();
        let mut best = 0u32;
        let mut total = 0f32;
        for &m in moves {
            let cells = t.info(m).cells();
            let v = local_value(&self.local, cells);
            // Big enough outranks any local value.
            let v = v.min(LOCAL_CAP) + if cells.len() >= min { LOCAL_CAP + 1 } else { 0 };
            if v < best {
                continue;
            }
            if v > best {
                best = v;
                total = 0.0;
                cands.clear();
            }
            total += self.piece_gamma[t.piece_of(m)];
            cands.push((m, total));
        }
        let r = rng.gen::<f32>() * total;
        let i = cands
            .partition_point(|c| c.1 <= r)
            .min(cands.len().checked_sub(1)?);
        Some(cands[i].0)
    }

    /// The last good reply of `colour` to the last placements, if one is remembered and
    /// legal now.
    fn good_reply(&self, ctx: &Context, pos: &Position, colour: usize, min: usize) -> Option<Move> {
        let n = self.num_recent;
        let last = self.recent[n.checked_sub(1)?].1;
        let before = n.checked_sub(2).map(|i| self.recent[i].1);
        let rules = &ctx.rules;
        let t = rules.table();
        let c = Colour::new(colour);
        let attach = pos.attach_points(rules, c);
        self.replies
            .candidates(colour, last, before)
            .into_iter()
            .flatten()
            .find(|&m| {
                let cells = t.info(m).cells();
                cells.len() >= min
                    && pos.still_legal(rules, c, m)
                    && cells.iter().any(|&k| attach.contains(k))
            })
    }

    /// Marks the local cells for `colour`: where the other sides' recent placements let
    /// them grow. With `hot`, also lists the shared attach points for [`Playouts::local_reply`].
    fn mark_local(&mut self, ctx: &Context, pos: &Position, colour: usize, hot: bool) {
        self.clear_local();
        let rules = &ctx.rules;
        let t = rules.table();
        let g = t.geometry();
        let own_attach = pos.attach_points(rules, Colour::new(colour));
        let own_forbidden = pos.forbidden(Colour::new(colour));
        let side = ctx.side_of_mover(pos, Colour::new(colour));
        for i in 0..self.num_recent {
            let (o, m) = self.recent[i];
            if o == colour || ctx.side_of_mover(pos, Colour::new(o)) == side {
                continue;
            }
            let theirs = pos.forbidden(Colour::new(o));
            for &k in t.corner_cells(m) {
                if theirs.contains(k) {
                    continue;
                }
                for &x in std::iter::once(&k).chain(g.edge_neighbours(k)) {
                    if theirs.contains(x) || own_forbidden.contains(x) || self.local[x.index()] > 0
                    {
                        continue;
                    }
                    let shared = own_attach.contains(x);
                    self.local[x.index()] = 1 + u8::from(shared);
                    self.local_cells.push(x);
                    if shared && hot {
                        let status = t.edge_status(x, own_forbidden);
                        let count = t.moves_at_status_all(x, status).len() as u32;
                        let total = self.hot.last().map_or(0, |h| h.2) + count;
                        self.hot.push((x, status, total));
                    }
                }
            }
        }
    }

    /// The attach points of `colour`'s partner colours (the other colours its side
    /// places now), if playouts spare them in this variant.
    fn partner_attach(&self, ctx: &Context, pos: &Position, colour: usize) -> Option<CellSet> {
        if !self.spare_partners {
            return None;
        }
        let c = Colour::new(colour);
        let side = ctx.side_of_mover(pos, c);
        let mut set = CellSet::EMPTY;
        for o in Colour::all(ctx.num_colours) {
            if o != c && ctx.side_of_mover(pos, o) == side {
                set.union_with(&pos.attach_points(&ctx.rules, o));
            }
        }
        Some(set)
    }

    /// A legal move through a shared attach point covering the most local value (ties:
    /// sparing the `partners`' attach points, then drawn by piece size), from a few
    /// random tries; `None` if none was found.
    fn local_reply(
        &self,
        ctx: &Context,
        pos: &Position,
        colour: usize,
        min: usize,
        partners: Option<&CellSet>,
        rng: &mut SmallRng,
    ) -> Option<Move> {
        let total = self.hot.last()?.2;
        if total == 0 {
            return None;
        }
        let rules = &ctx.rules;
        let t = rules.table();
        let forbidden = pos.forbidden(Colour::new(colour));
        let alt = rules.alternate_contact();
        let mut best: Option<(Move, u32)> = None;
        let mut weight_sum = 0f32;
        for _ in 0..LOCAL_TRIES {
            let r = rng.gen_range(0..total);
            let i = self.hot.partition_point(|h| h.2 <= r);
            let (p, status, _) = self.hot[i];
            let k = r - if i == 0 { 0 } else { self.hot[i - 1].2 };
            let m = t.moves_at_status_all(p, status)[k as usize];
            if pos.remaining(rules, Colour::new(colour), t.piece_of(m)) == 0 {
                continue;
            }
            let info = t.info(m);
            let cells = info.cells();
            if cells.len() < min
                || info.hits(forbidden)
                || (alt && !pos.still_legal(rules, Colour::new(colour), m))
            {
                continue;
            }
            let value = rank_value(local_value(&self.local, cells), info, partners);
            let w = self.gamma[cells.len()];
            match best {
                Some((_, v)) if v > value => {}
                Some((_, v)) if v == value => {
                    weight_sum += w;
                    if rng.gen::<f32>() * weight_sum < w {
                        best = Some((m, value));
                    }
                }
                _ => {
                    weight_sum = w;
                    best = Some((m, value));
                }
            }
        }
        best.map(|(m, _)| m)
    }
}

/// Whether playouts spare the partner colours' attach points: in two-sided games on
/// triangle boards where a side has more than one colour (Trigon two-player and
/// teams). In Trigon two-player, against the reference's level 5 at
/// `simulations=2600`, it raised the score from 30% (of 420 games) to 35% (of 720)
/// (docs/ai.md, "Trigon two-player: sparing the partner colour"). On the square board
/// it lowered Classic two-player's score against level 5 from 57% to 52% (of 480
/// games each; "Classic two-player with the partner spared"), so it stays off there.
fn spares_partners(ctx: &Context) -> bool {
    ctx.num_sides == 2
        && ctx.num_colours > ctx.num_sides
        && ctx.rules.table().geometry().kind() == GridKind::Triangle
}

/// A move's `local` value ranked with, as the lowest bit, whether it spares the
/// `partners`' attach points (when they are given).
fn rank_value(local: u32, info: &MoveInfo, partners: Option<&CellSet>) -> u32 {
    match partners {
        Some(p) => local * 2 + u32::from(!info.hits(p)),
        None => local,
    }
}

/// The local value covered by a move's `cells` (`local`: per cell, see
/// [`Playouts::mark_local`]).
fn local_value(local: &[u8], cells: &[Cell]) -> u32 {
    cells.iter().map(|k| u32::from(local[k.index()])).sum()
}

/// Per piece, its weight among whole-list playout candidates: `size_gamma` to the power
/// of its size, times [`CORNER_GAMMA`] to the power of its corners less one (the cells
/// diagonal to it on an open board: the attach points it can make).
fn piece_gammas(ctx: &Context, size_gamma: f32) -> Vec<f32> {
    let t = ctx.rules.table();
    let pieces = &t.pieces().pieces;
    let mut corners = vec![0usize; pieces.len()];
    for i in 0..t.len() {
        let m = Move::new(i);
        let p = t.piece_of(m);
        corners[p] = corners[p].max(t.corner_cells(m).len());
    }
    pieces
        .iter()
        .zip(corners)
        .map(|(piece, c)| {
            size_gamma.powi(piece.size as i32 - ctx.max_size as i32)
                * CORNER_GAMMA.powi(c as i32 - 1)
        })
        .collect()
}

/// The smallest piece worth playing in a colour's placement number `placed` (0-based)
/// in a playout: the biggest pieces first, smaller ones as the opening ends. Longer on
/// bigger boards, where the opening lasts longer.
fn min_size(ctx: &Context, placed: usize) -> usize {
    let big = ctx.max_size as usize;
    let cells = ctx.rules.table().geometry().num_cells();
    let (a, b, c) = if cells <= SMALL_BOARD_CELLS {
        (2, 3, 5)
    } else {
        (3, 5, 7)
    };
    match placed {
        p if p < a => big,
        p if p < b => big.saturating_sub(1),
        p if p < c => big.saturating_sub(2),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::{Rules, VariantId};
    use rand::SeedableRng;

    #[test]
    fn playouts_play_legal_moves_to_the_end_in_every_variant() {
        let mut rng = SmallRng::seed_from_u64(5);
        for id in VariantId::ALL.map(VariantId::as_str) {
            let mut rules = Rules::by_name(id).unwrap();
            for alt in [false, true] {
                rules.options.alternate_contact = alt;
                let ctx = Context::new(&rules);
                let mut playouts = Playouts::new(&ctx);
                for _ in 0..4 {
                    let mut pos = Position::new(&rules);
                    let mut moves = Vec::new();
                    playouts.restart();
                    playouts.run(&ctx, &mut pos, &mut rng, 0, &[], |_, c, m| {
                        moves.push((c, m))
                    });
                    // Replay with the rules' own checks.
                    let mut replay = Position::new(&rules);
                    for &(c, m) in &moves {
                        assert!(
                            replay.check_placement(&rules, Colour::new(c), m).is_ok(),
                            "{id}: illegal playout move"
                        );
                        replay.place(&rules, Colour::new(c), m);
                    }
                    for c in 0..rules.num_colours() {
                        assert!(
                            !replay.has_legal_move(&rules, Colour::new(c)),
                            "{id}: colour {c} could still move"
                        );
                    }
                }
            }
        }
    }

    /// A colour whose player ran out of time (four-player Classic) never places in a
    /// guided playout; the other colours play on.
    #[test]
    fn playouts_skip_colours_already_out() {
        let rules = Rules::by_name("classic").unwrap();
        let ctx = Context::new(&rules);
        let mut playouts = Playouts::new(&ctx);
        let mut rng = SmallRng::seed_from_u64(8);
        let mut game = blokus_core::Game::new(rules.clone());
        let first = game.legal_moves()[0];
        game.play(first).unwrap();
        game.time_out(blokus_core::PlayerId::new(1)).unwrap();
        for _ in 0..3 {
            let mut pos = game.position().clone();
            let mut placed = [0usize; 4];
            playouts.restart();
            playouts.run(&ctx, &mut pos, &mut rng, 0, &[], |_, c, _| placed[c] += 1);
            assert_eq!(placed[1], 0, "the colour out of time placed");
            assert!(
                placed[0] > 0 && placed[2] > 0 && placed[3] > 0,
                "{placed:?}"
            );
        }
    }

    /// The opponent's last placement opened attach points next to ours: on a big board
    /// (few drawn tries) the playout answers there (takes a shared attach point)
    /// whenever it can.
    #[test]
    fn playouts_answer_the_opponents_last_move() {
        let rules = Rules::by_name("classic_2").unwrap();
        let ctx = Context::new(&rules);
        let mut playouts = Playouts::new(&ctx);
        assert!(!playouts.whole_list);
        let mut rng = SmallRng::seed_from_u64(3);
        let mut local_replies = 0;
        let mut tries = 0;
        for seed in 0..40 {
            // A few random placements, then check the next playout move.
            let mut pos = Position::new(&rules);
            let mut r = SmallRng::seed_from_u64(seed);
            let mut recent = Vec::new();
            let mut core = Playout::new(&rules);
            core.begin(&rules);
            for _ in 0..24 {
                let c = pos.to_move();
                let Some(m) = core.draw(&rules, &pos, c, &mut r) else {
                    break;
                };
                pos.play(&rules, m);
                recent.push((c, m));
            }
            let c = pos.to_move();
            playouts.restart();
            playouts.num_recent = 0;
            for &(o, m) in &recent[recent.len().saturating_sub(RECENT)..] {
                playouts.remember(o.index(), m);
            }
            playouts.mark_local(&ctx, &pos, c.index(), true);
            let shared: Vec<Cell> = playouts
                .local_cells
                .iter()
                .copied()
                .filter(|k| playouts.local[k.index()] == 2)
                .collect();
            if shared.is_empty() {
                playouts.clear_local();
                continue;
            }
            tries += 1;
            if let Some(m) = playouts.choose(&ctx, &pos, c.index(), &mut rng) {
                let cells = rules.table().info(m).cells();
                if cells.iter().any(|k| shared.contains(k)) {
                    local_replies += 1;
                }
            }
            playouts.clear_local();
        }
        assert!(
            tries >= 10,
            "only {tries} positions with shared attach points"
        );
        assert!(
            local_replies * 10 >= tries * 9,
            "{local_replies} local replies in {tries}"
        );
    }

    /// Only the two-sided Trigon games, where each side has two colours, spare the
    /// partner colour in playouts.
    #[test]
    fn partners_are_spared_in_two_sided_trigon_only() {
        for id in VariantId::ALL.map(VariantId::as_str) {
            let ctx = Context::new(&Rules::by_name(id).unwrap());
            let expected = matches!(id, "trigon_2" | "trigon_teams");
            assert_eq!(spares_partners(&ctx), expected, "{id}");
        }
    }

    /// In Trigon two-player a playout move takes the partner colour's attach points
    /// less often when the partner is spared than when it is not (the same positions and
    /// draws).
    #[test]
    fn trigon_playouts_take_fewer_partner_attach_points() {
        let rules = Rules::by_name("trigon_2").unwrap();
        let ctx = Context::new(&rules);
        let count = |spare: bool| {
            let mut playouts = Playouts::new(&ctx);
            playouts.spare_partners = spare;
            let mut rng = SmallRng::seed_from_u64(21);
            let mut taken = 0;
            for seed in 0..400 {
                let pos = random_position(&rules, seed, 12 + (seed % 40) as usize);
                let c = pos.to_move();
                playouts.restart();
                playouts.num_recent = 0;
                let Some(m) = playouts.choose(&ctx, &pos, c.index(), &mut rng) else {
                    continue;
                };
                playouts.spare_partners = true;
                let partners = playouts.partner_attach(&ctx, &pos, c.index()).unwrap();
                playouts.spare_partners = spare;
                taken += usize::from(rules.table().info(m).hits(&partners));
            }
            taken
        };
        let (spared, unspared) = (count(true), count(false));
        assert!(
            spared * 2 < unspared && unspared >= 20,
            "partner attach points taken: {spared} spared, {unspared} not"
        );
    }

    /// On small boards a playout move that is not a last good reply is one of the legal
    /// moves covering the most local value (counted up to the cap), among the moves big
    /// enough for the opening: the whole list is searched, not a few draws (once the
    /// search's root lists the colour's moves).
    #[test]
    fn small_board_playouts_take_the_most_local_move() {
        let rules = Rules::by_name("duo").unwrap();
        let ctx = Context::new(&rules);
        let mut playouts = Playouts::new(&ctx);
        assert!(playouts.whole_list);
        let mut rng = SmallRng::seed_from_u64(4);
        let mut checked = 0;
        for seed in 0..60 {
            let mut pos = Position::new(&rules);
            let mut r = SmallRng::seed_from_u64(100 + seed);
            let mut core = Playout::new(&rules);
            core.begin(&rules);
            for _ in 0..(6 + seed % 10) {
                let c = pos.to_move();
                let Some(m) = core.draw(&rules, &pos, c, &mut r) else {
                    break;
                };
                pos.play(&rules, m);
                playouts.remember(c.index(), m);
            }
            let c = pos.to_move();
            // The search's root lists every colour's moves.
            playouts.set_base(&ctx, &pos);
            let placed = pos.pieces_placed(c);
            let min = min_size(&ctx, placed);
            // Nothing remembered as a last good reply: the choice is the list's.
            let Some(chosen) = playouts.choose(&ctx, &pos, c.index(), &mut rng) else {
                continue;
            };
            playouts.mark_local(&ctx, &pos, c.index(), true);
            let value = |m: Move| {
                let cells = rules.table().info(m).cells();
                let v = local_value(&playouts.local, cells);
                (cells.len() >= min, v.min(LOCAL_CAP))
            };
            let best = pos
                .legal_moves(&rules, c)
                .into_iter()
                .map(value)
                .max()
                .unwrap();
            assert!(pos.is_legal(&rules, c, chosen), "seed {seed}: illegal move");
            assert_eq!(value(chosen), best, "seed {seed}: not the most local move");
            if best.1 > 0 {
                checked += 1;
            }
            playouts.clear_local();
        }
        assert!(checked >= 20, "only {checked} positions with local cells");
    }

    /// In a two-sided game a playout from early in the game ends once a side has run out
    /// of moves behind on score: what it played is the start of the full playout with the
    /// same draws, and the winner is the same. From later bases the playouts run to the end.
    #[test]
    fn early_playouts_end_once_the_winner_is_certain() {
        let rules = Rules::by_name("duo").unwrap();
        let ctx = Context::new(&rules);
        let mut playouts = Playouts::new(&ctx);
        let mut cut = 0;
        for seed in 0..40 {
            let pos = random_position(&rules, 200 + seed, 4 + seed as usize % 8);
            playouts.set_base(&ctx, &pos);
            assert!(playouts.stop_when_settled, "seed {seed}: an early base");
            let mut play = |stop: bool| {
                playouts.stop_when_settled = stop;
                playouts.restart();
                let mut end = pos.clone();
                let mut moves = Vec::new();
                let mut rng = SmallRng::seed_from_u64(seed);
                playouts.run(&ctx, &mut end, &mut rng, 0, &[], |_, c, m| {
                    moves.push((c, m))
                });
                (moves, ctx.sole_winner(&end))
            };
            let (short, short_winner) = play(true);
            let (full, full_winner) = play(false);
            assert_eq!(short[..], full[..short.len()], "seed {seed}: not a start");
            assert_eq!(short_winner, full_winner, "seed {seed}: another winner");
            if short.len() < full.len() {
                assert!(short_winner.is_some(), "seed {seed}: cut without a winner");
                cut += 1;
            }
        }
        assert!(cut >= 10, "only {cut} of 40 playouts ended early");
        // Late in the game the playouts keep the whole margin.
        let pos = random_position(&rules, 9, 2 * SETTLED_BEFORE);
        playouts.set_base(&ctx, &pos);
        assert!(!playouts.stop_when_settled);
    }

    /// The position after `placements` uniform random placements (seeded).
    fn random_position(rules: &Rules, seed: u64, placements: usize) -> Position {
        let mut pos = Position::new(rules);
        let mut r = SmallRng::seed_from_u64(seed);
        let mut core = Playout::new(rules);
        core.begin(rules);
        for _ in 0..placements {
            let c = pos.to_move();
            let m = core
                .draw(rules, &pos, c, &mut r)
                .expect("a legal placement");
            pos.play(rules, m);
        }
        pos
    }
}
