//! Every placement of the eleven stones in a site's box, built once per (site, height).
//!
//! A placement lies inside the footprint and under the height limit; whether it is
//! supported depends on the position, so each placement keeps the cubes it needs below
//! it. It also keeps the empty-side neighbours used for face contact. Moves are small ids
//! into this table.

use std::collections::HashMap;
use std::sync::Arc;

use super::site::Site;
use super::stone::{Stone, STONE_COUNT};
use super::voxel::{Voxel, VoxelSet};

/// A placement: an index into a [`CubeTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CubeMove(u32);

impl CubeMove {
    /// The move with this index.
    #[inline]
    pub fn new(index: usize) -> CubeMove {
        CubeMove(index as u32)
    }

    /// The index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A stone spans at most four levels, so a cube is at most this many levels minus one
/// above the lowest cube of its column in the stone.
pub const DROPS: usize = 4;

/// The most face neighbours a stone of four cubes can have.
const MAX_TOUCH: usize = 18;

/// One placement of a stone.
#[derive(Clone, Debug)]
pub struct Placement {
    stone: Stone,
    len: u8,
    cubes: [Voxel; 4],
    nsupport: u8,
    support: [Voxel; 4],
    ntouch: u8,
    touch: [Voxel; MAX_TOUCH],
}

impl Placement {
    /// The stone placed.
    #[inline]
    pub fn stone(&self) -> Stone {
        self.stone
    }

    /// Its cubes, in increasing voxel order.
    #[inline]
    pub fn cubes(&self) -> &[Voxel] {
        &self.cubes[..self.len as usize]
    }

    /// The voxels directly below its lowest cubes that must hold a cube (empty for a
    /// placement standing on the base everywhere).
    #[inline]
    pub fn support(&self) -> &[Voxel] {
        &self.support[..self.nsupport as usize]
    }

    /// The site's voxels sharing a face with one of its cubes, outside the stone.
    #[inline]
    pub fn touch(&self) -> &[Voxel] {
        &self.touch[..self.ntouch as usize]
    }
}

/// The placement table of one site at one height limit.
pub struct CubeTable {
    site: Arc<Site>,
    height: usize,
    inside: VoxelSet,
    placements: Vec<Placement>,
    /// Moves covering each voxel, by drop and stone (see [`CubeTable::at`]): the list of
    /// key `k = (voxel * DROPS + drop) * STONE_COUNT + stone` is `at[at_start[k]..at_start[k + 1]]`.
    at_start: Vec<u32>,
    at: Vec<CubeMove>,
    grounded: Vec<CubeMove>,
    per_stone: [usize; STONE_COUNT],
    by_cubes: HashMap<Vec<Voxel>, CubeMove>,
}

impl CubeTable {
    /// Builds the table of `site` with `height` levels.
    ///
    /// # Panics
    /// If the box is larger than the site allows (`height` above its tallest).
    pub fn new(site: Arc<Site>, height: usize) -> CubeTable {
        let (w, d) = (site.width(), site.depth());
        assert!(
            w * d * height <= super::voxel::MAX_VOXELS,
            "site box too large"
        );
        let mut inside = VoxelSet::EMPTY;
        for z in 0..height {
            for y in 0..d {
                for x in 0..w {
                    if site.is_base(x, y) {
                        inside.insert(Voxel::new(x + w * (y + d * z)));
                    }
                }
            }
        }
        let mut table = CubeTable {
            site,
            height,
            inside,
            placements: Vec::new(),
            at_start: Vec::new(),
            at: Vec::new(),
            grounded: Vec::new(),
            per_stone: [0; STONE_COUNT],
            by_cubes: HashMap::new(),
        };
        table.build();
        table
    }

    fn build(&mut self) {
        let (w, d, h) = (self.width(), self.depth(), self.height);
        for stone in Stone::ALL {
            for shape in stone.orientations() {
                let ext = |axis: usize| shape.iter().map(|c| c[axis] as usize).max().unwrap_or(0);
                let (ex, ey, ez) = (ext(0), ext(1), ext(2));
                for z in 0..h.saturating_sub(ez) {
                    for y in 0..d.saturating_sub(ey) {
                        for x in 0..w.saturating_sub(ex) {
                            let at = |c: &[i8; 3]| {
                                [x + c[0] as usize, y + c[1] as usize, z + c[2] as usize]
                            };
                            let cells: Vec<[usize; 3]> = shape.iter().map(at).collect();
                            if cells
                                .iter()
                                .all(|&[cx, cy, cz]| self.voxel(cx, cy, cz).is_some())
                            {
                                self.add(stone, &cells);
                            }
                        }
                    }
                }
            }
        }
        let n = self.inside_len_box() * DROPS * STONE_COUNT;
        let mut counts = vec![0u32; n + 1];
        let keys: Vec<Vec<usize>> = (0..self.placements.len())
            .map(|i| self.keys(CubeMove::new(i)))
            .collect();
        for k in keys.iter().flatten() {
            counts[k + 1] += 1;
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let mut fill = counts.clone();
        self.at = vec![CubeMove(0); counts[n] as usize];
        for (i, ks) in keys.iter().enumerate() {
            for &k in ks {
                self.at[fill[k] as usize] = CubeMove::new(i);
                fill[k] += 1;
            }
        }
        self.at_start = counts;
    }

    fn add(&mut self, stone: Stone, cells: &[[usize; 3]]) {
        let vox = |c: [usize; 3]| self.voxel(c[0], c[1], c[2]);
        let mut cubes: Vec<Voxel> = cells.iter().filter_map(|&c| vox(c)).collect();
        cubes.sort_unstable();
        let mut support: Vec<Voxel> = cells
            .iter()
            .filter(|&&[x, y, z]| z > 0 && !cells.contains(&[x, y, z - 1]))
            .filter_map(|&[x, y, z]| vox([x, y, z - 1]))
            .collect();
        support.sort_unstable();
        let mut touch: Vec<Voxel> = Vec::new();
        for &[x, y, z] in cells {
            let near = [
                [x.wrapping_sub(1), y, z],
                [x + 1, y, z],
                [x, y.wrapping_sub(1), z],
                [x, y + 1, z],
                [x, y, z.wrapping_sub(1)],
                [x, y, z + 1],
            ];
            for n in near {
                if let Some(v) = vox(n) {
                    if !cubes.contains(&v) && !touch.contains(&v) {
                        touch.push(v);
                    }
                }
            }
        }
        touch.sort_unstable();
        let fill = |src: &[Voxel], dst: &mut [Voxel]| dst[..src.len()].copy_from_slice(src);
        let mut p = Placement {
            stone,
            len: cubes.len() as u8,
            cubes: [Voxel::new(0); 4],
            nsupport: support.len() as u8,
            support: [Voxel::new(0); 4],
            ntouch: touch.len() as u8,
            touch: [Voxel::new(0); MAX_TOUCH],
        };
        fill(&cubes, &mut p.cubes);
        fill(&support, &mut p.support);
        fill(&touch, &mut p.touch);
        let m = CubeMove::new(self.placements.len());
        if support.is_empty() {
            self.grounded.push(m);
        }
        self.per_stone[stone.index()] += 1;
        self.by_cubes.insert(cubes, m);
        self.placements.push(p);
    }

    /// The index keys of a placement: one per cube, from the cube, its drop and the stone.
    fn keys(&self, m: CubeMove) -> Vec<usize> {
        let p = &self.placements[m.index()];
        let stone = p.stone.index();
        p.cubes()
            .iter()
            .map(|&v| {
                let drop = std::iter::successors(self.below(v), |&b| self.below(b))
                    .take_while(|b| p.cubes().contains(b))
                    .count();
                (v.index() * DROPS + drop) * STONE_COUNT + stone
            })
            .collect()
    }

    fn inside_len_box(&self) -> usize {
        self.width() * self.depth() * self.height
    }

    /// The site.
    pub fn site(&self) -> &Arc<Site> {
        &self.site
    }

    /// The height limit (levels).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Columns of the box.
    pub fn width(&self) -> usize {
        self.site.width()
    }

    /// Rows of the box.
    pub fn depth(&self) -> usize {
        self.site.depth()
    }

    /// The voxel at column `x`, row `y`, level `z` (all 0-based) if it is inside the
    /// footprint and under the height limit.
    #[inline]
    pub fn voxel(&self, x: usize, y: usize, z: usize) -> Option<Voxel> {
        let (w, d) = (self.width(), self.depth());
        if x >= w || y >= d || z >= self.height {
            return None;
        }
        let v = Voxel::new(x + w * (y + d * z));
        self.inside.contains(v).then_some(v)
    }

    /// The (column, row, level) of a voxel, 0-based.
    #[inline]
    pub fn coords(&self, v: Voxel) -> (usize, usize, usize) {
        let (w, d) = (self.width(), self.depth());
        let i = v.index();
        (i % w, i / w % d, i / (w * d))
    }

    /// Every voxel inside the site.
    pub fn inside(&self) -> &VoxelSet {
        &self.inside
    }

    /// Number of placements.
    pub fn len(&self) -> usize {
        self.placements.len()
    }

    /// Whether the table is empty (a site too small for any stone).
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }

    /// Number of placements of one stone.
    pub fn placements_of(&self, stone: Stone) -> usize {
        self.per_stone[stone.index()]
    }

    /// A placement.
    #[inline]
    pub fn get(&self, m: CubeMove) -> &Placement {
        &self.placements[m.index()]
    }

    /// The moves of `stone` covering voxel `v` whose lowest cube in `v`'s column is
    /// `drop` levels below `v` (`drop < DROPS`). Columns are always solid (every cube rests
    /// on the one below), so with `drop` empty voxels under `v` these are the only
    /// placements covering `v` that can rest on its column.
    #[inline]
    pub fn at(&self, v: Voxel, drop: usize, stone: Stone) -> &[CubeMove] {
        let k = (v.index() * DROPS + drop) * STONE_COUNT + stone.index();
        &self.at[self.at_start[k] as usize..self.at_start[k + 1] as usize]
    }

    /// The voxel directly below `v`, if `v` is above the base.
    #[inline]
    pub fn below(&self, v: Voxel) -> Option<Voxel> {
        let layer = self.width() * self.depth();
        (v.index() >= layer).then(|| Voxel::new(v.index() - layer))
    }

    /// The moves standing on the base with every cube (the only ones possible on an
    /// empty site).
    pub fn grounded(&self) -> &[CubeMove] {
        &self.grounded
    }

    /// The move covering exactly these voxels, if a stone has that shape.
    pub fn find(&self, cubes: &[Voxel]) -> Option<CubeMove> {
        let mut key = cubes.to_vec();
        key.sort_unstable();
        self.by_cubes.get(&key).copied()
    }

    /// Every move, in index order.
    pub fn moves(&self) -> impl Iterator<Item = CubeMove> {
        (0..self.placements.len()).map(CubeMove::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(text_rows: &str, height: usize) -> CubeTable {
        let text = format!(
            "name = t\nheights = 2:{height} 3:{height} 4:{height}\nfootprint =\n{text_rows}"
        );
        CubeTable::new(Arc::new(Site::parse(&text).unwrap()), height)
    }

    #[test]
    fn counts_on_a_2x2_square_one_level() {
        // One level: only flat orientations fit. Domino: 4; bent tricube: 4; square: 1.
        let t = tiny("oo\noo\n", 1);
        let counts: Vec<usize> = Stone::ALL.iter().map(|&s| t.placements_of(s)).collect();
        assert_eq!(counts, [4, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(t.grounded().len(), t.len());
    }

    #[test]
    fn a_column_has_its_vertical_stones_only() {
        let t = tiny("o\n", 4);
        let counts: Vec<usize> = Stone::ALL.iter().map(|&s| t.placements_of(s)).collect();
        assert_eq!(counts, [3, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        // Only the placements on the base need no support.
        assert_eq!(t.grounded().len(), 3);
        for m in t.moves() {
            let p = t.get(m);
            let lowest = p.cubes()[0];
            assert_eq!(p.support().len(), usize::from(t.coords(lowest).2 > 0));
        }
    }

    #[test]
    fn support_and_touch_lists() {
        let t = tiny("ooo\nooo\nooo\n", 3);
        let v = |x, y, z| t.voxel(x, y, z).unwrap();
        // The branch with its third arm up stands on the base.
        let m = t
            .find(&[v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(0, 0, 1)])
            .unwrap();
        assert_eq!(t.get(m).stone(), Stone::Branch);
        assert!(t.get(m).support().is_empty());
        // The same branch one level up needs the three cubes below its base.
        let m = t
            .find(&[v(0, 0, 1), v(1, 0, 1), v(0, 1, 1), v(0, 0, 2)])
            .unwrap();
        assert_eq!(t.get(m).support(), [v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)]);
        // A domino in the corner of the base touches 4 voxels of the site.
        let m = t.find(&[v(0, 0, 0), v(1, 0, 0)]).unwrap();
        assert_eq!(
            t.get(m).touch(),
            [v(2, 0, 0), v(0, 1, 0), v(1, 1, 0), v(0, 0, 1), v(1, 0, 1)]
        );
        assert!(t.find(&[v(0, 0, 0), v(2, 0, 0)]).is_none());
        // Each move is listed at each of its cubes with that cube's drop.
        let m = t.find(&[v(0, 0, 0), v(0, 0, 1), v(0, 0, 2)]).unwrap();
        for (z, cube) in t.get(m).cubes().iter().enumerate() {
            assert!(t.at(*cube, z, Stone::I3).contains(&m));
            assert!(!t.at(*cube, (z + 1) % 3, Stone::I3).contains(&m));
        }
        let listed: usize = t
            .inside()
            .iter()
            .flat_map(|v| (0..DROPS).flat_map(move |d| Stone::ALL.map(|s| (v, d, s))))
            .map(|(v, d, s)| t.at(v, d, s).len())
            .sum();
        assert_eq!(
            listed,
            t.moves().map(|m| t.get(m).cubes().len()).sum::<usize>()
        );
    }
}
