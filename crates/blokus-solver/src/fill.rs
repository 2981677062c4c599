//! Rule-aware search for the placement puzzles `all_84` and `all_88`: place every piece
//! of every colour on a game board, each colour obeying the placement rules, the solver
//! choosing which colour moves.
//!
//! Every candidate placement comes from blokus-core's legal-move generator, so the rules
//! have one source of truth. The search is a depth-first search with restarts:
//! - it places large pieces first (strictly by size class with `decreasing`);
//! - at each node it moves the colour and piece with the fewest legal placements
//!   (fail first), and a colour that can never move again is a dead end;
//! - it tries the placements that waste the fewest cells first, where a wasted cell is
//!   an empty cell no colour with pieces left may ever cover (covered, or next to its own
//!   pieces, for every such colour). Waste only grows, and the board has exactly
//!   `cells - pieces' cells` to spare, so more waste than that is a dead end;
//! - a node budget per attempt, then a restart with a new random tie-break (derived from
//!   the seed, so runs are reproducible).

use std::ops::ControlFlow;

use blokus_core::{CellSet, Move, Position, Rules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

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

/// How many of the best-scored placements a node tries.
const BRANCH: usize = 3;
/// Node budget of the first attempt; later attempts get a little more.
const FIRST_BUDGET: u64 = 400;
/// With this few pieces left, a node tries every placement: the tree is small there and
/// most dead ends are found there.
const LATE: usize = 12;

/// Everything one search needs.
struct Search<'a> {
    rules: &'a Rules,
    decreasing: bool,
    spare: usize,
    sizes: Vec<usize>,
    rng: SmallRng,
    budget: u64,
    used: u64,
    stats: FillStats,
    max_nodes: u64,
    progress: &'a mut dyn FnMut(&FillStats),
    moves: Vec<(usize, Move)>,
    /// Whether some node of this attempt dropped placements beyond [`BRANCH`]: only a
    /// search without drops proves there is no solution.
    truncated: bool,
    total_pieces: usize,
    flood: Vec<blokus_core::Cell>,
    branch: usize,
}

/// A placement with its score: (waste, -slack, random tie-break, move), smaller is better.
type Scored = (usize, i64, u32, Move);

/// Why a node cannot be extended.
enum Node {
    /// Every piece is placed.
    Solved,
    /// No solution below this node.
    Dead,
    /// Try these placements of this colour, best first, with their scores.
    Branch(usize, Vec<Scored>),
}

/// What the placement heuristic knows about a position.
struct Eval {
    /// Empty cells no colour with pieces left can ever reach.
    waste: usize,
    /// Empty cells next to a piece that no colour with pieces left reaches within a
    /// few steps: most likely never covered.
    local_waste: usize,
    /// Over colours with pieces left: the smallest reachable area minus the cells of
    /// the colour's pieces left (negative: that colour can never place them all).
    slack: i64,
}

/// The cells a colour can still reach: flood from its attach points through cells it
/// may cover, stepping to edge and corner neighbours (pieces chain through corners).
fn territory(
    rules: &Rules,
    pos: &Position,
    colour: usize,
    stack: &mut Vec<blokus_core::Cell>,
) -> CellSet {
    let g = rules.table().geometry();
    let forbidden = pos.forbidden(colour);
    let mut seen = pos.attach_points(rules, colour);
    stack.clear();
    stack.extend(seen.iter());
    while let Some(c) = stack.pop() {
        for &n in g.edge_neighbours(c).iter().chain(g.corner_neighbours(c)) {
            if !seen.contains(n) && !forbidden.contains(n) {
                seen.insert(n);
                stack.push(n);
            }
        }
    }
    seen
}

fn evaluate(rules: &Rules, pos: &Position, stack: &mut Vec<blokus_core::Cell>) -> Eval {
    let g = rules.table().geometry();
    let n = rules.num_colours();
    let alive: Vec<usize> = (0..n).filter(|&c| !pos.all_placed(rules, c)).collect();
    // Breadth-first from every colour's attach points at once: a cell belongs to the
    // colours reaching it first (the waste counts cells nobody reaches at all).
    let mut claimed = [CellSet::EMPTY; 4];
    let mut frontier: Vec<Vec<blokus_core::Cell>> = vec![Vec::new(); n];
    let mut reached = *pos.occupied();
    for &c in &alive {
        claimed[c] = pos.attach_points(rules, c);
        frontier[c] = claimed[c].iter().collect();
    }
    for &c in &alive {
        reached.union_with(&claimed[c]);
    }
    let mut counts = [0i64; 4];
    for &c in &alive {
        counts[c] = claimed[c].len() as i64;
    }
    let mut any = true;
    while any {
        any = false;
        let before = reached;
        for &c in &alive {
            stack.clear();
            let forbidden = pos.forbidden(c);
            for &x in &frontier[c] {
                for &y in g.edge_neighbours(x).iter().chain(g.corner_neighbours(x)) {
                    if !before.contains(y) && !forbidden.contains(y) && !claimed[c].contains(y) {
                        claimed[c].insert(y);
                        stack.push(y);
                    }
                }
            }
            counts[c] += stack.len() as i64;
            frontier[c] = stack.clone();
            any |= !stack.is_empty();
        }
        for &c in &alive {
            for &y in &frontier[c] {
                reached.insert(y);
            }
        }
    }
    let slack = alive
        .iter()
        .map(|&c| counts[c] - pos.cells_remaining(rules, c) as i64)
        .min()
        .unwrap_or(0);
    // Waste: cells no colour reaches even with the others out of the way.
    let mut live = *pos.occupied();
    for &c in &alive {
        live.union_with(&territory(rules, pos, c, stack));
    }
    let depth: usize = std::env::var("FILL_D")
        .map(|v| v.parse().unwrap())
        .unwrap_or(2);
    let mut near = CellSet::EMPTY;
    let mut touched = CellSet::EMPTY;
    for c in 0..n {
        touched.union_with(pos.forbidden(c));
    }
    touched.subtract(pos.occupied());
    for &c in &alive {
        let forbidden = pos.forbidden(c);
        let mut seen = pos.attach_points(rules, c);
        let mut layer: Vec<blokus_core::Cell> = seen.iter().collect();
        for _ in 0..depth {
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
    Eval {
        waste: g.num_cells() - live.len(),
        local_waste: touched.difference(&near).len(),
        slack,
    }
}

/// Sides of the placement's cells that touch a covered cell or the board's edge: the
/// higher, the more compact the packing.
fn contacts(rules: &Rules, pos: &Position, m: Move) -> usize {
    let t = rules.table();
    let g = t.geometry();
    let sides = match g.kind() {
        blokus_core::GridKind::Square => 4,
        blokus_core::GridKind::Triangle => 3,
    };
    let mut n = 0;
    for &c in t.info(m).cells() {
        n += sides - g.edge_neighbours(c).len();
    }
    for &c in t.edge_cells(m) {
        if pos.occupied().contains(c) {
            // Count each touching side once per neighbour cell; close enough.
            n += 1;
        }
    }
    n
}

impl Search<'_> {
    fn largest_remaining(&self, pos: &Position) -> usize {
        let n = self.sizes.len();
        (0..self.rules.num_colours())
            .flat_map(|c| (0..n).map(move |p| (c, p)))
            .filter(|&(c, p)| pos.remaining(self.rules, c, p) > 0)
            .map(|(_, p)| self.sizes[p])
            .max()
            .unwrap_or(0)
    }

    /// Chooses the colour and piece to move and orders its placements.
    fn expand(&mut self, pos: &Position) -> Node {
        let rules = self.rules;
        let npieces = self.sizes.len();
        let global_max = self.largest_remaining(pos);
        if global_max == 0 {
            return Node::Solved;
        }
        // (count, colour, piece)
        let mut best: Option<(usize, usize, usize)> = None;
        let mut per_piece = vec![0usize; npieces];
        for c in 0..rules.num_colours() {
            if pos.all_placed(rules, c) {
                continue;
            }
            let own_max = (0..npieces)
                .filter(|&p| pos.remaining(rules, c, p) > 0)
                .map(|p| self.sizes[p])
                .max()
                .unwrap_or(0);
            if self.decreasing && own_max < global_max {
                continue;
            }
            per_piece.iter_mut().for_each(|x| *x = 0);
            let _ = pos.for_each_legal::<()>(rules, c, |m| {
                per_piece[rules.table().info(m).piece as usize] += 1;
                ControlFlow::Continue(())
            });
            // The largest size (the current class when decreasing) with a placement.
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
            for p in 0..npieces {
                if self.sizes[p] != size || pos.remaining(rules, c, p) == 0 {
                    continue;
                }
                if per_piece[p] == 0 {
                    continue;
                }
                any = true;
                if best.is_none_or(|b| per_piece[p] < b.0) {
                    best = Some((per_piece[p], c, p));
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
        let mut scored: Vec<(usize, i64, u32, Move)> = Vec::new();
        let _ = pos.for_each_legal::<()>(rules, colour, |m| {
            if rules.table().info(m).piece as usize == piece {
                let mut next = pos.clone();
                next.place(rules, colour, m);
                let e = evaluate(rules, &next, &mut self.flood);
                if e.waste <= self.spare {
                    let k: i64 = std::env::var("FILL_K")
                        .map(|v| v.parse().unwrap())
                        .unwrap_or(0);
                    let kc: i64 = std::env::var("FILL_C")
                        .map(|v| v.parse().unwrap())
                        .unwrap_or(0);
                    let contacts = contacts(rules, pos, m) as i64;
                    let primary = (10 * e.local_waste as i64 - k * e.slack.min(20) - kc * contacts
                        + 10000) as usize;
                    scored.push((primary, -e.slack, self.rng.gen(), m));
                }
            }
            ControlFlow::Continue(())
        });
        scored.sort_unstable();
        let left = self.total_pieces - self.moves.len();
        let branch = if left <= LATE {
            usize::MAX
        } else {
            self.branch
        };
        if scored.len() > branch {
            self.truncated = true;
            scored.truncate(branch);
        }
        Node::Branch(colour, scored)
    }

    /// Scan search: fills cells in order of distance from the nearest starting point.
    fn scan(&mut self, start: &Position) -> Option<Vec<(usize, Move)>> {
        let rules = self.rules;
        let g = rules.table().geometry();
        let starts: Vec<blokus_core::Cell> = match rules.start() {
            blokus_core::StartRule::PerColour(c) | blokus_core::StartRule::Shared(c) => c.clone(),
            blokus_core::StartRule::Anywhere => vec![],
        };
        let mut order: Vec<(i32, u32, blokus_core::Cell)> = g
            .cells()
            .map(|c| {
                let (x, y) = g.xy(c);
                let d = starts
                    .iter()
                    .map(|&s| {
                        let (sx, sy) = g.xy(s);
                        (x as i32 - sx as i32)
                            .abs()
                            .max((y as i32 - sy as i32).abs())
                    })
                    .min()
                    .unwrap_or(0);
                (d, self.rng.gen(), c)
            })
            .collect();
        order.sort();
        let mut rank = vec![0usize; g.num_cells()];
        for (i, &(_, _, c)) in order.iter().enumerate() {
            rank[c.index()] = i;
        }
        let cells: Vec<blokus_core::Cell> = order.iter().map(|o| o.2).collect();
        let mut holes = CellSet::EMPTY;
        let mut best = 0;
        if self
            .scan_dfs(start, &cells, &rank, 0, &mut holes, &mut best)
            .is_break()
        {
            return Some(self.moves.clone());
        }
        None
    }

    fn scan_dfs(
        &mut self,
        pos: &Position,
        cells: &[blokus_core::Cell],
        rank: &[usize],
        mut i: usize,
        holes: &mut CellSet,
        best: &mut usize,
    ) -> ControlFlow<()> {
        let rules = self.rules;
        while i < cells.len() && (pos.occupied().contains(cells[i]) || holes.contains(cells[i])) {
            i += 1;
        }
        if self.largest_remaining(pos) == 0 {
            return ControlFlow::Break(());
        }
        if i >= cells.len() {
            return ControlFlow::Continue(());
        }
        self.stats.nodes += 1;
        if self.moves.len() > *best {
            *best = self.moves.len();
            self.stats.deepest = *best;
            if std::env::var("FILL_DEBUG").is_ok() {
                eprintln!(
                    "depth {} holes {} nodes {}",
                    best,
                    holes.len(),
                    self.stats.nodes
                );
            }
        }
        if self.stats.nodes % 4096 == 0 {
            (self.progress)(&self.stats);
        }
        if self.max_nodes > 0 && self.stats.nodes > self.max_nodes {
            return ControlFlow::Break(());
        }
        let x = cells[i];
        let rx = rank[x.index()];
        let t = rules.table();
        let npieces = self.sizes.len();
        let mut options: Vec<(usize, u32, usize, Move)> = Vec::new();
        for c in 0..rules.num_colours() {
            for p in 0..npieces {
                if pos.remaining(rules, c, p) == 0 {
                    continue;
                }
                for &m in t.moves_at(x, p) {
                    if t.info(m).cells().iter().any(|&y| rank[y.index()] < rx) {
                        continue;
                    }
                    if pos.check_placement(rules, c, m).is_ok() {
                        options.push((100 - self.sizes[p], self.rng.gen(), c, m));
                    }
                }
            }
        }
        options.sort_unstable();
        options.truncate(6);
        for (_, _, c, m) in options {
            let mut next = pos.clone();
            next.place(rules, c, m);
            self.moves.push((c, m));
            self.scan_dfs(&next, cells, rank, i + 1, holes, best)?;
            self.moves.pop();
        }
        if holes.len() < self.spare {
            holes.insert(x);
            let r = self.scan_dfs(pos, cells, rank, i + 1, holes, best);
            holes.remove(x);
            r?;
        }
        ControlFlow::Continue(())
    }

    /// Beam search: keeps the `width` best positions of each depth.
    fn beam(&mut self, start: &Position, width: usize) -> Option<Vec<(usize, Move)>> {
        let mut layer: Vec<(Position, Vec<(usize, Move)>)> =
            vec![(start.clone(), self.moves.clone())];
        loop {
            let mut next: Vec<((usize, i64, u32), Position, Vec<(usize, Move)>)> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for (pos, moves) in &layer {
                self.moves = moves.clone();
                match self.expand(pos) {
                    Node::Solved => return Some(moves.clone()),
                    Node::Dead => {}
                    Node::Branch(colour, list) => {
                        for (w, sl, r, m) in list {
                            self.stats.nodes += 1;
                            let mut p = pos.clone();
                            p.place(self.rules, colour, m);
                            if !seen.insert(p.clone()) {
                                continue;
                            }
                            let mut mv = moves.clone();
                            mv.push((colour, m));
                            next.push(((w, sl, r), p, mv));
                        }
                    }
                }
            }
            if next.is_empty() {
                return None;
            }
            next.sort_by(|a, b| a.0.cmp(&b.0));
            next.truncate(width);
            self.stats.deepest = next[0].2.len();
            (self.progress)(&self.stats);
            if std::env::var("FILL_DEBUG").is_ok() {
                eprintln!(
                    "depth {} best {:?} worst {:?}",
                    self.stats.deepest,
                    next[0].0,
                    next.last().unwrap().0
                );
            }
            if std::env::var("FILL_SHOW").is_ok() {
                let p = &next[0].1;
                let g = self.rules.table().geometry();
                let mut out = String::new();
                for y in (0..g.height()).rev() {
                    for x in 0..g.width() {
                        let ch = match g.cell_at(x as i32, y as i32) {
                            None => ' ',
                            Some(c) => match p.owner(c) {
                                Some(o) => ['B', 'Y', 'R', 'G'][o],
                                None => '.',
                            },
                        };
                        out.push(ch);
                    }
                    out.push('\n');
                }
                eprintln!("{out}");
            }
            layer = next.into_iter().map(|(_, p, m)| (p, m)).collect();
        }
    }

    /// Depth-first search; `Break(true)` solved, `Break(false)` out of budget.
    fn dfs(&mut self, pos: &Position) -> ControlFlow<bool> {
        if self.moves.len() > self.stats.deepest && std::env::var("FILL_DEBUG").is_ok() {
            let rules = self.rules;
            let rem: Vec<String> = (0..rules.num_colours())
                .map(|c| {
                    (0..self.sizes.len())
                        .filter(|&p| pos.remaining(rules, c, p) > 0)
                        .map(|p| rules.table().pieces().pieces[p].name.clone())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            eprintln!(
                "depth {} waste {} rem {:?}",
                self.moves.len(),
                evaluate(rules, pos, &mut Vec::new()).waste,
                rem
            );
        }
        self.stats.deepest = self.stats.deepest.max(self.moves.len());
        match self.expand(pos) {
            Node::Solved => ControlFlow::Break(true),
            Node::Dead => ControlFlow::Continue(()),
            Node::Branch(colour, moves) => {
                for (_, _, _, m) in moves {
                    self.stats.nodes += 1;
                    self.used += 1;
                    if self.stats.nodes % 256 == 0 {
                        (self.progress)(&self.stats);
                    }
                    if self.used > self.budget
                        || (self.max_nodes > 0 && self.stats.nodes > self.max_nodes)
                    {
                        return ControlFlow::Break(false);
                    }
                    let mut next = pos.clone();
                    next.place(self.rules, colour, m);
                    self.moves.push((colour, m));
                    self.dfs(&next)?;
                    self.moves.pop();
                }
                ControlFlow::Continue(())
            }
        }
    }
}

/// Places every remaining piece starting from `prefix` (placements already made, each
/// legal in turn). Returns the full list of placements in an order that obeys the rules,
/// `None` if the search space is exhausted or the node limit is reached.
pub fn solve_from(
    rules: &Rules,
    prefix: &[(usize, Move)],
    options: FillOptions,
    progress: &mut dyn FnMut(&FillStats),
) -> (Option<Vec<(usize, Move)>>, FillStats) {
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
        budget: FIRST_BUDGET,
        used: 0,
        stats: FillStats::default(),
        max_nodes: options.max_nodes,
        progress,
        moves: prefix.to_vec(),
        truncated: false,
        total_pieces: rules.num_colours() * set.total_pieces(),
        flood: Vec::new(),
        branch: BRANCH,
    };
    if std::env::var("FILL_SCAN").is_ok() {
        let r = search.scan(&start);
        return (r, search.stats);
    }
    if std::env::var("FILL_BEAM").is_ok() {
        let w: usize = std::env::var("FILL_BEAM").unwrap().parse().unwrap();
        search.branch = 8;
        let r = search.beam(&start, w);
        return (r, search.stats);
    }
    loop {
        search.used = 0;
        search.truncated = false;
        match search.dfs(&start) {
            ControlFlow::Break(true) => {
                let moves = std::mem::take(&mut search.moves);
                return (Some(moves), search.stats);
            }
            // Exhausted without dropping a placement: there is no solution from here.
            ControlFlow::Continue(()) if !search.truncated => return (None, search.stats),
            _ => {
                if search.max_nodes > 0 && search.stats.nodes > search.max_nodes {
                    return (None, search.stats);
                }
                search.moves.truncate(prefix.len());
                search.stats.restarts += 1;
                search.budget += search.budget / 8;
                let s = options.seed ^ search.stats.restarts.wrapping_mul(0x9E37_79B9_7F4A_7C15);
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
) -> (Option<Vec<(usize, Move)>>, FillStats) {
    solve_from(rules, &[], options, progress)
}

/// Every cell covered by a list of placements.
pub fn covered(rules: &Rules, moves: &[(usize, Move)]) -> CellSet {
    let mut s = CellSet::EMPTY;
    for &(_, m) in moves {
        s.union_with(rules.table().cell_set(m));
    }
    s
}
