//! Rectangle tilings as exact cover: every cell covered once, every piece used its number
//! of times.
//!
//! The search is Algorithm X on bitsets. Each node covers the empty cell with the fewest
//! fitting placements among the lowest empty cell (scanning along the rectangle's short
//! side) and the cells around the latest placements: Knuth's heuristic where few options
//! are likely, without counting every cell. Empty regions cut off by the last placement
//! must have an area the remaining pieces can fill. Search times have a heavy tail, so
//! the search restarts with a reshuffled order after a growing node budget. Colours
//! (one copy of each piece per colour, and the strict rule) are assigned to each tiling
//! found, by the `colour` module.

use std::ops::ControlFlow;

use blokus_core::geometry::GridKind;
use blokus_core::piece::{self, Shape};
use blokus_core::PieceSetId;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::bits::{Bits, MAX_TILING_CELLS};

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
    colours: usize,
    seed: u64,
}

/// Nodes of the first attempt before a restart.
const RESTART_BUDGET: u64 = 20_000;
/// Steps allowed to colour one tiling.
const COLOUR_LIMIT: u64 = 100_000;
/// Attempts after which the search runs to the end.
const MAX_RESTARTS: u64 = 30;

/// The mutable state of a search.
#[derive(Clone)]
pub(crate) struct State {
    pub(crate) covered: Bits,
    pub(crate) remaining: Vec<u8>,
    pub(crate) stack: Vec<(u32, u8)>,
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
        let colours = match &tiling.colours {
            Some(c) => {
                if c.is_empty() || c.len() > 4 || tiling.kinds.iter().any(|k| k.count != c.len()) {
                    return Err(TilingError::BadColours(
                        "coloured tilings need 1 to 4 colours and one copy of each piece per colour"
                            .into(),
                    ));
                }
                c.len()
            }
            None if tiling.strict => {
                return Err(TilingError::BadColours(
                    "the strict rule needs coloured pieces (puzzles tetro_8x10 and penta_15x16)"
                        .into(),
                ))
            }
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
        let mut engine = Engine {
            tiling,
            n,
            places,
            cover,
            neighbours,
            colours,
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
        }
    }

    /// Places `p` in colour `c` (trusted).
    pub(crate) fn apply(&self, s: &mut State, p: u32, c: u8) {
        let pl = &self.places[p as usize];
        s.covered.union_with(&pl.bits);
        s.remaining[pl.kind as usize] -= 1;
        s.stack.push((p, c));
    }

    fn undo(&self, s: &mut State) {
        let (p, _) = s.stack.pop().expect("a placement to undo");
        let pl = &self.places[p as usize];
        s.covered.subtract(&pl.bits);
        s.remaining[pl.kind as usize] += 1;
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

    /// Whether placement `p` can go on the board now.
    #[inline]
    fn fits(&self, s: &State, p: u32) -> bool {
        let pl = &self.places[p as usize];
        s.remaining[pl.kind as usize] > 0 && pl.bits.is_disjoint(&s.covered)
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
        for &p in &self.cover[a] {
            if self.fits(s, p) {
                self.step(s, p, stats, found, progress, limit, out_of_budget)?;
            }
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
        if stats.nodes >= limit {
            *out_of_budget = true;
            return ControlFlow::Break(());
        }
        self.apply(s, p, 0);
        let r = if self.regions_ok(s, p) {
            self.search(s, stats, found, progress, limit, out_of_budget)
        } else {
            ControlFlow::Continue(())
        };
        self.undo(s);
        r
    }

    /// Colours a found tiling (keeping the colours of the first `fixed` placements).
    fn colour(&self, stack: &[(u32, u8)], fixed: usize) -> Option<Vec<u8>> {
        self.try_colour(stack, fixed, COLOUR_LIMIT).ok()
    }

    /// Colours placements, keeping the colours of the first `fixed`, within `limit` steps.
    fn try_colour(
        &self,
        stack: &[(u32, u8)],
        fixed: usize,
        limit: u64,
    ) -> Result<Vec<u8>, crate::colour::NoColouring> {
        if self.colours == 0 {
            return Ok(vec![0; stack.len()]);
        }
        let kinds: Vec<usize> = stack
            .iter()
            .map(|&(p, _)| self.places[p as usize].kind as usize)
            .collect();
        let adjacent: Vec<Vec<usize>> = stack
            .iter()
            .map(|&(p, _)| {
                let around = &self.places[p as usize].around;
                (0..stack.len())
                    .filter(|&j| !self.places[stack[j].0 as usize].bits.is_disjoint(around))
                    .collect()
            })
            .collect();
        let pre: Vec<Option<u8>> = stack[..fixed].iter().map(|&(_, c)| Some(c)).collect();
        crate::colour::assign(
            &kinds,
            &adjacent,
            self.colours,
            self.tiling.strict,
            &pre,
            limit,
        )
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
    /// Searches from the empty board; see [`Engine::solve_from`].
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
    /// colours), giving up after `max_nodes` placements tried (0: never).
    ///
    /// Search times of exact cover have a heavy tail, so the search restarts with a new
    /// order (derived from the seed) after a node budget that grows by half each time;
    /// the last attempts are unbounded, so the search stays complete.
    pub(crate) fn solve_from(
        &mut self,
        prefix: &[(u32, u8)],
        max_nodes: u64,
        progress: &mut dyn FnMut(&Stats),
    ) -> (Outcome, Stats) {
        let mut stats = Stats::default();
        let mut budget = RESTART_BUDGET;
        for attempt in 0u64.. {
            if attempt > 0 {
                self.shuffle(self.seed ^ attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            }
            let mut s = self.start_state();
            for &(p, c) in prefix {
                self.apply(&mut s, p, c);
            }
            let mut limit = if attempt >= MAX_RESTARTS {
                u64::MAX
            } else {
                stats.nodes + budget
            };
            if max_nodes > 0 {
                limit = limit.min(max_nodes);
            }
            let mut out = None;
            let mut out_of_budget = false;
            let _ = self.search(
                &mut s,
                &mut stats,
                &mut |stack| match self.colour(stack, prefix.len()) {
                    Some(colours) => {
                        out = Some(self.placements(stack, &colours));
                        ControlFlow::Break(())
                    }
                    // Not colourable under the rules: look for another tiling.
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
                return (Outcome::NoSolution, stats);
            }
            if max_nodes > 0 && stats.nodes >= max_nodes {
                return (Outcome::GaveUp, stats);
            }
            budget += budget / 2;
        }
        unreachable!("the last attempt is unbounded")
    }

    fn shuffle(&mut self, seed: u64) {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        for list in &mut self.cover {
            list.shuffle(&mut rng);
        }
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
