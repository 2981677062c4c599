//! A 256-bit set of cells: the tiling search's board, small enough to copy freely.

/// Most cells a tiling may have.
pub const MAX_TILING_CELLS: usize = 256;

/// A set of cell indices below [`MAX_TILING_CELLS`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bits([u64; 4]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; 4]);

    /// The set of indices `0..n`.
    pub fn below(n: usize) -> Bits {
        let mut b = Bits::EMPTY;
        for i in 0..n {
            b.insert(i);
        }
        b
    }

    /// Adds index `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Whether index `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// Whether the sets share no index.
    #[inline]
    pub fn is_disjoint(&self, o: &Bits) -> bool {
        (self.0[0] & o.0[0]) | (self.0[1] & o.0[1]) | (self.0[2] & o.0[2]) | (self.0[3] & o.0[3])
            == 0
    }

    /// Adds every index of `o`.
    #[inline]
    pub fn union_with(&mut self, o: &Bits) {
        for k in 0..4 {
            self.0[k] |= o.0[k];
        }
    }

    /// Keeps only the indices also in `o`.
    #[inline]
    pub fn intersect_with(&mut self, o: &Bits) {
        for k in 0..4 {
            self.0[k] &= o.0[k];
        }
    }

    /// Removes every index of `o`.
    #[inline]
    pub fn subtract(&mut self, o: &Bits) {
        for k in 0..4 {
            self.0[k] &= !o.0[k];
        }
    }

    /// Number of indices in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The smallest index not in the set, if below `n`.
    #[inline]
    pub fn first_missing(&self, n: usize) -> Option<usize> {
        for (k, w) in self.0.iter().enumerate() {
            if *w != u64::MAX {
                let i = k * 64 + (!w).trailing_zeros() as usize;
                return (i < n).then_some(i);
            }
        }
        None
    }

    /// The indices in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + b
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_operations() {
        let mut a = Bits::EMPTY;
        for i in [0, 63, 64, 200, 255] {
            a.insert(i);
        }
        assert_eq!(a.len(), 5);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 255]);
        assert_eq!(a.first_missing(256), Some(1));
        let all = Bits::below(70);
        assert_eq!(all.first_missing(70), None);
        assert_eq!(all.first_missing(80), Some(70));
        assert!(!a.is_disjoint(&all));
        let mut b = all;
        b.subtract(&a);
        assert_eq!(b.len(), 67);
        assert!(b.is_disjoint(&a));
    }
}
