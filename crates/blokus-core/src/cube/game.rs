//! A Blokus 3D game: rules, the current position, and its history with undo.

use std::fmt;

use super::notation::{self, CubeNotationError};
use super::position::{CubeIllegal, CubePosition};
use super::rules::CubeRules;
use super::score::{self, CubeColourScore, CubePlayerResult};
use super::table::CubeMove;
use crate::Colour;

/// Why an action on a game was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CubeGameError {
    /// The move text is malformed.
    Notation(CubeNotationError),
    /// The placement breaks a rule.
    Illegal(CubeIllegal),
    /// There is nothing to undo.
    NothingToUndo,
}

impl fmt::Display for CubeGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CubeGameError::Notation(e) => write!(f, "{e}"),
            CubeGameError::Illegal(e) => write!(f, "illegal move: {e}"),
            CubeGameError::NothingToUndo => write!(f, "nothing to undo"),
        }
    }
}

impl std::error::Error for CubeGameError {}

/// A game in progress.
#[derive(Clone)]
pub struct CubeGame {
    rules: CubeRules,
    /// (colour, move) of every placement.
    moves: Vec<(Colour, CubeMove)>,
    /// The position before each placement, then the current one.
    stack: Vec<CubePosition>,
}

impl CubeGame {
    /// A new game on the empty site.
    pub fn new(rules: CubeRules) -> CubeGame {
        let mut pos = CubePosition::new(&rules);
        pos.settle(&rules);
        CubeGame {
            rules,
            moves: Vec::new(),
            stack: vec![pos],
        }
    }

    /// The rules.
    pub fn rules(&self) -> &CubeRules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &CubePosition {
        self.stack.last().expect("a game has a position")
    }

    /// The position before placement `n` (0-based); `n` = the number of placements
    /// gives the current position.
    pub fn position_at(&self, n: usize) -> Option<&CubePosition> {
        self.stack.get(n)
    }

    /// The colours that went out (could not place on their turn) right after placement
    /// `n`, in turn order.
    pub fn outs_after(&self, n: usize) -> Vec<Colour> {
        match (self.stack.get(n), self.stack.get(n + 1)) {
            (Some(before), Some(after)) => Colour::all(self.rules.num_colours())
                .filter(|&c| after.is_out(c) && !before.is_out(c))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The placements so far as (colour, move).
    pub fn moves(&self) -> &[(Colour, CubeMove)] {
        &self.moves
    }

    /// The colour to move (meaningless once the game is over).
    pub fn to_move(&self) -> Colour {
        self.position().to_move()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// The legal placements of the colour to move (none once the game is over).
    pub fn legal_moves(&self) -> Vec<CubeMove> {
        if self.is_over() {
            return Vec::new();
        }
        self.position()
            .legal_moves(self.rules.table(), self.to_move())
    }

    /// Plays a move for the colour to move.
    ///
    /// # Errors
    /// The rule it breaks; the game is unchanged.
    pub fn play(&mut self, m: CubeMove) -> Result<(), CubeGameError> {
        let colour = self.to_move();
        let mut next = *self.position();
        next.play(&self.rules, m).map_err(CubeGameError::Illegal)?;
        self.moves.push((colour, m));
        self.stack.push(next);
        Ok(())
    }

    /// Plays a move given as text (`a1.1,b1.1`).
    ///
    /// # Errors
    /// If the text is malformed or the move illegal.
    pub fn play_text(&mut self, text: &str) -> Result<CubeMove, CubeGameError> {
        let m = notation::parse_move(self.rules.table(), text).map_err(CubeGameError::Notation)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last placement.
    ///
    /// # Errors
    /// At the start of the game.
    pub fn undo(&mut self) -> Result<(Colour, CubeMove), CubeGameError> {
        let last = self.moves.pop().ok_or(CubeGameError::NothingToUndo)?;
        self.stack.pop();
        Ok(last)
    }

    /// Every colour's score now.
    pub fn colour_scores(&self) -> Vec<CubeColourScore> {
        score::colour_scores(&self.rules, self.position())
    }

    /// Every player's result now.
    pub fn results(&self) -> Vec<CubePlayerResult> {
        score::results(&self.rules, self.position())
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::Seating;
    use super::super::site::Site;
    use super::*;

    #[test]
    fn play_undo_and_errors() {
        let rules = CubeRules::new(Seating::Four, Site::builtin("plaza").unwrap());
        let mut game = CubeGame::new(rules);
        let start = *game.position();
        game.play_text("c3.1,d3.1").unwrap();
        assert_eq!(game.to_move(), Colour(1));
        let err = game.play_text("a6.1,b6.1").unwrap_err();
        assert_eq!(
            err,
            CubeGameError::Illegal(CubeIllegal::FirstStoneNotTouching)
        );
        assert_eq!(
            err.to_string(),
            "illegal move: a colour's first stone must share a face with a stone already placed"
        );
        assert!(matches!(
            game.play_text("c3.2"),
            Err(CubeGameError::Notation(_))
        ));
        assert!(matches!(
            game.play_text("a1.2,b1.2"),
            Err(CubeGameError::Illegal(CubeIllegal::Unsupported(_)))
        ));
        game.play_text("c3.2,d3.2").unwrap();
        assert_eq!(game.undo().unwrap().0, Colour(1));
        game.undo().unwrap();
        assert_eq!(*game.position(), start);
        assert_eq!(game.undo(), Err(CubeGameError::NothingToUndo));
    }
}
