//! `blokus solve PUZZLE`: solves a solitaire puzzle of SPEC 7 (or any rectangle tiling)
//! and prints the solution as a text board, JSON, or a `.blksgf` record; `--count`
//! counts the tilings of a rectangle up to its symmetries.

use std::io::IsTerminal;
use std::io::Write;
use std::time::{Duration, Instant};

use blokus_core::render::{self, RenderOptions};
use blokus_solver::count;
use blokus_solver::puzzle::{self, Form, Solution};
use blokus_solver::tiling::{self, Tiling};
use serde_json::json;

use super::CmdResult;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A text board (coloured on a terminal) and the placements.
    Text,
    /// `{"puzzle": ..., "placements": [{"colour", "piece", "cells"}, ...]}`.
    Json,
    /// A `.blksgf` game record (puzzles on a game board).
    Blksgf,
}

/// Arguments of `blokus solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The puzzle: all_84, tetro_8x10, penta_15x16, all_88, or `tiling` (with --size and
    /// --pieces).
    pub puzzle: String,
    /// The harder form of the tilings: no two pieces of a colour share an edge.
    #[arg(long)]
    pub strict: bool,
    /// The harder form of all_84: all 5-cell pieces first, then 4, 3, 2, 1.
    #[arg(long)]
    pub decreasing: bool,
    /// Seed of the search order (0: the natural order); the same seed gives the same
    /// solution.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Count every solution (rectangle tilings, up to the rectangle's symmetries).
    #[arg(long)]
    pub count: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Rectangle of `tiling`, e.g. 6x10.
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    /// Pieces of `tiling`: pentominoes, tetrominoes, or piece names with optional
    /// multiplicity, e.g. `L4x2,O,T4`.
    #[arg(long)]
    pub pieces: Option<String>,
    /// Give up the placement puzzles (all_84, all_88) after this many placements tried
    /// (0: never).
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    pub max_nodes: u64,
    /// Never use ANSI colours (they are used only when printing to a terminal).
    #[arg(long)]
    pub no_color: bool,
}

/// Prints a progress line on stderr once a search has run for a second.
struct Ticker {
    start: Instant,
    last: Option<Instant>,
    label: String,
    enabled: bool,
}

impl Ticker {
    fn new(label: &str) -> Ticker {
        Ticker {
            start: Instant::now(),
            last: None,
            label: label.to_string(),
            enabled: std::env::var_os("BLOKUS_NO_PROGRESS").is_none(),
        }
    }

    fn tick(&mut self, nodes: u64) {
        let now = Instant::now();
        if !self.enabled || now - self.start < Duration::from_secs(1) {
            return;
        }
        if self
            .last
            .is_some_and(|l| now - l < Duration::from_millis(500))
        {
            return;
        }
        self.last = Some(now);
        eprint!(
            "\r{}: {} placements tried, {:.1} s",
            self.label,
            nodes,
            (now - self.start).as_secs_f64()
        );
    }

    fn finish(&self) {
        if self.last.is_some() {
            eprintln!(" - done in {:.1} s", self.start.elapsed().as_secs_f64());
        }
    }
}

/// Runs `blokus solve`.
pub fn run(args: Args) -> CmdResult {
    let ansi = !args.no_color && std::io::stdout().is_terminal();
    if args.puzzle.eq_ignore_ascii_case("tiling") {
        return run_tiling(&args, ansi);
    }
    if args.size.is_some() || args.pieces.is_some() {
        return Err("--size and --pieces are for `blokus solve tiling`".into());
    }
    let info = puzzle::find(&args.puzzle)?;
    let form = Form {
        strict: args.strict,
        decreasing: args.decreasing,
    };
    info.check_form(form)?;
    if args.count {
        return Err(format!(
            "--count is for rectangle tilings (`blokus solve tiling --size WxH --pieces ...`): {} has far too many solutions to count",
            info.id
        )
        .into());
    }
    if args.format == Format::Blksgf && info.variant.is_none() {
        return Err(format!(
            "--format blksgf is for puzzles on a game board (all_84, all_88); {} is a tiling",
            info.id
        )
        .into());
    }
    let mut ticker = Ticker::new(&format!("solving {}", info.id));
    let solution = puzzle::solve_with_limit(info.id, form, args.seed, args.max_nodes, &mut |n| {
        ticker.tick(n)
    })?;
    ticker.finish();
    let Some(solution) = solution else {
        return Err(if info.variant.is_some() {
            format!(
                "no solution found for {} within {} placements tried; try another --seed or a larger --max-nodes",
                info.id, args.max_nodes
            )
        } else {
            format!("{} has no solution", info.id)
        }
        .into());
    };
    let mut name = info.id.to_string();
    if form.strict {
        name.push_str(" --strict");
    }
    if form.decreasing {
        name.push_str(" --decreasing");
    }
    print_solution(&name, &solution, args.format, ansi)
}

/// `blokus solve tiling --size WxH --pieces LIST`.
fn run_tiling(args: &Args, ansi: bool) -> CmdResult {
    let size = args
        .size
        .as_deref()
        .ok_or("`blokus solve tiling` needs --size WxH (e.g. --size 6x10)")?;
    let pieces = args
        .pieces
        .as_deref()
        .ok_or("`blokus solve tiling` needs --pieces (e.g. --pieces pentominoes)")?;
    if args.strict || args.decreasing {
        return Err("--strict and --decreasing are for the named puzzles, not `tiling`".into());
    }
    let (width, height) = tiling::parse_size(size)?;
    let t = Tiling {
        width,
        height,
        kinds: tiling::parse_pieces(pieces)?,
        colours: None,
        strict: false,
    };
    let label = format!("tiling {width}x{height}");
    if args.count {
        if args.format == Format::Blksgf {
            return Err("--format blksgf is for puzzles on a game board".into());
        }
        let mut ticker = Ticker::new(&format!("counting {label}"));
        let c = count::count(t, &mut |s| ticker.tick(s.nodes))?;
        ticker.finish();
        let mut out = std::io::stdout().lock();
        match args.format {
            Format::Json => writeln!(
                out,
                "{}",
                json!({
                    "puzzle": "tiling",
                    "size": format!("{width}x{height}"),
                    "pieces": pieces,
                    "solutions": c.up_to_symmetry,
                    "up_to_symmetry": true,
                })
            )?,
            _ => writeln!(
                out,
                "{} tilings of {width}x{height} with {pieces}, counting rotations and reflections of the rectangle once",
                c.up_to_symmetry
            )?,
        }
        return Ok(());
    }
    if args.format == Format::Blksgf {
        return Err("--format blksgf is for puzzles on a game board (all_84, all_88)".into());
    }
    let mut ticker = Ticker::new(&format!("solving {label}"));
    let (sol, _) = tiling::solve(t.clone(), args.seed, &mut |s| ticker.tick(s.nodes))?;
    ticker.finish();
    let placements =
        sol.ok_or_else(|| format!("no tiling of {width}x{height} with {pieces} exists"))?;
    let solution = Solution::Tiling {
        tiling: t,
        placements,
    };
    print_solution(&label, &solution, args.format, ansi)
}

fn print_solution(name: &str, solution: &Solution, format: Format, ansi: bool) -> CmdResult {
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let value = json!({
                "puzzle": name,
                "placements": solution.placements(),
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Format::Blksgf => {
            let game = solution
                .game()
                .ok_or("--format blksgf is for puzzles on a game board")??;
            write!(out, "{}", blokus_core::record::blksgf::write(&game))?;
        }
        Format::Text => {
            match solution {
                Solution::Tiling { tiling, placements } => {
                    write!(out, "{}", tiling_board(tiling, placements, ansi))?;
                }
                Solution::Board { rules, .. } => {
                    let game = solution.game().expect("board puzzle")?;
                    let opts = RenderOptions {
                        ansi,
                        last_move: None,
                    };
                    writeln!(out, "{}", render::board(rules, game.position(), &opts))?;
                }
            }
            writeln!(out, "{name}: {} pieces placed", solution.placements().len())?;
        }
    }
    Ok(())
}

/// ANSI colour of a puzzle colour index.
fn ansi_of(colour: usize) -> &'static str {
    ["\x1b[1;34m", "\x1b[1;33m", "\x1b[1;31m", "\x1b[1;32m"][colour % 4]
}

/// A tiling as text: two characters per cell, the colour's initial (coloured tilings)
/// and the piece's letter, row 1 at the bottom.
fn tiling_board(
    t: &Tiling,
    placements: &[blokus_solver::tiling::TilePlacement],
    ansi: bool,
) -> String {
    let (w, h) = (t.width, t.height);
    let mut grid: Vec<Option<(usize, Option<usize>)>> = vec![None; w * h];
    for p in placements {
        for &(x, y) in &p.cells {
            grid[y * w + x] = Some((p.kind, p.colour));
        }
    }
    let mut out = String::new();
    let header: String = (0..w)
        .map(|x| format!("{:<2}", blokus_core::geometry::column_name(x)))
        .collect::<Vec<_>>()
        .join(" ");
    out.push_str(&format!("    {header}\n"));
    for y in (0..h).rev() {
        out.push_str(&format!("{:>3} ", y + 1));
        for x in 0..w {
            let text = match grid[y * w + x] {
                None => "..".to_string(),
                Some((k, colour)) => {
                    let letter = t.kinds[k].name.chars().next().unwrap_or('?');
                    let initial = colour
                        .and_then(|c| t.colours.as_ref().map(|cs| cs[c].clone()))
                        .and_then(|n| n.chars().next())
                        .map_or(' ', |c| c.to_ascii_uppercase());
                    let s = if colour.is_some() {
                        format!("{initial}{letter}")
                    } else {
                        format!("{letter}{letter}")
                    };
                    match colour {
                        Some(c) if ansi => format!("{}{s}\x1b[0m", ansi_of(c)),
                        _ => s,
                    }
                }
            };
            out.push_str(&text);
            if x + 1 < w {
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out
}
