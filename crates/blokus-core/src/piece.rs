//! Pieces and piece sets: shapes, their orientations, and the sets of SPEC 4.
//!
//! A shape is a list of cells in a local frame (x right, y up). On triangle grids the
//! triangle at (x, y) points up iff x + y is even. Orientations are generated from one
//! shape per piece: 8 symmetries on squares, 12 on triangles.

use std::collections::BTreeSet;

use crate::geometry::GridKind;

/// Cells of a shape in its local frame.
pub type Shape = Vec<(i32, i32)>;

/// One kind of piece of a set.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// Name in `.blksgf` convention (`F`, `I5`, `1`, ...).
    pub name: String,
    /// Number of cells.
    pub size: usize,
    /// Instances of this piece in one colour's set (2 in Junior and Small).
    pub count: u8,
    /// Every distinct orientation, normalised and sorted.
    pub orientations: Vec<Shape>,
}

/// Identifies a piece set of SPEC 4.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceSetId {
    /// The 21 polyominoes of sizes 1..5.
    Classic,
    /// Two copies each of 12 Classic pieces.
    Junior,
    /// The 22 polyiamonds of sizes 1..6.
    Trigon,
    /// Nine small Classic pieces.
    Mini,
    /// Two Mini sets.
    Small,
    /// The Classic set plus the 35 hexominoes.
    Hexa,
}

impl PieceSetId {
    /// The set's name for people.
    pub fn name(self) -> &'static str {
        match self {
            PieceSetId::Classic => "Classic",
            PieceSetId::Junior => "Junior",
            PieceSetId::Trigon => "Trigon",
            PieceSetId::Mini => "Polyomino Mini",
            PieceSetId::Small => "Polyomino Small",
            PieceSetId::Hexa => "Polyomino Hexa",
        }
    }

    /// Builds the set.
    pub fn build(self) -> PieceSet {
        let sq = GridKind::Square;
        let classic = || {
            CLASSIC
                .iter()
                .map(|&(n, art)| (n.to_string(), parse_art(art), 1))
                .collect::<Vec<_>>()
        };
        let pick = |names: &[&str], count: u8| {
            names
                .iter()
                .map(|&name| {
                    let art = CLASSIC
                        .iter()
                        .find(|(n, _)| *n == name)
                        .expect("classic piece")
                        .1;
                    (name.to_string(), parse_art(art), count)
                })
                .collect::<Vec<_>>()
        };
        let (kind, defs) = match self {
            PieceSetId::Classic => (sq, classic()),
            PieceSetId::Junior => (sq, pick(&JUNIOR, 2)),
            PieceSetId::Mini => (sq, pick(&MINI, 1)),
            PieceSetId::Small => (sq, pick(&MINI, 2)),
            PieceSetId::Hexa => {
                let mut v = classic();
                for (i, shape) in free_shapes(GridKind::Square, 6).into_iter().enumerate() {
                    v.push((format!("H{:02}", i + 1), shape, 1));
                }
                (sq, v)
            }
            PieceSetId::Trigon => (
                GridKind::Triangle,
                TRIGON
                    .iter()
                    .map(|(n, cells)| {
                        // Stored with y downwards (the .blksgf program's frame); flip it.
                        (
                            n.to_string(),
                            cells.iter().map(|&(x, y)| (x, -y)).collect(),
                            1,
                        )
                    })
                    .collect(),
            ),
        };
        let pieces = defs
            .into_iter()
            .map(|(name, shape, count)| PieceDef {
                size: shape.len(),
                orientations: orientations(kind, &shape),
                name,
                count,
            })
            .collect();
        PieceSet {
            id: self,
            kind,
            pieces,
        }
    }
}

/// The pieces one colour (or, in Hexa, both colours) starts with.
#[derive(Clone, Debug)]
pub struct PieceSet {
    /// Which set this is.
    pub id: PieceSetId,
    /// Square or triangle pieces.
    pub kind: GridKind,
    /// The piece kinds, largest first within the spec's order.
    pub pieces: Vec<PieceDef>,
}

impl PieceSet {
    /// Total cells of one full set (counting copies).
    pub fn total_cells(&self) -> usize {
        self.pieces.iter().map(|p| p.size * p.count as usize).sum()
    }

    /// Total pieces of one full set (counting copies).
    pub fn total_pieces(&self) -> usize {
        self.pieces.iter().map(|p| p.count as usize).sum()
    }

    /// Looks a piece up by name (case-insensitive).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.pieces
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
    }
}

/// Classic pieces as ASCII art, rows top to bottom.
const CLASSIC: [(&str, &str); 21] = [
    ("F", ".##/##./.#."),
    ("I5", "#####"),
    ("L5", "#.../####"),
    ("N", "##../.###"),
    ("P", "##/##/#."),
    ("T5", "###/.#./.#."),
    ("U", "#.#/###"),
    ("V5", "#../#../###"),
    ("W", "#../##./.##"),
    ("X", ".#./###/.#."),
    ("Y", ".#../####"),
    ("Z5", "##./.#./.##"),
    ("I4", "####"),
    ("L4", "#../###"),
    ("O", "##/##"),
    ("T4", "###/.#."),
    ("Z4", "##./.##"),
    ("I3", "###"),
    ("V3", "#./##"),
    ("2", "##"),
    ("1", "#"),
];

const JUNIOR: [&str; 12] = [
    "L5", "P", "I5", "O", "T4", "Z4", "L4", "I4", "V3", "I3", "2", "1",
];
const MINI: [&str; 9] = ["1", "2", "I3", "V3", "I4", "L4", "O", "T4", "Z4"];

/// Trigon pieces, y downwards, triangle (x, y) up iff x + y even.
const TRIGON: [(&str, &[(i32, i32)]); 22] = [
    ("A6", &[(1, -1), (0, 0), (1, 0), (2, 0), (0, 1), (2, 1)]),
    ("F", &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
    ("G", &[(1, -1), (0, 0), (1, 0), (0, 1), (1, 1), (2, 1)]),
    ("I6", &[(1, -1), (2, -1), (0, 0), (1, 0), (-1, 1), (0, 1)]),
    ("L6", &[(1, -1), (2, -1), (0, 0), (1, 0), (0, 1), (1, 1)]),
    ("O", &[(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0)]),
    ("P6", &[(1, -1), (0, 0), (1, 0), (2, 0), (-1, 1), (0, 1)]),
    ("S", &[(-1, -1), (0, -1), (-1, 0), (0, 0), (-1, 1), (0, 1)]),
    ("V", &[(-2, -1), (-1, -1), (-1, 0), (0, 0), (1, 0), (2, 0)]),
    ("W", &[(1, -1), (-1, 0), (0, 0), (1, 0), (2, 0), (3, 0)]),
    ("X", &[(-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]),
    ("Y", &[(-1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)]),
    ("C5", &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)]),
    ("I5", &[(1, -1), (0, 0), (1, 0), (-1, 1), (0, 1)]),
    ("L5", &[(1, -1), (0, 0), (1, 0), (0, 1), (1, 1)]),
    ("P5", &[(1, -1), (0, 0), (1, 0), (2, 0), (0, 1)]),
    ("A4", &[(1, -1), (0, 0), (1, 0), (2, 0)]),
    ("C4", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
    ("I4", &[(0, 0), (1, 0), (-1, 1), (0, 1)]),
    ("I3", &[(1, -1), (0, 0), (1, 0)]),
    ("2", &[(0, 0), (1, 0)]),
    ("1", &[(0, 0)]),
];

/// Parses ASCII art (rows top to bottom separated by `/`, `#` = cell).
pub fn parse_art(art: &str) -> Shape {
    let rows: Vec<&str> = art.split('/').collect();
    let h = rows.len() as i32;
    let mut cells = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if ch == '#' {
                cells.push((x as i32, h - 1 - r as i32));
            }
        }
    }
    cells
}

/// Translates a shape to a canonical position and sorts it. On triangles the
/// translation keeps every cell's orientation (x + y parity).
pub fn normalize(kind: GridKind, shape: &[(i32, i32)]) -> Shape {
    let min_x = shape.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = shape.iter().map(|c| c.1).min().unwrap_or(0);
    let (mut dx, dy) = (-min_x, -min_y);
    if kind == GridKind::Triangle && (dx + dy).rem_euclid(2) != 0 {
        dx += 1;
    }
    let mut out: Shape = shape.iter().map(|&(x, y)| (x + dx, y + dy)).collect();
    out.sort_by_key(|&(x, y)| (y, x));
    out
}

/// Vertices of triangle (x, y) in axial lattice coordinates (q, s).
fn triangle_vertices(x: i32, y: i32) -> [(i32, i32); 3] {
    let uv = if (x + y).rem_euclid(2) == 0 {
        [(x - 1, y), (x + 1, y), (x, y + 1)]
    } else {
        [(x - 1, y + 1), (x + 1, y + 1), (x, y)]
    };
    // u + v is odd for every vertex.
    uv.map(|(u, v)| ((u - v - 1).div_euclid(2), v))
}

/// The triangle with the given three axial vertices.
fn triangle_from_vertices(vs: [(i32, i32); 3]) -> (i32, i32) {
    let uv = vs.map(|(q, s)| (2 * q + s + 1, s));
    let min_v = uv.iter().map(|p| p.1).min().unwrap();
    let low: Vec<_> = uv.iter().filter(|p| p.1 == min_v).collect();
    if low.len() == 2 {
        let apex = uv.iter().find(|p| p.1 != min_v).unwrap();
        (apex.0, min_v)
    } else {
        (low[0].0, min_v)
    }
}

/// Applies symmetry number `t` (0..8 on squares, 0..12 on triangles) to a shape.
pub fn transform(kind: GridKind, shape: &[(i32, i32)], t: usize) -> Shape {
    match kind {
        GridKind::Square => shape
            .iter()
            .map(|&(x, y)| {
                let (mut x, mut y) = if t >= 4 { (-x, y) } else { (x, y) };
                for _ in 0..t % 4 {
                    (x, y) = (-y, x);
                }
                (x, y)
            })
            .collect(),
        GridKind::Triangle => shape
            .iter()
            .map(|&(x, y)| {
                let vs = triangle_vertices(x, y).map(|(mut q, mut s)| {
                    if t >= 6 {
                        (q, s) = (q + s, -s);
                    }
                    for _ in 0..t % 6 {
                        (q, s) = (-s, q + s);
                    }
                    (q, s)
                });
                triangle_from_vertices(vs)
            })
            .collect(),
    }
}

/// Number of symmetries of the grid (8 or 12).
pub fn symmetry_count(kind: GridKind) -> usize {
    match kind {
        GridKind::Square => 8,
        GridKind::Triangle => 12,
    }
}

/// Every distinct normalised orientation of a shape, in a fixed order.
pub fn orientations(kind: GridKind, shape: &[(i32, i32)]) -> Vec<Shape> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for t in 0..symmetry_count(kind) {
        let n = normalize(kind, &transform(kind, shape, t));
        if seen.insert(n.clone()) {
            out.push(n);
        }
    }
    out
}

/// The canonical representative of a free shape (smallest orientation).
pub fn canonical(kind: GridKind, shape: &[(i32, i32)]) -> Shape {
    orientations(kind, shape)
        .into_iter()
        .min()
        .expect("non-empty")
}

/// Every free polyomino or polyiamond of `size` cells, in canonical order.
pub fn free_shapes(kind: GridKind, size: usize) -> Vec<Shape> {
    let mut level: BTreeSet<Shape> = BTreeSet::new();
    level.insert(vec![(0, 0)]);
    for _ in 1..size {
        let mut next = BTreeSet::new();
        for shape in &level {
            for &(x, y) in shape {
                let nbrs: Vec<(i32, i32)> = match kind {
                    GridKind::Square => vec![(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)],
                    GridKind::Triangle => {
                        let vertical = if (x + y).rem_euclid(2) == 0 {
                            y - 1
                        } else {
                            y + 1
                        };
                        vec![(x - 1, y), (x + 1, y), (x, vertical)]
                    }
                };
                for n in nbrs {
                    if !shape.contains(&n) {
                        let mut s = shape.clone();
                        s.push(n);
                        next.insert(canonical(kind, &s));
                    }
                }
            }
        }
        level = next;
    }
    level.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_shape_counts() {
        let counts: Vec<usize> = (1..=6)
            .map(|n| free_shapes(GridKind::Square, n).len())
            .collect();
        assert_eq!(counts, vec![1, 1, 2, 5, 12, 35]);
        let tri: Vec<usize> = (1..=6)
            .map(|n| free_shapes(GridKind::Triangle, n).len())
            .collect();
        assert_eq!(tri, vec![1, 1, 1, 3, 4, 12]);
    }

    #[test]
    fn sets_match_the_spec() {
        let expect = [
            (PieceSetId::Classic, 21, 89),
            (PieceSetId::Junior, 24, 88),
            (PieceSetId::Trigon, 22, 110),
            (PieceSetId::Mini, 9, 29),
            (PieceSetId::Small, 18, 58),
            (PieceSetId::Hexa, 56, 299),
        ];
        for (id, pieces, cells) in expect {
            let set = id.build();
            assert_eq!(set.total_pieces(), pieces, "{id:?}");
            assert_eq!(set.total_cells(), cells, "{id:?}");
        }
    }

    #[test]
    fn every_set_has_distinct_free_shapes() {
        for id in [PieceSetId::Classic, PieceSetId::Trigon, PieceSetId::Hexa] {
            let set = id.build();
            let canon: BTreeSet<Shape> = set
                .pieces
                .iter()
                .map(|p| canonical(set.kind, &p.orientations[0]))
                .collect();
            assert_eq!(canon.len(), set.pieces.len(), "{id:?}");
        }
        // The Trigon set is exactly the free polyiamonds of sizes 1..6.
        let set = PieceSetId::Trigon.build();
        let mine: BTreeSet<Shape> = set
            .pieces
            .iter()
            .map(|p| canonical(set.kind, &p.orientations[0]))
            .collect();
        let all: BTreeSet<Shape> = (1..=6)
            .flat_map(|n| free_shapes(GridKind::Triangle, n))
            .collect();
        assert_eq!(mine, all);
    }

    #[test]
    fn orientation_counts() {
        let set = PieceSetId::Classic.build();
        let count = |n: &str| set.pieces[set.find(n).unwrap()].orientations.len();
        assert_eq!(count("F"), 8);
        assert_eq!(count("X"), 1);
        assert_eq!(count("I5"), 2);
        assert_eq!(count("O"), 1);
        let total: usize = set.pieces.iter().map(|p| p.orientations.len()).sum();
        assert_eq!(total, 91);
        let tri = PieceSetId::Trigon.build();
        let c = |n: &str| tri.pieces[tri.find(n).unwrap()].orientations.len();
        assert_eq!(c("1"), 2);
        assert_eq!(c("O"), 1);
        assert_eq!(c("2"), 3);
    }
}
