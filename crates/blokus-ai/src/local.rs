//! Per-cell neighbourhood masks: for each cell `p` and piece, the placements covering
//! `p`, each with a bitmask over the cells around `p` that it covers. Whether a
//! placement avoids the forbidden cells is then one AND against the neighbourhood's
//! forbidden mask, computed once per attach point.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use blokus_core::{Cell, CellSet, Move, MoveTable, Rules};

/// Tables by variant id (`None`: a neighbourhood too big for a mask).
type Cache = HashMap<&'static str, Option<Arc<LocalTable>>>;

/// One placement with its neighbourhood mask.
#[derive(Clone, Copy, Debug)]
pub struct LocalMove {
    /// The placement.
    pub mv: Move,
    /// The neighbourhood cells it covers.
    pub mask: u128,
}

/// The masks of one board and piece set.
pub struct LocalTable {
    num_pieces: usize,
    /// Per cell: the neighbourhood cells, by local index.
    neighbourhood: Vec<Vec<Cell>>,
    /// Start of each (cell, piece) range in `moves`.
    index: Vec<u32>,
    moves: Vec<LocalMove>,
}

impl LocalTable {
    /// The shared table of a variant's board and piece set (built on first use).
    pub fn get(rules: &Rules) -> Option<Arc<LocalTable>> {
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(rules.v().id)
            .or_insert_with(|| LocalTable::build(rules.table()).map(Arc::new))
            .clone()
    }

    /// Builds the masks; `None` if some neighbourhood has more than 128 cells.
    pub fn build(t: &MoveTable) -> Option<LocalTable> {
        let cells = t.geometry().num_cells();
        let np = t.pieces().pieces.len();
        let mut neighbourhood = Vec::with_capacity(cells);
        let mut index = Vec::with_capacity(cells * np + 1);
        let mut moves = Vec::new();
        for p in 0..cells {
            let p = Cell::new(p);
            let mut local: Vec<Cell> = Vec::new();
            for piece in 0..np {
                index.push(moves.len() as u32);
                for &m in t.moves_at(p, piece) {
                    let mut mask = 0u128;
                    for &c in t.info(m).cells() {
                        let i = match local.iter().position(|&l| l == c) {
                            Some(i) => i,
                            None => {
                                local.push(c);
                                local.len() - 1
                            }
                        };
                        if i >= 128 {
                            return None;
                        }
                        mask |= 1 << i;
                    }
                    moves.push(LocalMove { mv: m, mask });
                }
            }
            neighbourhood.push(local);
        }
        index.push(moves.len() as u32);
        Some(LocalTable {
            num_pieces: np,
            neighbourhood,
            index,
            moves,
        })
    }

    /// The forbidden cells around `p` as a mask.
    #[inline]
    pub fn forbidden_mask(&self, p: Cell, forbidden: &CellSet) -> u128 {
        let mut mask = 0u128;
        for (i, &c) in self.neighbourhood[p.index()].iter().enumerate() {
            if forbidden.contains(c) {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The placements of `piece` covering `p`, with masks.
    #[inline]
    pub fn moves_at(&self, p: Cell, piece: usize) -> &[LocalMove] {
        let k = p.index() * self.num_pieces + piece;
        &self.moves[self.index[k] as usize..self.index[k + 1] as usize]
    }
}
