//! The learnt move policy: a softmax over per-cell move features whose weights were fitted
//! to strong players' choices (`examples/train_policy.rs`), used by the tree search to
//! order and value the children of a node.
//!
//! A move's log-weight is the sum, over its cells, its edge neighbours and its corners,
//! of a weight for what each of those cells is in the position (an opponent's growing
//! point, a cell next to the partner colour, an attach point of our own it spoils, ...),
//! plus a weight for the piece's size and, in the opening, one for its distance from the
//! centre. Two more count the cells the move takes near the opponents' last placements
//! (the attach points those placements made, and the cells around them): strong players
//! answer where the game just happened. One per piece learns which pieces strong players
//! place first, and a second one per piece, from a colour's tenth placement on, which
//! they keep for late. The last ones measure where the move lies: its distance from the
//! centre in the early middle game, the steps from it to the nearest opponent piece
//! (strong players stay close to the opponent, best with one free cell between), and the
//! steps from its nearest new attach point (which way it grows). Every feature is a count
//! or a flag, so training fits one weight per kind of cell.

use blokus_core::{Cell, CellSet, Colour, Geometry, Move, Position, Side};

use crate::context::Context;
use crate::features::MoveScorer;

/// What a covered cell is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
enum Covered {
    Plain,
    /// An opponent's attach point, or next to one and still open to that opponent.
    OpponentZone,
    /// An attach point of the partner colour (same side).
    PartnerAttach,
}

/// What an edge neighbour of the move is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
enum Edge {
    /// Off the board or already out of bounds for the colour (own piece next to it).
    Spent,
    /// Occupied by an opponent's piece.
    Opponent,
    /// Occupied by the partner colour's piece.
    Partner,
    /// One of the colour's own attach points, which the move spoils.
    OwnAttach,
    /// A free cell the colour gives up.
    Free,
}

/// The features, in the order of the weight files.
pub const FEATURES: [&str; NUM_FEATURES] = [
    "cover_opponent_zone",
    "cover_partner_attach",
    "cover_opponent_attach",
    "edge_opponent",
    "edge_partner",
    "edge_own_attach",
    "edge_free",
    "corner_existing_attach",
    "corner_new_attach_0",
    "corner_new_attach_1",
    "corner_new_attach_2",
    "corner_new_attach_3",
    "corner_new_attach_4",
    "corner_in_opponent_zone",
    "size_1",
    "size_2",
    "size_3",
    "size_4",
    "size_5",
    "size_6",
    "opening_centre",
    "joins_partner",
    "cover_last_opponent_attach",
    "near_last_opponent",
    "piece_0",
    "piece_1",
    "piece_2",
    "piece_3",
    "piece_4",
    "piece_5",
    "piece_6",
    "piece_7",
    "piece_8",
    "piece_9",
    "piece_10",
    "piece_11",
    "piece_12",
    "piece_13",
    "piece_14",
    "piece_15",
    "piece_16",
    "piece_17",
    "piece_18",
    "piece_19",
    "piece_20",
    "piece_21",
    "centre_early",
    "opponent_distance",
    "opponent_distance_1",
    "opponent_distance_2",
    "piece_late_0",
    "piece_late_1",
    "piece_late_2",
    "piece_late_3",
    "piece_late_4",
    "piece_late_5",
    "piece_late_6",
    "piece_late_7",
    "piece_late_8",
    "piece_late_9",
    "piece_late_10",
    "piece_late_11",
    "piece_late_12",
    "piece_late_13",
    "piece_late_14",
    "piece_late_15",
    "piece_late_16",
    "piece_late_17",
    "piece_late_18",
    "piece_late_19",
    "piece_late_20",
    "piece_late_21",
    "attach_distance",
    "attach_distance_1",
    "attach_distance_2",
];

/// The first of the per-piece features (`piece_N`: the move places the piece with index
/// N in the variant's set).
const PIECE_FEATURES: usize = 24;

/// Most pieces in a set of the trained families (Trigon's 22).
const MAX_PIECES: usize = 22;

/// `centre_early`: the move's distance from the centre after the opening, up to
/// [`EARLY_PLACEMENTS`].
const CENTRE_EARLY: usize = PIECE_FEATURES + MAX_PIECES;

/// `opponent_distance`: the steps from the move to the nearest opponent piece (capped),
/// followed by the flags `opponent_distance_1` and `_2` for one and two steps.
const OPPONENT_DISTANCE: usize = CENTRE_EARLY + 1;

/// `piece_late_N`: as `piece_N`, from the colour's placement [`EARLY_PLACEMENTS`] on (on
/// top of `piece_N`): which pieces are worth placing changes as the board fills.
const PIECE_LATE: usize = OPPONENT_DISTANCE + 3;

/// `attach_distance`: the steps from the move's nearest new attach point to an opponent
/// piece (capped), followed by the flags `attach_distance_1` and `_2`: whether the move
/// grows towards the opponent or away.
const ATTACH_DISTANCE: usize = PIECE_LATE + MAX_PIECES;

/// Number of features.
pub const NUM_FEATURES: usize = ATTACH_DISTANCE + 3;

/// A feature vector.
pub type FeatureVec = [f32; NUM_FEATURES];

/// The variant families with their own weights.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PolicyFamily {
    /// Duo (14 x 14, two colours).
    Duo,
    /// Classic-sized boards with the pentomino set.
    Classic,
    /// Trigon boards.
    Trigon,
}

impl PolicyFamily {
    /// The family whose weights fit a game's rules, if any was trained for it.
    pub fn of(rules: &blokus_core::Rules) -> Option<PolicyFamily> {
        use blokus_core::VariantId as V;
        match rules.v().id {
            V::Duo => Some(PolicyFamily::Duo),
            V::Classic | V::Classic2 | V::Classic3 | V::ClassicTeams => Some(PolicyFamily::Classic),
            V::Trigon | V::Trigon2 | V::Trigon3 | V::TrigonTeams => Some(PolicyFamily::Trigon),
            _ => None,
        }
    }

    /// The name of its weight file (`data/policy-NAME.txt`).
    pub fn name(self) -> &'static str {
        match self {
            PolicyFamily::Duo => "duo",
            PolicyFamily::Classic => "classic",
            PolicyFamily::Trigon => "trigon",
        }
    }

    fn weights_text(self) -> &'static str {
        match self {
            PolicyFamily::Duo => include_str!("../data/policy-duo.txt"),
            PolicyFamily::Classic => include_str!("../data/policy-classic.txt"),
            PolicyFamily::Trigon => include_str!("../data/policy-trigon.txt"),
        }
    }

    /// The family's trained weights.
    pub fn weights(self) -> Weights {
        Weights::parse(self.weights_text())
            .unwrap_or_else(|e| panic!("data/policy-{}.txt: {e}", self.name()))
    }
}

/// The weights of the features.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights(pub FeatureVec);

impl Weights {
    /// Reads `name weight` lines (blank lines and `#` comments skipped); every feature
    /// must appear once.
    ///
    /// # Errors
    /// The line at fault: an unknown or repeated feature, a bad number, a missing one.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut w = [f32::NAN; NUM_FEATURES];
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split_whitespace();
            let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!("line {}: expected 'feature weight'", n + 1));
            };
            let i = FEATURES
                .iter()
                .position(|&f| f == name)
                .ok_or_else(|| format!("line {}: unknown feature '{name}'", n + 1))?;
            if !w[i].is_nan() {
                return Err(format!("line {}: '{name}' given twice", n + 1));
            }
            w[i] = value
                .parse()
                .map_err(|_| format!("line {}: '{value}' is not a number", n + 1))?;
        }
        if let Some(i) = w.iter().position(|x| x.is_nan()) {
            return Err(format!("feature '{}' missing", FEATURES[i]));
        }
        Ok(Weights(w))
    }

    /// The weights as a weight file.
    pub fn to_text(&self) -> String {
        FEATURES
            .iter()
            .zip(self.0)
            .map(|(f, w)| format!("{f} {w:.4}\n"))
            .collect()
    }

    /// The log-weight of a feature vector.
    #[inline]
    pub fn log_gamma(&self, x: &FeatureVec) -> f32 {
        self.0.iter().zip(x).map(|(w, x)| w * x).sum()
    }

    /// How much the policy likes each of `pieces` pieces, as a rank from 0 (least) to 15
    /// (most) among them: for the playouts, which cannot afford the whole policy at
    /// every move.
    pub fn piece_ranks(&self, pieces: usize) -> Vec<u8> {
        let n = pieces.min(MAX_PIECES);
        let w = |p: usize| self.0[PIECE_FEATURES + p];
        (0..pieces)
            .map(|p| {
                // Pieces of equal weight share a rank (all 0 when nothing was learnt).
                let below = if p < n {
                    (0..n).filter(|&q| w(q) < w(p)).count()
                } else {
                    0
                };
                (below * 16 / n) as u8
            })
            .collect()
    }
}

/// Placements of the game up to which the opening's distance from the centre counts.
const OPENING_PLACEMENTS: usize = 4;

/// Placements of the game up to which the distance from the centre counts with a weight
/// of its own (`centre_early`) after the opening.
const EARLY_PLACEMENTS: usize = 10;

/// The most steps to the nearest opponent piece that `opponent_distance` tells apart.
const DISTANCE_CAP: u8 = 6;

/// How far the game is, for the features that depend on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Up to [`OPENING_PLACEMENTS`] per colour.
    Opening,
    /// Then up to [`EARLY_PLACEMENTS`].
    Early,
    /// The rest.
    Later,
}

/// Adds a distance feature at `at`: the steps, then a flag each for 1 and for 2 steps.
fn put_steps(add: &mut impl FnMut(usize, f32), at: usize, steps: u8) {
    add(at, f32::from(steps));
    if let 1 | 2 = steps {
        add(at + usize::from(steps), 1.0);
    }
}

/// Per cell of the board: the steps (edge neighbour to edge neighbour) to the nearest
/// cell of `from`, [`DISTANCE_CAP`] for that many or more.
fn steps_to(g: &Geometry, from: &CellSet) -> Vec<u8> {
    let mut steps = vec![DISTANCE_CAP; g.num_cells()];
    let mut ring: Vec<Cell> = from.iter().collect();
    for c in &ring {
        steps[c.index()] = 0;
    }
    for d in 1..DISTANCE_CAP {
        let mut next = Vec::new();
        for &c in &ring {
            for &e in g.edge_neighbours(c) {
                if steps[e.index()] > d {
                    steps[e.index()] = d;
                    next.push(e);
                }
            }
        }
        ring = next;
    }
    steps
}

/// The per-cell facts of one position for the colour to move, shared by every candidate.
pub struct PolicyFeatures<'a> {
    ctx: &'a Context,
    covered: Vec<Covered>,
    edge: Vec<Edge>,
    opp_attach: CellSet,
    opp_zone: CellSet,
    forbidden: CellSet,
    own_attach: CellSet,
    partner: Option<Colour>,
    phase: Phase,
    /// Per cell: the steps to the nearest opponent piece ([`steps_to`]).
    opponent_steps: Vec<u8>,
    /// Opponents' attach points at the corners of their last placements.
    last_attach: CellSet,
    /// Free cells next to those corners.
    last_near: CellSet,
}

impl<'a> PolicyFeatures<'a> {
    /// Prepares the features of the moves of the colour to move, from the facts the
    /// move heuristic already gathered for the position (attach points, zones) and the
    /// placements that led to it (`(colour index, move)`, oldest first; only the last
    /// round of them counts).
    pub fn new(
        ctx: &'a Context,
        pos: &Position,
        scorer: &MoveScorer,
        recent: &[(usize, Move)],
    ) -> PolicyFeatures<'a> {
        let colour = scorer.colour();
        let side = ctx.side_of_mover(pos, colour);
        let rules = &ctx.rules;
        let g = rules.table().geometry();
        let n = g.num_cells();
        let partner = Colour::all(ctx.num_colours)
            .find(|&c| c != colour && ctx.scoring_side(pos, c) == Some(side));
        let mut opp_cells = CellSet::EMPTY;
        for c in Colour::all(ctx.num_colours) {
            if ctx.scoring_side(pos, c).is_some_and(|s: Side| s != side) {
                opp_cells.union_with(pos.colour_cells(c));
            }
        }
        let (opp_attach, opp_zone) = (*scorer.opponent_attach(), *scorer.opponent_zone());
        let (forbidden, own_attach) = (*scorer.forbidden(), *scorer.own_attach());
        let partner_attach = partner
            .filter(|&p| pos.pieces_placed(p) > 0)
            .map_or(CellSet::EMPTY, |p| pos.attach_points(rules, p));
        let partner_cells = partner.map_or(CellSet::EMPTY, |p| *pos.colour_cells(p));
        let mut covered = vec![Covered::Plain; n];
        let mut edge = vec![Edge::Spent; n];
        for c in g.cells() {
            let i = c.index();
            covered[i] = if opp_zone.contains(c) {
                Covered::OpponentZone
            } else if partner_attach.contains(c) {
                Covered::PartnerAttach
            } else {
                Covered::Plain
            };
            edge[i] = if opp_cells.contains(c) {
                Edge::Opponent
            } else if partner_cells.contains(c) {
                Edge::Partner
            } else if forbidden.contains(c) {
                Edge::Spent
            } else if own_attach.contains(c) {
                Edge::OwnAttach
            } else {
                Edge::Free
            };
        }
        // The last round of placements: each opponent's latest, if it is in it.
        let (mut last_attach, mut last_near) = (CellSet::EMPTY, CellSet::EMPTY);
        let t = rules.table();
        let round = recent.len().saturating_sub(ctx.num_colours);
        for &(c, m) in &recent[round..] {
            if ctx.scoring_side(pos, Colour::new(c)) == Some(side) {
                continue;
            }
            for &k in t.corner_cells(m) {
                if opp_attach.contains(k) {
                    last_attach.insert(k);
                }
                for &e in g.edge_neighbours(k) {
                    if !pos.occupied().contains(e) {
                        last_near.insert(e);
                    }
                }
            }
        }
        last_near.subtract(&last_attach);
        PolicyFeatures {
            ctx,
            covered,
            edge,
            opp_attach,
            opp_zone,
            forbidden,
            own_attach,
            partner,
            phase: match pos.moves_played() / ctx.num_colours {
                k if k < OPENING_PLACEMENTS => Phase::Opening,
                k if k < EARLY_PLACEMENTS => Phase::Early,
                _ => Phase::Later,
            },
            opponent_steps: steps_to(g, &opp_cells),
            last_attach,
            last_near,
        }
    }

    /// The features of a legal move.
    pub fn features(&self, m: Move) -> FeatureVec {
        let mut x = [0f32; NUM_FEATURES];
        self.each_feature(m, |i, v| x[i] += v);
        x
    }

    /// The policy's log-weights under `w` of `moves` legal moves of this position (see
    /// [`MoveWeigher`]).
    pub fn weigher<'w>(&'w self, w: &'w Weights, moves: usize) -> MoveWeigher<'w> {
        MoveWeigher::new(self, w, moves)
    }

    /// Calls `add(feature, amount)` for the features of a legal move: its vector is the
    /// sum of the amounts per feature (every other feature 0).
    #[inline]
    fn each_feature(&self, m: Move, mut add: impl FnMut(usize, f32)) {
        let t = self.ctx.rules.table();
        let g = t.geometry();
        let cells = t.info(m).cells();
        for &c in cells {
            match self.covered[c.index()] {
                Covered::OpponentZone => add(0, 1.0),
                Covered::PartnerAttach => add(1, 1.0),
                Covered::Plain => {}
            }
            if self.opp_attach.contains(c) {
                add(2, 1.0);
            }
            if self.last_attach.contains(c) {
                add(22, 1.0);
            } else if self.last_near.contains(c) {
                add(23, 1.0);
            }
        }
        let mut touches_partner = false;
        for &c in t.edge_cells(m) {
            match self.edge[c.index()] {
                Edge::Opponent => add(3, 1.0),
                Edge::Partner => {
                    add(4, 1.0);
                    touches_partner = true;
                }
                Edge::OwnAttach => add(5, 1.0),
                Edge::Free => add(6, 1.0),
                Edge::Spent => {}
            }
        }
        // The move's cells and their edge neighbours: the cells a new attach point's
        // neighbour must avoid to stay open (one bit test each instead of a walk).
        let mut near = *t.cell_set(m);
        for &e in t.edge_cells(m) {
            near.insert(e);
        }
        let mut attach_steps = DISTANCE_CAP;
        for &k in t.corner_cells(m) {
            if self.forbidden.contains(k) || self.edge[k.index()] == Edge::Opponent {
                continue;
            }
            if self.own_attach.contains(k) {
                add(7, 1.0);
                continue;
            }
            attach_steps = attach_steps.min(self.opponent_steps[k.index()]);
            // A new attach point: how many of its edge neighbours stay open to the colour
            // after the move (more room, more ways to use it).
            let open = g
                .edge_neighbours(k)
                .iter()
                .filter(|&&e| !self.forbidden.contains(e) && !near.contains(e))
                .count()
                .min(4);
            add(8 + open, 1.0);
            if self.opp_zone.contains(k) {
                add(13, 1.0);
            }
        }
        add(14 + (cells.len().clamp(1, 6) - 1), 1.0);
        let piece = t.piece_of(m);
        if piece < MAX_PIECES {
            add(PIECE_FEATURES + piece, 1.0);
            if self.phase == Phase::Later {
                add(PIECE_LATE + piece, 1.0);
            }
        }
        let centre = || {
            cells
                .iter()
                .map(|c| self.ctx.centre_dist[c.index()])
                .fold(f32::MAX, f32::min)
        };
        match self.phase {
            Phase::Opening => add(20, centre()),
            Phase::Early => add(CENTRE_EARLY, centre()),
            Phase::Later => {}
        }
        let steps = cells
            .iter()
            .map(|c| self.opponent_steps[c.index()])
            .min()
            .unwrap_or(DISTANCE_CAP);
        put_steps(&mut add, OPPONENT_DISTANCE, steps);
        put_steps(&mut add, ATTACH_DISTANCE, attach_steps);
        if self.partner.is_some() && touches_partner {
            add(21, 1.0);
        }
    }
}

/// What a corner cell of a move is to [`MoveWeigher`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Corner {
    /// Forbidden to the colour or next to an opponent's piece: no attach point.
    Dead,
    /// One of the colour's attach points already.
    Existing,
    /// A new attach point.
    New,
}

/// What [`MoveWeigher`] knows of one cell: every fact a move's weight reads of it, side
/// by side (one look-up per cell of a move, not one per fact).
#[derive(Clone, Copy)]
struct CellWeights {
    /// The weight of covering the cell.
    cover: f32,
    /// The weight of having it as an edge neighbour.
    edge: f32,
    /// The weight of it as a new attach point, beyond its open neighbours.
    new_corner: f32,
    /// The move being weighed when the cell is one of its edge neighbours.
    mark: u32,
    /// The steps to the nearest opponent piece.
    steps: u8,
    /// What it is as a corner of a move.
    corner: Corner,
    /// Whether it is the partner's piece.
    partner: bool,
    /// Whether it is forbidden to the colour.
    forbidden: bool,
}

/// [`MoveWeigher`] prepares its per-cell table when it weighs at least one move for
/// every this many cells of the board: preparing it costs about as much as weighing a
/// move for every two cells saves (late in a Duo game, with few moves, it would cost more
/// than it saves).
const CELLS_PER_WEIGHED_MOVE: usize = 2;

/// The policy's log-weight of each legal move of one position: `w.log_gamma(&features(m))`
/// with every weight that depends on a cell alone summed per cell beforehand, so that
/// weighing a move is a few table look-ups per cell. A tree expansion weighs every legal
/// move of its position (hundreds in Trigon), and with the features counted one by one
/// that was a fifth of a Trigon search's time. For a few moves the features are counted
/// one by one.
pub struct MoveWeigher<'a> {
    pf: &'a PolicyFeatures<'a>,
    w: &'a Weights,
    /// Per cell, what a move's weight reads of it (empty: count the features instead).
    cells: Vec<CellWeights>,
    /// `corner_existing_attach`.
    existing: f32,
    /// `corner_new_attach_N` by N.
    open: [f32; 5],
    /// Per piece: the weights of its size and of the piece itself.
    piece: Vec<f32>,
    /// The weight of the distance from the centre in this phase (0: none counted).
    centre: f32,
    /// Per step count: the weights of the steps to the nearest opponent piece...
    opponent_steps: [f32; DISTANCE_CAP as usize + 1],
    /// ...and from the nearest new attach point.
    attach_steps: [f32; DISTANCE_CAP as usize + 1],
    /// `joins_partner`, where the colour has a partner.
    joins_partner: f32,
    /// The mark of the move being weighed.
    stamp: u32,
}

impl<'a> MoveWeigher<'a> {
    fn new(pf: &'a PolicyFeatures<'a>, weights: &'a Weights, moves: usize) -> MoveWeigher<'a> {
        let w = &weights.0;
        let table = moves * CELLS_PER_WEIGHED_MOVE >= pf.covered.len();
        let cells = (0..if table { pf.covered.len() } else { 0 })
            .map(|i| {
                let c = Cell::new(i);
                let mut cover = match pf.covered[i] {
                    Covered::OpponentZone => w[0],
                    Covered::PartnerAttach => w[1],
                    Covered::Plain => 0.0,
                };
                if pf.opp_attach.contains(c) {
                    cover += w[2];
                }
                if pf.last_attach.contains(c) {
                    cover += w[22];
                } else if pf.last_near.contains(c) {
                    cover += w[23];
                }
                let forbidden = pf.forbidden.contains(c);
                CellWeights {
                    cover,
                    edge: match pf.edge[i] {
                        Edge::Opponent => w[3],
                        Edge::Partner => w[4],
                        Edge::OwnAttach => w[5],
                        Edge::Free => w[6],
                        Edge::Spent => 0.0,
                    },
                    new_corner: if pf.opp_zone.contains(c) { w[13] } else { 0.0 },
                    mark: 0,
                    steps: pf.opponent_steps[i],
                    corner: if forbidden || pf.edge[i] == Edge::Opponent {
                        Corner::Dead
                    } else if pf.own_attach.contains(c) {
                        Corner::Existing
                    } else {
                        Corner::New
                    },
                    partner: pf.edge[i] == Edge::Partner,
                    forbidden,
                }
            })
            .collect();
        let later = pf.phase == Phase::Later;
        let pieces = &pf.ctx.rules.table().pieces().pieces;
        let piece = pieces
            .iter()
            .enumerate()
            .map(|(p, piece)| {
                let mut x = w[14 + piece.size.clamp(1, 6) - 1];
                if p < MAX_PIECES {
                    x += w[PIECE_FEATURES + p];
                    if later {
                        x += w[PIECE_LATE + p];
                    }
                }
                x
            })
            .collect();
        let steps = |at: usize| {
            std::array::from_fn(|s| {
                let mut x = 0.0;
                put_steps(&mut |i, v| x += w[i] * v, at, s as u8);
                x
            })
        };
        MoveWeigher {
            pf,
            w: weights,
            cells,
            existing: w[7],
            open: std::array::from_fn(|k| w[8 + k]),
            piece,
            centre: match pf.phase {
                Phase::Opening => w[20],
                Phase::Early => w[CENTRE_EARLY],
                Phase::Later => 0.0,
            },
            opponent_steps: steps(OPPONENT_DISTANCE),
            attach_steps: steps(ATTACH_DISTANCE),
            joins_partner: if pf.partner.is_some() { w[21] } else { 0.0 },
            stamp: 0,
        }
    }

    /// The log-weight of a legal move of the position.
    pub fn log_gamma(&mut self, m: Move) -> f32 {
        if self.cells.is_empty() {
            let mut sum = 0.0;
            self.pf.each_feature(m, |i, v| sum += self.w.0[i] * v);
            return sum;
        }
        let ctx = self.pf.ctx;
        let t = ctx.rules.table();
        let g = t.geometry();
        let covered = t.info(m).cells();
        let mut sum = self.piece[t.piece_of(m)];
        let mut steps = DISTANCE_CAP;
        for &c in covered {
            let x = &self.cells[c.index()];
            sum += x.cover;
            steps = steps.min(x.steps);
        }
        if self.centre != 0.0 {
            let d = covered
                .iter()
                .map(|c| ctx.centre_dist[c.index()])
                .fold(f32::MAX, f32::min);
            sum += self.centre * d;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            for x in &mut self.cells {
                x.mark = 0;
            }
            self.stamp = 1;
        }
        let mut touches_partner = false;
        for &e in t.edge_cells(m) {
            let x = &mut self.cells[e.index()];
            sum += x.edge;
            touches_partner |= x.partner;
            x.mark = self.stamp;
        }
        if touches_partner {
            sum += self.joins_partner;
        }
        let mut attach_steps = DISTANCE_CAP;
        for &k in t.corner_cells(m) {
            let x = self.cells[k.index()];
            match x.corner {
                Corner::Dead => {}
                Corner::Existing => sum += self.existing,
                Corner::New => {
                    attach_steps = attach_steps.min(x.steps);
                    // An edge neighbour of a corner is never one of the move's cells (the
                    // corner would then touch it by an edge), so it stays open unless
                    // forbidden or next to the move.
                    let open = g
                        .edge_neighbours(k)
                        .iter()
                        .filter(|&&e| {
                            let n = &self.cells[e.index()];
                            !n.forbidden && n.mark != self.stamp
                        })
                        .count()
                        .min(4);
                    sum += self.open[open] + x.new_corner;
                }
            }
        }
        sum + self.opponent_steps[steps as usize] + self.attach_steps[attach_steps as usize]
    }
}

/// Fitting the weights: a softmax (conditional logit) over each position's legal moves,
/// maximising the log-likelihood of the moves strong players chose.
pub mod training {
    use super::{FeatureVec, Weights, NUM_FEATURES};

    /// Training positions, flattened: every legal move's features, and per position the
    /// range of its moves and the index of the move played.
    #[derive(Default)]
    pub struct Samples {
        /// Every legal move's features.
        pub x: Vec<FeatureVec>,
        /// Per position: its moves' range in `x` and the index (in `x`) of the one played.
        pub positions: Vec<(usize, usize, usize)>,
    }

    impl Samples {
        /// Adds a position: its legal moves' features, and which of them was played.
        pub fn push(&mut self, moves: impl Iterator<Item = FeatureVec>, played: usize) {
            let start = self.x.len();
            self.x.extend(moves);
            assert!(
                start + played < self.x.len(),
                "the played move is one of the moves"
            );
            self.positions.push((start, self.x.len(), start + played));
        }

        /// The moves of position `p`, as a range of `x`.
        pub fn moves(&self, p: usize) -> std::ops::Range<usize> {
            self.positions[p].0..self.positions[p].1
        }
    }

    /// The mean log-likelihood of the played moves per position under the softmax of
    /// `logit` (of a move's index in `x`), and its gradient with respect to the weights
    /// of a linear `logit`.
    pub fn log_likelihood(s: &Samples, logit: impl Fn(usize) -> f32) -> (f64, Vec<f64>) {
        let mut ll = 0.0;
        let mut grad = vec![0.0f64; NUM_FEATURES];
        let mut z = Vec::new();
        for p in 0..s.positions.len() {
            let r = s.moves(p);
            z.clear();
            z.extend(r.clone().map(|i| logit(i) as f64));
            let max = z.iter().cloned().fold(f64::MIN, f64::max);
            let sum: f64 = z.iter().map(|v| (v - max).exp()).sum();
            let played = s.positions[p].2;
            ll += z[played - r.start] - max - sum.ln();
            for (k, i) in r.clone().enumerate() {
                let prob = (z[k] - max).exp() / sum;
                for (g, &x) in grad.iter_mut().zip(&s.x[i]) {
                    *g -= prob * x as f64;
                }
            }
            for (g, &x) in grad.iter_mut().zip(&s.x[played]) {
                *g += x as f64;
            }
        }
        let n = s.positions.len().max(1) as f64;
        (ll / n, grad.into_iter().map(|g| g / n).collect())
    }

    /// Adam on the mean log-likelihood with a small L2 penalty, `steps` full passes over
    /// the samples; `progress` sees each step's log-likelihood.
    pub fn fit(s: &Samples, steps: usize, mut progress: impl FnMut(usize, f64)) -> Weights {
        const RATE: f64 = 0.05;
        const L2: f64 = 1e-4;
        let mut w = [0f64; NUM_FEATURES];
        let (mut m, mut v) = ([0f64; NUM_FEATURES], [0f64; NUM_FEATURES]);
        for step in 1..=steps {
            let wf = Weights(w.map(|x| x as f32));
            let (ll, grad) = log_likelihood(s, |i| wf.log_gamma(&s.x[i]));
            progress(step, ll);
            for k in 0..NUM_FEATURES {
                let g = grad[k] - 2.0 * L2 * w[k];
                m[k] = 0.9 * m[k] + 0.1 * g;
                v[k] = 0.999 * v[k] + 0.001 * g * g;
                let mh = m[k] / (1.0 - 0.9f64.powi(step as i32));
                let vh = v[k] / (1.0 - 0.999f64.powi(step as i32));
                w[k] += RATE * mh / (vh.sqrt() + 1e-8);
            }
        }
        Weights(w.map(|x| x as f32))
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use rand::{Rng, SeedableRng};

        /// Positions whose played move is drawn from a known softmax: the fit finds
        /// weights close to the true ones.
        #[test]
        fn the_fit_recovers_the_weights_that_made_the_choices() {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
            let mut truth = [0f32; NUM_FEATURES];
            truth[0] = 1.0;
            truth[3] = -0.5;
            let truth = Weights(truth);
            let mut s = Samples::default();
            for _ in 0..3000 {
                let moves: Vec<FeatureVec> = (0..8)
                    .map(|_| {
                        let mut x = [0f32; NUM_FEATURES];
                        x[0] = rng.gen_range(0..4) as f32;
                        x[3] = rng.gen_range(0..4) as f32;
                        x
                    })
                    .collect();
                let g: Vec<f32> = moves.iter().map(|x| truth.log_gamma(x).exp()).collect();
                let mut r = rng.gen::<f32>() * g.iter().sum::<f32>();
                let played = g.iter().position(|&w| {
                    r -= w;
                    r <= 0.0
                });
                s.push(moves.into_iter(), played.unwrap_or(7));
            }
            let w = fit(&s, 300, |_, _| {});
            assert!((w.0[0] - 1.0).abs() < 0.15, "{:?}", w.0);
            assert!((w.0[3] + 0.5).abs() < 0.15, "{:?}", w.0);
            assert!(
                w.0[1].abs() < 0.05,
                "features never seen stay near 0: {:?}",
                w.0
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::Rules;

    #[test]
    fn every_shipped_weight_file_parses_with_every_feature() {
        for f in [
            PolicyFamily::Duo,
            PolicyFamily::Classic,
            PolicyFamily::Trigon,
        ] {
            let w = f.weights();
            assert!(w.0.iter().all(|x| x.is_finite()), "{f:?}");
            assert_eq!(Weights::parse(&w.to_text()).unwrap(), w);
        }
    }

    #[test]
    fn bad_weight_files_name_the_problem() {
        let ok = Weights([0.5; NUM_FEATURES]).to_text();
        assert!(Weights::parse(&ok.replace("edge_free", "edge_fre"))
            .unwrap_err()
            .contains("unknown feature 'edge_fre'"));
        assert!(Weights::parse(&ok.replace("size_6 0.5000", "size_6 x"))
            .unwrap_err()
            .contains("'x' is not a number"));
        let missing: String = ok.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(Weights::parse(&missing)
            .unwrap_err()
            .contains("'cover_opponent_zone' missing"));
        assert!(Weights::parse(&format!("{ok}size_1 2\n"))
            .unwrap_err()
            .contains("given twice"));
    }

    #[test]
    fn features_count_what_the_move_touches() {
        let rules = Rules::by_name("duo").unwrap();
        let ctx = Context::new(&rules);
        let mut game = blokus_core::Game::new(rules);
        game.play_text("f9,e10,f10,g10,f11").unwrap();
        game.play_text("j5,i6,j6,k6,j7").unwrap();
        let scorer = MoveScorer::new(&ctx, game.position());
        let pf = PolicyFeatures::new(&ctx, game.position(), &scorer, &[]);
        let t = ctx.rules.table();
        for m in game.legal_moves() {
            let x = pf.features(m);
            let size = t.info(m).cells().len();
            assert_eq!(x[14 + size - 1], 1.0);
            assert_eq!(x[14..20].iter().sum::<f32>(), 1.0);
            assert!(x[..14].iter().all(|&v| v >= 0.0));
            // No partner colour in Duo.
            assert_eq!(x[1] + x[4] + x[21], 0.0);
            // One piece, and no last placements given.
            assert_eq!(x[PIECE_FEATURES + t.piece_of(m)], 1.0);
            assert_eq!(x[PIECE_FEATURES..CENTRE_EARLY].iter().sum::<f32>(), 1.0);
            assert_eq!(x[22] + x[23], 0.0);
        }
    }

    /// The log-weight summed feature by feature is the weights times the feature
    /// vector, for every legal move of positions in each family (with partner colours
    /// in the four-colour games, last placements given, each phase of the game).
    #[test]
    fn the_log_weight_is_the_weights_times_the_features() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for (variant, family) in [
            ("duo", PolicyFamily::Duo),
            ("classic_2", PolicyFamily::Classic),
            ("trigon_2", PolicyFamily::Trigon),
        ] {
            let rules = Rules::by_name(variant).unwrap();
            let ctx = Context::new(&rules);
            let w = family.weights();
            let mut game = blokus_core::Game::new(rules);
            let mut recent = Vec::new();
            let mut checked = 0;
            for placement in 0..40 {
                let pos = game.position();
                if pos.is_over() {
                    break;
                }
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if placement % 6 == 0 {
                    let scorer = MoveScorer::new(&ctx, pos);
                    let pf = PolicyFeatures::new(&ctx, pos, &scorer, &recent);
                    // With the per-cell table and without.
                    for n in [moves.len().max(pf.covered.len()), 1] {
                        let mut weigher = pf.weigher(&w, n);
                        for &m in &moves {
                            let (dense, fast) =
                                (w.log_gamma(&pf.features(m)), weigher.log_gamma(m));
                            assert!(
                                (dense - fast).abs() <= 1e-4 * dense.abs().max(1.0),
                                "{variant} after {placement} ({n}): {dense} against {fast}"
                            );
                            checked += 1;
                        }
                    }
                }
                let m = moves[rng.gen_range(0..moves.len())];
                recent.push((game.position().to_move().index(), m));
                game.play(m).unwrap();
            }
            assert!(checked > 100, "{variant}: {checked} moves checked");
        }
    }

    /// Duo after an X opening by each colour: the context, the game, and Orange's cells.
    fn after_two_openings() -> (Context, blokus_core::Game, Vec<(i32, i32)>) {
        let rules = Rules::by_name("duo").unwrap();
        let ctx = Context::new(&rules);
        let mut game = blokus_core::Game::new(rules);
        game.play_text("f9,e10,f10,g10,f11").unwrap();
        let orange = game.play_text("j5,i6,j6,k6,j7").unwrap();
        let t = ctx.rules.table();
        let orange = t.info(orange).cells().iter().map(|&c| xy(t.geometry(), c));
        let orange = orange.collect();
        (ctx, game, orange)
    }

    fn xy(g: &Geometry, c: Cell) -> (i32, i32) {
        let (x, y) = g.xy(c);
        (x as i32, y as i32)
    }

    /// The fewest steps from `cells` to `to` on a square board (the Manhattan distance),
    /// capped at [`DISTANCE_CAP`] (also when `cells` is empty).
    fn square_steps(cells: impl Iterator<Item = (i32, i32)>, to: &[(i32, i32)]) -> u8 {
        cells
            .flat_map(|(x, y)| {
                to.iter()
                    .map(move |&(ox, oy)| (x - ox).abs() + (y - oy).abs())
            })
            .min()
            .map_or(DISTANCE_CAP, |s| s.min(i32::from(DISTANCE_CAP)) as u8)
    }

    #[test]
    fn the_distance_to_the_opponent_is_the_steps_from_the_nearest_cell() {
        let (ctx, game, orange) = after_two_openings();
        let pos = game.position();
        let scorer = MoveScorer::new(&ctx, pos);
        let pf = PolicyFeatures::new(&ctx, pos, &scorer, &[]);
        let t = ctx.rules.table();
        let mut seen = [0; 7];
        for m in game.legal_moves() {
            let x = pf.features(m);
            let cells = t.info(m).cells().iter().map(|&c| xy(t.geometry(), c));
            let steps = square_steps(cells, &orange);
            let name = blokus_core::notation::format_move(t, m);
            assert_steps(&x, OPPONENT_DISTANCE, steps, &name);
            seen[usize::from(steps)] += 1;
        }
        // Purple's moves reach from next to Orange out to the cap.
        assert!(seen[1] > 0 && seen[2] > 0 && seen[6] > 0, "{seen:?}");
    }

    /// A distance feature at `at` holds `steps`, then its flags for 1 and 2 steps (what
    /// `put_steps` writes).
    fn assert_steps(x: &FeatureVec, at: usize, steps: u8, name: &str) {
        assert_eq!(x[at], f32::from(steps), "{name}");
        assert_eq!(x[at + 1], f32::from(u8::from(steps == 1)), "{name}");
        assert_eq!(x[at + 2], f32::from(u8::from(steps == 2)), "{name}");
    }

    #[test]
    fn the_centre_counts_in_the_opening_and_with_its_own_weight_until_the_middle_game() {
        let rules = Rules::by_name("duo").unwrap();
        let ctx = Context::new(&rules);
        let mut game = blokus_core::Game::new(rules);
        let centre_weights = |game: &blokus_core::Game| {
            let pos = game.position();
            let scorer = MoveScorer::new(&ctx, pos);
            let pf = PolicyFeatures::new(&ctx, pos, &scorer, &[]);
            let x: Vec<FeatureVec> = game
                .legal_moves()
                .into_iter()
                .map(|m| pf.features(m))
                .collect();
            let sum = |i: usize| x.iter().map(|x| x[i]).sum::<f32>();
            (sum(20) > 0.0, sum(CENTRE_EARLY) > 0.0)
        };
        let mut seen = Vec::new();
        while game.position().moves_played() < 2 * EARLY_PLACEMENTS + 2 {
            seen.push(centre_weights(&game));
            let m = game.legal_moves()[0];
            game.play(m).unwrap();
        }
        let opening = 2 * OPENING_PLACEMENTS;
        let early = 2 * EARLY_PLACEMENTS;
        assert!(
            seen[..opening].iter().all(|&s| s == (true, false)),
            "{seen:?}"
        );
        assert!(
            seen[opening..early].iter().all(|&s| s == (false, true)),
            "{seen:?}"
        );
        assert!(
            seen[early..].iter().all(|&s| s == (false, false)),
            "{seen:?}"
        );
    }

    #[test]
    fn a_late_piece_feature_repeats_the_piece_from_the_later_game_on() {
        let rules = Rules::by_name("duo").unwrap();
        let ctx = Context::new(&rules);
        let t = ctx.rules.table();
        let mut game = blokus_core::Game::new(rules);
        while game.position().moves_played() < 2 * EARLY_PLACEMENTS + 4 {
            let pos = game.position();
            let later = pos.moves_played() / 2 >= EARLY_PLACEMENTS;
            let scorer = MoveScorer::new(&ctx, pos);
            let pf = PolicyFeatures::new(&ctx, pos, &scorer, &[]);
            let moves = game.legal_moves();
            for &m in &moves {
                let x = pf.features(m);
                let late = &x[PIECE_LATE..PIECE_LATE + MAX_PIECES];
                let expected = f32::from(u8::from(later));
                assert_eq!(late[t.piece_of(m)], expected, "{}", pos.moves_played());
                assert_eq!(late.iter().sum::<f32>(), expected);
            }
            game.play(moves[0]).unwrap();
        }
    }

    #[test]
    fn the_attach_distance_is_the_steps_from_the_nearest_new_attach_point() {
        let (ctx, game, orange) = after_two_openings();
        let pos = game.position();
        let scorer = MoveScorer::new(&ctx, pos);
        let pf = PolicyFeatures::new(&ctx, pos, &scorer, &[]);
        let t = ctx.rules.table();
        let purple = pos.to_move();
        let before = pos.attach_points(&ctx.rules, purple);
        let mut seen = [0; 7];
        for m in game.legal_moves() {
            let mut after = pos.clone();
            after.play(&ctx.rules, m);
            // The attach points the move makes.
            let fresh = after.attach_points(&ctx.rules, purple).difference(&before);
            let steps = square_steps(fresh.iter().map(|c| xy(t.geometry(), c)), &orange);
            let x = pf.features(m);
            let name = blokus_core::notation::format_move(t, m);
            assert_steps(&x, ATTACH_DISTANCE, steps, &name);
            seen[usize::from(steps)] += 1;
        }
        // Purple's moves grow from next to Orange out to the cap.
        assert!(seen[1] > 0 && seen[2] > 0 && seen[6] > 0, "{seen:?}");
    }

    #[test]
    fn piece_ranks_follow_the_weights_and_are_all_0_without_any() {
        assert!(Weights([0.0; NUM_FEATURES])
            .piece_ranks(21)
            .iter()
            .all(|&r| r == 0));
        let mut w = Weights([0.0; NUM_FEATURES]);
        // Piece 3 is liked most, piece 7 least.
        w.0[PIECE_FEATURES + 3] = 2.0;
        w.0[PIECE_FEATURES + 7] = -1.0;
        let ranks = w.piece_ranks(21);
        assert_eq!(ranks[7], 0);
        assert_eq!(ranks[3], 15);
        // The others tie: one piece below them of 21, 16 ranks.
        assert!(ranks
            .iter()
            .enumerate()
            .all(|(p, &r)| p == 3 || p == 7 || r == 16 / 21));
    }

    #[test]
    fn moves_near_the_opponents_last_placement_are_local() {
        let rules = Rules::by_name("duo").unwrap();
        let ctx = Context::new(&rules);
        let mut game = blokus_core::Game::new(rules);
        let recent: Vec<(usize, Move)> = ["f9,e10,f10,g10,f11", "j5,i6,j6,k6,j7", "g8,h8"]
            .iter()
            .map(|text| {
                game.play_text(text).unwrap();
                match game.events().last() {
                    Some(&blokus_core::GameEvent::Place { colour, mv }) => (colour.index(), mv),
                    e => panic!("{e:?}"),
                }
            })
            .collect();
        // Orange to move: local cells come from Purple's last placement (g8,h8) alone,
        // not from its first one nor from Orange's own.
        let pos = game.position();
        let scorer = MoveScorer::new(&ctx, pos);
        let pf = PolicyFeatures::new(&ctx, pos, &scorer, &recent);
        let t = ctx.rules.table();
        let g = t.geometry();
        let corners = t.corner_cells(recent[2].1);
        let (mut local, mut far) = (0, 0);
        for m in pos.legal_moves(&ctx.rules, pos.to_move()) {
            let x = pf.features(m);
            let near_last = t.info(m).cells().iter().any(|&c| {
                corners.contains(&c) || g.edge_neighbours(c).iter().any(|n| corners.contains(n))
            });
            if x[22] + x[23] > 0.0 {
                local += 1;
                assert!(near_last, "{}", blokus_core::notation::format_move(t, m));
            } else {
                far += 1;
            }
        }
        assert!(local > 0 && far > 0, "{local} local, {far} not");
        // Without the last placements nothing is local.
        let pf = PolicyFeatures::new(&ctx, pos, &scorer, &[]);
        assert!(pos
            .legal_moves(&ctx.rules, pos.to_move())
            .iter()
            .all(|&m| pf.features(m)[22..24] == [0.0, 0.0]));
    }
}
