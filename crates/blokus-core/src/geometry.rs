//! Board geometry: which cells exist, their names, and their neighbour tables.
//!
//! Both square boards and the Trigon hexagons are described by one [`Geometry`] value
//! holding per-cell tables built once; the rule code above reads only these tables, so
//! squares and triangles share it.

use crate::bitset::MAX_CELLS;

/// One cell of a board, as an index into that board's cell list.
///
/// Cells are numbered row by row from the bottom (`a1`, `b1`, ..., `a2`, ...), so sorting
/// cells by index gives the spec's canonical order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u16);

impl Cell {
    /// Wraps a cell index.
    #[inline]
    pub fn new(index: usize) -> Cell {
        debug_assert!(index < MAX_CELLS);
        Cell(index as u16)
    }

    /// The cell's index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The shape of the cells of a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GridKind {
    /// Square cells (polyominoes).
    Square,
    /// Triangular cells (polyiamonds).
    Triangle,
}

/// The board layout a variant is played on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BoardShape {
    /// A `width` x `height` rectangle of squares.
    Square {
        /// Columns.
        width: u8,
        /// Rows.
        height: u8,
    },
    /// A hexagon of triangles with `edge` triangles along each side.
    Trigon {
        /// Triangles along each side of the hexagon.
        edge: u8,
    },
}

impl BoardShape {
    /// Builds the geometry of this board.
    pub fn geometry(self) -> Geometry {
        match self {
            BoardShape::Square { width, height } => {
                Geometry::square(width as usize, height as usize)
            }
            BoardShape::Trigon { edge } => Geometry::trigon(edge as usize),
        }
    }

    /// A short human description, e.g. `20x20` or `hexagon 9`.
    pub fn describe(self) -> String {
        match self {
            BoardShape::Square { width, height } => format!("{width}x{height} squares"),
            BoardShape::Trigon { edge } => format!("hexagon of triangles, edge {edge}"),
        }
    }
}

/// Relative (dx, dy) cell offsets.
type Offsets = Vec<(i32, i32)>;

/// A lattice point of a triangle board: the six cells around it in cyclic order
/// (`None` where the cell is off the board).
pub type PointCells = [Option<Cell>; 6];

/// Cells, names and neighbour tables of one board.
#[derive(Clone, Debug)]
pub struct Geometry {
    kind: GridKind,
    width: usize,
    height: usize,
    coords: Vec<(u8, u8)>,
    grid: Vec<Option<Cell>>,
    up: Vec<bool>,
    edge: Vec<Vec<Cell>>,
    corner: Vec<Vec<Cell>>,
    points: Vec<PointCells>,
    cell_points: Vec<Vec<usize>>,
    /// Each cell's name, spelt once (servers name every cell of every state they send).
    names: Vec<Box<str>>,
}

impl Geometry {
    /// A `width` x `height` board of squares.
    ///
    /// # Panics
    /// If the board has more cells than a [`CellSet`] holds (512).
    pub fn square(width: usize, height: usize) -> Geometry {
        assert!(
            width * height <= MAX_CELLS && width > 0 && height > 0,
            "board too large"
        );
        Self::build(GridKind::Square, width, height, |_, _| true, |_, _| false)
    }

    /// A Trigon hexagon with `edge` triangles per side, drawn in a rectangle of
    /// `4*edge-1` columns and `2*edge` rows (SPEC 3).
    pub fn trigon(edge: usize) -> Geometry {
        let (w, h) = (4 * edge - 1, 2 * edge);
        let on_board = move |x: usize, y_bottom: usize| {
            let y = h - 1 - y_bottom;
            let dy = y.min(h - 1 - y);
            let lo = edge - 1 - dy;
            x >= lo && x <= w - 1 - lo
        };
        // Top-half rows start with an up triangle, bottom-half rows with a down one;
        // both reduce to this parity with y counted from the top.
        let is_up = move |x: usize, y_bottom: usize| {
            let y = h - 1 - y_bottom;
            (x + y + 1 + edge).is_multiple_of(2)
        };
        Self::build(GridKind::Triangle, w, h, on_board, is_up)
    }

    fn build(
        kind: GridKind,
        width: usize,
        height: usize,
        on_board: impl Fn(usize, usize) -> bool,
        is_up: impl Fn(usize, usize) -> bool,
    ) -> Geometry {
        let mut grid = vec![None; width * height];
        let mut coords = Vec::new();
        let mut up = Vec::new();
        for y in 0..height {
            for x in 0..width {
                if on_board(x, y) {
                    grid[y * width + x] = Some(Cell::new(coords.len()));
                    coords.push((x as u8, y as u8));
                    up.push(is_up(x, y));
                }
            }
        }
        assert!(coords.len() <= MAX_CELLS, "board too large");
        let mut g = Geometry {
            kind,
            width,
            height,
            coords,
            grid,
            up,
            edge: Vec::new(),
            corner: Vec::new(),
            points: Vec::new(),
            cell_points: Vec::new(),
            names: Vec::new(),
        };
        let n = g.coords.len();
        g.names = (0..n)
            .map(|i| {
                let (x, y) = g.xy(Cell::new(i));
                format!("{}{}", column_name(x), y + 1).into_boxed_str()
            })
            .collect();
        for i in 0..n {
            let (x, y) = g.coords[i];
            let (x, y) = (x as i32, y as i32);
            let (edge_offsets, corner_offsets) = g.neighbour_offsets(Cell::new(i));
            let pick = |offs: &[(i32, i32)]| {
                offs.iter()
                    .filter_map(|&(dx, dy)| g.cell_at(x + dx, y + dy))
                    .collect()
            };
            let e: Vec<Cell> = pick(&edge_offsets);
            let c: Vec<Cell> = pick(&corner_offsets);
            g.edge.push(e);
            g.corner.push(c);
        }
        if kind == GridKind::Triangle {
            g.build_points();
        } else {
            g.cell_points = vec![Vec::new(); n];
        }
        g
    }

    /// Edge and corner-only neighbour offsets (dx, dy with y upwards) of a cell.
    fn neighbour_offsets(&self, cell: Cell) -> (Offsets, Offsets) {
        match self.kind {
            GridKind::Square => (
                vec![(-1, 0), (1, 0), (0, -1), (0, 1)],
                vec![(-1, -1), (1, -1), (-1, 1), (1, 1)],
            ),
            GridKind::Triangle => {
                // Written for an up triangle; a down triangle is its vertical mirror.
                let s = if self.up[cell.index()] { 1 } else { -1 };
                (
                    vec![(-1, 0), (1, 0), (0, -s)],
                    vec![
                        (-2, 0),
                        (2, 0),
                        (-1, s),
                        (0, s),
                        (1, s),
                        (-1, -s),
                        (1, -s),
                        (-2, -s),
                        (2, -s),
                    ],
                )
            }
        }
    }

    /// Lattice points of a triangle board: vertex (u, v) lies on horizontal line v at
    /// half-cell position u; it is a vertex of cells u-1, u, u+1 in rows v and v-1.
    fn build_points(&mut self) {
        let mut index = std::collections::HashMap::new();
        let n = self.coords.len();
        let mut cell_points = vec![Vec::new(); n];
        for (i, cp) in cell_points.iter_mut().enumerate() {
            let (x, y) = (self.coords[i].0 as i32, self.coords[i].1 as i32);
            let verts = if self.up[i] {
                [(x - 1, y), (x + 1, y), (x, y + 1)]
            } else {
                [(x - 1, y + 1), (x + 1, y + 1), (x, y)]
            };
            for v in verts {
                let next = index.len();
                let id = *index.entry(v).or_insert(next);
                cp.push(id);
            }
        }
        let mut points = vec![[None; 6]; index.len()];
        for (&(u, v), &id) in &index {
            let around = [
                (u - 1, v),
                (u, v),
                (u + 1, v),
                (u + 1, v - 1),
                (u, v - 1),
                (u - 1, v - 1),
            ];
            for (k, &(x, y)) in around.iter().enumerate() {
                points[id][k] = self.cell_at(x, y);
            }
        }
        assert!(points.len() <= MAX_CELLS);
        self.points = points;
        self.cell_points = cell_points;
    }

    /// Square or triangle cells.
    pub fn kind(&self) -> GridKind {
        self.kind
    }

    /// Width of the bounding rectangle in columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height of the bounding rectangle in rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells on the board.
    pub fn num_cells(&self) -> usize {
        self.coords.len()
    }

    /// All cells in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.coords.len()).map(Cell::new)
    }

    /// Column (0-based from the left) and row (0-based from the bottom) of a cell.
    #[inline]
    pub fn xy(&self, cell: Cell) -> (usize, usize) {
        let (x, y) = self.coords[cell.index()];
        (x as usize, y as usize)
    }

    /// The cell at column `x`, row `y` (0-based, bottom row 0), if it is on the board.
    #[inline]
    pub fn cell_at(&self, x: i32, y: i32) -> Option<Cell> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        self.grid[y as usize * self.width + x as usize]
    }

    /// Whether a triangle cell points up (always `false` on square boards).
    #[inline]
    pub fn is_up(&self, cell: Cell) -> bool {
        self.up[cell.index()]
    }

    /// Cells sharing a side with `cell`.
    #[inline]
    pub fn edge_neighbours(&self, cell: Cell) -> &[Cell] {
        &self.edge[cell.index()]
    }

    /// Cells sharing only a vertex with `cell`.
    #[inline]
    pub fn corner_neighbours(&self, cell: Cell) -> &[Cell] {
        &self.corner[cell.index()]
    }

    /// Lattice points of a triangle board (empty on square boards), each with its six
    /// surrounding cells in cyclic order.
    pub fn points(&self) -> &[PointCells] {
        &self.points
    }

    /// The three lattice points (indices into [`Geometry::points`]) at the corners of a
    /// triangle cell (empty on square boards).
    pub fn cell_points(&self, cell: Cell) -> &[usize] {
        &self.cell_points[cell.index()]
    }

    /// The point reflection of a cell through the centre of the board.
    pub fn reflect(&self, cell: Cell) -> Option<Cell> {
        let (x, y) = self.xy(cell);
        self.cell_at((self.width - 1 - x) as i32, (self.height - 1 - y) as i32)
    }

    /// Every symmetry of the board other than the identity (rotations and reflections
    /// that map it onto itself), each as the image of every cell: 7 for a square board,
    /// 3 for other rectangles, 11 for the Trigon hexagon. Found by moving cell centres,
    /// so it holds for any board shape.
    pub fn symmetries(&self) -> Vec<Vec<Cell>> {
        let centres: Vec<(f64, f64)> = self.cells().map(|c| self.centre(c)).collect();
        let n = centres.len() as f64;
        let (mx, my) = centres
            .iter()
            .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
        // In units of a quarter horizontally and sqrt(3)/12 (triangles) or a quarter
        // (squares) vertically, centres relative to the board's centre lie on integers,
        // so rounding identifies them exactly.
        let sy = match self.kind {
            GridKind::Square => 4.0,
            GridKind::Triangle => 4.0 * 3f64.sqrt(),
        };
        let key = |x: f64, y: f64| ((x * 4.0).round() as i64, (y * sy).round() as i64);
        let index: std::collections::HashMap<(i64, i64), Cell> = self
            .cells()
            .map(|c| {
                let (x, y) = centres[c.index()];
                (key(x - mx, y - my), c)
            })
            .collect();
        let turns = match self.kind {
            GridKind::Square => 4,
            GridKind::Triangle => 6,
        };
        let mut out = Vec::new();
        for mirror in [false, true] {
            for k in 0..turns {
                if k == 0 && !mirror {
                    continue;
                }
                let a = std::f64::consts::TAU * k as f64 / turns as f64;
                let (sin, cos) = a.sin_cos();
                let image: Option<Vec<Cell>> = centres
                    .iter()
                    .map(|&(x, y)| {
                        let (x, y) = (if mirror { mx - x } else { x - mx }, y - my);
                        index
                            .get(&key(x * cos - y * sin, x * sin + y * cos))
                            .copied()
                    })
                    .collect();
                out.extend(image);
            }
        }
        out
    }

    /// The centre of a cell in the plane: unit squares, or triangles of side 1.
    fn centre(&self, cell: Cell) -> (f64, f64) {
        let (x, y) = self.xy(cell);
        let (x, y) = (x as f64, y as f64);
        match self.kind {
            GridKind::Square => (x, y),
            GridKind::Triangle => {
                // Vertices of an up triangle: (x-1, y), (x+1, y), (x, y+1) in half-side
                // and row units; a down triangle is its vertical mirror.
                let third = if self.is_up(cell) { 1.0 } else { 2.0 } / 3.0;
                (x / 2.0, (y + third) * 3f64.sqrt() / 2.0)
            }
        }
    }

    /// The cell's name, e.g. `a1`, `t20`, `ai9`.
    pub fn cell_name(&self, cell: Cell) -> String {
        self.cell_str(cell).to_string()
    }

    /// The cell's name, borrowed (see [`Geometry::cell_name`]).
    pub fn cell_str(&self, cell: Cell) -> &str {
        &self.names[cell.index()]
    }

    /// Parses a cell name (case-insensitive) into a cell of this board.
    ///
    /// # Errors
    /// [`CellError`] naming the text if it is not a cell name or the cell is off the board.
    pub fn parse_cell(&self, text: &str) -> Result<Cell, CellError> {
        let (x, y) = parse_cell_name(text).ok_or_else(|| CellError::Malformed(text.to_string()))?;
        self.cell_at(x as i32, y as i32)
            .ok_or_else(|| CellError::OffBoard(text.to_string()))
    }
}

/// An error in a cell name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellError {
    /// The text is not of the form letters + row number.
    Malformed(String),
    /// The name is well-formed but the cell is not on this board.
    OffBoard(String),
}

impl std::fmt::Display for CellError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellError::Malformed(t) => {
                write!(f, "'{t}' is not a cell name (expected e.g. a1 or t20)")
            }
            CellError::OffBoard(t) => write!(f, "cell '{t}' is not on this board"),
        }
    }
}

impl std::error::Error for CellError {}

/// The name of column `x` (0-based): `a`..`z`, then `aa`, `ab`, ...
pub fn column_name(x: usize) -> String {
    if x < 26 {
        ((b'a' + x as u8) as char).to_string()
    } else {
        let (hi, lo) = (x / 26 - 1, x % 26);
        format!("{}{}", (b'a' + hi as u8) as char, (b'a' + lo as u8) as char)
    }
}

/// Parses `letters digits` into 0-based (column, row); `None` if malformed.
pub fn parse_cell_name(text: &str) -> Option<(usize, usize)> {
    let t = text.trim().to_ascii_lowercase();
    let split = t.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = t.split_at(split);
    if letters.is_empty() || letters.len() > 2 || !letters.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let b = letters.as_bytes();
    let x = if b.len() == 1 {
        (b[0] - b'a') as usize
    } else {
        (b[0] - b'a' + 1) as usize * 26 + (b[1] - b'a') as usize
    };
    let row: usize = digits.parse().ok()?;
    if row == 0 {
        return None;
    }
    Some((x, row - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::CellSet;

    #[test]
    fn boards_have_their_symmetries_and_each_keeps_adjacency() {
        for (g, count) in [
            (Geometry::square(20, 20), 7),
            (Geometry::square(14, 14), 7),
            (Geometry::square(15, 16), 3),
            (Geometry::trigon(9), 11),
            (Geometry::trigon(8), 11),
        ] {
            let syms = g.symmetries();
            assert_eq!(syms.len(), count, "{}x{}", g.width(), g.height());
            for map in &syms {
                let mut seen = CellSet::EMPTY;
                for c in g.cells() {
                    seen.insert(map[c.index()]);
                    for &e in g.edge_neighbours(c) {
                        assert!(g.edge_neighbours(map[c.index()]).contains(&map[e.index()]));
                    }
                    for &k in g.corner_neighbours(c) {
                        assert!(g
                            .corner_neighbours(map[c.index()])
                            .contains(&map[k.index()]));
                    }
                }
                assert_eq!(seen.len(), g.num_cells(), "a permutation");
            }
            // The point reflection is one of them.
            let point: Vec<Cell> = g.cells().map(|c| g.reflect(c).unwrap()).collect();
            assert!(syms.contains(&point));
        }
    }

    #[test]
    fn cell_counts() {
        assert_eq!(Geometry::square(20, 20).num_cells(), 400);
        assert_eq!(Geometry::square(14, 14).num_cells(), 196);
        assert_eq!(Geometry::trigon(9).num_cells(), 486);
        assert_eq!(Geometry::trigon(8).num_cells(), 384);
    }

    #[test]
    fn names_round_trip() {
        let g = Geometry::trigon(9);
        for c in g.cells() {
            assert_eq!(g.parse_cell(&g.cell_name(c)), Ok(c));
        }
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(34), "ai");
        assert!(g.parse_cell("a1").is_err());
        assert!(matches!(g.parse_cell("1a"), Err(CellError::Malformed(_))));
    }

    #[test]
    fn trigon_row_lengths_and_orientation() {
        let g = Geometry::trigon(9);
        let mut lens = vec![0; 18];
        for c in g.cells() {
            lens[g.xy(c).1] += 1;
        }
        assert_eq!(
            lens,
            vec![19, 21, 23, 25, 27, 29, 31, 33, 35, 35, 33, 31, 29, 27, 25, 23, 21, 19]
        );
        // For edge 9: up iff x + r even with r counted from 1 at the bottom.
        for c in g.cells() {
            let (x, y) = g.xy(c);
            assert_eq!(g.is_up(c), (x + y + 1) % 2 == 0);
        }
        // Top-half rows start with an up triangle for edge 8 too.
        let g8 = Geometry::trigon(8);
        let top_left = g8.parse_cell("h16").unwrap();
        assert!(g8.is_up(top_left));
        let bottom_left = g8.parse_cell("h1").unwrap();
        assert!(!g8.is_up(bottom_left));
    }

    #[test]
    fn trigon_neighbours_inside() {
        let g = Geometry::trigon(9);
        let c = g.parse_cell("r9").unwrap();
        assert_eq!(g.edge_neighbours(c).len(), 3);
        assert_eq!(g.corner_neighbours(c).len(), 9);
        // Neighbour relations are symmetric.
        for a in g.cells() {
            for &b in g.edge_neighbours(a) {
                assert!(g.edge_neighbours(b).contains(&a));
            }
            for &b in g.corner_neighbours(a) {
                assert!(g.corner_neighbours(b).contains(&a));
            }
        }
    }

    #[test]
    fn trigon_points_have_six_cells_inside() {
        let g = Geometry::trigon(9);
        let c = g.parse_cell("r9").unwrap();
        for &p in g.cell_points(c) {
            let cells = g.points()[p];
            assert!(cells.iter().all(|c| c.is_some()));
            assert!(cells.contains(&Some(c)));
            // Consecutive cells around a point share an edge.
            for k in 0..6 {
                let (a, b) = (cells[k].unwrap(), cells[(k + 1) % 6].unwrap());
                assert!(g.edge_neighbours(a).contains(&b));
            }
        }
    }

    #[test]
    fn square_neighbours() {
        let g = Geometry::square(20, 20);
        let corner = g.parse_cell("a1").unwrap();
        assert_eq!(g.edge_neighbours(corner).len(), 2);
        assert_eq!(g.corner_neighbours(corner).len(), 1);
        assert_eq!(g.reflect(corner), g.parse_cell("t20").ok());
    }
}
