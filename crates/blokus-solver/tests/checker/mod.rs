//! An independent checker for puzzle solutions, written apart from the solver: it reads
//! the exchange format (colour, piece name, cell names) and checks each rule of SPEC 7
//! from scratch, using blokus-core only for piece shapes and the placement rules.

use std::collections::{HashMap, HashSet};

use blokus_core::piece::{orientations, PieceSetId};
use blokus_core::{Game, GridKind, Rules};
use blokus_solver::puzzle::PlacementOut;

pub const COLOURS: [&str; 4] = ["blue", "yellow", "red", "green"];

/// Parses `a1`-style names on a rectangle (column letters, row from 1 at the bottom).
fn parse(name: &str) -> Result<(i32, i32), String> {
    let split = name
        .find(|c: char| c.is_ascii_digit())
        .ok_or(format!("bad cell {name}"))?;
    let (letters, digits) = name.split_at(split);
    let mut x = 0i32;
    for b in letters.bytes() {
        if !b.is_ascii_lowercase() {
            return Err(format!("bad cell {name}"));
        }
        x = x * 26 + (b - b'a') as i32 + 1;
    }
    let y: i32 = digits.parse().map_err(|_| format!("bad cell {name}"))?;
    Ok((x - 1, y - 1))
}

/// The shape of cells, translated to the origin and sorted (as blokus-core normalises).
fn normal(cells: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mx = cells.iter().map(|c| c.0).min().unwrap();
    let my = cells.iter().map(|c| c.1).min().unwrap();
    let mut v: Vec<(i32, i32)> = cells.iter().map(|&(x, y)| (x - mx, y - my)).collect();
    v.sort_by_key(|&(x, y)| (y, x));
    v
}

/// Checks a tiling of a `w` x `h` rectangle by the Classic pieces of `size` cells,
/// `copies` of each (one per colour when coloured), optionally under the strict rule.
pub fn check_tiling(
    w: i32,
    h: i32,
    piece_names: &[(&str, usize)],
    coloured: bool,
    strict: bool,
    placements: &[PlacementOut],
) -> Result<(), String> {
    let set = PieceSetId::Classic.build();
    let mut owner: HashMap<(i32, i32), usize> = HashMap::new();
    let mut used: HashMap<(String, Option<String>), usize> = HashMap::new();
    for (i, p) in placements.iter().enumerate() {
        let cells: Vec<(i32, i32)> = p.cells.iter().map(|c| parse(c)).collect::<Result<_, _>>()?;
        for &(x, y) in &cells {
            if x < 0 || y < 0 || x >= w || y >= h {
                return Err(format!(
                    "placement {i}: cell ({x},{y}) outside the rectangle"
                ));
            }
            if owner.insert((x, y), i).is_some() {
                return Err(format!("placement {i}: cell ({x},{y}) covered twice"));
            }
        }
        let def = set
            .pieces
            .iter()
            .find(|d| d.name == p.piece)
            .ok_or(format!("placement {i}: unknown piece {}", p.piece))?;
        let shapes = orientations(GridKind::Square, &def.orientations[0]);
        if !shapes.contains(&normal(&cells)) {
            return Err(format!(
                "placement {i}: cells do not form piece {}",
                p.piece
            ));
        }
        if coloured != p.colour.is_some() {
            return Err(format!("placement {i}: colour presence is wrong"));
        }
        if let Some(c) = &p.colour {
            if !COLOURS.contains(&c.as_str()) {
                return Err(format!("placement {i}: unknown colour {c}"));
            }
        }
        *used.entry((p.piece.clone(), p.colour.clone())).or_default() += 1;
    }
    if owner.len() != (w * h) as usize {
        return Err(format!("{} of {} cells covered", owner.len(), w * h));
    }
    // Piece counts: every named piece `copies` times, once per colour when coloured.
    for &(name, copies) in piece_names {
        if coloured {
            for c in COLOURS {
                let n = used
                    .get(&(name.to_string(), Some(c.to_string())))
                    .copied()
                    .unwrap_or(0);
                if n != 1 {
                    return Err(format!("{c} placed {name} {n} times"));
                }
            }
        } else {
            let n = used.get(&(name.to_string(), None)).copied().unwrap_or(0);
            if n != copies {
                return Err(format!("{name} placed {n} times, expected {copies}"));
            }
        }
    }
    let total: usize = piece_names.iter().map(|p| p.1).sum();
    if placements.len() != total {
        return Err(format!("{} placements, expected {total}", placements.len()));
    }
    if strict {
        for (&(x, y), &i) in &owner {
            for (dx, dy) in [(1, 0), (0, 1)] {
                if let Some(&j) = owner.get(&(x + dx, y + dy)) {
                    if i != j && placements[i].colour == placements[j].colour {
                        return Err(format!(
                            "strict rule: {:?} pieces {} and {} share an edge",
                            placements[i].colour, placements[i].piece, placements[j].piece
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Checks a placement puzzle: every piece of every colour placed once, in an order each
/// placement of which blokus-core accepts for its colour, and with `decreasing` in
/// non-increasing piece size.
pub fn check_board(
    variant: &str,
    decreasing: bool,
    placements: &[PlacementOut],
) -> Result<(), String> {
    let rules = Rules::by_name(variant).map_err(|e| e.to_string())?;
    let set = rules.table().pieces().clone();
    let mut game = Game::new(rules.clone());
    let mut seen: HashSet<(String, String)> = HashSet::new();
    let mut last_size = usize::MAX;
    for (i, p) in placements.iter().enumerate() {
        let colour = p
            .colour
            .as_deref()
            .ok_or(format!("placement {i}: no colour"))?;
        let c = rules
            .parse_colour(colour)
            .ok_or(format!("placement {i}: unknown colour {colour}"))?;
        let def = set
            .pieces
            .iter()
            .find(|d| d.name == p.piece)
            .ok_or(format!("placement {i}: unknown piece {}", p.piece))?;
        if p.cells.len() != def.size {
            return Err(format!(
                "placement {i}: {} cells for piece {}",
                p.cells.len(),
                p.piece
            ));
        }
        if !seen.insert((colour.to_string(), p.piece.clone())) {
            return Err(format!("placement {i}: {colour} placed {} twice", p.piece));
        }
        if decreasing && def.size > last_size {
            return Err(format!(
                "placement {i}: size {} after size {last_size}",
                def.size
            ));
        }
        last_size = def.size;
        let mv = blokus_core::notation::parse_move(rules.table(), &p.cells.join(","))
            .map_err(|e| format!("placement {i}: {e}"))?;
        if blokus_core::notation::piece_name(rules.table(), mv) != p.piece {
            return Err(format!("placement {i}: cells are not piece {}", p.piece));
        }
        game.play_for(c, mv)
            .map_err(|e| format!("placement {i} ({colour} {}): {e}", p.piece))?;
    }
    let expected = rules.num_colours() * set.total_pieces();
    if placements.len() != expected {
        return Err(format!(
            "{} placements, expected {expected}",
            placements.len()
        ));
    }
    Ok(())
}
