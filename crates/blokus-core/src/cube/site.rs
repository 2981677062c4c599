//! Sites: a footprint of base squares and a height limit per number of players, as data.
//!
//! A site is read from a small text format (docs/blokus3d.md):
//!
//! ```text
//! # Plaza: a 6 x 6 square.        <- comment lines start with '#'
//! name = plaza                    <- lowercase letters, digits, '_' and '-'
//! heights = 2:4 3:6 4:8           <- levels allowed with 2, 3 and 4 players
//! footprint =                     <- then one line per row, north (top) row first:
//! oooooo                             'o' a base square, '.' none
//! ```
//!
//! Empty rows and columns around the footprint are cropped. The footprint must be one
//! edge-connected piece, at most 26 squares wide, and its box (width x depth x the
//! largest height) at most [`MAX_VOXELS`] cubes.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::voxel::MAX_VOXELS;

/// The widest footprint (columns are the letters `a`..`z`).
pub const MAX_WIDTH: usize = 26;

/// The names of the sites shipped with the rules, in their display order.
pub const BUILTIN_SITES: [&str; 5] = ["plaza", "cross", "ring", "diamond", "tower"];

const BUILTIN_TEXT: [&str; 5] = [
    include_str!("sites/plaza.site"),
    include_str!("sites/cross.site"),
    include_str!("sites/ring.site"),
    include_str!("sites/diamond.site"),
    include_str!("sites/tower.site"),
];

/// A site: where stones may be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    name: String,
    width: usize,
    depth: usize,
    /// Row-major from the south row (`y` = 0): whether each square of the box is base.
    base: Vec<bool>,
    /// The height limit for 2, 3 and 4 players.
    heights: [usize; 3],
}

/// Why a site text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteError {
    /// A line is neither a comment, a `key = value` line nor a footprint row.
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What was expected.
        expected: &'static str,
    },
    /// A key other than `name`, `heights`, `footprint`.
    UnknownKey {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: String,
    },
    /// A key appears twice.
    DuplicateKey(&'static str),
    /// A key is missing.
    MissingKey(&'static str),
    /// The name has characters other than lowercase letters, digits, `_`, `-`.
    BadName(String),
    /// The heights are not `2:H 3:H 4:H` with each `H` from 1.
    BadHeights(String),
    /// A footprint row has a character other than `o` and `.`.
    BadSquare {
        /// 1-based line number.
        line: usize,
        /// The character.
        found: char,
    },
    /// The footprint has no square.
    EmptyFootprint,
    /// The footprint falls into several pieces.
    Disconnected,
    /// The footprint is wider than [`MAX_WIDTH`].
    TooWide(usize),
    /// The site's box holds more than [`MAX_VOXELS`] cubes.
    TooLarge(usize),
}

impl fmt::Display for SiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SiteError::Syntax { line, expected } => {
                write!(f, "site line {line}: expected {expected}")
            }
            SiteError::UnknownKey { line, key } => write!(
                f,
                "site line {line}: unknown key '{key}' (keys are name, heights, footprint)"
            ),
            SiteError::DuplicateKey(k) => write!(f, "site: '{k}' is given twice"),
            SiteError::MissingKey(k) => write!(f, "site: '{k}' is missing"),
            SiteError::BadName(n) => write!(
                f,
                "site name '{n}': use lowercase letters, digits, '_' and '-' (1 to 32)"
            ),
            SiteError::BadHeights(h) => write!(
                f,
                "site heights '{h}': expected '2:H 3:H 4:H', each height at least 1"
            ),
            SiteError::BadSquare { line, found } => write!(
                f,
                "site line {line}: '{found}' in the footprint (use 'o' for a square, '.' for none)"
            ),
            SiteError::EmptyFootprint => write!(f, "site: the footprint has no square"),
            SiteError::Disconnected => write!(f, "site: the footprint is not one connected piece"),
            SiteError::TooWide(w) => {
                write!(f, "site: the footprint is {w} wide (at most {MAX_WIDTH})")
            }
            SiteError::TooLarge(n) => write!(
                f,
                "site: width x depth x tallest height is {n} cubes (at most {MAX_VOXELS})"
            ),
        }
    }
}

impl std::error::Error for SiteError {}

impl Site {
    /// A site shipped with the rules, by name.
    pub fn builtin(name: &str) -> Option<Arc<Site>> {
        static SITES: [OnceLock<Arc<Site>>; 5] = [const { OnceLock::new() }; 5];
        let i = BUILTIN_SITES.iter().position(|n| *n == name)?;
        Some(
            SITES[i]
                .get_or_init(|| Arc::new(Site::parse(BUILTIN_TEXT[i]).expect("built-in site")))
                .clone(),
        )
    }

    /// A built-in site by name, else a site file by path (the `--site` argument of
    /// commands and the GTP `site` command).
    ///
    /// # Errors
    /// An unknown name (listing the built-in ones), an unreadable file, or the file's
    /// fault with its line.
    pub fn builtin_or_file(arg: &str) -> Result<Arc<Site>, String> {
        if let Some(site) = Site::builtin(arg) {
            return Ok(site);
        }
        let path = std::path::Path::new(arg);
        if !path.exists() {
            return Err(super::variant::UnknownSite(arg.to_string()).to_string());
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Site::parse(&text)
            .map(Arc::new)
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a site from its text.
    ///
    /// # Errors
    /// A [`SiteError`] naming the line or the value at fault.
    pub fn parse(text: &str) -> Result<Site, SiteError> {
        let mut name = None;
        let mut heights = None;
        let mut rows: Option<Vec<(usize, &str)>> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let n = i + 1;
            if let Some(rows) = rows.as_mut() {
                if !line.is_empty() && !line.starts_with('#') {
                    rows.push((n, line));
                }
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(SiteError::Syntax {
                    line: n,
                    expected: "'name = ...', 'heights = ...' or 'footprint ='",
                });
            };
            let (key, value) = (key.trim(), value.trim());
            match key {
                "name" => set_once(&mut name, "name", parse_name(value)?)?,
                "heights" => set_once(&mut heights, "heights", parse_heights(value)?)?,
                "footprint" if value.is_empty() => rows = Some(Vec::new()),
                "footprint" => {
                    return Err(SiteError::Syntax {
                        line: n,
                        expected: "nothing after 'footprint =' (rows follow on their own lines)",
                    })
                }
                _ => {
                    return Err(SiteError::UnknownKey {
                        line: n,
                        key: key.to_string(),
                    })
                }
            }
        }
        let name = name.ok_or(SiteError::MissingKey("name"))?;
        let heights = heights.ok_or(SiteError::MissingKey("heights"))?;
        let rows = rows.ok_or(SiteError::MissingKey("footprint"))?;
        let mut squares = Vec::new();
        for (n, row) in &rows {
            for (x, ch) in row.chars().enumerate() {
                match ch {
                    'o' => squares.push((x, *n)),
                    '.' => {}
                    found => return Err(SiteError::BadSquare { line: *n, found }),
                }
            }
        }
        Site::from_squares(name, heights, &squares)
    }

    /// A site from its base squares given as (column, line) with lines counted downwards
    /// (the text's order); the box is cropped to the squares.
    fn from_squares(
        name: String,
        heights: [usize; 3],
        squares: &[(usize, usize)],
    ) -> Result<Site, SiteError> {
        let (Some(x0), Some(x1)) = (
            squares.iter().map(|s| s.0).min(),
            squares.iter().map(|s| s.0).max(),
        ) else {
            return Err(SiteError::EmptyFootprint);
        };
        let top = squares.iter().map(|s| s.1).min().unwrap_or(0);
        let bottom = squares.iter().map(|s| s.1).max().unwrap_or(0);
        let (width, depth) = (x1 - x0 + 1, bottom - top + 1);
        if width > MAX_WIDTH {
            return Err(SiteError::TooWide(width));
        }
        let cubes = width * depth * heights.iter().max().copied().unwrap_or(1);
        if cubes > MAX_VOXELS {
            return Err(SiteError::TooLarge(cubes));
        }
        let mut base = vec![false; width * depth];
        for &(x, line) in squares {
            base[(bottom - line) * width + (x - x0)] = true;
        }
        let site = Site {
            name,
            width,
            depth,
            base,
            heights,
        };
        if !site.is_connected() {
            return Err(SiteError::Disconnected);
        }
        Ok(site)
    }

    fn is_connected(&self) -> bool {
        let total = self.base.iter().filter(|&&b| b).count();
        let Some(first) = self.base.iter().position(|&b| b) else {
            return false;
        };
        let mut seen = vec![false; self.base.len()];
        let mut stack = vec![first];
        seen[first] = true;
        let mut count = 0;
        while let Some(i) = stack.pop() {
            count += 1;
            let (x, y) = (i % self.width, i / self.width);
            let near = [
                (x > 0).then(|| i - 1),
                (x + 1 < self.width).then_some(i + 1),
                (y > 0).then(|| i - self.width),
                (y + 1 < self.depth).then_some(i + self.width),
            ];
            for j in near.into_iter().flatten() {
                if self.base[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        count == total
    }

    /// The site's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Columns of the box (west to east).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows of the box (south to north).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whether the square in column `x`, row `y` (0-based, from the south-west) is base.
    pub fn is_base(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.depth && self.base[y * self.width + x]
    }

    /// Number of base squares.
    pub fn squares(&self) -> usize {
        self.base.iter().filter(|&&b| b).count()
    }

    /// The height limit (number of levels) for a number of players (2 to 4).
    ///
    /// # Panics
    /// For other player counts.
    pub fn height(&self, players: usize) -> usize {
        assert!((2..=4).contains(&players), "2 to 4 players");
        self.heights[players - 2]
    }

    /// The site in its text format; [`Site::parse`] reads it back unchanged.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "name = {}\nheights = 2:{} 3:{} 4:{}\nfootprint =\n",
            self.name, self.heights[0], self.heights[1], self.heights[2]
        );
        for y in (0..self.depth).rev() {
            s.extend((0..self.width).map(|x| if self.is_base(x, y) { 'o' } else { '.' }));
            s.push('\n');
        }
        s
    }
}

fn set_once<T>(slot: &mut Option<T>, key: &'static str, value: T) -> Result<(), SiteError> {
    if slot.replace(value).is_some() {
        return Err(SiteError::DuplicateKey(key));
    }
    Ok(())
}

fn parse_name(value: &str) -> Result<String, SiteError> {
    let ok = (1..=32).contains(&value.len())
        && value
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if ok {
        Ok(value.to_string())
    } else {
        Err(SiteError::BadName(value.to_string()))
    }
}

fn parse_heights(value: &str) -> Result<[usize; 3], SiteError> {
    let bad = || SiteError::BadHeights(value.to_string());
    let mut out = [0usize; 3];
    let parts: Vec<&str> = value.split_whitespace().collect();
    if parts.len() != 3 {
        return Err(bad());
    }
    for part in parts {
        let (players, height) = part.split_once(':').ok_or_else(bad)?;
        let players: usize = players.parse().map_err(|_| bad())?;
        let height: usize = height.parse().map_err(|_| bad())?;
        if !(2..=4).contains(&players) || height == 0 || out[players - 2] != 0 {
            return Err(bad());
        }
        out[players - 2] = height;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_sites_load_and_round_trip() {
        let expected = [
            ("plaza", 36, 6, 6),
            ("cross", 48, 8, 8),
            ("ring", 40, 7, 7),
            ("diamond", 41, 9, 9),
            ("tower", 16, 4, 4),
        ];
        for (name, squares, w, d) in expected {
            let site = Site::builtin(name).unwrap();
            assert_eq!(site.name(), name);
            assert_eq!(
                (site.squares(), site.width(), site.depth()),
                (squares, w, d),
                "{name}"
            );
            assert!(site.height(2) <= site.height(3) && site.height(3) <= site.height(4));
            assert_eq!(Site::parse(&site.to_text()).unwrap(), *site);
        }
        assert!(Site::builtin("nowhere").is_none());
    }

    #[test]
    fn rows_run_north_to_south_and_are_cropped() {
        let site =
            Site::parse("name = l\nheights = 2:1 3:1 4:2\nfootprint =\n.....\n.o...\n.ooo.\n")
                .unwrap();
        assert_eq!((site.width(), site.depth()), (3, 2));
        assert!(site.is_base(0, 1) && site.is_base(0, 0) && site.is_base(2, 0));
        assert!(!site.is_base(1, 1));
    }

    #[test]
    fn bad_sites_are_refused_with_the_reason() {
        let ok_head = "name = s\nheights = 2:2 3:3 4:4\nfootprint =\n";
        let cases: [(String, SiteError); 9] = [
            (
                "heights = 2:2 3:3 4:4\nfootprint =\no\n".into(),
                SiteError::MissingKey("name"),
            ),
            ("name = S\n".into(), SiteError::BadName("S".into())),
            (
                "name = s\nheights = 2:2 3:0 4:4\n".into(),
                SiteError::BadHeights("2:2 3:0 4:4".into()),
            ),
            (
                "name = s\ncolour = red\n".into(),
                SiteError::UnknownKey {
                    line: 2,
                    key: "colour".into(),
                },
            ),
            (
                "name = s\nname = t\n".into(),
                SiteError::DuplicateKey("name"),
            ),
            (
                format!("{ok_head}oo\nox\n"),
                SiteError::BadSquare {
                    line: 5,
                    found: 'x',
                },
            ),
            (format!("{ok_head}o.o\n"), SiteError::Disconnected),
            (format!("{ok_head}...\n"), SiteError::EmptyFootprint),
            (
                format!(
                    "name = s\nheights = 2:2 3:3 4:64\nfootprint =\n{}\n",
                    "o".repeat(20)
                ),
                SiteError::TooLarge(1280),
            ),
        ];
        for (text, err) in cases {
            assert_eq!(Site::parse(&text), Err(err.clone()), "{text}");
            assert!(!err.to_string().is_empty());
        }
        assert!(matches!(
            Site::parse("just words"),
            Err(SiteError::Syntax { line: 1, .. })
        ));
    }
}
