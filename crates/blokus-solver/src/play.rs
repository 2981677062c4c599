//! Playing a puzzle by hand: checking the placements made so far (through blokus-core),
//! and hints (the next piece of a solution extending them).

use blokus_core::notation::{parse_move, piece_name};
use blokus_core::Colour;
use blokus_core::{BoardShape, Game, Move, MoveTable, PieceSetId};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    moves: Vec<(Colour, Move)>,
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
        moves.push((Colour::new(colour), m));
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
        game.play_for(Colour::new(colour), m)
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

/// How long a hint may search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Placements tried at most (0: no limit).
    pub max_nodes: u64,
    /// Wall-clock time at most (tilings; placement puzzles count nodes only).
    pub max_time: Option<Duration>,
    /// Set from another thread to give up at once (e.g. a stopping server): the
    /// search answers [`Completion::NotFound`].
    pub stop: Option<Arc<AtomicBool>>,
}

/// The answer of a search from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// A whole solution: the position's placements, then the rest in an order that
    /// obeys the rules.
    Found(Vec<PlacementOut>),
    /// The puzzle is already solved.
    Solved,
    /// No solution extends the position.
    NoSolution,
    /// The search found no solution within its limits (there may still be one).
    NotFound,
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
    let limits = Limits {
        max_nodes,
        ..Limits::default()
    };
    Ok(hint_of(
        placements,
        complete(info, form, placements, seed, limits)?,
    ))
}

/// The hint a completion gives: the first piece of the solution after `placements`.
pub fn hint_of(placements: &[PlacementOut], completion: Completion) -> Hint {
    match completion {
        Completion::Found(solution) => match solution.get(placements.len()) {
            Some(next) => Hint::Next(next.clone()),
            None => Hint::Solved,
        },
        Completion::Solved => Hint::Solved,
        Completion::NoSolution => Hint::NoSolution,
        Completion::NotFound => Hint::NotFound,
    }
}

/// Searches for a whole solution extending the placements, within `limits`.
///
/// Tilings search with colours fixed for the pieces placed (the restarting exact-cover
/// search of [`crate::tiling`]); placement puzzles with the beam search of
/// [`crate::fill`].
///
/// # Errors
/// A [`Refusal`] if the placements themselves break a rule.
pub fn complete(
    info: &PuzzleInfo,
    form: Form,
    placements: &[PlacementOut],
    seed: u64,
    limits: Limits,
) -> Result<Completion, Refusal> {
    let progress = check(info, form, placements)?;
    if progress.solved {
        return Ok(Completion::Solved);
    }
    if let Some(rules) = info.rules() {
        let game = check_board(info, form, placements)?;
        let prefix: Vec<(Colour, Move)> = game.moves().collect();
        let options = FillOptions {
            decreasing: form.decreasing,
            seed,
            max_nodes: limits.max_nodes,
        };
        let never = AtomicBool::new(false);
        let stop = limits.stop.as_deref().unwrap_or(&never);
        let (found, _) = fill::solve_from_until(&rules, &prefix, options, stop, &mut |_| {});
        return Ok(match found {
            Some(moves) => Completion::Found(
                moves
                    .iter()
                    .map(|&(c, m)| PlacementOut {
                        colour: Some(rules.colour_name(c).to_string()),
                        piece: piece_name(rules.table(), m).to_string(),
                        cells: blokus_core::notation::move_cells(rules.table(), m),
                    })
                    .collect(),
            ),
            None => Completion::NotFound,
        });
    }
    let pos = check_tiling(info, form, placements)?;
    let tiling = info.tiling(form.strict).expect("tiling puzzle");
    let mut engine = Engine::new(tiling.clone(), seed).map_err(|e| Refusal {
        index: None,
        message: e.to_string(),
    })?;
    engine.deadline = limits.max_time.map(|t| Instant::now() + t);
    engine.stop = limits.stop;
    let g = pos.table.geometry();
    let mut prefix = Vec::new();
    for (i, &(colour, m)) in pos.moves.iter().enumerate() {
        let xy: Vec<(usize, usize)> = pos.table.info(m).cells().iter().map(|&c| g.xy(c)).collect();
        let p = engine
            .find_place(&xy)
            .ok_or_else(|| refuse(i, "this placement does not fit the puzzle"))?;
        prefix.push((p, colour.0));
    }
    Ok(
        match engine.solve_from(&prefix, limits.max_nodes, &mut |_| {}).0 {
            Outcome::Found(found) => {
                // The search keeps the prefix's pieces first; name them as given.
                let mut out: Vec<PlacementOut> = placements.to_vec();
                out.extend(found[prefix.len()..].iter().map(|p| PlacementOut {
                    colour: p.colour.map(|c| COLOURS[c].to_string()),
                    piece: tiling.kinds[p.kind].name.clone(),
                    cells: p.cells.iter().map(|&(x, y)| cell_name(x, y)).collect(),
                }));
                Completion::Found(out)
            }
            Outcome::NoSolution => Completion::NoSolution,
            Outcome::GaveUp => Completion::NotFound,
        },
    )
}

/// A solution known beforehand that extends the placements, if `known` (a whole
/// solution of the same puzzle and form) can be made to: for a placement puzzle when
/// the placements are the start of it; for a tiling when some symmetry of the
/// rectangle and renaming of the colours turns it into a tiling containing every
/// placement (the rules do not see either). The placements come first in the answer.
pub fn extend_with(
    info: &PuzzleInfo,
    known: &[PlacementOut],
    placements: &[PlacementOut],
) -> Option<Vec<PlacementOut>> {
    if placements.len() > known.len() {
        return None;
    }
    if info.variant.is_some() {
        let same = known.iter().zip(placements).all(|(a, b)| same_piece(a, b));
        return same.then(|| known.to_vec());
    }
    let (w, h) = (info.width, info.height);
    let maps: [&dyn Fn(usize, usize) -> (usize, usize); 4] = [
        &|x, y| (x, y),
        &|x, y| (w - 1 - x, y),
        &|x, y| (x, h - 1 - y),
        &|x, y| (w - 1 - x, h - 1 - y),
    ];
    let key = |cells: &[String]| {
        let mut v = cells.to_vec();
        v.sort();
        v
    };
    'symmetry: for map in maps {
        let image: Vec<PlacementOut> = known
            .iter()
            .map(|p| PlacementOut {
                colour: p.colour.clone(),
                piece: p.piece.clone(),
                cells: {
                    let mut cells: Vec<String> = p
                        .cells
                        .iter()
                        .filter_map(|c| parse_cell(c))
                        .map(|(x, y)| {
                            let (x, y) = map(x, y);
                            cell_name(x, y)
                        })
                        .collect();
                    cells.sort_by_key(|c| parse_cell(c).map(|(x, y)| (y, x)));
                    cells
                },
            })
            .collect();
        let index: std::collections::HashMap<Vec<String>, usize> = image
            .iter()
            .enumerate()
            .map(|(i, p)| (key(&p.cells), i))
            .collect();
        // Colour renaming: known colour -> placed colour, one to one.
        let mut rename: std::collections::HashMap<String, String> = Default::default();
        let mut taken: std::collections::HashSet<String> = Default::default();
        let mut used = vec![false; image.len()];
        for p in placements {
            let Some(&i) = index.get(&key(&p.cells)) else {
                continue 'symmetry;
            };
            let (from, to) = (image[i].colour.clone(), p.colour.clone());
            if image[i].piece != p.piece {
                continue 'symmetry;
            }
            if let (Some(from), Some(to)) = (from, to) {
                match rename.get(&from) {
                    Some(t) if *t != to => continue 'symmetry,
                    Some(_) => {}
                    None => {
                        if !taken.insert(to.clone()) {
                            continue 'symmetry;
                        }
                        rename.insert(from, to);
                    }
                }
            }
            used[i] = true;
        }
        // Colours no placement fixed take the names left, in order.
        let mut left = COLOURS
            .iter()
            .map(|c| c.to_string())
            .filter(|c| !taken.contains(c));
        for c in COLOURS {
            if !rename.contains_key(c) {
                if let Some(to) = left.next() {
                    rename.insert(c.to_string(), to);
                }
            }
        }
        let mut out = placements.to_vec();
        for (p, _) in image.into_iter().zip(&used).filter(|(_, &u)| !u) {
            out.push(PlacementOut {
                colour: p.colour.map(|c| rename.get(&c).cloned().unwrap_or(c)),
                ..p
            });
        }
        return Some(out);
    }
    None
}

/// Whether two placements are the same piece in the same colour on the same cells.
fn same_piece(a: &PlacementOut, b: &PlacementOut) -> bool {
    let key = |p: &PlacementOut| {
        let mut v: Vec<String> = p.cells.iter().map(|c| c.to_ascii_lowercase()).collect();
        v.sort();
        v
    };
    a.colour == b.colour && a.piece.eq_ignore_ascii_case(&b.piece) && key(a) == key(b)
}

/// (x, y) of a cell name such as `c12` (0-based; columns `a`..`z`).
fn parse_cell(name: &str) -> Option<(usize, usize)> {
    let name = name.trim().to_ascii_lowercase();
    let letters = name.bytes().take_while(u8::is_ascii_lowercase).count();
    if letters != 1 {
        return None;
    }
    let x = (name.as_bytes()[0] - b'a') as usize;
    let y: usize = name[1..].parse().ok()?;
    (y >= 1).then(|| (x, y - 1))
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
    fn known_solutions_extend_mirrored_and_recoloured_positions() {
        let info = find("tetro_8x10").unwrap();
        let form = Form {
            strict: true,
            decreasing: false,
        };
        let known = solve("tetro_8x10", form, 4, &mut |_| {})
            .unwrap()
            .unwrap()
            .placements();
        // The empty board and any start of the solution itself.
        assert_eq!(extend_with(info, &known, &[]).unwrap().len(), 20);
        let ext = extend_with(info, &known, &known[..3]).unwrap();
        assert_eq!(&ext[..3], &known[..3]);
        assert!(check(info, form, &ext).unwrap().solved);
        // A piece of the mirror image (left-right), in another colour.
        let mirror = |p: &PlacementOut, colour: &str| PlacementOut {
            colour: Some(colour.into()),
            piece: p.piece.clone(),
            cells: p
                .cells
                .iter()
                .map(|c| {
                    let (x, y) = parse_cell(c).unwrap();
                    cell_name(7 - x, y)
                })
                .collect(),
        };
        let first = known[5].colour.clone().unwrap();
        let other = COLOURS.iter().find(|c| **c != first).unwrap();
        let placed = vec![mirror(&known[5], other)];
        let ext = extend_with(info, &known, &placed).unwrap();
        assert_eq!(ext[0], placed[0]);
        assert!(
            check(info, form, &ext).unwrap().solved,
            "a valid renamed image"
        );
        // A piece that is in no image of the solution.
        let mut stray = known[0].clone();
        stray.piece = "Q".into();
        assert_eq!(extend_with(info, &known, &[stray]), None);
    }

    #[test]
    fn a_stopped_search_gives_up_without_a_limit_of_its_own() {
        let stop = Arc::new(AtomicBool::new(true));
        for id in ["penta_15x16", "all_84"] {
            let info = find(id).unwrap();
            let limits = Limits {
                stop: Some(stop.clone()),
                ..Limits::default()
            };
            // Without limits only a stop makes the search answer "not found".
            let answer = complete(info, Form::default(), &[], 1, limits).unwrap();
            assert_eq!(answer, Completion::NotFound, "{id}");
        }
    }

    #[test]
    fn strict_penta_hint_from_the_empty_board_within_a_time_limit() {
        let info = find("penta_15x16").unwrap();
        let form = Form {
            strict: true,
            decreasing: false,
        };
        let limits = Limits {
            max_nodes: 0,
            max_time: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let Completion::Found(sol) = complete(info, form, &[], 2, limits).unwrap() else {
            panic!("a solution within a minute");
        };
        assert!(check(info, form, &sol).unwrap().solved);
        // From its first ten pieces with a tiny time limit: found at once or honestly
        // not found, never a wrong answer.
        let limits = Limits {
            max_nodes: 0,
            max_time: Some(Duration::from_millis(1)),
            ..Limits::default()
        };
        match complete(info, form, &sol[..10], 3, limits).unwrap() {
            Completion::Found(more) => assert!(check(info, form, &more).unwrap().solved),
            Completion::NotFound => {}
            other => panic!("unexpected {other:?}"),
        }
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
