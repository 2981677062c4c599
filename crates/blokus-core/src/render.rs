//! A position as text: the board with coordinates, then a scores section.
//!
//! Square boards show one character per cell; Trigon boards show one per triangle, empty
//! triangles as `^` (pointing up) or `v` (pointing down), so the hexagon and the
//! orientation of every cell are visible. Row 1 is at the bottom, as in move notation.
//! Covered cells show the colour's initial (`B`, `Y`, `R`, `G`, `P`, `O`), in lower case
//! for the last placement; free starting points show `+`. ANSI colours are optional.
//!
//! The output never contains an empty line, so it can be embedded in a GTP response.

use crate::geometry::{column_name, GridKind};
use crate::movetable::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::score;
use crate::variant::StartRule;

/// How to render.
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderOptions {
    /// Colour the pieces with ANSI escape sequences.
    pub ansi: bool,
    /// The last placement, shown in lower case.
    pub last_move: Option<Move>,
}

const RESET: &str = "\x1b[0m";

/// The ANSI sequence for a colour name.
fn ansi_code(name: &str) -> &'static str {
    match name {
        "blue" => "\x1b[1;34m",
        "yellow" => "\x1b[1;33m",
        "red" => "\x1b[1;31m",
        "green" => "\x1b[1;32m",
        "purple" => "\x1b[1;35m",
        "orange" => "\x1b[1;38;5;208m",
        _ => "\x1b[1m",
    }
}

/// The one-letter symbol of a colour: its initial in upper case.
pub fn colour_symbol(rules: &Rules, colour: crate::Colour) -> char {
    rules
        .colour_name(colour)
        .chars()
        .next()
        .map_or('?', |c| c.to_ascii_uppercase())
}

/// The board with coordinates on all four sides.
pub fn board(rules: &Rules, pos: &Position, opts: &RenderOptions) -> String {
    let g = rules.table().geometry();
    let (w, h) = (g.width(), g.height());
    let triangles = g.kind() == GridKind::Triangle;
    let starts: Vec<_> = match rules.start() {
        StartRule::PerColour(c) | StartRule::Shared(c) => c.clone(),
        StartRule::Anywhere => Vec::new(),
    };
    let last = opts
        .last_move
        .map(|m| *rules.table().cell_set(m))
        .unwrap_or_default();
    let label_w = h.to_string().len();
    let mut out = String::new();
    let header = column_header(w, label_w);
    out.push_str(&header);
    for y in (0..h).rev() {
        let label = format!("{:>label_w$}", y + 1);
        out.push_str(&label);
        for x in 0..w {
            out.push(' ');
            let Some(cell) = g.cell_at(x as i32, y as i32) else {
                out.push(' ');
                continue;
            };
            match pos.owner(cell) {
                Some(c) => {
                    let mut sym = colour_symbol(rules, c);
                    if last.contains(cell) {
                        sym = sym.to_ascii_lowercase();
                    }
                    if opts.ansi {
                        out.push_str(ansi_code(rules.colour_name(c)));
                        out.push(sym);
                        out.push_str(RESET);
                    } else {
                        out.push(sym);
                    }
                }
                None if starts.contains(&cell) => out.push('+'),
                None if triangles => out.push(if g.is_up(cell) { '^' } else { 'v' }),
                None => out.push('.'),
            }
        }
        out.push(' ');
        out.push_str(&(y + 1).to_string());
        out.push('\n');
    }
    out.push_str(&header);
    out
}

/// Column letters over two lines when names have two letters (`aa`..), else one.
fn column_header(width: usize, label_w: usize) -> String {
    let names: Vec<String> = (0..width).map(column_name).collect();
    let two = names.iter().any(|n| n.len() > 1);
    let mut out = String::new();
    if two {
        out.push_str(&" ".repeat(label_w));
        for n in &names {
            out.push(' ');
            out.push(if n.len() > 1 {
                n.as_bytes()[0] as char
            } else {
                ' '
            });
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(label_w));
    for n in &names {
        out.push(' ');
        out.push(n.as_bytes()[n.len() - 1] as char);
    }
    out.push('\n');
    out
}

/// Each colour's score and pieces left, then each side's result and whose turn it is.
pub fn scores(rules: &Rules, pos: &Position, opts: &RenderOptions) -> String {
    let set = rules.table().pieces();
    let mut out = String::new();
    for cs in score::colour_scores(rules, pos) {
        let c = cs.colour;
        let name = rules.colour_name(c);
        let mut title = format!("{} ({})", capitalise(name), colour_symbol(rules, c));
        if opts.ansi {
            title = format!("{}{title}{RESET}", ansi_code(name));
        }
        let marker = if !pos.is_over() && !pos.awaiting_pie_choice() && pos.to_move() == c {
            "*"
        } else {
            " "
        };
        let mut line = format!(
            "{marker}{title}: {} points ({} pieces placed, {} cells left",
            cs.points, cs.pieces_placed, cs.cells_remaining
        );
        if cs.all_placed_bonus + cs.monomino_bonus > 0 {
            line.push_str(&format!(
                ", bonus +{}",
                cs.all_placed_bonus + cs.monomino_bonus
            ));
        }
        if !cs.counted {
            line.push_str(", not counted");
        }
        line.push(')');
        out.push_str(&line);
        out.push('\n');
        // In the shared Hexa pool, list the pieces left once, after the last colour.
        if rules.v().shared_pool && c.index() + 1 < rules.num_colours() {
            continue;
        }
        let left: Vec<String> = set
            .pieces
            .iter()
            .enumerate()
            .flat_map(|(i, p)| {
                std::iter::repeat_n(p.name.clone(), pos.remaining(rules, c, i) as usize)
            })
            .collect();
        if !left.is_empty() {
            let who = if rules.v().shared_pool {
                "shared pool"
            } else {
                "left"
            };
            out.push_str(&format!("   {who}: {}\n", left.join(" ")));
        }
    }
    let results = score::side_results(rules, pos);
    let sides: Vec<String> = results
        .iter()
        .map(|r| {
            format!(
                "{} {} (place {})",
                score::side_name(rules, r.side),
                r.score,
                r.place
            )
        })
        .collect();
    out.push_str(&format!("Sides: {}\n", sides.join(", ")));
    let status = if pos.is_over() {
        format!("Game over: {}", crate::record::result_text(rules, pos))
    } else if pos.awaiting_pie_choice() {
        "Pie choice pending: the second player keeps Blue or swaps".to_string()
    } else {
        format!("To move: {}", rules.colour_name(pos.to_move()))
    };
    out.push_str(&status);
    out.push('\n');
    out
}

/// The board followed by the scores.
pub fn position(rules: &Rules, pos: &Position, opts: &RenderOptions) -> String {
    let mut out = board(rules, pos, opts);
    out.push_str(&scores(rules, pos, opts));
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    #[test]
    fn square_board_has_coordinates_and_pieces() {
        let mut g = Game::new(Rules::by_name("duo").unwrap());
        g.play_text("d9,c10,d10,e10,d11").unwrap();
        let m = g.play_text("i4,h5,i5,j5,i6").unwrap();
        let opts = RenderOptions {
            ansi: false,
            last_move: Some(m),
        };
        let text = position(g.rules(), g.position(), &opts);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   a b c d e f g h i j k l m n");
        assert_eq!(lines[1], "14 . . . . . . . . . . . . . . 14");
        assert_eq!(lines[4], "11 . . . P . . . . . . . . . . 11");
        assert_eq!(lines[5], "10 . . P P P . . . . . . . . . 10");
        assert_eq!(lines[10], " 5 . . . . . . . o o o . . . . 5");
        assert!(text.contains("*Purple (P): -84 points"), "{text}");
        assert!(text.contains("To move: purple"));
        assert!(!text.contains("\n\n"));
        assert!(!text.contains('\x1b'));
        let coloured = position(
            g.rules(),
            g.position(),
            &RenderOptions {
                ansi: true,
                last_move: None,
            },
        );
        assert!(coloured.contains("\x1b[1;35mP\x1b[0m"));
    }

    #[test]
    fn trigon_board_shows_the_hexagon() {
        let g = Game::new(Rules::by_name("trigon").unwrap());
        let text = board(g.rules(), g.position(), &RenderOptions::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + 18 + 2);
        // The top row (18) has 19 cells, from column i; 8 + 18 is even: it points up.
        let top = lines[2];
        assert!(top.starts_with("18                 ^ v ^"), "{top}");
        assert_eq!(
            top.chars().filter(|c| matches!(c, '^' | 'v' | '+')).count(),
            19
        );
        assert!(lines[1].ends_with("z a b c d e f g h i"), "{}", lines[1]);
        // Six free starting points.
        assert_eq!(text.matches('+').count(), 6);
    }
}
