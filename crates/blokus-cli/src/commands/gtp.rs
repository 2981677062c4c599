//! `blokus gtp`: the GTP engine on standard input and output (see `docs/gtp.md`).

use blokus_ai::cube::{cube_player_from_spec, CubePlayer};
use blokus_ai::{player_from_spec, Budget, Player};
use blokus_core::cube::{AnyVariant, Site, DEFAULT_SITE};
use blokus_core::{variant, RuleOptions, Rules};
use blokus_gtp::engine::{Engine, EngineConfig};

use super::CmdResult;

/// Arguments of `blokus gtp`.
#[derive(clap::Args)]
pub struct Args {
    /// The game at start: a variant id (`duo`, `rumis_2`) or game name (`Blokus Duo`).
    #[arg(long, short = 'g', default_value = "classic", value_name = "ID|NAME")]
    pub game: String,
    /// Rule options, comma-separated: alternate_contact, no_mirror_opening,
    /// no_start_alternation (kept by `set_game`; the GTP command `rules` changes them).
    #[arg(long, value_name = "OPT,...", value_parser = parse_rules)]
    pub rules: Option<RuleOptions>,
    /// The site of Blokus 3D games: a built-in site's name or a site file's path (the
    /// GTP command `site` changes it).
    #[arg(long, default_value = DEFAULT_SITE, value_name = "NAME|FILE")]
    pub site: String,
    /// Playing strength of the search, 1 (weakest) to 9.
    #[arg(long, short = 'l', value_name = "N")]
    pub level: Option<u8>,
    /// Search threads.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Seed of the random generator (deterministic play with one thread).
    #[arg(long, short = 'r', value_name = "N")]
    pub seed: Option<u64>,
    /// Thinking time per move, in seconds.
    #[arg(long, value_name = "S")]
    pub seconds: Option<f64>,
    /// Player spec, e.g. `mcts:level=5`, `greedy` or `random:seed=3`; overrides
    /// --level, --threads, --seconds (and --seed unless the spec names one).
    #[arg(long, value_name = "SPEC")]
    pub player: Option<String>,
    /// Never answer `genmove` with `resign`.
    #[arg(long)]
    pub noresign: bool,
    /// Colour `showboard` with ANSI escape sequences.
    #[arg(long)]
    pub color: bool,
    /// No messages on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Parses `--rules OPT,...` (shared with `blokus match`).
pub(crate) fn parse_rules(list: &str) -> Result<RuleOptions, String> {
    RuleOptions::parse_list(list).map_err(|e| e.to_string())
}

/// The search player's spec from the flags, e.g. `mcts:level=5,threads=2,seed=1`.
fn mcts_spec(args: &Args) -> String {
    let mut opts = Vec::new();
    if let Some(l) = args.level {
        opts.push(format!("level={l}"));
    }
    if let Some(t) = args.threads {
        opts.push(format!("threads={t}"));
    }
    if let Some(s) = args.seed {
        opts.push(format!("seed={s}"));
    }
    if let Some(s) = args.seconds {
        opts.push(format!("seconds={s}"));
    }
    if args.noresign {
        opts.push("resign=false".into());
    }
    if opts.is_empty() {
        "mcts".into()
    } else {
        format!("mcts:{}", opts.join(","))
    }
}

/// Builds the player: an explicit `--player` spec must work; otherwise the search player
/// from the flags, falling back to `greedy`, then `random` (keeping the seed).
fn build_player(args: &Args) -> Result<(Box<dyn Player>, String), String> {
    if let Some(spec) = &args.player {
        let spec = match args.seed {
            Some(s) => blokus_ai::with_default_seed(spec, s),
            None => spec.clone(),
        };
        return player_from_spec(&spec)
            .map(|p| (p, spec.clone()))
            .map_err(|e| format!("--player {spec}: {e}"));
    }
    let seed = args.seed.map(|s| format!(":seed={s}")).unwrap_or_default();
    let candidates = [
        mcts_spec(args),
        format!("greedy{seed}"),
        format!("random{seed}"),
    ];
    let mut failures = Vec::new();
    for spec in &candidates {
        match player_from_spec(spec) {
            Ok(p) => {
                if !failures.is_empty() && !args.quiet {
                    eprintln!(
                        "blokus gtp: {}; using player '{spec}' instead",
                        failures.join("; ")
                    );
                }
                return Ok((p, spec.clone()));
            }
            Err(e) => failures.push(format!("player '{spec}' is not available ({e})")),
        }
    }
    Err(failures.join("; "))
}

/// The 3D player of the same spec as the flat one (3D players read the same specs).
fn build_cube_player(spec: &str) -> Result<Box<dyn CubePlayer>, String> {
    cube_player_from_spec(spec).map_err(|e| format!("player '{spec}' for Blokus 3D: {e}"))
}

/// Speaks GTP until `quit` or end of input.
pub fn run(args: Args) -> CmdResult {
    // A Blokus 3D game at start waits behind a flat game, which the engine needs.
    let (v, cube) = match variant::variant(&args.game) {
        Ok(v) => (v, None),
        Err(_) => match AnyVariant::parse(&args.game).map_err(|e| format!("--game: {e}"))? {
            AnyVariant::Cube(c) => (variant::variant("classic")?, Some(c)),
            AnyVariant::Flat(f) => (variant::variant(f.as_str())?, None),
        },
    };
    let site = Site::builtin_or_file(&args.site).map_err(|e| format!("--site: {e}"))?;
    if let Some(s) = args.seconds {
        if !(s.is_finite() && s > 0.0) {
            return Err(format!("--seconds must be a positive number, not {s}").into());
        }
    }
    let (player, spec) = build_player(&args)?;
    let cube_player = build_cube_player(&spec)?;
    if !args.quiet {
        let rules = args
            .rules
            .map(|o| o.enabled().join(","))
            .unwrap_or_default();
        let rules = if rules.is_empty() {
            rules
        } else {
            format!(" (rules {rules})")
        };
        let game = match cube {
            Some(c) => format!("{} on site {}", c.game_name(), site.name()),
            None => v.game_name.to_string(),
        };
        eprintln!("blokus gtp: {game}{rules} with player {}", player.name());
    }
    let config = EngineConfig {
        resign: !args.noresign,
        budget: Budget {
            seconds: args.seconds,
            simulations: None,
        },
        ansi: args.color,
    };
    let mut engine = Engine::new(
        Rules::new(v, args.rules.unwrap_or_default()),
        Some(player),
        config,
    )
    .with_cube_player(cube_player)
    .with_seedable_spec(&spec);
    match cube {
        Some(c) => engine.set_cube_game(c, site),
        None => engine.set_site(site),
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    engine.run(stdin.lock(), stdout.lock())?;
    Ok(())
}
