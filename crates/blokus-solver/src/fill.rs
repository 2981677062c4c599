//! Rule-aware search for the placement puzzles `all_84` and `all_88`: place every piece
//! of every colour on a game board, each colour obeying the placement rules, the solver
//! choosing which colour moves.
//!
//! On boards with quarter-turn symmetry (`all_84`) the search first looks for a board
//! that turns onto itself (`symmetric.rs`), which needs only one colour's pieces placed.
//! Otherwise (`all_88`, or a prefix no such board extends), every candidate placement
//! comes from blokus-core's legal-move generator, so the rules have one source of
//! truth. That search is a beam search over positions, finished by a depth-first
//! search near the end:
//! - each position moves the colour and piece with the fewest legal placements (fail
//!   first), largest pieces first (strictly by size class with `decreasing`); a colour
//!   that can never move again is a dead end;
//! - placements are scored by how compactly they pack (sides touching covered cells or
//!   the board's edge) and by the empty cells they leave next to pieces that no colour
//!   reaches within two steps (likely wasted);
//! - a wasted cell is one no colour with pieces left can reach at all; waste only
//!   grows, and the board has exactly `cells - pieces' cells` to spare, so more waste
//!   than that is a dead end;
//! - when the beam dies, the search starts again with a new tie-breaking order derived
//!   from the seed, so runs are reproducible.

use blokus_core::Colour;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use blokus_core::{Cell, CellSet, GridKind, Move, Position, Rules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::symmetric::{self, Outcome, Symmetry};

/// Options of a placement-puzzle search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FillOptions {
    /// Place every piece of one size (all colours) before any smaller piece.
    pub decreasing: bool,
    /// Seed of the tie-breaking order.
    pub seed: u64,
    /// Give up after this many placements tried in total (0: never).
    pub max_nodes: u64,
}

/// Search statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FillStats {
    /// Placements tried.
    pub nodes: u64,
    /// Restarts made.
    pub restarts: u64,
    /// Most pieces on the board at any node so far.
    pub deepest: usize,
}

/// Positions kept per depth. Narrow beams fail more often but cost far less, and
/// restarts are cheap: on `all_88` (seeds 1..24) width 10 had a median of 1.0 s and a
/// worst of 3 s, against 2.9 s and 14 s for width 30 (and a longer tail for 6).
const BEAM_WIDTH: usize = 10;
/// Placements of one position passed to the next depth.
const CHILDREN: usize = 8;
/// With this few pieces left, the beam hands its positions to a depth-first search.
/// The beam's layers cost far more per node than the endgame's (many placements to
/// score early on), so handing over early is cheaper than a restart: on `all_88` 24
/// solved all of ten seeds without a restart where 12 needed up to seven.
const ENDGAME: usize = 24;
/// When every endgame search fails, depth-first searches start again from the beam's
/// layers this many pieces before the endgame (reusing the beam's work) before the
/// whole beam restarts.
const FALLBACK_STEPS: [usize; 2] = [4, 8];
/// Pieces before the endgame of the layer a restart may resume from.
const RESUME_STEPS: usize = 16;
/// Nodes of the depth-first search from one beam position.
/// (A solvable position is mostly solved within a few dozen nodes; on `all_88` 1,000
/// gave a median of 0.65 s and a worst of 2.4 s over 48 seeds, against 1.1 s and 9 s
/// for 3,000.)
const ENDGAME_BUDGET: u64 = 1_000;
/// Weight of a packing contact against one likely wasted cell.
const CONTACT_WEIGHT: i64 = 3;
/// Steps within which a colour must reach an empty cell next to a piece for the cell
/// to count as usable.
const NEAR_STEPS: usize = 2;

/// A scored placement: (score, random tie-break, move); smaller is better.
type Scored = (i64, u32, Move);

/// A position of a beam layer with the moves that led to it.
type Layered = (Position, Vec<(Colour, Move)>);

/// A position of the next beam layer: score, tie-break, position, moves so far.
type Candidate = (i64, u32, Position, Vec<(Colour, Move)>);

/// What a position leads to.
enum Node {
    /// Every piece is placed.
    Solved,
    /// No solution below this position.
    Dead,
    /// Placements of this colour, best first.
    Branch(usize, Vec<Scored>),
}

/// Everything one search needs.
struct Search<'a> {
    rules: &'a Rules,
    decreasing: bool,
    spare: usize,
    sizes: Vec<usize>,
    rng: SmallRng,
    stats: FillStats,
    max_nodes: u64,
    /// Set from another thread to give up.
    stop: &'a AtomicBool,
    progress: &'a mut dyn FnMut(&FillStats),
    flood: Vec<Cell>,
}

/// Cells no colour with pieces left can reach: flood each colour from its attach points
/// through cells it may cover, stepping to edge and corner neighbours (pieces chain
/// through corners); what no flood reaches and is not covered is wasted for good.
fn waste(rules: &Rules, pos: &Position, stack: &mut Vec<Cell>) -> usize {
    let g = rules.table().geometry();
    let mut live = *pos.occupied();
    for c in 0..rules.num_colours() {
        if pos.all_placed(rules, Colour::new(c)) {
            continue;
        }
        let forbidden = pos.forbidden(Colour::new(c));
        let mut seen = pos.attach_points(rules, Colour::new(c));
        stack.clear();
        stack.extend(seen.iter());
        while let Some(x) = stack.pop() {
            for &y in g.edge_neighbours(x).iter().chain(g.corner_neighbours(x)) {
                if !seen.contains(y) && !forbidden.contains(y) {
                    seen.insert(y);
                    stack.push(y);
                }
            }
        }
        live.union_with(&seen);
    }
    g.num_cells() - live.len()
}

/// Empty cells next to a piece that no colour with pieces left reaches within
/// [`NEAR_STEPS`] steps from its attach points: most likely never covered.
fn likely_waste(rules: &Rules, pos: &Position) -> usize {
    let g = rules.table().geometry();
    let mut touched = CellSet::EMPTY;
    let mut near = CellSet::EMPTY;
    for c in 0..rules.num_colours() {
        touched.union_with(pos.forbidden(Colour::new(c)));
        if pos.all_placed(rules, Colour::new(c)) {
            continue;
        }
        let forbidden = pos.forbidden(Colour::new(c));
        let mut seen = pos.attach_points(rules, Colour::new(c));
        let mut layer: Vec<Cell> = seen.iter().collect();
        for _ in 0..NEAR_STEPS {
            let mut next = Vec::new();
            for &x in &layer {
                for &y in g.edge_neighbours(x).iter().chain(g.corner_neighbours(x)) {
                    if !seen.contains(y) && !forbidden.contains(y) {
                        seen.insert(y);
                        next.push(y);
                    }
                }
            }
            layer = next;
        }
        near.union_with(&seen);
    }
    touched.subtract(pos.occupied());
    touched.difference(&near).len()
}

/// Sides of the placement's cells that touch a covered cell or the board's edge: the
/// higher, the more compact the packing.
fn contacts(rules: &Rules, pos: &Position, m: Move) -> usize {
    let t = rules.table();
    let g = t.geometry();
    let sides = match g.kind() {
        GridKind::Square => 4,
        GridKind::Triangle => 3,
    };
    let border: usize = t
        .info(m)
        .cells()
        .iter()
        .map(|&c| sides - g.edge_neighbours(c).len())
        .sum();
    let touching = t
        .edge_cells(m)
        .iter()
        .filter(|&&c| pos.occupied().contains(c))
        .count();
    border + touching
}

impl Search<'_> {
    fn largest_remaining(&self, pos: &Position) -> usize {
        let n = self.sizes.len();
        (0..self.rules.num_colours())
            .flat_map(|c| (0..n).map(move |p| (c, p)))
            .filter(|&(c, p)| pos.remaining(self.rules, Colour::new(c), p) > 0)
            .map(|(_, p)| self.sizes[p])
            .max()
            .unwrap_or(0)
    }

    fn pieces_left(&self, pos: &Position) -> usize {
        let n = self.sizes.len();
        (0..self.rules.num_colours())
            .map(|c| {
                (0..n)
                    .map(|p| pos.remaining(self.rules, Colour::new(c), p) as usize)
                    .sum::<usize>()
            })
            .sum()
    }

    /// Chooses the colour and piece to move and scores its placements.
    fn expand(&mut self, pos: &Position) -> Node {
        let rules = self.rules;
        let npieces = self.sizes.len();
        let global_max = self.largest_remaining(pos);
        if global_max == 0 {
            return Node::Solved;
        }
        // (placements, colour, piece)
        let mut best: Option<(usize, usize, usize)> = None;
        let mut per_piece = vec![0usize; npieces];
        for c in 0..rules.num_colours() {
            if pos.all_placed(rules, Colour::new(c)) {
                continue;
            }
            let own_max = (0..npieces)
                .filter(|&p| pos.remaining(rules, Colour::new(c), p) > 0)
                .map(|p| self.sizes[p])
                .max()
                .unwrap_or(0);
            if self.decreasing && own_max < global_max {
                continue;
            }
            per_piece.iter_mut().for_each(|x| *x = 0);
            let _ = pos.for_each_legal::<()>(rules, Colour::new(c), |m| {
                per_piece[rules.table().info(m).piece as usize] += 1;
                ControlFlow::Continue(())
            });
            // The largest size with a placement (the current class when decreasing).
            let size = if self.decreasing {
                global_max
            } else {
                match (0..npieces)
                    .filter(|&p| per_piece[p] > 0)
                    .map(|p| self.sizes[p])
                    .max()
                {
                    Some(s) => s,
                    // A colour with pieces left and no placement never moves again.
                    None => return Node::Dead,
                }
            };
            let mut any = false;
            for (p, &count) in per_piece.iter().enumerate() {
                if self.sizes[p] != size
                    || pos.remaining(rules, Colour::new(c), p) == 0
                    || count == 0
                {
                    continue;
                }
                any = true;
                if best.is_none_or(|b| count < b.0) {
                    best = Some((count, c, p));
                }
            }
            if !any {
                // Decreasing: this colour has pieces of the current size and none fits;
                // only its own placements could make room, and it has none.
                return Node::Dead;
            }
        }
        let Some((_, colour, piece)) = best else {
            return Node::Dead;
        };
        let mut scored: Vec<Scored> = Vec::new();
        let _ = pos.for_each_legal::<()>(rules, Colour::new(colour), |m| {
            if rules.table().info(m).piece as usize == piece {
                let mut next = pos.clone();
                next.place(rules, Colour::new(colour), m);
                if waste(rules, &next, &mut self.flood) <= self.spare {
                    let score = likely_waste(rules, &next) as i64
                        - CONTACT_WEIGHT * contacts(rules, pos, m) as i64;
                    scored.push((score, self.rng.gen(), m));
                }
            }
            ControlFlow::Continue(())
        });
        scored.sort_unstable();
        Node::Branch(colour, scored)
    }

    fn count_node(&mut self, depth: usize) -> ControlFlow<()> {
        self.stats.nodes += 1;
        self.stats.deepest = self.stats.deepest.max(depth);
        if self.stats.nodes & 255 == 0 {
            (self.progress)(&self.stats);
            if self.stop.load(Ordering::Relaxed) {
                self.max_nodes = self.stats.nodes;
            }
        }
        if self.out_of_nodes() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// Depth-first search trying every placement; `Break(true)` solved, `Break(false)`
    /// out of budget.
    fn dfs(
        &mut self,
        pos: &Position,
        moves: &mut Vec<(Colour, Move)>,
        budget: &mut u64,
    ) -> ControlFlow<bool> {
        match self.expand(pos) {
            Node::Solved => ControlFlow::Break(true),
            Node::Dead => ControlFlow::Continue(()),
            Node::Branch(colour, list) => {
                for (_, _, m) in list {
                    if *budget == 0 || self.count_node(moves.len() + 1).is_break() {
                        return ControlFlow::Break(false);
                    }
                    *budget -= 1;
                    let mut next = pos.clone();
                    next.place(self.rules, Colour::new(colour), m);
                    moves.push((Colour::new(colour), m));
                    self.dfs(&next, moves, budget)?;
                    moves.pop();
                }
                ControlFlow::Continue(())
            }
        }
    }

    /// One beam search from `start`; the solution's moves after `prefix`.
    fn beam(
        &mut self,
        mut layer: Vec<Layered>,
        midway: &mut Option<Vec<Layered>>,
    ) -> ControlFlow<(), Option<Vec<(Colour, Move)>>> {
        // Earlier layers kept for a second chance, nearest the endgame first.
        let mut saved: Vec<Vec<Layered>> = Vec::new();
        loop {
            let left = self.pieces_left(&layer[0].0);
            if left <= ENDGAME {
                for l in std::iter::once(&layer).chain(saved.iter().rev()) {
                    if let Some(moves) = self.finish(l)? {
                        return ControlFlow::Continue(Some(moves));
                    }
                }
                return ControlFlow::Continue(None);
            }
            if FALLBACK_STEPS.contains(&(left - ENDGAME)) {
                saved.push(layer.clone());
            }
            if left - ENDGAME == RESUME_STEPS {
                *midway = Some(layer.clone());
            }
            let mut next: Vec<Candidate> = Vec::new();
            let mut seen = HashSet::new();
            for (pos, moves) in &layer {
                match self.expand(pos) {
                    Node::Solved => return ControlFlow::Continue(Some(moves.clone())),
                    Node::Dead => {}
                    Node::Branch(colour, list) => {
                        for (score, tie, m) in list.into_iter().take(CHILDREN) {
                            self.count_node(moves.len() + 1)?;
                            let mut p = pos.clone();
                            p.place(self.rules, Colour::new(colour), m);
                            if !seen.insert(p.clone()) {
                                continue;
                            }
                            let mut mv = moves.clone();
                            mv.push((Colour::new(colour), m));
                            next.push((score, tie, p, mv));
                        }
                    }
                }
            }
            if next.is_empty() {
                return ControlFlow::Continue(None);
            }
            next.sort_by_key(|a| (a.0, a.1));
            next.truncate(BEAM_WIDTH);
            layer = next.into_iter().map(|(_, _, p, m)| (p, m)).collect();
        }
    }

    /// Depth-first searches from each position of a layer, with [`ENDGAME_BUDGET`]
    /// nodes each; `Break` when out of nodes.
    fn finish(&mut self, layer: &[Layered]) -> ControlFlow<(), Option<Vec<(Colour, Move)>>> {
        for (pos, moves) in layer {
            let mut moves = moves.clone();
            let mut budget = ENDGAME_BUDGET;
            match self.dfs(pos, &mut moves, &mut budget) {
                ControlFlow::Break(true) => return ControlFlow::Continue(Some(moves)),
                ControlFlow::Break(false) if self.out_of_nodes() => return ControlFlow::Break(()),
                _ => {}
            }
        }
        ControlFlow::Continue(None)
    }

    fn out_of_nodes(&self) -> bool {
        self.max_nodes > 0 && self.stats.nodes > self.max_nodes
    }
}

/// Places every remaining piece starting from `prefix` (placements already made, each
/// legal in turn). Returns the full list of placements in an order that obeys the
/// rules, or `None` when the node limit is reached first.
pub fn solve_from(
    rules: &Rules,
    prefix: &[(Colour, Move)],
    options: FillOptions,
    progress: &mut dyn FnMut(&FillStats),
) -> (Option<Vec<(Colour, Move)>>, FillStats) {
    solve_from_until(rules, prefix, options, &AtomicBool::new(false), progress)
}

/// As [`solve_from`], giving up (with `None`) soon after `stop` is set from another
/// thread.
pub fn solve_from_until(
    rules: &Rules,
    prefix: &[(Colour, Move)],
    options: FillOptions,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&FillStats),
) -> (Option<Vec<(Colour, Move)>>, FillStats) {
    let mut stats = FillStats::default();
    // Boards that look the same after a quarter turn are far quicker to find where the
    // rules allow them (`all_84`). (Half-turn boards, searched the same way with two
    // base colours, found none within a million nodes, so they are not tried.) A
    // prefix that no such board extends falls through to the beam search.
    if let Some(sym) = Symmetry::new(rules, 4) {
        match symmetric::solve(rules, &sym, prefix, options, stop, &mut stats, progress) {
            Outcome::Found(moves) => return (Some(moves), stats),
            Outcome::GaveUp => return (None, stats),
            Outcome::None => {}
        }
    }
    let mut start = Position::new(rules);
    for &(c, m) in prefix {
        start.place(rules, c, m);
    }
    let set = rules.table().pieces();
    let sizes: Vec<usize> = set.pieces.iter().map(|p| p.size).collect();
    let total = rules.num_colours() * set.total_cells();
    let spare = rules.table().geometry().num_cells().saturating_sub(total);
    let mut search = Search {
        rules,
        decreasing: options.decreasing,
        spare,
        sizes,
        rng: SmallRng::seed_from_u64(options.seed),
        stats,
        max_nodes: options.max_nodes,
        stop,
        progress,
        flood: Vec::new(),
    };
    let first: Vec<Layered> = vec![(start, prefix.to_vec())];
    let mut midway = None;
    loop {
        // Every other restart resumes from the failed beam's layer midway, where its
        // early choices were probably still sound, at a fraction of a full beam's cost.
        let layer = match midway.take() {
            Some(l) if search.stats.restarts % 2 == 1 => l,
            _ => first.clone(),
        };
        match search.beam(layer, &mut midway) {
            ControlFlow::Continue(Some(moves)) => return (Some(moves), search.stats),
            ControlFlow::Break(()) => return (None, search.stats),
            ControlFlow::Continue(None) => {
                search.stats.restarts += 1;
                let s = blokus_core::seed::mix(options.seed, search.stats.restarts);
                search.rng = SmallRng::seed_from_u64(s);
            }
        }
    }
}

/// Places every piece of every colour from the empty board.
pub fn solve(
    rules: &Rules,
    options: FillOptions,
    progress: &mut dyn FnMut(&FillStats),
) -> (Option<Vec<(Colour, Move)>>, FillStats) {
    solve_from(rules, &[], options, progress)
}
