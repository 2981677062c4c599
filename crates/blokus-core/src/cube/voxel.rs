//! Cubes of a site's box and fixed-size sets of them.
//!
//! A site's box is `width x depth x height` cubes; a cube `(x, y, z)` (0-based, `z` = 0 on
//! the base) has the index `x + width * (y + depth * z)`. Every site fits in
//! [`MAX_VOXELS`] cubes, so a [`VoxelSet`] is a `Copy` bitset and positions copy without
//! allocating.

/// Number of 64-bit words in a [`VoxelSet`].
const WORDS: usize = 16;

/// The most cubes a site's box may hold (width x depth x height).
pub const MAX_VOXELS: usize = WORDS * 64;

/// One cube position of a site's box, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Voxel(u16);

impl Voxel {
    /// The voxel with this index (`index < MAX_VOXELS`).
    #[inline]
    pub fn new(index: usize) -> Voxel {
        debug_assert!(index < MAX_VOXELS);
        Voxel(index as u16)
    }

    /// The index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of voxels as a 1024-bit bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VoxelSet {
    words: [u64; WORDS],
}

impl VoxelSet {
    /// The empty set.
    pub const EMPTY: VoxelSet = VoxelSet { words: [0; WORDS] };

    /// Whether `v` is in the set.
    #[inline]
    pub fn contains(&self, v: Voxel) -> bool {
        let i = v.index();
        self.words[i >> 6] >> (i & 63) & 1 != 0
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: Voxel) {
        let i = v.index();
        self.words[i >> 6] |= 1 << (i & 63);
    }

    /// Number of voxels in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Adds every voxel of `other`.
    #[inline]
    pub fn union_with(&mut self, other: &VoxelSet) {
        for (a, b) in self.words.iter_mut().zip(other.words.iter()) {
            *a |= *b;
        }
    }

    /// Removes every voxel of `other`.
    #[inline]
    pub fn subtract(&mut self, other: &VoxelSet) {
        for (a, b) in self.words.iter_mut().zip(other.words.iter()) {
            *a &= !*b;
        }
    }

    /// The `k`-th voxel (0-based) in increasing index order, if the set has that many.
    #[inline]
    pub fn nth(&self, mut k: usize) -> Option<Voxel> {
        for (w, &bits) in self.words.iter().enumerate() {
            let n = bits.count_ones() as usize;
            if k < n {
                let mut b = bits;
                for _ in 0..k {
                    b &= b - 1;
                }
                return Some(Voxel::new(w * 64 + b.trailing_zeros() as usize));
            }
            k -= n;
        }
        None
    }

    /// The voxels in increasing index order.
    pub fn iter(&self) -> impl Iterator<Item = Voxel> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            let mut b = bits;
            std::iter::from_fn(move || {
                (b != 0).then(|| {
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    Voxel::new(w * 64 + i)
                })
            })
        })
    }
}

impl FromIterator<Voxel> for VoxelSet {
    fn from_iter<T: IntoIterator<Item = Voxel>>(iter: T) -> Self {
        let mut s = VoxelSet::EMPTY;
        for v in iter {
            s.insert(v);
        }
        s
    }
}

impl std::fmt::Debug for VoxelSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Voxel::index))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_iterate_and_select() {
        let idx = [0usize, 63, 64, 700, 1023];
        let s: VoxelSet = idx.iter().map(|&i| Voxel::new(i)).collect();
        assert_eq!(s.len(), 5);
        assert!(s.contains(Voxel::new(700)) && !s.contains(Voxel::new(701)));
        let back: Vec<usize> = s.iter().map(Voxel::index).collect();
        assert_eq!(back, idx);
        for (k, &i) in idx.iter().enumerate() {
            assert_eq!(s.nth(k), Some(Voxel::new(i)));
        }
        assert_eq!(s.nth(5), None);
        let mut t = s;
        t.subtract(&[Voxel::new(63)].into_iter().collect());
        assert_eq!(t.len(), 4);
        t.union_with(&s);
        assert_eq!(t, s);
    }
}
