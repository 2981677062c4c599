//! Playing a puzzle by hand: checking the placements made so far (through blokus-core),
//! and hints (the next piece of a solution extending them).

use blokus_core::notation::{parse_move, piece_name};
use blokus_core::{BoardShape, Game, Move, MoveTable, PieceSetId};
use serde::Serialize;

use crate::fill::{self, FillOptions};
use crate::puzzle::{cell_name, Form, PlacementOut, PuzzleInfo, COLOURS};
use crate::tiling::{Engine, Outcome};

/// Where a puzzle in progress stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Pieces placed.
    pub placed: usize,
    /// Pieces of the whole puzzle.
    pub total: usize,
    /// Whether the puzzle is solved.
    pub solved: bool,
}

/// A placement that breaks the puzzle's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// Index of the first bad placement (`None`: the list as a whole).
    pub index: Option<usize>,
    /// What is wrong, for people.
    pub message: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            Some(i) => write!(f, "placement {}: {}", i + 1, self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for Refusal {}

fn refuse(index: usize, message: impl Into<String>) -> Refusal {
    Refusal {
        index: Some(index),
        message: message.into(),
    }
}

/// A hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Place this piece next: a solution extends the position with it.
    Next(PlacementOut),
    /// The puzzle is already solved.
    Solved,
    /// No solution extends the position.
    NoSolution,
    /// The search found no solution within its limit (there may still be one).
    NotFound,
}

/// A checked tiling position: the rectangle's placements as (colour, move) on a table of
/// every Classic placement in the rectangle.
struct TilingPosition {
    table: std::sync::Arc<MoveTable>,
    moves: Vec<(usize, Move)>,
}

fn colour_index(name: Option<&str>, i: usize) -> Result<usize, Refusal> {
    let name = name.ok_or_else(|| refuse(i, "a colour is required"))?;
    COLOURS
        .iter()
        .position(|c| c.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| {
            refuse(
                i,
                format!("unknown colour '{name}' (blue, yellow, red, green)"),
            )
        })
}

fn check_tiling(
    info: &PuzzleInfo,
    form: Form,
    placements: &[PlacementOut],
) -> Result<TilingPosition, Refusal> {
    let board = BoardShape::Square {
        width: info.width as u8,
        height: info.height as u8,
    };
    let table = MoveTable::get(board, PieceSetId::Classic);
    let g = table.geometry();
    let mut owner: Vec<Option<(usize, usize)>> = vec![None; g.num_cells()];
    let mut used = std::collections::HashSet::new();
    let mut moves = Vec::new();
    for (i, p) in placements.iter().enumerate() {
        let colour = colour_index(p.colour.as_deref(), i)?;
        let m = parse_move(&table, &p.cells.join(",")).map_err(|e| refuse(i, e.to_string()))?;
        let name = piece_name(&table, m);
        if !name.eq_ignore_ascii_case(&p.piece) {
            return Err(refuse(
                i,
                format!("the cells form piece {name}, not {}", p.piece),
            ));
        }
        let cells = table.info(m).cells();
        if cells.len() != info.piece_size {
            return Err(refuse(
                i,
                format!("{} uses only {}-cell pieces", info.id, info.piece_size),
            ));
        }
        if !used.insert((colour, table.info(m).piece)) {
            return Err(refuse(
                i,
                format!("{} already placed {name}", COLOURS[colour]),
            ));
        }
        for &c in cells {
            if owner[c.index()].is_some() {
                return Err(refuse(
                    i,
                    format!("cell {} is already covered", g.cell_name(c)),
                ));
            }
        }
        for &c in cells {
            owner[c.index()] = Some((i, colour));
        }
        if form.strict {
            for &c in cells {
                for &n in g.edge_neighbours(c) {
                    if let Some((j, oc)) = owner[n.index()] {
                        if j != i && oc == colour {
                            return Err(refuse(
                                i,
                                format!(
                                    "strict rule: cell {} touches another {} piece along an edge",
                                    g.cell_name(c),
                                    COLOURS[colour]
                                ),
                            ));
                        }
                    }
                }
            }
        }
        moves.push((colour, m));
    }
    Ok(TilingPosition { table, moves })
}

fn check_board(
    info: &PuzzleInfo,
    form: Form,
    placements: &[PlacementOut],
) -> Result<Game, Refusal> {
    let rules = info.rules().expect("placement puzzle");
    let mut game = Game::new(rules.clone());
    let mut last_size = usize::MAX;
    for (i, p) in placements.iter().enumerate() {
        let colour = colour_index(p.colour.as_deref(), i)?;
        let m =
            parse_move(rules.table(), &p.cells.join(",")).map_err(|e| refuse(i, e.to_string()))?;
        let name = piece_name(rules.table(), m);
        if !name.eq_ignore_ascii_case(&p.piece) {
            return Err(refuse(
                i,
                format!("the cells form piece {name}, not {}", p.piece),
            ));
        }
        let size = rules.table().info(m).cells().len();
        if form.decreasing && size > last_size {
            return Err(refuse(
                i,
                format!("decreasing order: a {size}-cell piece after a {last_size}-cell piece"),
            ));
        }
        last_size = size;
        game.play_for(colour, m)
            .map_err(|e| refuse(i, e.to_string()))?;
    }
    Ok(game)
}

fn total_pieces(info: &PuzzleInfo) -> usize {
    match info.rules() {
        Some(r) => r.num_colours() * r.table().pieces().total_pieces(),
        None => info.width * info.height / info.piece_size,
    }
}

/// Checks placements made by hand, in order.
///
/// # Errors
/// A [`Refusal`] naming the first placement that breaks a rule.
pub fn check(
    info: &PuzzleInfo,
    form: Form,
    placements: &[PlacementOut],
) -> Result<Progress, Refusal> {
    info.check_form(form).map_err(|e| Refusal {
        index: None,
        message: e.to_string(),
    })?;
    let total = total_pieces(info);
    if placements.len() > total {
        return Err(Refusal {
            index: None,
            message: format!(
                "{} placements, but the puzzle has only {total} pieces",
                placements.len()
            ),
        });
    }
    if info.variant.is_some() {
        check_board(info, form, placements)?;
    } else {
        check_tiling(info, form, placements)?;
    }
    Ok(Progress {
        placed: placements.len(),
        total,
        solved: placements.len() == total,
    })
}

/// The next piece of a solution extending the placements, searching at most
/// `max_nodes` placements.
///
/// # Errors
/// A [`Refusal`] if the placements themselves break a rule.
pub fn hint(
    info: &PuzzleInfo,
    form: Form,
    placements: &[PlacementOut],
    seed: u64,
    max_nodes: u64,
) -> Result<Hint, Refusal> {
    let progress = check(info, form, placements)?;
    if progress.solved {
        return Ok(Hint::Solved);
    }
    if let Some(rules) = info.rules() {
        let game = check_board(info, form, placements)?;
        let prefix: Vec<(usize, Move)> = game.moves().collect();
        let options = FillOptions {
            decreasing: form.decreasing,
            seed,
            max_nodes,
        };
        let (found, _) = fill::solve_from(&rules, &prefix, options, &mut |_| {});
        return Ok(match found {
            Some(moves) => {
                let (c, m) = moves[prefix.len()];
                Hint::Next(PlacementOut {
                    colour: Some(rules.colour_name(c).to_string()),
                    piece: piece_name(rules.table(), m).to_string(),
                    cells: blokus_core::notation::move_cells(rules.table(), m),
                })
            }
            None => Hint::NotFound,
        });
    }
    let pos = check_tiling(info, form, placements)?;
    let tiling = info.tiling(form.strict).expect("tiling puzzle");
    let mut engine = Engine::new(tiling.clone(), seed).map_err(|e| Refusal {
        index: None,
        message: e.to_string(),
    })?;
    let g = pos.table.geometry();
    let mut prefix = Vec::new();
    for (i, &(colour, m)) in pos.moves.iter().enumerate() {
        let xy: Vec<(usize, usize)> = pos.table.info(m).cells().iter().map(|&c| g.xy(c)).collect();
        let p = engine
            .find_place(&xy)
            .ok_or_else(|| refuse(i, "this placement does not fit the puzzle"))?;
        prefix.push((p, colour as u8));
    }
    Ok(match engine.solve_from(&prefix, max_nodes, &mut |_| {}).0 {
        Outcome::Found(placements) => {
            let next = &placements[prefix.len()];
            Hint::Next(PlacementOut {
                colour: next.colour.map(|c| COLOURS[c].to_string()),
                piece: tiling.kinds[next.kind].name.clone(),
                cells: next.cells.iter().map(|&(x, y)| cell_name(x, y)).collect(),
            })
        }
        Outcome::NoSolution => Hint::NoSolution,
        Outcome::GaveUp => Hint::NotFound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{find, solve};

    #[test]
    fn hints_complete_a_tiling_and_check_accepts_it() {
        let info = find("tetro_8x10").unwrap();
        let form = Form {
            strict: true,
            decreasing: false,
        };
        let mut placed: Vec<PlacementOut> = Vec::new();
        for _ in 0..20 {
            match hint(info, form, &placed, 0, 1_000_000).unwrap() {
                Hint::Next(p) => placed.push(p),
                other => panic!("unexpected {other:?}"),
            }
            assert!(!check(info, form, &placed).unwrap().solved || placed.len() == 20);
        }
        assert!(check(info, form, &placed).unwrap().solved);
        assert_eq!(hint(info, form, &placed, 0, 1000).unwrap(), Hint::Solved);
    }

    #[test]
    fn check_refuses_rule_breaks() {
        let info = find("tetro_8x10").unwrap();
        let sol = solve("tetro_8x10", Form::default(), 0, &mut |_| {})
            .unwrap()
            .unwrap();
        let mut p = sol.placements();
        p[1].cells = p[0].cells.clone();
        p[1].piece = p[0].piece.clone();
        let e = check(info, Form::default(), &p[..2]).unwrap_err();
        assert_eq!(e.index, Some(1));
        let board = find("all_84").unwrap();
        let first = PlacementOut {
            colour: Some("blue".into()),
            piece: "1".into(),
            cells: vec!["j10".into()],
        };
        let e = check(board, Form::default(), &[first]).unwrap_err();
        assert!(e.message.contains("starting point"), "{e}");
    }

    #[test]
    fn a_dead_end_has_no_solution() {
        // An O in the corner of a strict tetro tiling with the same colour's O... use a
        // plain dead end: an I4 standing one cell from the left edge leaves a 1-wide
        // column of height 4 only an I4 fills; fill the rest so no I4 is left.
        let info = find("tetro_8x10").unwrap();
        let i4 = |colour: &str, col: &str| PlacementOut {
            colour: Some(colour.into()),
            piece: "I4".into(),
            cells: (1..=4).map(|r| format!("{col}{r}")).collect(),
        };
        let placed: Vec<PlacementOut> = ["blue", "yellow", "red", "green"]
            .iter()
            .zip(["b", "c", "d", "e"])
            .map(|(c, col)| i4(c, col))
            .collect();
        assert_eq!(
            hint(info, Form::default(), &placed, 0, 0).unwrap(),
            Hint::NoSolution
        );
    }
}
