//! `blokus match`: plays engines against each other and prints a results table.

use std::io::Write;
use std::sync::Mutex;

use blokus_arena::cube::{cube_match_to_blksgf, run_cube_match, CubeMatchConfig};
use blokus_arena::record::match_to_blksgf;
use blokus_arena::{
    format_summary, run_match, summarize, summarize_points, EngineSpec, MatchConfig, MatchGame,
};
use blokus_core::cube::{AnyVariant, CubeRules, DEFAULT_SITE};
use blokus_core::{RuleOptions, Rules};

use super::CmdResult;

/// Arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Engines: a built-in player spec (random, greedy, mcts:level=5, \
mcts:seconds=0.5,threads=2) or a GTP engine command line in quotes \
('blokus gtp --level 3'; prefix gtp: to force a command line). From two engines up to one \
per player of the variant; in game i player p is played by engine (p + i) mod engines, so \
seats rotate from game to game. Blokus 3D variants (rumis_*) take built-in players only, \
on --site."
)]
pub struct Args {
    /// The engines (two or more).
    #[arg(required = true, num_args = 2.., value_name = "ENGINE")]
    pub engines: Vec<String>,
    /// Variant id or game name.
    #[arg(long, default_value = "duo")]
    pub variant: String,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub parallel: usize,
    /// Write every game to this `.blksgf` file.
    #[arg(long)]
    pub sgf: Option<std::path::PathBuf>,
    /// Seed of the match: each game's players get seeds derived from it (external
    /// engines through `set_random_seed` when they know it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// The site of a Blokus 3D variant: a built-in name or a site file.
    #[arg(long, default_value = DEFAULT_SITE)]
    pub site: String,
    /// Rule options of every game (comma-separated: alternate_contact,
    /// no_mirror_opening, no_start_alternation). GTP engines keep their own: give them
    /// the same on their command lines (`blokus gtp --rules ...`).
    #[arg(long, value_name = "OPT,...", value_parser = super::gtp::parse_rules)]
    pub rules: Option<RuleOptions>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CmdResult {
    if args.parallel == 0 {
        return Err("--parallel must be at least 1".into());
    }
    let mut rules = match AnyVariant::parse(&args.variant)? {
        AnyVariant::Flat(v) => Rules::by_name(v.as_str())?,
        AnyVariant::Cube(_) if args.rules.is_some() => {
            return Err("--rules: the rule options are for the flat variants, not Blokus 3D".into())
        }
        AnyVariant::Cube(v) => return run_cube(&args, super::site_arg::rules(v, &args.site)?),
    };
    if let Some(options) = args.rules {
        rules.options = options;
    }
    let names: Vec<&str> = args.engines.iter().map(String::as_str).collect();
    let config = MatchConfig {
        rules,
        engines: names.iter().map(|e| EngineSpec::parse(e)).collect(),
        games: args.games,
        parallel: args.parallel,
        seed: args.seed,
    };
    let progress = start(&args, names.len())?;
    let games = run_match(&config, &|g| {
        if let Some(p) = &progress {
            p.game_done(g);
        }
        if let (Some(loss), Some(e)) = (&g.result.lost_by, g.loser()) {
            eprintln!("game {}: {} {}", g.index + 1, names[e], loss.kind);
        }
    });
    if let Some(p) = &progress {
        p.finish();
    }
    let games = games?;
    // The record first: a closed standard output must not lose the games.
    if let Some(path) = &args.sgf {
        std::fs::write(path, match_to_blksgf(&names, &games))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let summary = format_summary(&names, &summarize(names.len(), &games));
    write!(std::io::stdout().lock(), "{summary}")?;
    Ok(())
}

/// A progress bar on standard error with the points so far (hidden when standard error
/// is not a terminal).
struct Progress {
    bar: indicatif::ProgressBar,
    points: Mutex<Vec<f64>>,
}

impl Progress {
    fn new(games: usize, engines: usize) -> Progress {
        let bar = indicatif::ProgressBar::new(games as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}  eta {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        Progress {
            bar,
            points: Mutex::new(vec![0.0; engines]),
        }
    }

    fn game_done(&self, g: &MatchGame) {
        let engines = self.points.lock().map_or(0, |p| p.len());
        self.points_done(&g.engine_points(engines));
    }

    /// Counts a finished game of any family by its engines' win shares.
    fn points_done(&self, game_points: &[f64]) {
        let mut points = self.points.lock().unwrap_or_else(|e| e.into_inner());
        for (sum, &p) in points.iter_mut().zip(game_points) {
            *sum += p;
        }
        let text: Vec<String> = points.iter().map(|p| format!("{p:.1}")).collect();
        self.bar.set_message(text.join(" - "));
        self.bar.inc(1);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Checks the record file can be written (failing early rather than after hours of
/// games) and starts the progress bar unless `--quiet`.
fn start(args: &Args, engines: usize) -> Result<Option<Progress>, String> {
    if let Some(path) = &args.sgf {
        std::fs::write(path, "").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok((!args.quiet).then(|| Progress::new(args.games, engines)))
}

/// A Blokus 3D match between built-in players.
fn run_cube(args: &Args, rules: CubeRules) -> CmdResult {
    let names: Vec<&str> = args.engines.iter().map(String::as_str).collect();
    let config = CubeMatchConfig {
        rules,
        engines: args.engines.clone(),
        games: args.games,
        parallel: args.parallel,
        seed: args.seed,
    };
    let progress = start(args, names.len())?;
    let games = run_cube_match(&config, &|g| {
        if let Some(p) = &progress {
            p.points_done(&g.points);
        }
    });
    if let Some(p) = &progress {
        p.finish();
    }
    let games = games?;
    let summary = summarize_points(
        names.len(),
        games.iter().map(|g| (g.points.clone(), g.scores.clone())),
    );
    print!("{}", format_summary(&names, &summary));
    if let Some(path) = &args.sgf {
        std::fs::write(path, cube_match_to_blksgf(&names, &games))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
