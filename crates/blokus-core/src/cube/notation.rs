//! Text for cubes and moves: a cube is its base square and level, `c4.2` (column `c`,
//! row 4 from the south, level 2 from the base); a move lists its cubes separated by
//! commas, written in level, row, column order so each move has one spelling
//! (`a1.1,b1.1,a1.2`). Readers accept any order and either case.

use std::fmt;

use super::table::{CubeMove, CubeTable};
use super::voxel::Voxel;

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CubeNotationError {
    /// No cubes given.
    Empty,
    /// A cube is not written as column letter, row, `.`, level.
    BadCube(String),
    /// A cube is outside the site's footprint or above its height limit.
    OffSite(String),
    /// A cube is listed twice.
    Repeated(String),
    /// The cubes do not form one of the eleven stones.
    NotAStone(String),
}

impl fmt::Display for CubeNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CubeNotationError::Empty => write!(f, "no cubes given"),
            CubeNotationError::BadCube(t) => write!(
                f,
                "'{t}' is not a cube (write column, row, '.', level, e.g. c4.2)"
            ),
            CubeNotationError::OffSite(t) => write!(f, "cube {t} is off the site"),
            CubeNotationError::Repeated(t) => write!(f, "cube {t} is listed twice"),
            CubeNotationError::NotAStone(t) => write!(f, "'{t}' is not the shape of a stone"),
        }
    }
}

impl std::error::Error for CubeNotationError {}

/// The text of a voxel, e.g. `c4.2`.
pub fn format_voxel(table: &CubeTable, v: Voxel) -> String {
    let (x, y, z) = table.coords(v);
    format!("{}{}.{}", char::from(b'a' + x as u8), y + 1, z + 1)
}

/// Parses a voxel text (`c4.2`, any case) into (column, row, level), 0-based.
pub fn parse_coords(text: &str) -> Option<(usize, usize, usize)> {
    let t = text.trim().to_ascii_lowercase();
    let mut chars = t.chars();
    let col = chars.next().filter(char::is_ascii_lowercase)?;
    let (row, level) = chars.as_str().split_once('.')?;
    let num = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse::<usize>().ok())
            .flatten()
            .filter(|&n| n >= 1)
    };
    Some((
        usize::from(col as u8 - b'a'),
        num(row)? - 1,
        num(level)? - 1,
    ))
}

/// Parses a voxel text against a site.
///
/// # Errors
/// If the text is malformed or the cube is off the site.
pub fn parse_voxel(table: &CubeTable, text: &str) -> Result<Voxel, CubeNotationError> {
    let (x, y, z) =
        parse_coords(text).ok_or_else(|| CubeNotationError::BadCube(text.trim().to_string()))?;
    table
        .voxel(x, y, z)
        .ok_or_else(|| CubeNotationError::OffSite(text.trim().to_string()))
}

/// Parses a move text (`a1.1,b1.1`) into the placement it names. Whether it is legal
/// is the position's question.
///
/// # Errors
/// A [`CubeNotationError`] naming the cube or shape at fault.
pub fn parse_move(table: &CubeTable, text: &str) -> Result<CubeMove, CubeNotationError> {
    let parts: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(CubeNotationError::Empty);
    }
    let mut cubes: Vec<Voxel> = Vec::with_capacity(parts.len());
    for p in parts {
        let v = parse_voxel(table, p)?;
        if cubes.contains(&v) {
            return Err(CubeNotationError::Repeated(p.to_string()));
        }
        cubes.push(v);
    }
    table
        .find(&cubes)
        .ok_or_else(|| CubeNotationError::NotAStone(text.trim().to_string()))
}

/// The text of a move, cubes in level, row, column order.
pub fn format_move(table: &CubeTable, m: CubeMove) -> String {
    move_cubes(table, m).join(",")
}

/// The texts of a move's cubes, in level, row, column order.
pub fn move_cubes(table: &CubeTable, m: CubeMove) -> Vec<String> {
    table
        .get(m)
        .cubes()
        .iter()
        .map(|&v| format_voxel(table, v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::site::Site;
    use super::*;

    #[test]
    fn every_move_round_trips() {
        let table = CubeTable::new(Site::builtin("ring").unwrap(), 5);
        for m in table.moves() {
            let text = format_move(&table, m);
            assert_eq!(parse_move(&table, &text), Ok(m), "{text}");
            let shuffled: Vec<String> = text.split(',').rev().map(str::to_uppercase).collect();
            assert_eq!(parse_move(&table, &shuffled.join(",")), Ok(m));
        }
    }

    #[test]
    fn cubes_are_column_row_level() {
        let table = CubeTable::new(Site::builtin("plaza").unwrap(), 4);
        let v = table.voxel(2, 3, 1).unwrap();
        assert_eq!(format_voxel(&table, v), "c4.2");
        let m = parse_move(&table, "b1.1, a1.1").unwrap();
        assert_eq!(format_move(&table, m), "a1.1,b1.1");
    }

    #[test]
    fn bad_moves_name_the_problem() {
        let table = CubeTable::new(Site::builtin("ring").unwrap(), 5);
        use CubeNotationError as E;
        let cases = [
            ("", E::Empty),
            ("a1", E::BadCube("a1".into())),
            ("a1.0", E::BadCube("a1.0".into())),
            ("1a.1", E::BadCube("1a.1".into())),
            ("a1.1,h1.1", E::OffSite("h1.1".into())),
            ("a1.6", E::OffSite("a1.6".into())),
            ("d4.1,d5.1", E::OffSite("d4.1".into())),
            ("a1.1,a1.1", E::Repeated("a1.1".into())),
            ("a1.1,c1.1", E::NotAStone("a1.1,c1.1".into())),
            (
                "a1.1,b1.1,c1.1,d1.1,e1.1",
                E::NotAStone("a1.1,b1.1,c1.1,d1.1,e1.1".into()),
            ),
        ];
        for (text, err) in cases {
            assert_eq!(parse_move(&table, text), Err(err), "{text}");
        }
    }
}
