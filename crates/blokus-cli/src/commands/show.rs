//! `blokus show FILE`: a game record's position (final, or after move N) as a text board
//! with scores. Reads `.blksgf` and this project's JSON records, of every family (a
//! Blokus 3D position shows its top view with heights and its levels).

use std::io::IsTerminal;
use std::io::Write;
use std::path::{Path, PathBuf};

use blokus_core::cube::render::{self as cube_render, CubeRenderOptions};
use blokus_core::cube::{record as cube_record, CubeGame, CubeVariantId};
use blokus_core::record::{blksgf, json, rewind_to_move, sgf};
use blokus_core::render::{self, RenderOptions};
use blokus_core::{Game, GameEvent};

use super::CmdResult;

/// Arguments of `blokus show`.
#[derive(clap::Args)]
pub struct Args {
    /// The record: `.blksgf` (SGF) or JSON (detected by content).
    pub file: PathBuf,
    /// Show the position after this many moves (0 = the start) instead of the end.
    #[arg(long = "move", value_name = "N")]
    pub move_number: Option<usize>,
    /// Never use ANSI colours (they are used only when printing to a terminal).
    #[arg(long)]
    pub no_color: bool,
}

/// Root properties worth showing, with their labels.
const INFO: [(&str, &str); 7] = [
    ("EV", "Event"),
    ("RO", "Round"),
    ("DT", "Date"),
    ("PB", "First player"),
    ("PW", "Second player"),
    ("RE", "Result"),
    ("GN", "Game"),
];

/// A game of either family.
enum Loaded {
    Flat(Game),
    Cube(CubeGame),
}

/// Whether a JSON record names a Blokus 3D variant.
fn is_cube_json(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("variant")?.as_str().and_then(CubeVariantId::parse))
        .is_some()
}

/// Reads a record file into a game and its header lines.
fn load(path: &Path) -> Result<(Loaded, Vec<String>), String> {
    let text = blokus_core::record::read_file(path)?;
    let bad = |e: blokus_core::record::RecordError| format!("{}: {e}", path.display());
    if text.trim_start().starts_with('{') {
        let game = if is_cube_json(&text) {
            Loaded::Cube(cube_record::from_json(&text).map_err(bad)?)
        } else {
            Loaded::Flat(json::from_json(&text).map_err(bad)?)
        };
        return Ok((game, Vec::new()));
    }
    let trees = sgf::parse(&text).map_err(|e| bad(e.into()))?;
    let root = trees[0].root();
    let is_cube = root
        .and_then(|r| r.get("GM"))
        .and_then(CubeVariantId::parse)
        .is_some();
    let game = if is_cube {
        Loaded::Cube(cube_record::from_blksgf(&text).map_err(bad)?)
    } else {
        Loaded::Flat(blksgf::from_tree(&trees[0]).map_err(bad)?)
    };
    let mut info = Vec::new();
    if let Some(root) = root {
        for (id, label) in INFO {
            if let Some(v) = root.get(id).filter(|v| !v.trim().is_empty()) {
                info.push(format!("{label}: {v}"));
            }
        }
    }
    Ok((game, info))
}

fn use_ansi(args: &Args) -> bool {
    !args.no_color && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// Prints a 3D position: top view with heights, the levels, the scores.
fn show_cube(args: &Args, mut game: CubeGame, info: Vec<String>) -> CmdResult {
    let total = game.moves().len();
    if let Some(n) = args.move_number {
        if n > total {
            return Err(
                format!("--move {n}: {} has only {total} moves", args.file.display()).into(),
            );
        }
        while game.moves().len() > n {
            game.undo()?;
        }
    }
    let variant = CubeVariantId::of_seating(game.rules().seating());
    let mut out = std::io::stdout().lock();
    writeln!(out, "{} ({})", variant.game_name(), variant.as_str())?;
    for line in info {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "After move {} of {total}", game.moves().len())?;
    let opts = CubeRenderOptions {
        ansi: use_ansi(args),
    };
    write!(out, "{}", cube_render::position(&game, opts))?;
    Ok(())
}

/// Prints the position.
pub fn run(args: Args) -> CmdResult {
    let (game, info) = load(&args.file)?;
    let mut game = match game {
        Loaded::Flat(g) => g,
        Loaded::Cube(g) => return show_cube(&args, g, info),
    };
    let total = game.moves().count();
    if let Some(n) = args.move_number {
        if n > total {
            return Err(
                format!("--move {n}: {} has only {total} moves", args.file.display()).into(),
            );
        }
        rewind_to_move(&mut game, n);
    }
    let shown = game.moves().count();
    let rules = game.rules();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{} ({})", rules.v().game_name, rules.v().id)?;
    for line in info {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "After move {shown} of {total}")?;
    let last_move = game.events().iter().rev().find_map(|e| match e {
        GameEvent::Place { mv, .. } => Some(*mv),
        GameEvent::Pie(_) | GameEvent::TimeOut { .. } => None,
    });
    let opts = RenderOptions {
        ansi: use_ansi(&args),
        last_move,
    };
    write!(out, "{}", render::position(rules, game.position(), &opts))?;
    Ok(())
}
