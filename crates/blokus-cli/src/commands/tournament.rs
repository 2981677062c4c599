//! `blokus tournament`: an engine event (italo-svizzero, Swiss or round robin) between
//! built-in players and external GTP engines, tables of a round played in parallel, with a
//! final table of places, points, tiebreaks and Elo estimates, and every game written to
//! one `.blksgf` collection.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use blokus_arena::{EngineSpec, TableResult as GameRecord};
use blokus_core::record::sgf::{self, GameTree, Property};
use blokus_core::{RuleOptions, Rules, VariantId};
use blokus_tournament::{
    elo_estimates, ByeScore, Crosstable, EntrantKind, Event, EventConfig, NewEntrant,
    PairingSystem, PlacePoints, Points, Round, ShortTables, Table, TableResult, Tiebreak,
};

use super::CmdResult;

/// Arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Entrants: a built-in player spec (random, greedy, mcts:level=5) or a \
GTP engine command line in quotes ('blokus gtp --level 3'; prefix gtp: to force a command \
line), optionally named NAME=SPEC (Strong=mcts:level=6). Repeated specs are numbered. \
Pairing systems and tiebreaks are described in docs/tournaments.md."
)]
pub struct Args {
    /// The entrants (at least two).
    #[arg(required = true)]
    pub entrants: Vec<String>,
    /// Variant id or game name; its number of players is the table size.
    #[arg(long, default_value = "duo")]
    pub variant: String,
    /// Pairing system: italo_svizzero, swiss or round_robin.
    #[arg(long, default_value = "italo_svizzero")]
    pub system: String,
    /// Number of rounds (default: 4; a full cycle for round_robin).
    #[arg(long)]
    pub rounds: Option<u32>,
    /// When the entrants do not fill the tables: byes or smaller.
    #[arg(long, default_value = "byes")]
    pub short_tables: String,
    /// Match points by place at a full table, best first (e.g. 1,0 or 4,2,1,0).
    #[arg(long)]
    pub points: Option<String>,
    /// What a bye scores: average, win, or a number.
    #[arg(long, default_value = "average")]
    pub bye: String,
    /// Tiebreaks in order (game_score, buchholz, median_buchholz, wins, head_to_head).
    #[arg(long)]
    pub tiebreaks: Option<String>,
    /// Tables played at the same time.
    #[arg(long, default_value_t = 1)]
    pub parallel: usize,
    /// Seed of the draw and of the built-in players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every game to this `.blksgf` file.
    #[arg(long)]
    pub sgf: Option<PathBuf>,
    /// Write the event (entrants, numbers, rounds, results) as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// The event's name.
    #[arg(long, default_value = "Engine tournament")]
    pub name: String,
    /// No progress bar and no round-by-round report.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CmdResult {
    if args.parallel == 0 {
        return Err("--parallel must be at least 1".into());
    }
    let rules = Rules::by_name(&args.variant)?;
    let config = event_config(&args, rules.v().id)?;
    let entrants = entrants(&args.entrants)?;
    for (_, spec) in &entrants {
        if let EngineSpec::Builtin(s) = spec {
            blokus_ai::player_from_spec(s).map_err(|e| format!("entrant '{s}': {e}"))?;
        }
    }
    let mut event = Event::new(
        config,
        entrants
            .iter()
            .map(|(name, spec)| NewEntrant {
                name: name.clone(),
                kind: match spec {
                    EngineSpec::Builtin(s) => EntrantKind::Bot { spec: s.clone() },
                    EngineSpec::Command(c) => EntrantKind::Engine { command: c.clone() },
                },
            })
            .collect(),
    )?;
    let specs: Vec<EngineSpec> = entrants.into_iter().map(|(_, s)| s).collect();
    let progress = (!args.quiet).then(|| progress_bar(&event));
    let mut trees = Vec::new();
    while !event.is_finished() {
        let round = event.pair_next_round()?.clone();
        if round.number == 1 {
            // Fail early on unwritable output files rather than after hours of games.
            for path in [&args.sgf, &args.json].into_iter().flatten() {
                std::fs::write(path, "")
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
        }
        if let Some(p) = &progress {
            p.set_message(format!("round {}/{}", round.number, event.config().rounds));
        }
        let played = play_round(&round, &specs, &args, progress.as_ref())?;
        for (table, record) in &played {
            event.record_result(round.number, table.number, table_result(record))?;
            trees.push(game_tree(&event, round.number, table, record));
        }
        if !args.quiet {
            if let Some(p) = &progress {
                p.suspend(|| eprint!("{}", round_report(&event, round.number)));
            }
        }
    }
    if let Some(p) = &progress {
        p.finish_and_clear();
    }
    // The files first: a closed standard output must not lose the games.
    if let Some(path) = &args.sgf {
        std::fs::write(path, sgf::write(&trees))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.json {
        std::fs::write(path, serde_json::to_string_pretty(&event)?)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    write!(std::io::stdout().lock(), "{}", final_table(&event))?;
    Ok(())
}

/// The event's settings from the command line.
fn event_config(args: &Args, variant: VariantId) -> Result<EventConfig, String> {
    let mut c = EventConfig::new(&args.name, variant);
    c.pairing = args.system.parse().map_err(|e| format!("--system: {e}"))?;
    c.rounds = match (args.rounds, c.pairing) {
        (Some(r), _) => r,
        (None, PairingSystem::RoundRobin) => {
            blokus_tournament::pairing::round_robin::cycle_length(args.entrants.len())
        }
        (None, _) => 4,
    };
    c.short_tables = match args.short_tables.as_str() {
        "byes" => ShortTables::Byes,
        "smaller" => ShortTables::Smaller,
        other => return Err(format!("--short-tables: '{other}' is not byes or smaller")),
    };
    if let Some(p) = &args.points {
        let values = p
            .split(',')
            .map(|v| v.parse::<Points>().map_err(|e| format!("--points: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        c.place_points = PlacePoints::new(values).map_err(|e| format!("--points: {e}"))?;
    }
    c.bye = match args.bye.as_str() {
        "average" => ByeScore::Average,
        "win" => ByeScore::Win,
        n => ByeScore::Fixed(
            n.parse()
                .map_err(|e| format!("--bye: {e} (or average, win)"))?,
        ),
    };
    if let Some(t) = &args.tiebreaks {
        c.tiebreaks = t
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| {
                s.parse::<Tiebreak>()
                    .map_err(|e| format!("--tiebreaks: {e}"))
            })
            .collect::<Result<_, _>>()?;
    }
    c.seed = args.seed;
    Ok(c)
}

/// Names and specs: `NAME=SPEC` when the part before `=` is a plain name, else the spec
/// itself, numbered when repeated (`greedy`, `greedy (2)`).
fn entrants(args: &[String]) -> Result<Vec<(String, EngineSpec)>, String> {
    let mut out: Vec<(String, EngineSpec)> = Vec::new();
    for a in args {
        let named = a.split_once('=').filter(|(n, _)| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        });
        let (name, spec) = match named {
            Some((n, s)) => (n.to_string(), s),
            None => (a.trim().to_string(), a.as_str()),
        };
        if spec.trim().is_empty() {
            return Err(format!("entrant '{a}' has no engine"));
        }
        let taken = |n: &str| out.iter().any(|(m, _)| m.eq_ignore_ascii_case(n));
        let name = if named.is_none() && taken(&name) {
            (2..)
                .map(|k| format!("{name} ({k})"))
                .find(|n| !taken(n))
                .expect("a free number")
        } else {
            name
        };
        out.push((name, EngineSpec::parse(spec)));
    }
    Ok(out)
}

fn progress_bar(event: &Event) -> indicatif::ProgressBar {
    let games_per_round = event.entrants().len() / event.seats();
    let bar =
        indicatif::ProgressBar::new((games_per_round * event.config().rounds as usize) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}  eta {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// Plays every table of a round, `--parallel` at a time; returns them in table order.
fn play_round<'r>(
    round: &'r Round,
    specs: &[EngineSpec],
    args: &Args,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<Vec<(&'r Table, GameRecord)>, String> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, GameRecord)>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let workers = args.parallel.clamp(1, round.tables.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                if failure.lock().map_or(true, |f| f.is_some()) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(table) = round.tables.get(i) else {
                    break;
                };
                match play_table(table, round.number, specs, args.seed) {
                    Ok(rec) => {
                        if let Some(p) = progress {
                            p.inc(1);
                        }
                        done.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((i, rec));
                    }
                    Err(e) => {
                        let mut f = failure.lock().unwrap_or_else(|e| e.into_inner());
                        f.get_or_insert(format!(
                            "round {}, table {}: {e}",
                            round.number, table.number
                        ));
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _)| *i);
    Ok(done
        .into_iter()
        .map(|(i, rec)| (&round.tables[i], rec))
        .collect())
}

/// Plays one table: seat *i* of the event's table is seat *i* of the game (seat 0 plays
/// first).
fn play_table(
    table: &Table,
    round: u32,
    specs: &[EngineSpec],
    seed: u64,
) -> Result<GameRecord, String> {
    let rules = Rules::new(table.variant.variant(), RuleOptions::default());
    let seats = table
        .seats
        .iter()
        .map(|e| specs[e.index()].clone())
        .collect();
    let arena_table = blokus_arena::Table::new(rules, seats).map_err(|e| e.to_string())?;
    // Each table's built-in players get their own seed.
    let seed = seed ^ (u64::from(round) << 32) ^ u64::from(table.number);
    blokus_arena::play_game(&arena_table, seed).map_err(|e| e.to_string())
}

/// The table's result: each seat's score and place as the arena ranked them (a
/// resignation or a forfeited game, an illegal move, loses it).
fn table_result(rec: &GameRecord) -> TableResult {
    let scores = rec.seats.iter().map(|s| s.score).collect();
    // The arena places sides (teammates share theirs); the event ranks seats, each one
    // more than the number of seats placed strictly better (1, 3, 1, 3 for two teams).
    let places = rec
        .seats
        .iter()
        .map(|s| 1 + rec.seats.iter().filter(|o| o.place < s.place).count() as u32)
        .collect();
    TableResult::with_places(scores, places).expect("places of a finished game rank the seats")
}

/// The game as a `.blksgf` tree: players, event, round, table and result.
fn game_tree(event: &Event, round: u32, table: &Table, rec: &GameRecord) -> GameTree {
    let names: Vec<&str> = table
        .seats
        .iter()
        .map(|e| event.entrants()[e.index()].name.as_str())
        .collect();
    let extra = vec![
        Property::new("EV", event.config().name.clone()),
        Property::new("RO", round.to_string()),
        Property::new("GN", format!("round {round}, table {}", table.number)),
    ];
    blokus_arena::record::to_tree(rec, &names, extra)
}

/// One line per table of a finished round.
fn round_report(event: &Event, number: u32) -> String {
    let round = &event.rounds()[number as usize - 1];
    let name = |id: blokus_tournament::EntrantId| event.entrants()[id.index()].name.as_str();
    let mut out = format!("Round {number}\n");
    for t in &round.tables {
        let players: Vec<String> = t
            .seats
            .iter()
            .enumerate()
            .map(|(seat, &id)| match &t.result {
                Some(TableResult::Played { scores, places }) => {
                    format!("{} {} ({})", name(id), scores[seat], ordinal(places[seat]))
                }
                _ => name(id).to_string(),
            })
            .collect();
        out.push_str(&format!(
            "  table {}: {}\n",
            t.number,
            players.join("  -  ")
        ));
    }
    for b in &round.byes {
        out.push_str(&format!("  bye: {} ({})\n", name(b.entrant), b.points));
    }
    out
}

fn ordinal(place: u32) -> String {
    match place {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

/// Standings with Elo estimates, then the crosstable.
fn final_table(event: &Event) -> String {
    let standings = event.standings();
    let elo = elo_estimates(event);
    let column: Vec<String> = standings
        .rows
        .iter()
        .map(|r| {
            elo.get(&r.entrant)
                .map_or("-".into(), |e| format!("{e:+.0}"))
        })
        .collect();
    format!(
        "{}: {} rounds of {} ({})\n\n{}\nCrosstable\n{}",
        event.config().name,
        event.rounds().len(),
        event.config().variant,
        event.config().pairing,
        standings.render(&[("Elo", column)]),
        Crosstable::new(event)
    )
}
