//! `blokus analyze FILE`: the AI's analysis of a recorded game. Every position is
//! searched; the table says what each move was worth to its side (value before and
//! after, the loss, inaccuracy / mistake / blunder) and which move the AI preferred, and
//! a copy of the record carries the same in its move comments (see `docs/analysis.md`).

use std::io::Write;
use std::path::{Path, PathBuf};

use blokus_ai::analysis::{decision_text, review, MoveReview};
use blokus_ai::{Analyzer, Decision, PositionEval};
use blokus_core::notation::piece_name;
use blokus_core::record::blksgf;
use blokus_core::record::sgf::{self, Property};
use blokus_core::{score, Game, GameEvent, Side};

use super::CmdResult;

/// Arguments of `blokus analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The game record: `.blksgf` (SGF) or JSON (detected by content).
    pub file: PathBuf,
    /// Simulations per position (more: sharper values, slower).
    #[arg(long, short = 's', default_value_t = 2000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub simulations: u64,
    /// At most this many seconds per position (stops a search before its simulations).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub seconds: Option<f64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Seed of the search (the same analysis again with one thread and no --seconds).
    #[arg(long, short = 'r', default_value_t = 0, value_name = "N")]
    pub seed: u64,
    /// Where to write the annotated record (default: FILE's name with `-analysis.blksgf`).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

/// Root properties kept from the analysed record.
const KEPT_ROOT: [&str; 8] = ["PB", "PW", "P1", "P2", "P3", "P4", "EV", "DT"];

/// Reads a record: the game and the root properties worth keeping.
fn load(path: &Path) -> Result<(Game, Vec<Property>), String> {
    let text = blokus_core::record::read_file(path)?;
    let bad = |e: blokus_core::record::RecordError| format!("{}: {e}", path.display());
    if text.trim_start().starts_with('{') {
        return Ok((
            blokus_core::record::json::from_json(&text).map_err(bad)?,
            Vec::new(),
        ));
    }
    let trees = sgf::parse(&text).map_err(|e| bad(e.into()))?;
    let game = blksgf::from_tree(&trees[0]).map_err(bad)?;
    let kept = trees[0]
        .root()
        .map(|root| {
            root.props
                .iter()
                .filter(|p| KEPT_ROOT.contains(&p.id.as_str()))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    Ok((game, kept))
}

/// The default output path: `game.blksgf` → `game-analysis.blksgf`.
fn default_output(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    input.with_file_name(format!("{stem}-analysis.blksgf"))
}

/// Runs the analysis, prints the table and writes the annotated record.
pub fn run(args: Args) -> CmdResult {
    let (game, kept) = load(&args.file)?;
    if game.events().is_empty() {
        return Err(format!(
            "{}: the record has no moves to analyse",
            args.file.display()
        )
        .into());
    }
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| default_output(&args.file));
    if output == args.file {
        return Err(format!(
            "--output {}: that is the record being analysed; choose another file",
            output.display()
        )
        .into());
    }
    let positions = game.events().len() + 1;
    let bar = progress_bar(positions, args.quiet);
    let mut analyzer = Analyzer::new(
        args.simulations,
        args.seconds,
        args.threads as usize,
        args.seed,
    );
    let evals = analyzer.evaluate_game(&game, |done, _| bar.set_position(done as u64));
    bar.finish_and_clear();
    let reviews = review(&game, &evals);
    let mut out = std::io::stdout().lock();
    write_table(&mut out, &game, &args, &evals, &reviews)?;
    let text = annotated_record(&game, &kept, &args, &evals, &reviews);
    std::fs::write(&output, text).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    writeln!(out, "Annotated record written to {}", output.display())?;
    Ok(())
}

fn progress_bar(positions: usize, quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(positions as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions  eta {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// A move for people: piece name and cells, or the pie choice.
fn move_text(game: &Game, d: Decision) -> String {
    match d {
        Decision::Place(mv) => format!(
            "{} {}",
            piece_name(game.rules().table(), mv),
            decision_text(game, d)
        ),
        _ => decision_text(game, d),
    }
}

/// Who made an event: the colour placed, or the side choosing the pie.
fn mover(game: &Game, r: &MoveReview) -> String {
    match r.event {
        GameEvent::Place { colour, .. } => game.rules().colour_name(colour).to_string(),
        GameEvent::Pie(_) | GameEvent::TimeOut { .. } => score::side_name(game.rules(), r.side),
    }
}

fn side_values(game: &Game, values: &[f32]) -> String {
    values
        .iter()
        .enumerate()
        .map(|(s, v)| format!("{} {v:.2}", score::side_name(game.rules(), Side::new(s))))
        .collect::<Vec<_>>()
        .join(", ")
}

fn write_table(
    out: &mut impl Write,
    game: &Game,
    args: &Args,
    evals: &[PositionEval],
    reviews: &[MoveReview],
) -> std::io::Result<()> {
    let rules = game.rules();
    writeln!(
        out,
        "{} ({}), {} simulations per position",
        rules.v().game_name,
        rules.v().id,
        args.simulations
    )?;
    writeln!(
        out,
        "Values are each side's expected result, 0 (lost) to 1 (won); before/after are the mover's."
    )?;
    let width = reviews
        .iter()
        .map(|r| move_text(game, r.played).len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "{:>4}  {:<8}  {:<width$}  {:>6}  {:>6}  {:>5}  {:<10}  preferred",
        "move", "colour", "played", "before", "after", "loss", "class"
    )?;
    for r in reviews {
        let played = move_text(game, r.played);
        let best = match r.best {
            Some(b) if b != r.played => move_text(game, b),
            Some(_) => "(played)".into(),
            None => String::new(),
        };
        writeln!(
            out,
            "{:>4}  {:<8}  {:<width$}  {:>6.3}  {:>6.3}  {:>5.3}  {:<10}  {}",
            r.ply + 1,
            mover(game, r),
            played,
            r.before,
            r.after,
            r.loss,
            r.class.map_or("", |c| c.name()),
            best
        )?;
    }
    if let Some(last) = evals.last() {
        writeln!(out, "Final: {}", side_values(game, &last.values))?;
    }
    let sides = rules.v().num_sides();
    for s in 0..sides {
        let side = Side::new(s);
        let count = |c: blokus_ai::MoveClass| {
            reviews
                .iter()
                .filter(|r| r.side == side && r.class == Some(c))
                .count()
        };
        writeln!(
            out,
            "{}: {} inaccuracies, {} mistakes, {} blunders",
            score::side_name(rules, side),
            count(blokus_ai::MoveClass::Inaccuracy),
            count(blokus_ai::MoveClass::Mistake),
            count(blokus_ai::MoveClass::Blunder)
        )?;
    }
    Ok(())
}

/// The record with the analysis: a summary in the root comment, each move's values,
/// class and the preferred move in its node's comment.
fn annotated_record(
    game: &Game,
    kept: &[Property],
    args: &Args,
    evals: &[PositionEval],
    reviews: &[MoveReview],
) -> String {
    let mut tree = blksgf::to_tree(game, kept);
    let start = format!(
        "Analysis by blokus {}: {} simulations per position. \
         Values are each side's expected result, 0 (lost) to 1 (won). \
         At the start: {}.",
        env!("CARGO_PKG_VERSION"),
        args.simulations,
        side_values(game, &evals[0].values)
    );
    tree.nodes[0].push(Property::new("C", start));
    for r in reviews {
        let who = mover(game, r);
        let mut c = format!(
            "{who}: {:.2} before, {:.2} after (loss {:.2})",
            r.before, r.after, r.loss
        );
        if let Some(class) = r.class {
            c.push_str(&format!(": {}", class.name()));
        }
        c.push('.');
        match r.best {
            Some(b) if b != r.played => {
                c.push_str(&format!(" AI preferred {}.", move_text(game, b)));
            }
            Some(_) => c.push_str(" The AI's choice too."),
            None => {}
        }
        c.push_str(&format!(
            " Expected results: {}.",
            side_values(game, &evals[r.ply + 1].values)
        ));
        // Setup, if any, is in the root; node k + 1 holds event k.
        tree.nodes[r.ply + 1].push(Property::new("C", c));
    }
    sgf::write(&[tree])
}
