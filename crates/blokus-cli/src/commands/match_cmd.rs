//! `blokus match`: plays two engines against each other and prints a results table.

use blokus_core::Rules;
use blokus_gtp::match_runner::{
    format_summary, games_to_blksgf, run_match, summarize, EngineSpec, MatchConfig, Progress,
};

use super::CmdResult;

/// Arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Engines: a built-in player spec (random, greedy, mcts:level=5, \
mcts:seconds=0.5,threads=2) or a GTP engine command line in quotes \
('blokus gtp --level 3'; prefix gtp: to force a command line). Seats rotate from game to game."
)]
pub struct Args {
    /// The first engine.
    pub engine1: String,
    /// The second engine.
    pub engine2: String,
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
    /// Seed of the built-in players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CmdResult {
    let rules = Rules::by_name(&args.variant)?;
    if args.parallel == 0 {
        return Err("--parallel must be at least 1".into());
    }
    let engines = [
        EngineSpec::parse(&args.engine1),
        EngineSpec::parse(&args.engine2),
    ];
    let names = [args.engine1.as_str(), args.engine2.as_str()];
    let config = MatchConfig {
        rules,
        engines,
        games: args.games,
        parallel: args.parallel,
        seed: args.seed,
    };
    // Fail early on an unwritable record file rather than after hours of games.
    if let Some(path) = &args.sgf {
        std::fs::write(path, "").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let progress = (!args.quiet).then(|| Progress::new(args.games));
    let games = run_match(&config, &|g| {
        if let Some(p) = &progress {
            p.game_done(g);
        }
        if let Some((e, why)) = &g.lost_by {
            eprintln!("game {}: {} {why}", g.index + 1, names[*e]);
        }
    });
    if let Some(p) = &progress {
        p.finish();
    }
    let games = games?;
    print!("{}", format_summary(names, &summarize(&games)));
    if let Some(path) = &args.sgf {
        std::fs::write(path, games_to_blksgf(names, &games))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
