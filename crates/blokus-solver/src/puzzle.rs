//! The named puzzles of SPEC 7, their forms, and one solution format for all of them.

use blokus_core::geometry::column_name;
use blokus_core::Colour;
use blokus_core::{Move, Rules};
use serde::{Deserialize, Serialize};

use crate::fill::{self, FillOptions};
use crate::tiling::{self, PieceKind, TilePlacement, Tiling, TilingError};

/// The colours of the four-colour puzzles, in the spec's order.
pub const COLOURS: [&str; 4] = ["blue", "yellow", "red", "green"];

/// A named puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PuzzleInfo {
    /// Id such as `tetro_8x10`.
    pub id: &'static str,
    /// One-line task for people.
    pub task: &'static str,
    /// Whether the `strict` form exists (no two pieces of a colour share an edge).
    pub strict: bool,
    /// Whether the `decreasing` form exists (all 5-cell pieces first, then 4, ...).
    pub decreasing: bool,
    /// The game variant whose board and rules the puzzle uses (placement puzzles).
    pub variant: Option<&'static str>,
    /// Rectangle width (tilings).
    pub width: usize,
    /// Rectangle height (tilings).
    pub height: usize,
    /// Size of the pieces of a tiling (every piece of that size, once per colour).
    pub piece_size: usize,
}

/// Every named puzzle (SPEC 7).
pub const PUZZLES: [PuzzleInfo; 4] = [
    PuzzleInfo {
        id: "all_84",
        task: "place all 84 Classic pieces (4 colours x 21) on the Classic board, each colour obeying the placement rules from its own corner",
        strict: false,
        decreasing: true,
        variant: Some("classic"),
        width: 20,
        height: 20,
        piece_size: 0,
    },
    PuzzleInfo {
        id: "tetro_8x10",
        task: "tile an 8 x 10 rectangle exactly with the 20 four-cell pieces (4 colours x 5)",
        strict: true,
        decreasing: false,
        variant: None,
        width: 8,
        height: 10,
        piece_size: 4,
    },
    PuzzleInfo {
        id: "penta_15x16",
        task: "tile a 15 x 16 rectangle exactly with the 48 five-cell pieces (4 colours x 12)",
        strict: true,
        decreasing: false,
        variant: None,
        width: 15,
        height: 16,
        piece_size: 5,
    },
    PuzzleInfo {
        id: "all_88",
        task: "place all 88 Trigon pieces (4 colours x 22) on the Trigon board, four colours obeying the placement rules",
        strict: false,
        decreasing: false,
        variant: Some("trigon"),
        width: 35,
        height: 18,
        piece_size: 0,
    },
];

/// The harder forms of a puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Form {
    /// No two pieces of the same colour share an edge (tilings).
    #[serde(default)]
    pub strict: bool,
    /// All 5-cell pieces first, then 4, 3, 2, 1 (`all_84`).
    #[serde(default)]
    pub decreasing: bool,
}

/// Why a puzzle cannot be solved as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleError {
    /// No puzzle has this id.
    Unknown(String),
    /// The puzzle has no such form.
    NoSuchForm(String),
    /// The tiling is malformed.
    Tiling(TilingError),
}

impl std::fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PuzzleError::Unknown(id) => {
                let ids: Vec<&str> = PUZZLES.iter().map(|p| p.id).collect();
                write!(
                    f,
                    "unknown puzzle '{id}' (puzzles: {}, tiling)",
                    ids.join(", ")
                )
            }
            PuzzleError::NoSuchForm(m) => write!(f, "{m}"),
            PuzzleError::Tiling(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PuzzleError {}

impl From<TilingError> for PuzzleError {
    fn from(e: TilingError) -> Self {
        PuzzleError::Tiling(e)
    }
}

/// Looks a puzzle up by id.
///
/// # Errors
/// [`PuzzleError::Unknown`] listing the known ids.
pub fn find(id: &str) -> Result<&'static PuzzleInfo, PuzzleError> {
    PUZZLES
        .iter()
        .find(|p| p.id.eq_ignore_ascii_case(id.trim()))
        .ok_or_else(|| PuzzleError::Unknown(id.to_string()))
}

impl PuzzleInfo {
    /// Checks that the puzzle has the asked form.
    ///
    /// # Errors
    /// [`PuzzleError::NoSuchForm`] naming the option.
    pub fn check_form(&self, form: Form) -> Result<(), PuzzleError> {
        if form.strict && !self.strict {
            return Err(PuzzleError::NoSuchForm(format!(
                "puzzle {} has no strict form (--strict is for tetro_8x10 and penta_15x16)",
                self.id
            )));
        }
        if form.decreasing && !self.decreasing {
            return Err(PuzzleError::NoSuchForm(format!(
                "puzzle {} has no decreasing form (--decreasing is for all_84)",
                self.id
            )));
        }
        Ok(())
    }

    /// The tiling of a tiling puzzle (`None` for placement puzzles).
    pub fn tiling(&self, strict: bool) -> Option<Tiling> {
        if self.variant.is_some() {
            return None;
        }
        let set = blokus_core::PieceSetId::Classic.build();
        let kinds = set
            .pieces
            .iter()
            .filter(|p| p.size == self.piece_size)
            .map(|p| PieceKind {
                name: p.name.clone(),
                shape: p.orientations[0].clone(),
                count: COLOURS.len(),
            })
            .collect();
        Some(Tiling {
            width: self.width,
            height: self.height,
            kinds,
            colours: Some(COLOURS.iter().map(|c| c.to_string()).collect()),
            strict,
        })
    }

    /// The rules of a placement puzzle (`None` for tilings).
    pub fn rules(&self) -> Option<Rules> {
        self.variant
            .map(|v| Rules::by_name(v).expect("puzzle variants exist"))
    }
}

/// One placed piece, as shown to people and exchanged as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementOut {
    /// Colour name (`blue`, ...); absent for colourless tilings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// Piece name.
    pub piece: String,
    /// Covered cells in the spec's notation (`a1` lower left), canonical order.
    pub cells: Vec<String>,
}

/// A solved puzzle.
#[derive(Clone)]
pub enum Solution {
    /// A tiling with its placements.
    Tiling {
        /// The problem.
        tiling: Tiling,
        /// Placements in the order found.
        placements: Vec<TilePlacement>,
    },
    /// A placement puzzle: moves on a game board, in an order that obeys the rules.
    Board {
        /// The rules.
        rules: Rules,
        /// (colour, move) in order.
        moves: Vec<(Colour, Move)>,
    },
}

/// Name of cell (x, y) of a rectangle.
pub fn cell_name(x: usize, y: usize) -> String {
    format!("{}{}", column_name(x), y + 1)
}

impl Solution {
    /// The placements in order, in the exchange format.
    pub fn placements(&self) -> Vec<PlacementOut> {
        match self {
            Solution::Tiling { tiling, placements } => placements
                .iter()
                .map(|p| PlacementOut {
                    colour: p
                        .colour
                        .and_then(|c| tiling.colours.as_ref().map(|cs| cs[c].clone())),
                    piece: tiling.kinds[p.kind].name.clone(),
                    cells: p.cells.iter().map(|&(x, y)| cell_name(x, y)).collect(),
                })
                .collect(),
            Solution::Board { rules, moves } => moves
                .iter()
                .map(|&(c, m)| PlacementOut {
                    colour: Some(rules.colour_name(c).to_string()),
                    piece: blokus_core::notation::piece_name(rules.table(), m).to_string(),
                    cells: blokus_core::notation::move_cells(rules.table(), m),
                })
                .collect(),
        }
    }

    /// The moves replayed as a game through blokus-core (every placement checked again
    /// by the rules engine). Only for placement puzzles.
    ///
    /// # Errors
    /// The engine's message if a placement is refused (a solver bug).
    pub fn game(&self) -> Option<Result<blokus_core::Game, blokus_core::GameError>> {
        let Solution::Board { rules, moves } = self else {
            return None;
        };
        let mut game = blokus_core::Game::new(rules.clone());
        for &(c, m) in moves {
            if let Err(e) = game.play_for(c, m) {
                return Some(Err(e));
            }
        }
        Some(Ok(game))
    }
}

/// Progress of a search: placements tried so far.
pub type Progress<'a> = &'a mut dyn FnMut(u64);

/// Solves a named puzzle without a node limit. `Ok(None)` means there is no solution.
///
/// # Errors
/// [`PuzzleError`] if the puzzle or form does not exist.
pub fn solve(
    id: &str,
    form: Form,
    seed: u64,
    progress: Progress<'_>,
) -> Result<Option<Solution>, PuzzleError> {
    solve_with_limit(id, form, seed, 0, progress)
}

/// Solves a named puzzle; the placement puzzles give up after `max_nodes` placements
/// tried (0: never; the tilings always run to the end). `Ok(None)` means no solution was
/// found.
///
/// # Errors
/// [`PuzzleError`] if the puzzle or form does not exist.
pub fn solve_with_limit(
    id: &str,
    form: Form,
    seed: u64,
    max_nodes: u64,
    progress: Progress<'_>,
) -> Result<Option<Solution>, PuzzleError> {
    let info = find(id)?;
    info.check_form(form)?;
    if let Some(t) = info.tiling(form.strict) {
        let (sol, _) = tiling::solve(t.clone(), seed, &mut |s| progress(s.nodes))?;
        return Ok(sol.map(|placements| Solution::Tiling {
            tiling: t,
            placements,
        }));
    }
    let rules = info.rules().expect("placement puzzle");
    let options = FillOptions {
        decreasing: form.decreasing,
        seed,
        max_nodes,
    };
    let (moves, _) = fill::solve(&rules, options, &mut |s| progress(s.nodes));
    Ok(moves.map(|moves| Solution::Board { rules, moves }))
}
