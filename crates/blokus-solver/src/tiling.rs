//! Rectangle tilings as exact cover: every cell covered once, every piece used its number
//! of times.
//!
//! The search is Algorithm X on bitsets. Each node covers the empty cell with the fewest
//! fitting placements among the lowest empty cell (scanning along the rectangle's short
//! side) and the cells around the latest placements: Knuth's heuristic where few options
//! are likely, without counting every cell. At that cell, kinds with more copies left are
//! tried first, so that no shape runs out early and leaves holes only it could fill.
//! Empty regions cut off by the last placement must have an area the remaining pieces
//! can fill. Search times have a heavy tail, so the search restarts with a reshuffled
//! order after node budgets that follow the Luby sequence (`restart.rs`).
//!
//! Colours (one copy of each piece per colour) are given to a plain tiling once it is
//! found; under the strict rule the search keeps the pieces placed so far coloured and
//! abandons a partial tiling as soon as they cannot be (`colour.rs`, `tiling/strict.rs`).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use blokus_core::geometry::GridKind;
use blokus_core::piece::{self, Shape};
use blokus_core::PieceSetId;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::bits::{Bits, MAX_TILING_CELLS};
use crate::colour::{self, Palette, MAX_COLOURS, MAX_KINDS, MAX_PIECES, NONE};
use crate::restart;

mod strict;

/// One kind of piece in a tiling: a shape used `count` times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceKind {
    /// Name (`.blksgf` convention for Classic pieces).
    pub name: String,
    /// Cells in a local frame (x right, y up).
    pub shape: Shape,
    /// How many copies must be placed.
    pub count: usize,
}

impl PieceKind {
    /// Number of cells.
    pub fn size(&self) -> usize {
        self.shape.len()
    }
}

/// A tiling problem: cover a `width` x `height` rectangle exactly with the pieces.
#[derive(Clone, Debug)]
pub struct Tiling {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The pieces.
    pub kinds: Vec<PieceKind>,
    /// Colour names. When present, every kind has one copy per colour and each copy
    /// belongs to a different colour.
    pub colours: Option<Vec<String>>,
    /// The strict rule: no two pieces of the same colour share an edge.
    pub strict: bool,
}

/// Why a tiling cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TilingError {
    /// The pieces' total area differs from the rectangle's.
    AreaMismatch {
        /// Cells of the rectangle.
        board: usize,
        /// Cells of all pieces together.
        pieces: usize,
    },
    /// The rectangle is empty or larger than the search supports.
    BadSize(String),
    /// A piece fits nowhere in the rectangle.
    PieceDoesNotFit(String),
    /// The piece list is malformed or names an unknown piece.
    BadPieces(String),
    /// The strict rule needs colours, or the colours do not match the counts.
    BadColours(String),
}

impl std::fmt::Display for TilingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TilingError::AreaMismatch { board, pieces } => write!(
                f,
                "impossible size: the rectangle has {board} cells but the pieces cover {pieces}"
            ),
            TilingError::BadSize(m) | TilingError::BadPieces(m) | TilingError::BadColours(m) => {
                write!(f, "{m}")
            }
            TilingError::PieceDoesNotFit(p) => {
                write!(f, "piece {p} fits nowhere in the rectangle")
            }
        }
    }
}

impl std::error::Error for TilingError {}

/// One piece of a solved tiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilePlacement {
    /// Index into [`Tiling::kinds`].
    pub kind: usize,
    /// Index into [`Tiling::colours`], if the tiling has colours.
    pub colour: Option<usize>,
    /// Covered cells as (column, row), 0-based from the lower left, sorted by row then
    /// column.
    pub cells: Vec<(usize, usize)>,
}

/// How a bounded search ended.
pub(crate) enum Outcome {
    /// A solution.
    Found(Vec<TilePlacement>),
    /// The search space is exhausted.
    NoSolution,
    /// The node limit was reached first.
    GaveUp,
}

/// Search statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Placements tried.
    pub nodes: u64,
    /// Restarts with a new order.
    pub restarts: u64,
    /// Strict rule: times every piece had to be coloured again.
    pub recolourings: u64,
    /// Strict rule: of those, times a piece or two changing colour sufficed.
    pub repairs: u64,
    /// Strict rule: partial tilings abandoned because their pieces cannot be coloured.
    pub colour_dead_ends: u64,
    /// Strict rule: of those, colourings given up undecided.
    pub colour_give_ups: u64,
    /// Strict rule: backtracking steps spent colouring pieces again.
    pub colour_steps: u64,
}

/// How often (in nodes) the progress callback is called.
pub const PROGRESS_INTERVAL: u64 = 1 << 16;

/// Parses a piece list: `pentominoes`, `tetrominoes`, or Classic piece names separated
/// by commas, each with an optional multiplicity such as `L4x2` (also `L4*2`).
///
/// # Errors
/// [`TilingError::BadPieces`] naming the unknown piece or bad count.
pub fn parse_pieces(spec: &str) -> Result<Vec<PieceKind>, TilingError> {
    let set = PieceSetId::Classic.build();
    let mut kinds: Vec<PieceKind> = Vec::new();
    let mut add = |name: &str, count: usize| {
        let i = set.find(name).ok_or_else(|| {
            TilingError::BadPieces(format!(
                "unknown piece '{name}' (expected pentominoes, tetrominoes or Classic piece names such as F, I5, L4, O, T4, V3, 2, 1)"
            ))
        })?;
        let def = &set.pieces[i];
        match kinds.iter_mut().find(|k| k.name == def.name) {
            Some(k) => k.count += count,
            None => kinds.push(PieceKind {
                name: def.name.clone(),
                shape: def.orientations[0].clone(),
                count,
            }),
        }
        Ok::<(), TilingError>(())
    };
    let items: Vec<&str> = spec.split(',').map(str::trim).collect();
    if items.iter().all(|s| s.is_empty()) {
        return Err(TilingError::BadPieces("empty piece list".into()));
    }
    for item in items {
        if item.is_empty() {
            return Err(TilingError::BadPieces(format!(
                "empty entry in piece list '{spec}'"
            )));
        }
        let (name, count) = split_multiplicity(item)?;
        match name.to_ascii_lowercase().as_str() {
            "pentominoes" | "pentomino" => {
                for p in set.pieces.iter().filter(|p| p.size == 5) {
                    add(&p.name, count)?;
                }
            }
            "tetrominoes" | "tetromino" => {
                for p in set.pieces.iter().filter(|p| p.size == 4) {
                    add(&p.name, count)?;
                }
            }
            _ => add(name, count)?,
        }
    }
    Ok(kinds)
}

/// Splits `NAMExN` into the name and N (1 when absent).
fn split_multiplicity(item: &str) -> Result<(&str, usize), TilingError> {
    // Names never end in `x<digits>` themselves (X is a piece, but `X` alone has no digits).
    if let Some(pos) = item.rfind(['x', 'X', '*']) {
        let (name, rest) = (&item[..pos], &item[pos + 1..]);
        if !name.is_empty() && !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            let n: usize = rest
                .parse()
                .map_err(|_| TilingError::BadPieces(format!("bad multiplicity in '{item}'")))?;
            if n == 0 || n > 64 {
                return Err(TilingError::BadPieces(format!(
                    "multiplicity in '{item}' must be between 1 and 64"
                )));
            }
            return Ok((name.trim(), n));
        }
    }
    Ok((item, 1))
}

/// Parses `WxH` (e.g. `6x10`).
///
/// # Errors
/// [`TilingError::BadSize`] if the text is not two positive numbers.
pub fn parse_size(text: &str) -> Result<(usize, usize), TilingError> {
    let bad = || {
        TilingError::BadSize(format!(
            "bad size '{text}': expected WIDTHxHEIGHT, e.g. 6x10"
        ))
    };
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: usize = w.trim().parse().map_err(|_| bad())?;
    let h: usize = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok((w, h))
}

/// Called with each solution's stack of (placement, colour); breaks to stop.
pub(crate) type Found<'a> = &'a mut dyn FnMut(&[(u32, u8)]) -> ControlFlow<()>;

/// A placement in the search's tables.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub(crate) bits: Bits,
    /// Empty-or-not cells sharing an edge with the placement (for the strict rule and
    /// the region check).
    pub(crate) around: Bits,
    pub(crate) kind: u16,
    /// Cells as (x, y) in the rectangle, sorted by row then column.
    pub(crate) xy: Vec<(usize, usize)>,
}

/// The precomputed tables of one tiling.
pub struct Engine {
    pub(crate) tiling: Tiling,
    n: usize,
    pub(crate) places: Vec<Place>,
    /// Per cell, the placements covering it.
    cover: Vec<Vec<u32>>,
    neighbours: Vec<Vec<u16>>,
    /// Colours in play (0: a colourless tiling).
    colours: usize,
    /// Whether the search keeps the pieces placed so far coloured (the strict rule);
    /// else a found tiling is coloured afterwards, which always succeeds.
    colour_in_search: bool,
    /// The order in which a new piece's colours are tried, reshuffled with the
    /// placements.
    colour_order: [u8; MAX_COLOURS],
    /// Whether to try kinds with more copies left first (pointless when counting every
    /// tiling).
    pub(crate) ordered: bool,
    /// When [`Engine::solve_from`] gives up, whatever its node limit.
    pub(crate) deadline: Option<std::time::Instant>,
    /// Set from another thread to give up as at the deadline.
    pub(crate) stop: Option<Arc<AtomicBool>>,
    seed: u64,
}

/// Nodes per step of the Luby restart sequence (see [`crate::restart`]): a few
/// milliseconds, well below the typical time to a solution.
const RESTART_UNIT: u64 = 10_000;
/// Backtracking steps allowed to colour the pieces again (strict rule). Most
/// colourings are found in a few dozen steps; a partial tiling whose colouring takes
/// longer is treated as a dead end, which costs fewer nodes than proving it one
/// (measured on `penta_15x16 --strict`). An attempt that ended after such a guess
/// proves nothing, so the next one doubles the limit: "no solution" stays exact.
const RECOLOUR_LIMIT: u64 = 150;

/// The mutable state of a search.
#[derive(Clone)]
pub(crate) struct State {
    pub(crate) covered: Bits,
    pub(crate) remaining: Vec<u8>,
    /// (placement, colour or [`NONE`]) in placement order.
    pub(crate) stack: Vec<(u32, u8)>,
    /// The colours of the stack's pieces at a glance.
    palette: Palette,
    /// Placements at the bottom of the stack whose colours are given (a hint's position).
    fixed: usize,
    /// Steps allowed to colour every piece again.
    recolour_limit: u64,
    /// Whether a colouring was given up undecided (then an exhausted search proves
    /// nothing).
    gave_up: bool,
}

impl Engine {
    /// Checks a tiling and builds its tables; `seed` shuffles the order in which
    /// placements are tried (0 keeps the natural order).
    ///
    /// # Errors
    /// A [`TilingError`] naming what makes the problem malformed.
    pub fn new(tiling: Tiling, seed: u64) -> Result<Engine, TilingError> {
        let (w, h) = (tiling.width, tiling.height);
        if w == 0 || h == 0 || w * h > MAX_TILING_CELLS {
            return Err(TilingError::BadSize(format!(
                "a {w}x{h} rectangle is not supported: tilings have 1 to {MAX_TILING_CELLS} cells"
            )));
        }
        if tiling.kinds.is_empty() {
            return Err(TilingError::BadPieces("no pieces given".into()));
        }
        let area: usize = tiling.kinds.iter().map(|k| k.size() * k.count).sum();
        if area != w * h {
            return Err(TilingError::AreaMismatch {
                board: w * h,
                pieces: area,
            });
        }
        let colours =
            match &tiling.colours {
                Some(c) => {
                    if c.is_empty()
                        || c.len() > MAX_COLOURS
                        || tiling.kinds.iter().any(|k| k.count != c.len())
                    {
                        return Err(TilingError::BadColours(
                        "coloured tilings need 1 to 4 colours and one copy of each piece per colour"
                            .into(),
                    ));
                    }
                    c.len()
                }
                None if tiling.strict => return Err(TilingError::BadColours(
                    "the strict rule needs coloured pieces (puzzles tetro_8x10 and penta_15x16)"
                        .into(),
                )),
                None => 0,
            };
        // Scan along the short side: index = long * short + across.
        let short = w.min(h);
        let index = |x: usize, y: usize| if h <= w { x * h + y } else { y * w + x };
        let n = w * h;
        let mut neighbours = vec![Vec::new(); n];
        for y in 0..h {
            for x in 0..w {
                let i = index(x, y);
                if x > 0 {
                    neighbours[i].push(index(x - 1, y) as u16);
                }
                if x + 1 < w {
                    neighbours[i].push(index(x + 1, y) as u16);
                }
                if y > 0 {
                    neighbours[i].push(index(x, y - 1) as u16);
                }
                if y + 1 < h {
                    neighbours[i].push(index(x, y + 1) as u16);
                }
            }
        }
        let _ = short;
        let mut places = Vec::new();
        let mut cover = vec![Vec::new(); n];
        for (k, kind) in tiling.kinds.iter().enumerate() {
            let before = places.len();
            for shape in piece::orientations(GridKind::Square, &kind.shape) {
                let mw = shape.iter().map(|c| c.0).max().unwrap_or(0) as usize + 1;
                let mh = shape.iter().map(|c| c.1).max().unwrap_or(0) as usize + 1;
                if mw > w || mh > h {
                    continue;
                }
                for dy in 0..=h - mh {
                    for dx in 0..=w - mw {
                        let mut xy: Vec<(usize, usize)> = shape
                            .iter()
                            .map(|&(x, y)| (x as usize + dx, y as usize + dy))
                            .collect();
                        xy.sort_by_key(|&(x, y)| (y, x));
                        let mut bits = Bits::EMPTY;
                        for &(x, y) in &xy {
                            bits.insert(index(x, y));
                        }
                        let mut around = Bits::EMPTY;
                        for i in bits.iter() {
                            for &j in &neighbours[i] {
                                around.insert(j as usize);
                            }
                        }
                        around.subtract(&bits);
                        for i in bits.iter() {
                            cover[i].push(places.len() as u32);
                        }
                        places.push(Place {
                            bits,
                            around,
                            kind: k as u16,
                            xy,
                        });
                    }
                }
            }
            if places.len() == before {
                return Err(TilingError::PieceDoesNotFit(kind.name.clone()));
            }
        }
        let n_pieces: usize = tiling.kinds.iter().map(|k| k.count).sum();
        if colours > 0 && (tiling.kinds.len() > MAX_KINDS || n_pieces > MAX_PIECES) {
            return Err(TilingError::BadColours(format!(
                "coloured tilings have at most {MAX_KINDS} piece kinds and {MAX_PIECES} pieces"
            )));
        }
        let colour_in_search = colours > 0 && tiling.strict;
        let mut engine = Engine {
            tiling,
            n,
            places,
            cover,
            neighbours,
            colours,
            colour_in_search,
            colour_order: [0, 1, 2, 3],
            ordered: true,
            deadline: None,
            stop: None,
            seed,
        };
        if seed != 0 {
            engine.shuffle(seed);
        }
        Ok(engine)
    }

    /// The tiling searched.
    pub fn tiling(&self) -> &Tiling {
        &self.tiling
    }

    pub(crate) fn start_state(&self) -> State {
        State {
            covered: Bits::EMPTY,
            remaining: self.tiling.kinds.iter().map(|k| k.count as u8).collect(),
            stack: Vec::new(),
            palette: Palette::new(self.colours, self.tiling.strict),
            fixed: 0,
            recolour_limit: RECOLOUR_LIMIT,
            gave_up: false,
        }
    }

    /// Places `p` in colour `c` ([`NONE`]: uncoloured), trusting that it fits.
    pub(crate) fn apply(&self, s: &mut State, p: u32, c: u8) {
        let pl = &self.places[p as usize];
        s.covered.union_with(&pl.bits);
        s.remaining[pl.kind as usize] -= 1;
        if c != NONE {
            s.palette.place(pl.kind as usize, c, &pl.around);
        }
        s.stack.push((p, c));
    }

    /// Takes the latest placement off the board (its colour stays in the palette: the
    /// search restores the palette it saved).
    fn undo(&self, s: &mut State) {
        let (p, _) = s.stack.pop().expect("a placement to undo");
        let pl = &self.places[p as usize];
        s.covered.subtract(&pl.bits);
        s.remaining[pl.kind as usize] += 1;
    }

    /// The state after `prefix`, or `None` if the prefix itself breaks a rule (overlap,
    /// a piece too many, a colour's second copy of a kind, the strict rule).
    fn state_after(&self, prefix: &[(u32, u8)]) -> Option<State> {
        let mut s = self.start_state();
        for &(p, c) in prefix {
            let pl = self.places.get(p as usize)?;
            if !self.fits(&s, p) {
                return None;
            }
            if self.colours > 0 {
                let ok = (c as usize) < self.colours
                    && s.palette.allowed(pl.kind as usize, &pl.bits) >> c & 1 != 0;
                if !ok {
                    return None;
                }
            } else if c != NONE {
                return None;
            }
            self.apply(&mut s, p, c);
        }
        s.fixed = prefix.len();
        Some(s)
    }

    /// Whether every empty region next to placement `p` that is smaller than a cap has
    /// an area the remaining pieces can fill (a multiple of their sizes' gcd, at least
    /// the smallest size). Larger regions are not checked: the check stays cheap.
    fn regions_ok(&self, s: &State, p: u32) -> bool {
        let mut g = 0usize;
        let mut min = usize::MAX;
        let mut max = 0usize;
        for (k, kind) in self.tiling.kinds.iter().enumerate() {
            if s.remaining[k] > 0 {
                g = gcd(g, kind.size());
                min = min.min(kind.size());
                max = max.max(kind.size());
            }
        }
        if g == 0 {
            return true;
        }
        if g == 1 && min == 1 {
            return true;
        }
        let cap = 3 * max;
        let mut seen = s.covered;
        // Cells of regions found too large to measure: a flood reaching one of them is
        // in a large region too.
        let mut big = Bits::EMPTY;
        let mut stack: Vec<usize> = Vec::with_capacity(4 * cap);
        let mut visited: Vec<usize> = Vec::with_capacity(4 * cap);
        for start in self.places[p as usize].around.iter() {
            if seen.contains(start) {
                continue;
            }
            seen.insert(start);
            stack.clear();
            visited.clear();
            stack.push(start);
            visited.push(start);
            let mut size = 0;
            let mut capped = false;
            'flood: while let Some(i) = stack.pop() {
                size += 1;
                if size > cap {
                    capped = true;
                    break;
                }
                for &j in &self.neighbours[i] {
                    let j = j as usize;
                    if big.contains(j) {
                        capped = true;
                        break 'flood;
                    }
                    if !seen.contains(j) {
                        seen.insert(j);
                        stack.push(j);
                        visited.push(j);
                    }
                }
            }
            if capped {
                for &v in &visited {
                    big.insert(v);
                }
            } else if size % g != 0 || size < min {
                return false;
            }
        }
        true
    }

    /// Whether placement `p` can go on the board now (ignoring colours).
    #[inline]
    fn fits(&self, s: &State, p: u32) -> bool {
        let pl = &self.places[p as usize];
        s.remaining[pl.kind as usize] > 0 && pl.bits.is_disjoint(&s.covered)
    }

    /// Whether placement `p` can take a colour without changing any placed piece's.
    #[inline]
    fn has_open_colour(&self, s: &State, p: u32) -> bool {
        let pl = &self.places[p as usize];
        s.palette.allowed(pl.kind as usize, &pl.bits) != 0
    }

    /// Placements that fit at `cell`, counting no further than `limit`.
    fn options_at(&self, s: &State, cell: usize, limit: usize) -> usize {
        let mut n = 0;
        for &p in &self.cover[cell] {
            if self.fits(s, p) {
                n += 1;
                if n >= limit {
                    break;
                }
            }
        }
        n
    }

    /// The empty cell to cover next: of the lowest empty cell in scan order and the
    /// empty cells around the latest placements, the one with the fewest options
    /// (Knuth's heuristic, on the cells where few options are likely). `None`: some
    /// cell has no option left.
    fn choose_cell(&self, s: &State, first: usize) -> Option<usize> {
        let mut best = first;
        let mut count = self.options_at(s, first, usize::MAX);
        if count == 0 {
            return None;
        }
        for &(p, _) in s.stack.iter().rev().take(2) {
            for cell in self.places[p as usize].around.iter() {
                if count <= 1 {
                    return Some(best);
                }
                if s.covered.contains(cell) || cell == best {
                    continue;
                }
                let c = self.options_at(s, cell, count);
                if c == 0 {
                    return None;
                }
                if c < count {
                    count = c;
                    best = cell;
                }
            }
        }
        Some(best)
    }

    /// Runs the search from `s`, calling `found` with each solution's placements (in
    /// placement order) until it breaks, and `progress` every [`PROGRESS_INTERVAL`]
    /// nodes.
    pub(crate) fn search(
        &self,
        s: &mut State,
        stats: &mut Stats,
        found: Found<'_>,
        progress: &mut dyn FnMut(&Stats),
        limit: u64,
        out_of_budget: &mut bool,
    ) -> ControlFlow<()> {
        let Some(first) = s.covered.first_missing(self.n) else {
            return found(&s.stack);
        };
        let Some(a) = self.choose_cell(s, first) else {
            return ControlFlow::Continue(());
        };
        if !self.ordered {
            // Counting: every placement is tried anyway, in the table's order.
            for &p in &self.cover[a] {
                if self.fits(s, p) {
                    self.step(s, p, stats, found, progress, limit, out_of_budget)?;
                }
            }
            return ControlFlow::Continue(());
        }
        // Kinds with more copies left first: a search that uses up some kinds early
        // is left with few shapes for the last holes. Under the strict rule, first the
        // placements the current colours leave a colour for (the others need the
        // pieces coloured again and are likelier dead ends).
        let mut order: Vec<(u32, u32)> = self.cover[a]
            .iter()
            .filter(|&&p| self.fits(s, p))
            .map(|&p| {
                let kind = self.places[p as usize].kind as usize;
                let closed = self.colour_in_search && !self.has_open_colour(s, p);
                let key = (closed as u32) << 8 | (255 - s.remaining[kind] as u32);
                (key, p)
            })
            .collect();
        order.sort_by_key(|&(k, _)| k);
        for (_, p) in order {
            self.step(s, p, stats, found, progress, limit, out_of_budget)?;
        }
        ControlFlow::Continue(())
    }

    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        s: &mut State,
        p: u32,
        stats: &mut Stats,
        found: Found<'_>,
        progress: &mut dyn FnMut(&Stats),
        limit: u64,
        out_of_budget: &mut bool,
    ) -> ControlFlow<()> {
        stats.nodes += 1;
        if stats.nodes & (PROGRESS_INTERVAL - 1) == 0 {
            progress(stats);
        }
        if stats.nodes >= limit || self.past_deadline(stats) {
            *out_of_budget = true;
            return ControlFlow::Break(());
        }
        // Only the strict search changes the palette below.
        let palette = s.palette;
        self.apply(s, p, NONE);
        let mut before = None;
        let r = if self.regions_ok(s, p) && self.colour_latest(s, stats, &mut before) {
            self.search(s, stats, found, progress, limit, out_of_budget)
        } else {
            ControlFlow::Continue(())
        };
        if let Some(before) = before {
            for (e, c) in s.stack.iter_mut().zip(before) {
                e.1 = c;
            }
        }
        s.palette = palette;
        self.undo(s);
        r
    }

    /// Whether the deadline has passed (looked at every 1,024 nodes: the clock costs
    /// more than a node).
    #[inline]
    fn past_deadline(&self, stats: &Stats) -> bool {
        stats.nodes & 1023 == 0 && self.out_of_time()
    }

    /// Whether the deadline has passed or the search was stopped.
    fn out_of_time(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The colours of a finished tiling: as searched (strict), or filled in around the
    /// colours given beforehand (plain); `None` only if those cannot be kept.
    fn final_colours(&self, stack: &[(u32, u8)]) -> Option<Vec<u8>> {
        let colours: Vec<u8> = stack.iter().map(|&(_, c)| c).collect();
        if self.colours == 0 || self.colour_in_search {
            return Some(colours);
        }
        let kinds: Vec<usize> = stack
            .iter()
            .map(|&(p, _)| self.places[p as usize].kind as usize)
            .collect();
        colour::fill_in(&kinds, &colours, self.colours)
    }

    /// Turns a coloured search stack into placements.
    fn placements(&self, stack: &[(u32, u8)], colours: &[u8]) -> Vec<TilePlacement> {
        stack
            .iter()
            .zip(colours)
            .map(|(&(p, _), &c)| {
                let pl = &self.places[p as usize];
                TilePlacement {
                    kind: pl.kind as usize,
                    colour: (self.colours > 0).then_some(c as usize),
                    cells: pl.xy.clone(),
                }
            })
            .collect()
    }

    /// Finds one solution, or `None` if there is none.
    ///
    /// Searches from the empty board, restarting with a reshuffled order after node
    /// budgets that follow the Luby sequence; the budgets grow without bound, so a
    /// tiling without solutions is still proven to have none.
    pub fn solve(
        &mut self,
        progress: &mut dyn FnMut(&Stats),
    ) -> (Option<Vec<TilePlacement>>, Stats) {
        match self.solve_from(&[], 0, progress) {
            (Outcome::Found(p), stats) => (Some(p), stats),
            (_, stats) => (None, stats),
        }
    }

    /// The placement covering exactly these cells ((x, y), any order), if any.
    pub(crate) fn find_place(&self, cells: &[(usize, usize)]) -> Option<u32> {
        let mut want = cells.to_vec();
        want.sort_by_key(|&(x, y)| (y, x));
        self.places
            .iter()
            .position(|p| p.xy == want)
            .map(|i| i as u32)
    }

    /// Finds a solution extending `prefix` (indices into the placement table with
    /// colours, [`NONE`] in colourless tilings), giving up after `max_nodes` placements
    /// tried (0: never) or at [`Engine::deadline`].
    ///
    /// Search times of exact cover have a heavy tail, so the search restarts with a new
    /// order (derived from the seed) after node budgets that follow the Luby sequence;
    /// the budgets grow without bound, so the search stays complete.
    pub(crate) fn solve_from(
        &mut self,
        prefix: &[(u32, u8)],
        max_nodes: u64,
        progress: &mut dyn FnMut(&Stats),
    ) -> (Outcome, Stats) {
        let mut stats = Stats::default();
        let Some(mut start) = self.state_after(prefix) else {
            return (Outcome::NoSolution, stats);
        };
        for attempt in 0u64.. {
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                return (Outcome::GaveUp, stats);
            }
            if attempt > 0 {
                stats.restarts += 1;
                self.shuffle(blokus_core::seed::mix(self.seed, attempt));
            }
            let mut s = start.clone();
            let mut limit = stats
                .nodes
                .saturating_add(restart::budget(RESTART_UNIT, attempt));
            if max_nodes > 0 {
                limit = limit.min(max_nodes);
            }
            let mut out = None;
            let mut out_of_budget = false;
            let _ = self.search(
                &mut s,
                &mut stats,
                &mut |stack| match self.final_colours(stack) {
                    Some(colours) => {
                        out = Some(self.placements(stack, &colours));
                        ControlFlow::Break(())
                    }
                    // The prefix's colours cannot be kept (checked above, so not
                    // expected): look on.
                    None => ControlFlow::Continue(()),
                },
                &mut |st: &Stats| {
                    progress(st);
                },
                limit,
                &mut out_of_budget,
            );
            if let Some(found) = out {
                return (Outcome::Found(found), stats);
            }
            if !out_of_budget {
                if !s.gave_up {
                    return (Outcome::NoSolution, stats);
                }
                // Some colouring was left undecided: look again, more patiently.
                start.recolour_limit = start.recolour_limit.saturating_mul(2);
            }
            if (max_nodes > 0 && stats.nodes >= max_nodes) || self.out_of_time() {
                return (Outcome::GaveUp, stats);
            }
        }
        unreachable!("the budgets grow until an attempt ends")
    }

    fn shuffle(&mut self, seed: u64) {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        for list in &mut self.cover {
            list.shuffle(&mut rng);
        }
        self.colour_order[..self.colours].shuffle(&mut rng);
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Solves a tiling: builds the tables, then searches for one solution.
///
/// # Errors
/// A [`TilingError`] if the problem is malformed (area mismatch, piece too large, ...).
pub fn solve(
    tiling: Tiling,
    seed: u64,
    progress: &mut dyn FnMut(&Stats),
) -> Result<(Option<Vec<TilePlacement>>, Stats), TilingError> {
    let mut engine = Engine::new(tiling, seed)?;
    Ok(engine.solve(progress))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pent(w: usize, h: usize) -> Tiling {
        Tiling {
            width: w,
            height: h,
            kinds: parse_pieces("pentominoes").unwrap(),
            colours: None,
            strict: false,
        }
    }

    #[test]
    fn parses_piece_lists() {
        assert_eq!(parse_pieces("pentominoes").unwrap().len(), 12);
        assert_eq!(parse_pieces("tetrominoes").unwrap().len(), 5);
        let k = parse_pieces("L4x2, o, X, 1*3").unwrap();
        assert_eq!(
            k.iter()
                .map(|k| (k.name.as_str(), k.count))
                .collect::<Vec<_>>(),
            vec![("L4", 2), ("O", 1), ("X", 1), ("1", 3)]
        );
        assert!(parse_pieces("Q7").is_err());
        assert!(parse_pieces("L4x0").is_err());
        assert!(parse_pieces("").is_err());
        assert_eq!(parse_size("6x10").unwrap(), (6, 10));
        assert!(parse_size("6by10").is_err());
    }

    #[test]
    fn solves_small_rectangles() {
        for (w, h) in [(6, 10), (10, 6), (5, 12), (3, 20)] {
            let (sol, _) = solve(pent(w, h), 0, &mut |_| {}).unwrap();
            let sol = sol.expect("pentomino rectangles have solutions");
            assert_eq!(sol.len(), 12);
            let mut seen = std::collections::HashSet::new();
            for p in &sol {
                for &c in &p.cells {
                    assert!(c.0 < w && c.1 < h && seen.insert(c));
                }
            }
        }
    }

    #[test]
    fn rejects_area_mismatch_and_misfits() {
        assert!(matches!(
            Engine::new(pent(7, 10), 0),
            Err(TilingError::AreaMismatch {
                board: 70,
                pieces: 60
            })
        ));
        let t = Tiling {
            width: 4,
            height: 1,
            kinds: parse_pieces("O").unwrap(),
            colours: None,
            strict: false,
        };
        assert!(matches!(
            Engine::new(t, 0),
            Err(TilingError::PieceDoesNotFit(_))
        ));
    }

    fn coloured(w: usize, h: usize, pieces: &str, colours: usize, strict: bool) -> Tiling {
        let mut kinds = parse_pieces(pieces).unwrap();
        for k in &mut kinds {
            k.count = colours;
        }
        Tiling {
            width: w,
            height: h,
            kinds,
            colours: Some((0..colours).map(|c| format!("c{c}")).collect()),
            strict,
        }
    }

    /// Checks a coloured tiling from scratch: every cell once, one copy of each kind per
    /// colour, and (strict) no two pieces of a colour sharing an edge.
    fn assert_valid(t: &Tiling, sol: &[TilePlacement]) {
        let mut owner = vec![None; t.width * t.height];
        let mut copies = std::collections::HashSet::new();
        for (i, p) in sol.iter().enumerate() {
            assert_eq!(p.cells.len(), t.kinds[p.kind].size());
            let c = p.colour.expect("coloured");
            assert!(
                copies.insert((p.kind, c)),
                "colour {c} has kind {} twice",
                p.kind
            );
            for &(x, y) in &p.cells {
                assert!(owner[y * t.width + x].replace(i).is_none(), "overlap");
            }
        }
        assert!(owner.iter().all(Option::is_some), "a cell is uncovered");
        if t.strict {
            for y in 0..t.height {
                for x in 0..t.width {
                    let a = owner[y * t.width + x].unwrap();
                    for (x2, y2) in [(x + 1, y), (x, y + 1)] {
                        if x2 < t.width && y2 < t.height {
                            let b = owner[y2 * t.width + x2].unwrap();
                            assert!(
                                a == b || sol[a].colour != sol[b].colour,
                                "pieces {a} and {b} share a colour and an edge"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn strict_solutions_obey_the_rule() {
        for seed in 0..6 {
            let t = coloured(8, 10, "tetrominoes", 4, true);
            let (sol, _) = solve(t.clone(), seed, &mut |_| {}).unwrap();
            assert_valid(&t, &sol.expect("tetro_8x10 strict has solutions"));
        }
        let t = coloured(15, 16, "pentominoes", 4, true);
        let (sol, stats) = solve(t.clone(), 1, &mut |_| {}).unwrap();
        assert_valid(&t, &sol.expect("penta_15x16 strict has solutions"));
        assert!(stats.recolourings > 0, "{stats:?}");
    }

    #[test]
    fn plain_coloured_tilings_give_each_colour_one_copy() {
        let t = coloured(15, 16, "pentominoes", 4, false);
        let (sol, _) = solve(t.clone(), 2, &mut |_| {}).unwrap();
        assert_valid(&t, &sol.unwrap());
    }

    #[test]
    fn strict_search_extends_a_prefix_keeping_its_colours() {
        let t = coloured(8, 10, "tetrominoes", 4, true);
        let (sol, _) = solve(t.clone(), 3, &mut |_| {}).unwrap();
        let sol = sol.unwrap();
        let mut engine = Engine::new(t.clone(), 9).unwrap();
        // The first pieces of a solution with the colours renamed: still a valid start.
        let rename = [2u8, 0, 3, 1];
        let prefix: Vec<(u32, u8)> = sol[..6]
            .iter()
            .map(|p| {
                let place = engine.find_place(&p.cells).unwrap();
                (place, rename[p.colour.unwrap()])
            })
            .collect();
        let Outcome::Found(ext) = engine.solve_from(&prefix, 0, &mut |_| {}).0 else {
            panic!("a solution extends the prefix");
        };
        assert_valid(&t, &ext);
        for (p, &(place, c)) in ext.iter().zip(&prefix) {
            assert_eq!(p.cells, engine.places[place as usize].xy);
            assert_eq!(p.colour, Some(c as usize));
        }
        // Two touching pieces of one colour: no search can help.
        let (a, b) = (0..sol.len())
            .flat_map(|i| (0..sol.len()).map(move |j| (i, j)))
            .find(|&(i, j)| {
                let pi = &engine.places[engine.find_place(&sol[i].cells).unwrap() as usize];
                let pj = &engine.places[engine.find_place(&sol[j].cells).unwrap() as usize];
                pi.kind != pj.kind && !pi.around.is_disjoint(&pj.bits)
            })
            .unwrap();
        let bad = [
            (engine.find_place(&sol[a].cells).unwrap(), 0),
            (engine.find_place(&sol[b].cells).unwrap(), 0),
        ];
        assert!(matches!(
            engine.solve_from(&bad, 0, &mut |_| {}).0,
            Outcome::NoSolution
        ));
    }

    #[test]
    fn strict_rule_can_make_a_tiling_impossible() {
        // One colour: a domino and a monomino in a 3x1 strip must touch.
        let t = coloured(3, 1, "2,1", 1, true);
        assert!(solve(t, 0, &mut |_| {}).unwrap().0.is_none());
        let t = coloured(3, 1, "2,1", 1, false);
        assert!(solve(t, 0, &mut |_| {}).unwrap().0.is_some());
    }

    #[test]
    fn impossible_tiling_has_no_solution() {
        // Two L-trominoes... use V3 twice in a 3x2: possible; I3 + V3 in 3x2: impossible.
        let t = Tiling {
            width: 3,
            height: 2,
            kinds: parse_pieces("I3,V3").unwrap(),
            colours: None,
            strict: false,
        };
        assert!(solve(t, 0, &mut |_| {}).unwrap().0.is_none());
    }
}
