//! Every placement of a piece set on a board, precomputed once into constant tables.
//!
//! A move is a small id ([`Move`]) into these tables. Per move the table keeps the covered
//! cells, the cells sharing an edge with it (forbidden to its colour afterwards), the
//! corner cells (attach points), and for triangle boards the lattice points it touches
//! and those where it has a straight side (the alternate contact rule).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::bitset::CellSet;
use crate::geometry::{BoardShape, Cell, Geometry, GridKind};
use crate::piece::{PieceSet, PieceSetId};

/// Tables built so far, by board and piece set.
type TableCache = HashMap<(BoardShape, PieceSetId), Arc<MoveTable>>;

/// A placement: an index into a [`MoveTable`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move(u32);

impl Move {
    /// Wraps a table index.
    #[inline]
    pub fn new(index: usize) -> Move {
        Move(index as u32)
    }

    /// The table index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Largest piece size of any set.
pub const MAX_PIECE_SIZE: usize = 6;

/// Constant data of one placement.
#[derive(Clone, Copy, Debug)]
pub struct MoveInfo {
    /// Index of the piece in the set.
    pub piece: u8,
    /// Orientation index within the piece's orientation list.
    pub orientation: u8,
    len: u8,
    cells: [Cell; MAX_PIECE_SIZE],
    adj_start: u32,
    adj_len: u8,
    corner_len: u8,
    points_start: u32,
    points_len: u8,
    straight_len: u8,
    window_start: u8,
    window: [u64; 4],
}

impl MoveInfo {
    /// Covered cells, in increasing index order (the canonical spelling).
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..self.len as usize]
    }

    /// Whether the move covers a cell of `set`: four word operations.
    #[inline]
    pub fn hits(&self, set: &CellSet) -> bool {
        set.intersects_window(self.window_start as usize, &self.window)
    }
}

/// All placements of one piece set on one board.
pub struct MoveTable {
    geometry: Geometry,
    pieces: PieceSet,
    moves: Vec<MoveInfo>,
    /// Per move, its piece: a compact copy of `MoveInfo::piece`, so that draws can
    /// reject a move of a used piece without reading its (much larger) info.
    piece_of: Vec<u8>,
    /// Flat lists: per move its edge cells then corner cells.
    neighbours: Vec<Cell>,
    /// Flat lists: per move its touched points then straight-side points.
    points: Vec<u16>,
    /// Start of the (cell, piece) range in `at_list`; length cells * pieces + 1.
    at_index: Vec<u32>,
    at_list: Vec<Move>,
    /// Start of the (cell, piece, edge status) range in `status_list`: the moves of the
    /// piece at the cell that cover none of the cell's edge neighbours set in the status
    /// bit mask (bit i = i-th edge neighbour). Lets move generation skip, without looking,
    /// every move that runs into a forbidden neighbour of an attach point.
    status_index: Vec<u32>,
    status_list: Vec<Move>,
    status_masks: usize,
    cell_sets: Vec<CellSet>,
    by_cells: HashMap<Vec<Cell>, Move>,
}

impl MoveTable {
    /// The shared table of a board and piece set (built on first use).
    pub fn get(board: BoardShape, set: PieceSetId) -> Arc<MoveTable> {
        static CACHE: OnceLock<Mutex<TableCache>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        // Building a table takes milliseconds; holding the lock meanwhile keeps it single.
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        map.entry((board, set))
            .or_insert_with(|| Arc::new(MoveTable::build(board.geometry(), set.build())))
            .clone()
    }

    /// Builds the table of every placement of `pieces` on `geometry`.
    pub fn build(geometry: Geometry, pieces: PieceSet) -> MoveTable {
        assert_eq!(
            geometry.kind(),
            pieces.kind,
            "piece set does not fit the board"
        );
        let mut moves = Vec::new();
        let mut neighbours = Vec::new();
        let mut points = Vec::new();
        let mut cell_sets = Vec::new();
        let mut by_cells = HashMap::new();
        let np = pieces.pieces.len();
        let mut per_cell: Vec<Vec<Vec<Move>>> = vec![vec![Vec::new(); np]; geometry.num_cells()];
        let (w, h) = (geometry.width() as i32, geometry.height() as i32);
        for (pi, piece) in pieces.pieces.iter().enumerate() {
            for (oi, shape) in piece.orientations.iter().enumerate() {
                for dy in -h..h {
                    for dx in -w..w {
                        let mut cells = Vec::with_capacity(shape.len());
                        for &(x, y) in shape {
                            let Some(c) = geometry.cell_at(x + dx, y + dy) else {
                                break;
                            };
                            // Translations on triangles must keep each cell's orientation.
                            if geometry.kind() == GridKind::Triangle
                                && geometry.is_up(c) != ((x + y).rem_euclid(2) == 0)
                            {
                                break;
                            }
                            cells.push(c);
                        }
                        if cells.len() != shape.len() {
                            continue;
                        }
                        cells.sort();
                        let id = Move::new(moves.len());
                        let set: CellSet = cells.iter().copied().collect();
                        let mut edge = CellSet::EMPTY;
                        let mut corner = CellSet::EMPTY;
                        for &c in &cells {
                            edge.union_with(&geometry.edge_neighbours(c).iter().copied().collect());
                            corner.union_with(
                                &geometry.corner_neighbours(c).iter().copied().collect(),
                            );
                        }
                        edge.subtract(&set);
                        corner.subtract(&set);
                        corner.subtract(&edge);
                        let adj_start = neighbours.len() as u32;
                        neighbours.extend(edge.iter());
                        neighbours.extend(corner.iter());
                        let (touched, straight) = point_contacts(&geometry, &set);
                        let points_start = points.len() as u32;
                        points.extend(touched.iter().map(|&p| p as u16));
                        points.extend(straight.iter().map(|&p| p as u16));
                        // Pieces span at most a few rows, so four words always cover one.
                        let window_start = set
                            .window_start()
                            .expect("a piece spans at most 256 consecutive cells");
                        let mut arr = [Cell::new(0); MAX_PIECE_SIZE];
                        arr[..cells.len()].copy_from_slice(&cells);
                        moves.push(MoveInfo {
                            piece: pi as u8,
                            orientation: oi as u8,
                            len: cells.len() as u8,
                            cells: arr,
                            adj_start,
                            adj_len: edge.len() as u8,
                            corner_len: corner.len() as u8,
                            points_start,
                            points_len: touched.len() as u8,
                            straight_len: straight.len() as u8,
                            window_start: window_start as u8,
                            window: set.window(window_start),
                        });
                        for &c in &cells {
                            per_cell[c.index()][pi].push(id);
                        }
                        cell_sets.push(set);
                        by_cells.insert(cells, id);
                    }
                }
            }
        }
        let mut at_index = Vec::with_capacity(per_cell.len() * np + 1);
        let mut at_list = Vec::new();
        for lists in per_cell {
            for list in lists {
                at_index.push(at_list.len() as u32);
                at_list.extend(list);
            }
        }
        at_index.push(at_list.len() as u32);
        let status_masks = match geometry.kind() {
            GridKind::Square => 16,
            GridKind::Triangle => 8,
        };
        let mut status_index = Vec::with_capacity(geometry.num_cells() * np * status_masks + 1);
        let mut status_list = Vec::new();
        for cell in geometry.cells() {
            let nbrs = geometry.edge_neighbours(cell);
            let covers = |m: Move| -> usize {
                nbrs.iter()
                    .enumerate()
                    .filter(|(_, &n)| cell_sets[m.index()].contains(n))
                    .map(|(i, _)| 1 << i)
                    .sum()
            };
            // Laid out by (cell, status, piece) so that one status's moves over all
            // pieces form one slice (see `moves_at_status_all`).
            for mask in 0..status_masks {
                for piece in 0..np {
                    let k = cell.index() * np + piece;
                    let list = &at_list[at_index[k] as usize..at_index[k + 1] as usize];
                    status_index.push(status_list.len() as u32);
                    status_list.extend(list.iter().copied().filter(|&m| covers(m) & mask == 0));
                }
            }
        }
        status_index.push(status_list.len() as u32);
        let piece_of = moves.iter().map(|i| i.piece).collect();
        MoveTable {
            geometry,
            pieces,
            moves,
            piece_of,
            neighbours,
            points,
            at_index,
            at_list,
            status_index,
            status_list,
            status_masks,
            cell_sets,
            by_cells,
        }
    }

    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The piece set.
    pub fn pieces(&self) -> &PieceSet {
        &self.pieces
    }

    /// Number of placements.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the table is empty (no piece fits the board).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Constant data of a move.
    #[inline]
    pub fn info(&self, m: Move) -> &MoveInfo {
        &self.moves[m.index()]
    }

    /// The piece of a move (the same as `info(m).piece`, from a compact table).
    #[inline]
    pub fn piece_of(&self, m: Move) -> usize {
        self.piece_of[m.index()] as usize
    }

    /// Covered cells of a move as a set.
    #[inline]
    pub fn cell_set(&self, m: Move) -> &CellSet {
        &self.cell_sets[m.index()]
    }

    /// Cells sharing an edge with the move (not covered by it).
    #[inline]
    pub fn edge_cells(&self, m: Move) -> &[Cell] {
        let i = &self.moves[m.index()];
        &self.neighbours[i.adj_start as usize..i.adj_start as usize + i.adj_len as usize]
    }

    /// Cells sharing only a corner with the move: its attach points.
    #[inline]
    pub fn corner_cells(&self, m: Move) -> &[Cell] {
        let i = &self.moves[m.index()];
        let s = i.adj_start as usize + i.adj_len as usize;
        &self.neighbours[s..s + i.corner_len as usize]
    }

    /// Lattice points the move touches (triangle boards).
    #[inline]
    pub fn touched_points(&self, m: Move) -> &[u16] {
        let i = &self.moves[m.index()];
        &self.points[i.points_start as usize..i.points_start as usize + i.points_len as usize]
    }

    /// Lattice points where the move covers exactly three consecutive triangles.
    #[inline]
    pub fn straight_points(&self, m: Move) -> &[u16] {
        let i = &self.moves[m.index()];
        let s = i.points_start as usize + i.points_len as usize;
        &self.points[s..s + i.straight_len as usize]
    }

    /// Moves of `piece` covering `cell`.
    #[inline]
    pub fn moves_at(&self, cell: Cell, piece: usize) -> &[Move] {
        let k = cell.index() * self.pieces.pieces.len() + piece;
        &self.at_list[self.at_index[k] as usize..self.at_index[k + 1] as usize]
    }

    /// Moves of `piece` covering `cell` and none of the cell's edge neighbours flagged in
    /// `status` (bit i = i-th entry of [`Geometry::edge_neighbours`]).
    #[inline]
    pub fn moves_at_status(&self, cell: Cell, piece: usize, status: usize) -> &[Move] {
        let k = (cell.index() * self.status_masks + status) * self.pieces.pieces.len() + piece;
        &self.status_list[self.status_index[k] as usize..self.status_index[k + 1] as usize]
    }

    /// Moves of every piece covering `cell` and none of the edge neighbours flagged in
    /// `status`, as one slice (pieces in set order).
    #[inline]
    pub fn moves_at_status_all(&self, cell: Cell, status: usize) -> &[Move] {
        let np = self.pieces.pieces.len();
        let k = (cell.index() * self.status_masks + status) * np;
        &self.status_list[self.status_index[k] as usize..self.status_index[k + np] as usize]
    }

    /// The status mask of `cell` for [`MoveTable::moves_at_status`]: which of its edge
    /// neighbours are in `blocked`.
    #[inline]
    pub fn edge_status(&self, cell: Cell, blocked: &CellSet) -> usize {
        let mut s = 0;
        for (i, &n) in self.geometry.edge_neighbours(cell).iter().enumerate() {
            s |= (blocked.contains(n) as usize) << i;
        }
        s
    }

    /// The move covering exactly these cells (any order), if there is one.
    pub fn find(&self, cells: &[Cell]) -> Option<Move> {
        let mut v = cells.to_vec();
        v.sort();
        self.by_cells.get(&v).copied()
    }

    /// All moves.
    pub fn all(&self) -> impl Iterator<Item = Move> {
        (0..self.moves.len()).map(Move::new)
    }
}

/// Lattice points touched by a cell set, and those where it covers exactly three
/// consecutive of the six triangles around the point (a straight side through it).
fn point_contacts(geometry: &Geometry, set: &CellSet) -> (Vec<usize>, Vec<usize>) {
    let mut touched: Vec<usize> = set
        .iter()
        .flat_map(|c| geometry.cell_points(c).iter().copied())
        .collect();
    touched.sort_unstable();
    touched.dedup();
    let straight = touched
        .iter()
        .copied()
        .filter(|&p| {
            let around = geometry.points()[p];
            let covered: Vec<bool> = around
                .iter()
                .map(|c| c.is_some_and(|c| set.contains(c)))
                .collect();
            if covered.iter().filter(|&&b| b).count() != 3 {
                return false;
            }
            (0..6).any(|k| covered[k] && covered[(k + 1) % 6] && covered[(k + 2) % 6])
        })
        .collect();
    (touched, straight)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(board: BoardShape, set: PieceSetId) -> usize {
        MoveTable::get(board, set).len()
    }

    #[test]
    fn placement_counts_match_reference() {
        assert_eq!(
            count(
                BoardShape::Square {
                    width: 20,
                    height: 20
                },
                PieceSetId::Classic
            ),
            30433
        );
        assert_eq!(
            count(
                BoardShape::Square {
                    width: 14,
                    height: 14
                },
                PieceSetId::Classic
            ),
            13729
        );
        assert_eq!(
            count(
                BoardShape::Square {
                    width: 14,
                    height: 14
                },
                PieceSetId::Junior
            ),
            7217
        );
        assert_eq!(
            count(BoardShape::Trigon { edge: 9 }, PieceSetId::Trigon),
            32131
        );
        assert_eq!(
            count(BoardShape::Trigon { edge: 8 }, PieceSetId::Trigon),
            24859
        );
    }

    #[test]
    fn lookup_by_cells() {
        let t = MoveTable::get(
            BoardShape::Square {
                width: 14,
                height: 14,
            },
            PieceSetId::Classic,
        );
        for m in t.all().step_by(97) {
            let mut cells = t.info(m).cells().to_vec();
            cells.reverse();
            assert_eq!(t.find(&cells), Some(m));
        }
    }
}
