//! Move text: a placement as its covered cells, e.g. `e8,d9,e9,f9,e10`.
//!
//! Any order and case is accepted; output lists cells by row, then column (`a1`, `b1`,
//! ..., `a2`, ...), so each placement has one spelling.

use crate::geometry::CellError;
use crate::movetable::{Move, MoveTable};

/// Why move text could not be resolved into a placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// No cells given.
    Empty,
    /// A cell name is malformed or off the board.
    Cell(CellError),
    /// A cell appears twice.
    Duplicate(String),
    /// The cells form no piece of the set in any orientation.
    NotAPiece(String),
    /// The text is too long to be a move.
    TooLong,
}

impl std::fmt::Display for NotationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotationError::Empty => write!(f, "empty move: expected cells such as e8,d9,e9"),
            NotationError::Cell(e) => write!(f, "{e}"),
            NotationError::Duplicate(c) => write!(f, "cell '{c}' is listed twice"),
            NotationError::NotAPiece(t) => {
                write!(f, "cells '{t}' do not form a piece of this game's set")
            }
            NotationError::TooLong => write!(f, "move text too long"),
        }
    }
}

impl std::error::Error for NotationError {}

/// Parses move text into the placement it names.
///
/// # Errors
/// [`NotationError`] naming the cell or text at fault.
pub fn parse_move(table: &MoveTable, text: &str) -> Result<Move, NotationError> {
    if text.len() > 200 {
        return Err(NotationError::TooLong);
    }
    let parts: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(NotationError::Empty);
    }
    let g = table.geometry();
    let mut cells = Vec::with_capacity(parts.len());
    for p in &parts {
        let c = g.parse_cell(p).map_err(NotationError::Cell)?;
        if cells.contains(&c) {
            return Err(NotationError::Duplicate(p.to_string()));
        }
        cells.push(c);
    }
    table
        .find(&cells)
        .ok_or_else(|| NotationError::NotAPiece(text.trim().to_string()))
}

/// The canonical text of a placement.
pub fn format_move(table: &MoveTable, m: Move) -> String {
    let g = table.geometry();
    let mut text = String::with_capacity(24);
    for (i, &c) in table.info(m).cells().iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(g.cell_str(c));
    }
    text
}

/// The cell names of a placement, in canonical order.
pub fn move_cells(table: &MoveTable, m: Move) -> Vec<String> {
    let g = table.geometry();
    table
        .info(m)
        .cells()
        .iter()
        .map(|&c| g.cell_name(c))
        .collect()
}

/// The piece name of a placement.
pub fn piece_name(table: &MoveTable, m: Move) -> &str {
    &table.pieces().pieces[table.info(m).piece as usize].name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardShape, PieceSetId};

    #[test]
    fn parse_any_order_and_case_format_canonical() {
        let t = MoveTable::get(
            BoardShape::Square {
                width: 14,
                height: 14,
            },
            PieceSetId::Classic,
        );
        let m = parse_move(&t, "E10, d9,c10,D10,d11").unwrap();
        assert_eq!(format_move(&t, m), "d9,c10,d10,e10,d11");
        assert_eq!(piece_name(&t, m), "X");
    }

    #[test]
    fn errors_name_the_fault() {
        let t = MoveTable::get(
            BoardShape::Square {
                width: 14,
                height: 14,
            },
            PieceSetId::Classic,
        );
        assert_eq!(parse_move(&t, ""), Err(NotationError::Empty));
        assert!(matches!(
            parse_move(&t, "a1,zz99"),
            Err(NotationError::Cell(CellError::OffBoard(_)))
        ));
        assert!(matches!(
            parse_move(&t, "a1,a1"),
            Err(NotationError::Duplicate(_))
        ));
        assert!(matches!(
            parse_move(&t, "a1,c3"),
            Err(NotationError::NotAPiece(_))
        ));
        assert!(matches!(
            parse_move(&t, "a1,#"),
            Err(NotationError::Cell(CellError::Malformed(_)))
        ));
    }
}
