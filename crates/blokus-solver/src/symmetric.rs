//! Rotationally symmetric solutions of a placement puzzle on a square board (`all_84`).
//!
//! Whether a finished board is a solution does not depend on the order of play: no
//! overlaps, no two pieces of a colour share an edge, and each colour's pieces are
//! corner-connected to a piece on its starting cell (with `decreasing`, for every size
//! s the colour's pieces of size >= s are, and the corner piece is of the largest size).
//! `order.rs` then finds a legal order.
//!
//! A quarter turn of the Classic board maps each colour's corner to the next colour's
//! (a20 blue -> t20 yellow -> t1 red -> a1 green), and the rules to themselves. So a
//! board that looks the same after a quarter turn (colours moving on one step) is fixed
//! by blue's pieces alone: yellow, red and green are blue turned once, twice, three
//! times. The 400 cells fall into 100 orbits of four; blue must take at most one cell of
//! each (the turned copies take the others) and 89 orbits in all (21 pieces, 89 cells),
//! so exactly 11 orbits stay empty. That is an exact cover of 21 pieces and 89 of 100
//! orbits, far smaller than placing 84 pieces, with the no-shared-edge rule as a side
//! constraint. A half turn gives the same with two base colours (blue and yellow; red
//! and green are their copies), 200 orbits of two, as a fallback.
//!
//! The search grows each base colour from its corner, so the connection rule holds by
//! construction: pieces go by size class, largest first, and every placement covers an
//! attach cell (a corner cell of the colour's pieces that it may still cover). A node
//! takes the attach cell with the fewest live placements of the current size and
//! branches: one of them covers it, or no piece of that size ever does. Counters kept
//! as in Knuth's Algorithm X (live placements per orbit, per piece, per cell and size)
//! make this cheap. A node is a dead end when a piece has no live placement, or when
//! fewer open orbits can still be covered (reached by a flood from the attach cells,
//! with a live placement) than the pieces left have cells. Placements touching the
//! board's edge or covered cells most are tried first. Search times have a heavy tail, so attempts restart with a reshuffled
//! order after a node budget that grows slowly.

use blokus_core::Colour;
use std::sync::atomic::{AtomicBool, Ordering};

use blokus_core::movetable::MAX_PIECE_SIZE;
use blokus_core::{Cell, GridKind, Move, Rules, StartRule};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::fill::{FillOptions, FillStats};
use crate::order::legal_order;

/// "No row": an unplaced piece or a cell no base piece covers.
const NONE: u32 = u32::MAX;
/// Nodes of the first attempt; each further attempt gets an eighth more. The early
/// placements of an attempt are rarely undone, so many short attempts (fresh early
/// choices) beat a few long ones, and the growth still lets a search end eventually.
/// (`all_84 --decreasing`, seeds 0..39: a mean of 22,000 nodes to the first solution
/// with 1,000, against 23,000 with 500, 28,500 with 2,000 and 39,000 with 4,000.)
const FIRST_BUDGET: u64 = 1_000;

/// A rotation of a square board that maps the colours' starting cells onto each other.
pub(crate) struct Symmetry {
    /// Order of the rotation group: 4 (quarter turns) or 2 (half turn).
    order: usize,
    /// `image[j][cell]`: the cell turned `j` steps.
    image: Vec<Vec<usize>>,
    /// The colours the search places; the others are their turned copies.
    bases: Vec<usize>,
    /// `colour_of[b][j]`: the colour owning base colour `b`'s pieces turned `j` steps.
    colour_of: Vec<Vec<usize>>,
    /// Orbit of each cell.
    orbit: Vec<usize>,
    /// Cells of each orbit.
    orbits: Vec<Vec<usize>>,
    /// Starting cell of each colour.
    starts: Vec<usize>,
}

impl Symmetry {
    /// The rotation of `order` (4 or 2) steps per full turn, if the rules allow
    /// symmetric solutions: a square board with one starting cell per colour, mapped
    /// onto each other by the rotation, every colour with its own full set, and no
    /// rule that tells colours apart in another way.
    pub(crate) fn new(rules: &Rules, order: usize) -> Option<Symmetry> {
        let g = rules.table().geometry();
        let v = rules.v();
        if g.kind() != GridKind::Square
            || g.width() != g.height()
            || g.num_cells() != g.width() * g.height()
            || v.shared_pool
            || rules.table().pieces().pieces.iter().any(|p| p.count != 1)
            || rules.mirror_opening()
            || !matches!(order, 2 | 4)
        {
            return None;
        }
        let StartRule::PerColour(start_cells) = rules.start() else {
            return None;
        };
        let n = g.width() as i32;
        let step = |c: usize| -> usize {
            let (x, y) = g.xy(Cell::new(c));
            let (x, y) = (x as i32, y as i32);
            let (nx, ny) = if order == 4 {
                (y, n - 1 - x)
            } else {
                (n - 1 - x, n - 1 - y)
            };
            g.cell_at(nx, ny)
                .expect("a square board turns onto itself")
                .index()
        };
        let cells = g.num_cells();
        let mut image = vec![(0..cells).collect::<Vec<usize>>()];
        for j in 1..order {
            let prev = &image[j - 1];
            image.push(prev.iter().map(|&c| step(c)).collect());
        }
        let starts: Vec<usize> = start_cells.iter().map(|c| c.index()).collect();
        let colours = starts.len();
        if colours != rules.num_colours() || !colours.is_multiple_of(order) {
            return None;
        }
        // sigma[c]: the colour whose start is colour c's start turned one step.
        let mut sigma = Vec::with_capacity(colours);
        for &s in &starts {
            sigma.push(starts.iter().position(|&t| t == image[1][s])?);
        }
        let mut bases = Vec::new();
        let mut colour_of = Vec::new();
        let mut seen = vec![false; colours];
        for c in 0..colours {
            if seen[c] {
                continue;
            }
            let mut cycle = vec![c];
            while cycle.len() < order {
                cycle.push(sigma[*cycle.last().expect("non-empty")]);
            }
            if sigma[cycle[order - 1]] != c || cycle.iter().any(|&d| seen[d]) {
                return None;
            }
            for &d in &cycle {
                seen[d] = true;
            }
            bases.push(c);
            colour_of.push(cycle);
        }
        let mut orbit = vec![usize::MAX; cells];
        let mut orbits = Vec::new();
        for c in 0..cells {
            if orbit[c] != usize::MAX {
                continue;
            }
            let members: Vec<usize> = (0..order).map(|j| image[j][c]).collect();
            for &m in &members {
                orbit[m] = orbits.len();
            }
            orbits.push(members);
        }
        Some(Symmetry {
            order,
            image,
            bases,
            colour_of,
            orbit,
            orbits,
            starts,
        })
    }

    /// Move `m` turned `j` steps.
    fn turn(&self, rules: &Rules, m: Move, j: usize) -> Move {
        let t = rules.table();
        let cells: Vec<Cell> = t
            .info(m)
            .cells()
            .iter()
            .map(|c| Cell::new(self.image[j][c.index()]))
            .collect();
        t.find(&cells).expect("a turned placement is a placement")
    }
}

/// One placement of a base colour's piece: a row of the exact cover. Its cells and
/// their orbits are copied here because updating the counters of rows is nearly all
/// the search's work, and this keeps it within one small record.
#[derive(Clone, Copy)]
struct Row {
    /// Index into `Symmetry::bases`.
    base: u8,
    piece: u8,
    size: u8,
    mv: Move,
    cells: [u16; MAX_PIECE_SIZE],
    orbits: [u16; MAX_PIECE_SIZE],
}

impl Row {
    fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells[..self.size as usize].iter().map(|&c| c as usize)
    }
}

/// A change to undo.
enum Undo {
    /// A (base, cell) slot was blocked.
    Block(u32),
    /// A row was placed.
    Place(u32),
    /// The rows of one size at a slot were excluded.
    Exclude(u32, u8),
}

/// How a search ended.
enum Step {
    Found,
    Exhausted,
    OutOfBudget,
}

/// Size classes tracked per slot (piece sizes are below this).
const SIZES: usize = MAX_PIECE_SIZE + 1;

/// The search for one symmetry, one attempt.
struct Search<'a> {
    rules: &'a Rules,
    sym: &'a Symmetry,
    cells: usize,
    npieces: usize,
    rows: Vec<Row>,
    /// Rows of base `b` covering a cell, at slot `b * cells + cell`.
    rows_at: Vec<Vec<u32>>,
    /// Rows of each piece column `b * npieces + piece`.
    rows_of: Vec<Vec<u32>>,
    /// Reasons a row is dead (0: live).
    kill: Vec<u32>,
    /// Live rows per orbit, per piece column, and per (slot, size).
    count: Vec<u32>,
    pcount: Vec<u32>,
    count_at: Vec<u32>,
    /// Whether base `b` may no longer use a cell, at slot `b * cells + cell`.
    blocked: Vec<bool>,
    /// Whether each orbit is covered.
    covered: Vec<bool>,
    /// Orbits holding a starting cell: never left empty.
    must_cover: Vec<bool>,
    /// Row placed per piece column, or NONE.
    placed: Vec<u32>,
    pieces_left: usize,
    cells_left: usize,
    trail: Vec<Undo>,
    /// Edge and corner neighbours of each cell (the flood's steps).
    around: Vec<Vec<usize>>,
    nodes: u64,
    budget: u64,
    /// Fewest pieces left at any node (progress reports).
    fewest_left: usize,
    flood: Vec<usize>,
    reached: Vec<bool>,
}

impl<'a> Search<'a> {
    fn new(rules: &'a Rules, sym: &'a Symmetry, decreasing: bool, shuffle: Option<u64>) -> Self {
        let t = rules.table();
        let g = t.geometry();
        let cells = g.num_cells();
        let set = t.pieces();
        let npieces = set.pieces.len();
        let nb = sym.bases.len();
        let largest = set.pieces.iter().map(|p| p.size).max().unwrap_or(0);
        let mut rows = Vec::new();
        for b in 0..nb {
            for m in t.all() {
                let info = t.info(m);
                let mut orbits: Vec<usize> =
                    info.cells().iter().map(|c| sym.orbit[c.index()]).collect();
                orbits.sort_unstable();
                orbits.dedup();
                // A piece meeting its own turned copy would overlap it.
                if orbits.len() != info.cells().len() {
                    continue;
                }
                let mut row = Row {
                    base: b as u8,
                    piece: info.piece,
                    size: info.cells().len() as u8,
                    mv: m,
                    cells: [0; MAX_PIECE_SIZE],
                    orbits: [0; MAX_PIECE_SIZE],
                };
                for (i, c) in info.cells().iter().enumerate() {
                    row.cells[i] = c.index() as u16;
                    row.orbits[i] = sym.orbit[c.index()] as u16;
                }
                rows.push(row);
            }
        }
        let mut rows_at = vec![Vec::new(); nb * cells];
        let mut rows_of = vec![Vec::new(); nb * npieces];
        for (i, r) in rows.iter().enumerate() {
            let b = r.base as usize;
            for c in t.info(r.mv).cells() {
                rows_at[b * cells + c.index()].push(i as u32);
            }
            rows_of[b * npieces + r.piece as usize].push(i as u32);
        }
        if let Some(seed) = shuffle {
            let mut rng = SmallRng::seed_from_u64(seed);
            for list in rows_at.iter_mut().chain(rows_of.iter_mut()) {
                list.shuffle(&mut rng);
            }
        }
        let mut count = vec![0u32; sym.orbits.len()];
        let mut pcount = vec![0u32; nb * npieces];
        let mut count_at = vec![0u32; nb * cells * SIZES];
        for r in &rows {
            let b = r.base as usize;
            for c in t.info(r.mv).cells() {
                count[sym.orbit[c.index()]] += 1;
                count_at[(b * cells + c.index()) * SIZES + r.size as usize] += 1;
            }
            pcount[b * npieces + r.piece as usize] += 1;
        }
        let mut must_cover = vec![false; sym.orbits.len()];
        for &s in &sym.starts {
            must_cover[sym.orbit[s]] = true;
        }
        let around = (0..cells)
            .map(|c| {
                let c = Cell::new(c);
                g.edge_neighbours(c)
                    .iter()
                    .chain(g.corner_neighbours(c))
                    .map(|n| n.index())
                    .collect()
            })
            .collect();
        let nrows = rows.len();
        let mut s = Search {
            rules,
            sym,
            cells,
            npieces,
            rows,
            rows_at,
            rows_of,
            kill: vec![0; nrows],
            count,
            pcount,
            count_at,
            blocked: vec![false; nb * cells],
            covered: vec![false; sym.orbits.len()],
            must_cover,
            placed: vec![NONE; nb * npieces],
            pieces_left: nb * set.total_pieces(),
            cells_left: nb * set.total_cells(),
            trail: Vec::new(),
            around,
            nodes: 0,
            budget: 0,
            fewest_left: usize::MAX,
            flood: Vec::new(),
            reached: vec![false; cells],
        };
        for (b, &colour) in sym.bases.iter().enumerate() {
            // A colour may not cover another colour's starting cell (that colour must).
            for (c, &start) in sym.starts.iter().enumerate() {
                if c != colour {
                    s.block(b * cells + start);
                }
            }
            // With `decreasing` the first piece, on the corner, is of the largest size.
            if decreasing {
                let at = sym.starts[colour];
                for i in s.rows_at[b * cells + at].clone() {
                    if s.rows[i as usize].size as usize != largest {
                        s.kill_row(i);
                    }
                }
            }
        }
        s.trail.clear();
        s
    }

    /// Adds `delta` to the live counts a row contributes to.
    fn recount(&mut self, r: u32, delta: i32) {
        let row = &self.rows[r as usize];
        let b = row.base as usize;
        for i in 0..row.size as usize {
            let o = &mut self.count[row.orbits[i] as usize];
            *o = o.wrapping_add_signed(delta);
            let slot = b * self.cells + row.cells[i] as usize;
            let a = &mut self.count_at[slot * SIZES + row.size as usize];
            *a = a.wrapping_add_signed(delta);
        }
        let p = &mut self.pcount[b * self.npieces + row.piece as usize];
        *p = p.wrapping_add_signed(delta);
    }

    fn kill_row(&mut self, r: u32) {
        self.kill[r as usize] += 1;
        if self.kill[r as usize] == 1 {
            self.recount(r, -1);
        }
    }

    fn revive_row(&mut self, r: u32) {
        self.kill[r as usize] -= 1;
        if self.kill[r as usize] == 0 {
            self.recount(r, 1);
        }
    }

    /// Forbids slot `b * cells + cell` to its base colour.
    fn block(&mut self, slot: usize) {
        if self.blocked[slot] {
            return;
        }
        self.blocked[slot] = true;
        self.trail.push(Undo::Block(slot as u32));
        for i in 0..self.rows_at[slot].len() {
            self.kill_row(self.rows_at[slot][i]);
        }
    }

    /// Rules out the rows of pieces of `size` at a slot (the branch "no such piece
    /// covers this cell").
    fn exclude(&mut self, slot: usize, size: u8) {
        self.trail.push(Undo::Exclude(slot as u32, size));
        for i in 0..self.rows_at[slot].len() {
            let r = self.rows_at[slot][i];
            if self.rows[r as usize].size == size {
                self.kill_row(r);
            }
        }
    }

    /// Places a row: its orbits are covered (the turned copies take the other cells),
    /// its piece is used, and its colour may not touch it along an edge.
    fn place(&mut self, r: u32) {
        let row = self.rows[r as usize];
        let b = row.base as usize;
        let col = b * self.npieces + row.piece as usize;
        self.placed[col] = r;
        self.pieces_left -= 1;
        self.cells_left -= row.size as usize;
        self.trail.push(Undo::Place(r));
        for i in 0..self.rows_of[col].len() {
            self.kill_row(self.rows_of[col][i]);
        }
        let t = self.rules.table();
        let nb = self.sym.bases.len();
        for c in row.cells() {
            let o = self.sym.orbit[c];
            self.covered[o] = true;
            for k in 0..self.sym.order {
                let cell = self.sym.orbits[o][k];
                for bb in 0..nb {
                    self.block(bb * self.cells + cell);
                }
            }
        }
        for e in t.edge_cells(row.mv) {
            self.block(b * self.cells + e.index());
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop().expect("longer than mark") {
                Undo::Block(slot) => {
                    let slot = slot as usize;
                    self.blocked[slot] = false;
                    for i in 0..self.rows_at[slot].len() {
                        self.revive_row(self.rows_at[slot][i]);
                    }
                }
                Undo::Exclude(slot, size) => {
                    let slot = slot as usize;
                    for i in 0..self.rows_at[slot].len() {
                        let r = self.rows_at[slot][i];
                        if self.rows[r as usize].size == size {
                            self.revive_row(r);
                        }
                    }
                }
                Undo::Place(r) => {
                    let row = self.rows[r as usize];
                    let col = row.base as usize * self.npieces + row.piece as usize;
                    self.placed[col] = NONE;
                    self.pieces_left += 1;
                    self.cells_left += row.size as usize;
                    for i in 0..self.rows_of[col].len() {
                        self.revive_row(self.rows_of[col][i]);
                    }
                    for c in row.cells() {
                        self.covered[self.sym.orbit[c]] = false;
                    }
                }
            }
        }
    }

    /// The size of piece base `b` places next: the largest it has left, so pieces go
    /// by size class (required with `decreasing`, and the quickest way without: the
    /// big pieces shape the board while there is room, the small ones fill the gaps).
    fn class(&self, b: usize) -> Option<u8> {
        let t = self.rules.table();
        (0..self.npieces)
            .filter(|&p| self.placed[b * self.npieces + p] == NONE)
            .map(|p| t.pieces().pieces[p].size as u8)
            .max()
    }

    /// Live rows at a slot of pieces of `size`.
    fn live_at(&self, slot: usize, size: u8) -> u32 {
        self.count_at[slot * SIZES + size as usize]
    }

    /// The cells where base `b`'s next piece may go: corner cells of its pieces that
    /// it may still cover (its starting cell before its first piece).
    fn attach_cells(&self, b: usize, out: &mut Vec<usize>) {
        out.clear();
        let t = self.rules.table();
        let mut any = false;
        for p in 0..self.npieces {
            let r = self.placed[b * self.npieces + p];
            if r != NONE {
                any = true;
                let mv = self.rows[r as usize].mv;
                out.extend(
                    t.corner_cells(mv)
                        .iter()
                        .map(|c| c.index())
                        .filter(|&c| !self.blocked[b * self.cells + c]),
                );
            }
        }
        if !any {
            let start = self.sym.starts[self.sym.bases[b]];
            if !self.blocked[b * self.cells + start] {
                out.push(start);
            }
        }
    }

    /// Open orbits that can still be covered, and `false` if a starting cell's orbit
    /// cannot: each base colour floods from its attach cells through the cells it may
    /// still use; an open orbit no flood reaches, or that no live row covers, stays
    /// empty for good. Leaves the flooded cells in `reached`.
    fn usable_orbits(&mut self, attach: &mut Vec<usize>) -> (usize, bool) {
        self.reached.iter_mut().for_each(|x| *x = false);
        for b in 0..self.sym.bases.len() {
            if self.class(b).is_none() {
                continue;
            }
            self.attach_cells(b, attach);
            self.flood.clear();
            for &c in attach.iter() {
                if !self.reached[c] {
                    self.reached[c] = true;
                    self.flood.push(c);
                }
            }
            while let Some(c) = self.flood.pop() {
                for i in 0..self.around[c].len() {
                    let n = self.around[c][i];
                    if !self.reached[n] && !self.blocked[b * self.cells + n] {
                        self.reached[n] = true;
                        self.flood.push(n);
                    }
                }
            }
        }
        let mut usable = 0;
        for o in 0..self.covered.len() {
            if self.covered[o] {
                continue;
            }
            if self.count[o] > 0 && self.sym.orbits[o].iter().any(|&c| self.reached[c]) {
                usable += 1;
            } else if self.must_cover[o] {
                return (usable, false);
            }
        }
        (usable, true)
    }

    fn dfs(&mut self) -> Step {
        if self.pieces_left == 0 {
            return Step::Found;
        }
        self.nodes += 1;
        self.fewest_left = self.fewest_left.min(self.pieces_left);
        if self.nodes > self.budget {
            return Step::OutOfBudget;
        }
        let mark = self.trail.len();
        let step = self.branch();
        if !matches!(step, Step::Found) {
            self.undo_to(mark);
        }
        step
    }

    /// Prunes, then takes the attach cell with the fewest live placements: either one
    /// of them covers it, or none of that size ever will.
    fn branch(&mut self) -> Step {
        if self
            .pcount
            .iter()
            .zip(&self.placed)
            .any(|(&n, &r)| n == 0 && r == NONE)
        {
            return Step::Exhausted;
        }
        let mut attach = Vec::new();
        let (usable, ok) = self.usable_orbits(&mut attach);
        if !ok || usable < self.cells_left {
            return Step::Exhausted;
        }
        // (live rows, slot, size)
        let mut best: Option<(u32, usize, u8)> = None;
        for b in 0..self.sym.bases.len() {
            let Some(size) = self.class(b) else {
                continue;
            };
            self.attach_cells(b, &mut attach);
            let mut any = false;
            for &c in &attach {
                let slot = b * self.cells + c;
                let n = self.live_at(slot, size);
                if n > 0 {
                    any = true;
                    if best.is_none_or(|x| n < x.0) {
                        best = Some((n, slot, size));
                    }
                }
            }
            // A colour with pieces left that cannot grow never places them.
            if !any {
                return Step::Exhausted;
            }
        }
        let Some((_, slot, size)) = best else {
            return Step::Exhausted;
        };
        let options: Vec<u32> = self.rows_at[slot]
            .iter()
            .copied()
            .filter(|&r| self.kill[r as usize] == 0 && self.rows[r as usize].size == size)
            .collect();
        let mut options: Vec<(u32, u32)> =
            options.into_iter().map(|r| (self.contacts(r), r)).collect();
        // Most compact first; the sort is stable, so ties keep the shuffled order.
        options.sort_by_key(|&(c, _)| std::cmp::Reverse(c));
        for (_, r) in options {
            let mark = self.trail.len();
            self.place(r);
            match self.dfs() {
                Step::Exhausted => self.undo_to(mark),
                other => return other,
            }
        }
        // No piece of this size covers the cell (a smaller one still may).
        self.exclude(slot, size);
        self.dfs()
    }

    /// Sides of a row's cells against the board's edge or a covered cell (every colour
    /// together fills a covered orbit), counting the row's own turned copies: the
    /// higher, the more compact the packing and the fewer cells left stranded.
    fn contacts(&self, r: u32) -> u32 {
        let t = self.rules.table();
        let g = t.geometry();
        let mv = self.rows[r as usize].mv;
        let cells = t.info(mv).cells();
        let border: usize = cells.iter().map(|&c| 4 - g.edge_neighbours(c).len()).sum();
        let own = |c: usize| {
            cells
                .iter()
                .any(|x| self.sym.orbit[x.index()] == self.sym.orbit[c])
        };
        let touching = t
            .edge_cells(mv)
            .iter()
            .filter(|e| self.covered[self.sym.orbit[e.index()]] || own(e.index()))
            .count();
        (border + touching) as u32
    }

    /// Forces the prefix's placements (each mapped back to its base colour). `false`
    /// if they do not fit one symmetric board.
    fn force(&mut self, prefix: &[(Colour, Move)]) -> bool {
        for &(colour, m) in prefix {
            let Some((b, j)) = self
                .sym
                .colour_of
                .iter()
                .enumerate()
                .find_map(|(b, cycle)| {
                    cycle
                        .iter()
                        .position(|&c| c == colour.index())
                        .map(|j| (b, j))
                })
            else {
                return false;
            };
            let back = self
                .sym
                .turn(self.rules, m, (self.sym.order - j) % self.sym.order);
            let piece = self.rules.table().info(back).piece as usize;
            let col = b * self.npieces + piece;
            let Some(&r) = self.rows_of[col]
                .iter()
                .find(|&&r| self.rows[r as usize].mv == back)
            else {
                return false;
            };
            if self.placed[col] == r {
                continue;
            }
            if self.kill[r as usize] > 0 {
                return false;
            }
            self.place(r);
        }
        true
    }

    /// Every placement of the board found, for all colours.
    fn board(&self) -> Vec<(Colour, Move)> {
        let mut out = Vec::new();
        for &r in &self.placed {
            let row = self.rows[r as usize];
            for j in 0..self.sym.order {
                let colour = self.sym.colour_of[row.base as usize][j];
                out.push((Colour::new(colour), self.sym.turn(self.rules, row.mv, j)));
            }
        }
        out
    }
}

/// What a symmetric search found.
pub(crate) enum Outcome {
    /// A solution, in a legal order starting with the prefix.
    Found(Vec<(Colour, Move)>),
    /// No symmetric board extends the prefix (proven).
    None,
    /// The node limit was reached.
    GaveUp,
}

/// Searches for a board symmetric under `sym` that extends `prefix`, with restarts;
/// counts its nodes into `stats`.
pub(crate) fn solve(
    rules: &Rules,
    sym: &Symmetry,
    prefix: &[(Colour, Move)],
    options: FillOptions,
    stop: &AtomicBool,
    stats: &mut FillStats,
    progress: &mut dyn FnMut(&FillStats),
) -> Outcome {
    let mut budget = FIRST_BUDGET;
    let mut attempt = 0u64;
    loop {
        // Attempts are short (their budgets start at a few milliseconds), so looking
        // between them is soon enough.
        if stop.load(Ordering::Relaxed) {
            return Outcome::GaveUp;
        }
        // Seed 0's first attempt keeps the natural order; every other attempt shuffles.
        let shuffle = if options.seed == 0 && attempt == 0 {
            None
        } else {
            Some(blokus_core::seed::mix(options.seed, attempt))
        };
        let mut search = Search::new(rules, sym, options.decreasing, shuffle);
        if !search.force(prefix) {
            return Outcome::None;
        }
        let left = options.max_nodes.saturating_sub(stats.nodes);
        search.budget = if options.max_nodes > 0 {
            budget.min(left)
        } else {
            budget
        };
        let step = search.dfs();
        stats.nodes += search.nodes.min(search.budget);
        let total = search.placed.len();
        let deepest = total - search.fewest_left.min(total);
        stats.deepest = stats.deepest.max(deepest * sym.order);
        progress(stats);
        match step {
            Step::Found => {
                let board = search.board();
                return match legal_order(rules, prefix, &board, options.decreasing) {
                    Some(moves) => Outcome::Found(moves),
                    // The connection test guarantees an order; not finding one is a bug
                    // the caller's replay would report, so treat it as no solution.
                    None => Outcome::None,
                };
            }
            Step::Exhausted => return Outcome::None,
            Step::OutOfBudget => {
                if options.max_nodes > 0 && stats.nodes >= options.max_nodes {
                    return Outcome::GaveUp;
                }
            }
        }
        stats.restarts += 1;
        attempt += 1;
        budget += budget / 8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Rules {
        Rules::by_name("classic").unwrap()
    }

    fn mv(rules: &Rules, cells: &str) -> Move {
        blokus_core::notation::parse_move(rules.table(), cells).unwrap()
    }

    #[test]
    fn turns_map_the_corners_onto_the_next_colour() {
        let r = classic();
        let q = Symmetry::new(&r, 4).unwrap();
        assert_eq!(q.bases, vec![0]);
        assert_eq!(q.colour_of, vec![vec![0, 1, 2, 3]]);
        assert_eq!(q.orbits.len(), 100);
        // Blue's monomino in a20 turns into yellow's in t20, red's in t1, green's in a1.
        let names: Vec<String> = (0..4)
            .map(|j| {
                blokus_core::notation::move_cells(r.table(), q.turn(&r, mv(&r, "a20"), j)).join(",")
            })
            .collect();
        assert_eq!(names, ["a20", "t20", "t1", "a1"]);
        let h = Symmetry::new(&r, 2).unwrap();
        assert_eq!(h.bases, vec![0, 1]);
        assert_eq!(h.colour_of, vec![vec![0, 2], vec![1, 3]]);
        assert_eq!(h.orbits.len(), 200);
        assert!(Symmetry::new(&Rules::by_name("trigon").unwrap(), 4).is_none());
        assert!(Symmetry::new(&Rules::by_name("duo").unwrap(), 4).is_none());
    }

    #[test]
    fn a_prefix_is_kept_or_refused() {
        let r = classic();
        let sym = Symmetry::new(&r, 4).unwrap();
        let options = FillOptions {
            decreasing: false,
            seed: 3,
            max_nodes: 0,
        };
        // Yellow's first piece is not blue's turned: no symmetric board has both.
        let bad = [(Colour(0), mv(&r, "a20")), (Colour(1), mv(&r, "s20,t20"))];
        let mut stats = FillStats::default();
        assert!(matches!(
            solve(
                &r,
                &sym,
                &bad,
                options,
                &AtomicBool::new(false),
                &mut stats,
                &mut |_| {}
            ),
            Outcome::None
        ));
        // Blue's V5 in its corner and yellow's copy: the solution starts with them.
        let v5 = mv(&r, "a20,b20,c20,a19,a18");
        let good = [(Colour(0), v5), (Colour(1), sym.turn(&r, v5, 1))];
        let Outcome::Found(moves) = solve(
            &r,
            &sym,
            &good,
            options,
            &AtomicBool::new(false),
            &mut stats,
            &mut |_| {},
        ) else {
            panic!("no solution extends a symmetric opening");
        };
        assert_eq!(moves[..2], good);
        assert_eq!(moves.len(), 84);
        let mut game = blokus_core::Game::new(r.clone());
        for (c, m) in moves {
            game.play_for(c, m).unwrap();
        }
    }
}
