//! Game records: `.blksgf` (SGF dialect of Blokus programs) and JSON.
//!
//! - [`sgf`]: a general SGF tree (any game), read and written losslessly.
//! - [`blksgf`]: the main line of a `.blksgf` tree to and from a [`Game`](crate::Game).
//! - [`json`]: this project's JSON record of a game.
//!
//! Both converters replay every move through the rules, so a record that reads without
//! error is a legal game; a [`RecordError`] names the property, move or cell at fault.

pub mod blksgf;
pub mod json;
pub mod sgf;

#[cfg(test)]
mod proptests;

use std::fmt;
use std::io::Read;
use std::path::Path;

use crate::position::Position;
use crate::rules::Rules;
use crate::score;

/// The largest record file read: a long game record is a few tens of KiB, and a file
/// such as `/dev/zero` must not fill the memory before failing.
pub const MAX_RECORD_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a record file as UTF-8 text, refusing files over [`MAX_RECORD_BYTES`] after
/// reading at most one byte more.
///
/// # Errors
/// A message naming the file: unreadable, too large, or not UTF-8.
pub fn read_file(path: &Path) -> Result<String, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "{name} is larger than {} MiB: not a game record",
            MAX_RECORD_BYTES / (1024 * 1024)
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{name} is not UTF-8 text"))
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not well-formed SGF.
    Syntax(sgf::SgfError),
    /// The text is not well-formed JSON, or lacks a required field.
    Json(String),
    /// The game (variant) is missing or unknown.
    Game(String),
    /// A property or field has a bad value.
    Property {
        /// The property identifier (`PL`, `XRULES`) or JSON field.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// A setup piece is bad.
    Setup {
        /// The piece as written, e.g. `AB[a1,a2]`.
        text: String,
        /// What is wrong.
        message: String,
    },
    /// A move is malformed or illegal.
    Move {
        /// 1-based number of the move in the record.
        number: usize,
        /// The move as written, e.g. `B[f9,e10,f10,g10,f11]`.
        text: String,
        /// What is wrong, naming the cell where it can.
        message: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax(e) => write!(f, "{e}"),
            RecordError::Json(m) => write!(f, "bad JSON record: {m}"),
            RecordError::Game(m) => write!(f, "{m}"),
            RecordError::Property { id, message } => write!(f, "property {id}: {message}"),
            RecordError::Setup { text, message } => write!(f, "setup {text}: {message}"),
            RecordError::Move {
                number,
                text,
                message,
            } => write!(f, "move {number} ({text}): {message}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<sgf::SgfError> for RecordError {
    fn from(e: sgf::SgfError) -> Self {
        RecordError::Syntax(e)
    }
}

/// The result in the `.blksgf`/GTP convention.
///
/// With two players: `B+n` (first player ahead by `n`), `W+n`, or `0` for a draw, where
/// `n` is the difference of the variant's result scores (points, pieces placed in Junior,
/// cells placed in Polyomino; Junior breaks equal piece counts by cells left). With more
/// players: each colour's points as cells placed plus bonuses, space-separated.
pub fn result_text(rules: &Rules, pos: &Position) -> String {
    if rules.v().players == 2 {
        let r = score::side_results(rules, pos);
        if pos.any_timed_out() {
            // The SGF spelling of a win on time.
            return if r[0].place == 1 { "B+T" } else { "W+T" }.to_string();
        }
        let mut d = r[0].score - r[1].score;
        if d == 0 {
            d = r[1].tiebreak - r[0].tiebreak;
        }
        margin_text(d)
    } else {
        score::colour_scores(rules, pos)
            .iter()
            .map(|s| s.blksgf_points.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A two-player result in the `.blksgf` convention: `B+d` when the first player is `d`
/// ahead, `W+d` when behind, `0` for a draw.
pub fn margin_text(d: i32) -> String {
    match d {
        0 => "0".to_string(),
        d if d > 0 => format!("B+{d}"),
        d => format!("W+{}", -d),
    }
}

/// Undoes placements (and pie choices after them) until `moves` placements remain.
/// Used to show a record after move `n`, or GTP `loadsgf FILE n` (before move `n`).
pub fn rewind_to_move(game: &mut crate::Game, moves: usize) {
    while game.moves().count() > moves {
        if game.undo().is_err() {
            break;
        }
    }
}

/// Starts a game from setup pieces, checking what [`Game::with_setup`](crate::Game::with_setup)
/// trusts: no overlap, no piece placed more often than the set has it.
/// Each entry is (colour, placement, the piece as written for error messages).
fn start_game(
    rules: Rules,
    setup: Vec<(crate::Colour, crate::Move, String)>,
    to_move: Option<crate::Colour>,
) -> Result<crate::Game, RecordError> {
    if setup.is_empty() && matches!(to_move, None | Some(crate::Colour(0))) {
        return Ok(crate::Game::new(rules));
    }
    let t = rules.table();
    let mut pos = Position::new(&rules);
    for (colour, mv, text) in &setup {
        let cells = t.cell_set(*mv);
        if let Some(c) = cells.intersection(pos.occupied()).iter().next() {
            return Err(RecordError::Setup {
                text: text.clone(),
                message: format!("cell {} is already covered", t.geometry().cell_name(c)),
            });
        }
        let piece = t.info(*mv).piece as usize;
        if pos.remaining(&rules, *colour, piece) == 0 {
            return Err(RecordError::Setup {
                text: text.clone(),
                message: format!(
                    "piece {} has already been placed",
                    t.pieces().pieces[piece].name
                ),
            });
        }
        pos.place(&rules, *colour, *mv);
    }
    let setup = setup.into_iter().map(|(c, m, _)| (c, m)).collect();
    Ok(crate::Game::with_setup(
        rules,
        setup,
        to_move.unwrap_or(crate::Colour(0)),
    ))
}

#[cfg(test)]
mod file_tests {
    use super::*;

    #[test]
    fn an_endless_file_is_refused_without_reading_it_all() {
        let e = read_file(Path::new("/dev/zero")).unwrap_err();
        assert!(e.contains("larger than 4 MiB"), "{e}");
        let e = read_file(Path::new("/no/such/record.blksgf")).unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }
}
