//! The eleven polycube stones of a colour and their 3D orientations.
//!
//! Stones are turned, never mirrored: the two screws are mirror images of each other and
//! distinct stones, so only the 24 rotations of the cube are applied.

/// A cube offset `(x, y, z)` inside a stone.
pub type Offset = [i8; 3];

/// One of the eleven stones of a colour (SPEC 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stone {
    /// The 2-cube domino.
    I2,
    /// The straight tricube.
    I3,
    /// The bent tricube.
    V3,
    /// The straight tetracube.
    I4,
    /// The square tetracube.
    O4,
    /// The T tetracube.
    T4,
    /// The L tetracube.
    L4,
    /// The S (skew) tetracube.
    S4,
    /// The three-legged branch: three arms along the three axes from one corner cube.
    Branch,
    /// The left screw: three steps along three different axes, turning left-handed.
    LeftScrew,
    /// The right screw: the mirror image of the left screw.
    RightScrew,
}

/// Number of stones per colour.
pub const STONE_COUNT: usize = 11;

impl Stone {
    /// Every stone, in the order of their indices.
    pub const ALL: [Stone; STONE_COUNT] = [
        Stone::I2,
        Stone::I3,
        Stone::V3,
        Stone::I4,
        Stone::O4,
        Stone::T4,
        Stone::L4,
        Stone::S4,
        Stone::Branch,
        Stone::LeftScrew,
        Stone::RightScrew,
    ];

    /// The stone with this index.
    pub fn from_index(i: usize) -> Option<Stone> {
        Stone::ALL.get(i).copied()
    }

    /// The stone's index in [`Stone::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The stone's name, as in the docs and the JSON record.
    pub fn name(self) -> &'static str {
        match self {
            Stone::I2 => "I2",
            Stone::I3 => "I3",
            Stone::V3 => "V3",
            Stone::I4 => "I4",
            Stone::O4 => "O4",
            Stone::T4 => "T4",
            Stone::L4 => "L4",
            Stone::S4 => "S4",
            Stone::Branch => "B4",
            Stone::LeftScrew => "SL4",
            Stone::RightScrew => "SR4",
        }
    }

    /// The stone of a name (case-insensitive).
    pub fn by_name(name: &str) -> Option<Stone> {
        Stone::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// Number of cubes.
    pub fn size(self) -> usize {
        self.shape().len()
    }

    /// The cubes of the stone in its reference orientation.
    pub fn shape(self) -> &'static [Offset] {
        match self {
            Stone::I2 => &[[0, 0, 0], [1, 0, 0]],
            Stone::I3 => &[[0, 0, 0], [1, 0, 0], [2, 0, 0]],
            Stone::V3 => &[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
            Stone::I4 => &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]],
            Stone::O4 => &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
            Stone::T4 => &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
            Stone::L4 => &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
            Stone::S4 => &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
            Stone::Branch => &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
            // A path of three unit steps +x, +y, -z is left-handed (the
            // triple product of the steps is -1); the right screw steps +x, +y, +z.
            Stone::LeftScrew => &[[0, 0, 1], [1, 0, 1], [1, 1, 1], [1, 1, 0]],
            Stone::RightScrew => &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
        }
    }

    /// Every distinct orientation under rotation, each normalised (smallest coordinate 0
    /// on each axis, cubes sorted), in a fixed order.
    pub fn orientations(self) -> Vec<Vec<Offset>> {
        let mut out: Vec<Vec<Offset>> = Vec::new();
        for r in rotations() {
            let turned = normalise(self.shape().iter().map(|&c| apply(&r, c)).collect());
            if !out.contains(&turned) {
                out.push(turned);
            }
        }
        out
    }
}

/// A rotation of the cube as a signed permutation matrix.
type Matrix = [[i8; 3]; 3];

/// The 24 rotations of the cube: signed permutation matrices of determinant +1.
pub fn rotations() -> Vec<Matrix> {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = Vec::with_capacity(24);
    for p in PERMS {
        for signs in 0..8 {
            let mut m = [[0i8; 3]; 3];
            for (row, &col) in p.iter().enumerate() {
                m[row][col] = if signs >> row & 1 == 1 { -1 } else { 1 };
            }
            if determinant(&m) == 1 {
                out.push(m);
            }
        }
    }
    out
}

fn determinant(m: &Matrix) -> i32 {
    let m = m.map(|r| r.map(i32::from));
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

fn apply(m: &Matrix, c: Offset) -> Offset {
    std::array::from_fn(|row| (0..3).map(|k| m[row][k] * c[k]).sum())
}

/// Translates cubes so each axis starts at 0, and sorts them.
pub fn normalise(mut cubes: Vec<Offset>) -> Vec<Offset> {
    for axis in 0..3 {
        let min = cubes.iter().map(|c| c[axis]).min().unwrap_or(0);
        for c in &mut cubes {
            c[axis] -= min;
        }
    }
    cubes.sort_unstable();
    cubes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_24_rotations() {
        let r = rotations();
        assert_eq!(r.len(), 24);
        for (i, a) in r.iter().enumerate() {
            assert!(!r[i + 1..].contains(a));
        }
    }

    #[test]
    fn eleven_stones_of_forty_cubes() {
        assert_eq!(Stone::ALL.iter().map(|s| s.size()).sum::<usize>(), 40);
        let sizes: Vec<usize> = Stone::ALL.iter().map(|s| s.size()).collect();
        assert_eq!(sizes, [2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]);
        for (i, s) in Stone::ALL.iter().enumerate() {
            assert_eq!(s.index(), i);
            assert_eq!(Stone::by_name(&s.name().to_lowercase()), Some(*s));
        }
    }

    /// Orientations under rotation only: 104 in all (the tetracubes' 86 is the known
    /// count of one-sided tetracube orientations).
    #[test]
    fn orientation_counts() {
        let counts: Vec<usize> = Stone::ALL.iter().map(|s| s.orientations().len()).collect();
        assert_eq!(counts, [3, 3, 12, 3, 3, 12, 24, 12, 8, 12, 12]);
        assert_eq!(counts[3..].iter().sum::<usize>(), 86);
    }

    #[test]
    fn stones_are_connected_and_different_under_rotation() {
        for s in Stone::ALL {
            let cubes = s.shape();
            let mut reached = vec![cubes[0]];
            while let Some(&next) = cubes.iter().find(|c| {
                !reached.contains(c)
                    && reached
                        .iter()
                        .any(|r| (0..3).map(|k| (r[k] - c[k]).abs()).sum::<i8>() == 1)
            }) {
                reached.push(next);
            }
            assert_eq!(reached.len(), cubes.len(), "{s:?} is not connected");
        }
        for (i, a) in Stone::ALL.iter().enumerate() {
            for b in &Stone::ALL[i + 1..] {
                let oa = a.orientations();
                assert!(
                    !b.orientations().iter().any(|o| oa.contains(o)),
                    "{a:?} = {b:?}"
                );
            }
        }
    }

    #[test]
    fn the_screws_are_mirror_images() {
        let mirrored = normalise(
            Stone::RightScrew
                .shape()
                .iter()
                .map(|c| [c[0], c[1], -c[2]])
                .collect(),
        );
        assert!(Stone::LeftScrew.orientations().contains(&mirrored));
        assert!(!Stone::RightScrew.orientations().contains(&mirrored));
        // Every other stone is its own mirror image.
        for s in Stone::ALL
            .into_iter()
            .filter(|s| !matches!(s, Stone::LeftScrew | Stone::RightScrew))
        {
            let m = normalise(s.shape().iter().map(|c| [c[0], c[1], -c[2]]).collect());
            assert!(s.orientations().contains(&m), "{s:?}");
        }
    }
}
