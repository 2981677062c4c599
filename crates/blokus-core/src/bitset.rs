//! A fixed-size set of cells (or lattice points), stored as a bitset.
//!
//! Every board of the spec has at most 486 cells, so 512 bits cover them all and the
//! set is `Copy`: positions can be cloned in a playout without allocating.

use crate::geometry::Cell;

/// Number of 64-bit words in a [`CellSet`].
const WORDS: usize = 8;

/// The largest number of cells (or points) a [`CellSet`] can hold.
pub const MAX_CELLS: usize = WORDS * 64;

/// A set of cells of one board, as a 512-bit bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet { words: [0; WORDS] };

    /// Whether `cell` is in the set.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        let i = cell.index();
        self.words[i >> 6] >> (i & 63) & 1 != 0
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        let i = cell.index();
        self.words[i >> 6] |= 1 << (i & 63);
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let i = cell.index();
        self.words[i >> 6] &= !(1 << (i & 63));
    }

    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Adds every cell of `other`.
    #[inline]
    pub fn union_with(&mut self, other: &CellSet) {
        for (a, b) in self.words.iter_mut().zip(other.words.iter()) {
            *a |= *b;
        }
    }

    /// Removes every cell of `other`.
    #[inline]
    pub fn subtract(&mut self, other: &CellSet) {
        for (a, b) in self.words.iter_mut().zip(other.words.iter()) {
            *a &= !*b;
        }
    }

    /// The cells in `self` and not in `other`.
    #[inline]
    pub fn difference(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        out.subtract(other);
        out
    }

    /// The cells in both sets.
    #[inline]
    pub fn intersection(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words.iter()) {
            *a &= *b;
        }
        out
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub fn intersects(&self, other: &CellSet) -> bool {
        self.words
            .iter()
            .zip(other.words.iter())
            .any(|(a, b)| a & b != 0)
    }

    /// The first word of a 4-word window covering every cell of the set, if one exists.
    pub(crate) fn window_start(&self) -> Option<usize> {
        let lo = self
            .words
            .iter()
            .position(|&w| w != 0)
            .unwrap_or(0)
            .min(WORDS - 4);
        let hi = self.words.iter().rposition(|&w| w != 0).unwrap_or(0);
        (hi < lo + 4).then_some(lo)
    }

    /// The four words starting at word `first` (`first <= 4`).
    #[inline]
    pub(crate) fn window(&self, first: usize) -> [u64; 4] {
        let w = &self.words[first..first + 4];
        [w[0], w[1], w[2], w[3]]
    }

    /// Whether the set shares a cell with `window` placed at word `first` (`first <= 4`).
    #[inline]
    pub(crate) fn intersects_window(&self, first: usize, window: &[u64; 4]) -> bool {
        let w = &self.words[first..first + 4];
        (w[0] & window[0]) | (w[1] & window[1]) | (w[2] & window[2]) | (w[3] & window[3]) != 0
    }

    /// The cells in increasing index order.
    pub fn iter(&self) -> CellSetIter<'_> {
        CellSetIter {
            set: self,
            word: 0,
            bits: self.words[0],
        }
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<T: IntoIterator<Item = Cell>>(iter: T) -> Self {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|c| c.index()))
            .finish()
    }
}

/// Iterator over the cells of a [`CellSet`] in increasing index order.
pub struct CellSetIter<'a> {
    set: &'a CellSet,
    word: usize,
    bits: u64,
}

impl Iterator for CellSetIter<'_> {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        loop {
            if self.bits != 0 {
                let b = self.bits.trailing_zeros() as usize;
                self.bits &= self.bits - 1;
                return Some(Cell::new(self.word * 64 + b));
            }
            self.word += 1;
            if self.word >= WORDS {
                return None;
            }
            self.bits = self.set.words[self.word];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut s = CellSet::EMPTY;
        for i in [0usize, 63, 64, 200, 511] {
            s.insert(Cell::new(i));
        }
        assert_eq!(s.len(), 5);
        assert!(s.contains(Cell::new(200)));
        s.remove(Cell::new(200));
        assert!(!s.contains(Cell::new(200)));
        let v: Vec<usize> = s.iter().map(|c| c.index()).collect();
        assert_eq!(v, vec![0, 63, 64, 511]);
    }

    #[test]
    fn set_algebra() {
        let a: CellSet = [1, 2, 3].into_iter().map(Cell::new).collect();
        let b: CellSet = [3, 4].into_iter().map(Cell::new).collect();
        assert!(a.intersects(&b));
        assert_eq!(a.intersection(&b).len(), 1);
        assert_eq!(a.difference(&b).len(), 2);
        let mut u = a;
        u.union_with(&b);
        assert_eq!(u.len(), 4);
    }
}
