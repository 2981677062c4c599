//! A Blokus 3D position as text: the top view with the height of every column, then the
//! site level by level, then the scores.
//!
//! In the top view each base square shows the initial of its topmost cube's colour
//! (`B`, `Y`, `R`, `G`; lower case if the last placement put it there) followed by the
//! column's height, `.` for an empty square; squares outside the footprint are blank.
//! The levels show every filled voxel by colour initial, `.` for an empty place. Row 1
//! is at the bottom, as in move notation. The output never contains an empty line, so
//! it can be embedded in a GTP response.

use crate::Colour;
use std::fmt::Write;

use super::game::CubeGame;
use super::record::result_text;
use super::score;
use super::table::CubeMove;
use super::voxel::VoxelSet;

const RESET: &str = "\x1b[0m";

/// The ANSI sequence of a colour.
fn ansi_code(colour: usize) -> &'static str {
    ["\x1b[1;34m", "\x1b[1;33m", "\x1b[1;31m", "\x1b[1;32m"]
        .get(colour)
        .copied()
        .unwrap_or("\x1b[1m")
}

/// How to render.
#[derive(Clone, Copy, Debug, Default)]
pub struct CubeRenderOptions {
    /// Colour the cubes with ANSI escape sequences.
    pub ansi: bool,
}

/// A colour's symbol, upper case (lower case marks the last placement).
fn symbol(game: &CubeGame, colour: Colour, last: bool) -> char {
    let c = game
        .rules()
        .colour_name(colour)
        .chars()
        .next()
        .map_or('?', |c| c.to_ascii_uppercase());
    if last {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

fn painted(text: &str, colour: Option<Colour>, opts: CubeRenderOptions) -> String {
    match colour {
        Some(c) if opts.ansi => format!("{}{text}{RESET}", ansi_code(c.index())),
        _ => text.to_string(),
    }
}

fn column_header(width: usize, cell: usize) -> String {
    let mut s = String::from("  ");
    for x in 0..width {
        let _ = write!(s, " {:<cell$}", char::from(b'a' + x as u8));
    }
    s.trim_end().to_string()
}

/// The last placement's voxels.
fn last_cubes(game: &CubeGame) -> VoxelSet {
    let t = game.rules().table();
    game.moves()
        .last()
        .map(|&(_, m): &(Colour, CubeMove)| t.get(m).cubes().iter().copied().collect())
        .unwrap_or_default()
}

/// The top view: per base square the topmost colour and the column's height.
pub fn top_view(game: &CubeGame, opts: CubeRenderOptions) -> String {
    let t = game.rules().table();
    let site = t.site();
    let pos = game.position();
    let last = last_cubes(game);
    let mut out = column_header(t.width(), 2);
    out.push('\n');
    for y in (0..t.depth()).rev() {
        let mut line = format!("{:>2}", y + 1);
        for x in 0..t.width() {
            line.push(' ');
            if !site.is_base(x, y) {
                line.push_str("  ");
                continue;
            }
            let top = (0..t.height())
                .rev()
                .filter_map(|z| t.voxel(x, y, z))
                .find(|&v| pos.owner(v).is_some());
            match top {
                None => line.push_str(". "),
                Some(v) => {
                    let colour = pos.owner(v).expect("a filled voxel has an owner");
                    let (_, _, z) = t.coords(v);
                    let text = format!("{}{}", symbol(game, colour, last.contains(v)), z + 1);
                    line.push_str(&painted(&text, Some(colour), opts));
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One level of the site: every voxel by colour initial, `.` where empty.
pub fn level(game: &CubeGame, z: usize, opts: CubeRenderOptions) -> String {
    let t = game.rules().table();
    let pos = game.position();
    let last = last_cubes(game);
    let mut out = String::new();
    for y in (0..t.depth()).rev() {
        let mut line = format!("{:>2}", y + 1);
        for x in 0..t.width() {
            line.push(' ');
            match t.voxel(x, y, z) {
                None => line.push(' '),
                Some(v) => match pos.owner(v) {
                    None => line.push('.'),
                    Some(c) => {
                        let s = symbol(game, c, last.contains(v)).to_string();
                        line.push_str(&painted(&s, Some(c), opts));
                    }
                },
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The whole position: top view with heights, every level that holds a cube (lowest
/// first), the colour to move and the scores.
pub fn position(game: &CubeGame, opts: CubeRenderOptions) -> String {
    let rules = game.rules();
    let t = rules.table();
    let pos = game.position();
    let mut out = format!(
        "Site {} ({} x {}, {} levels); top view, colour and height:\n",
        rules.site().name(),
        t.width(),
        t.depth(),
        t.height()
    );
    out.push_str(&top_view(game, opts));
    for z in 0..t.height() {
        let filled = (0..t.depth()).any(|y| {
            (0..t.width()).any(|x| t.voxel(x, y, z).is_some_and(|v| pos.owner(v).is_some()))
        });
        if filled {
            let _ = writeln!(out, "Level {}:", z + 1);
            out.push_str(&column_header(t.width(), 1));
            out.push('\n');
            out.push_str(&level(game, z, opts));
        }
    }
    for s in score::colour_scores(rules, pos) {
        let name = rules.colour_name(s.colour);
        let state = if pos.is_out(s.colour) {
            ", out"
        } else if !game.is_over() && game.to_move() == s.colour {
            ", to move"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{}: {} points ({} on top, {} stones left{state})",
            painted(name, Some(s.colour), opts),
            s.points,
            s.visible,
            s.stones_left
        );
    }
    if game.is_over() {
        let _ = writeln!(out, "Game over: {}", result_text(rules, pos));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::rules::{CubeRules, Seating};
    use super::super::site::Site;
    use super::*;

    #[test]
    fn shows_heights_levels_and_scores() {
        let mut game = CubeGame::new(CubeRules::new(
            Seating::Two,
            Site::builtin("plaza").unwrap(),
        ));
        game.play_text("a1.1,b1.1").unwrap();
        game.play_text("a1.2,a2.1,a2.2").unwrap();
        let text = position(&game, CubeRenderOptions::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Site plaza (6 x 6, 4 levels); top view, colour and height:"
        );
        assert_eq!(lines[1], "   a  b  c  d  e  f");
        assert_eq!(lines[6], " 2 y2 .  .  .  .  .");
        assert_eq!(lines[7], " 1 y2 B1 .  .  .  .");
        assert_eq!(lines[8], "Level 1:");
        assert_eq!(lines[9], "   a b c d e f");
        assert_eq!(lines[14], " 2 y . . . . .");
        assert_eq!(lines[15], " 1 B B . . . .");
        assert_eq!(lines[16], "Level 2:");
        assert_eq!(lines[22], " 2 y . . . . .");
        assert_eq!(lines[23], " 1 y . . . . .");
        assert_eq!(
            lines[24],
            "blue: -9 points (1 on top, 10 stones left, to move)"
        );
        assert_eq!(lines[25], "yellow: -8 points (2 on top, 10 stones left)");
        assert!(!text.contains("\n\n"));
        let ansi = position(&game, CubeRenderOptions { ansi: true });
        assert!(ansi.contains("\x1b[1;34mB1\x1b[0m"));
    }
}
