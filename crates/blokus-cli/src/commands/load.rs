//! `blokus load`: the load and fault harness of `blokus-load` (see `docs/load.md`).
//!
//! It lives in the `blokus` binary so the fault mode can start, SIGKILL and restart the
//! very `blokus serve` a user runs (this same executable) as a separate process.

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use blokus_load::{FaultOptions, Options, Pace, Target};

use super::CmdResult;

/// Arguments of `blokus load`.
#[derive(clap::Args)]
pub struct Args {
    /// Games played at the same time (each slot starts a new game when one ends).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Length of the run in seconds (fault mode: an upper bound on the whole run).
    #[arg(long, default_value_t = 30.0)]
    pub seconds: f64,
    /// Variant of the games.
    #[arg(long, default_value = "duo")]
    pub variant: String,
    /// Share of the games (0..1) where one person plays against the AI.
    #[arg(long, default_value_t = 0.0)]
    pub ai_share: f64,
    /// Level of the AI seats (1..9).
    #[arg(long, default_value_t = 1)]
    pub ai_level: u8,
    /// Spectator connections per game.
    #[arg(long, default_value_t = 1)]
    pub spectators: usize,
    /// Thinking time of the people in ms, `MIN-MAX` (e.g. `2000-8000` for a person's
    /// pace); 0 plays flat out.
    #[arg(long, default_value = "0", value_parser = parse_pace)]
    pub think: Pace,
    /// Loopback source addresses the clients come from (127.0.x.y, one per game by
    /// default); 1 sends everything from 127.0.0.1.
    #[arg(long)]
    pub addresses: Option<usize>,
    /// Games each slot plays at most.
    #[arg(long)]
    pub games_per_slot: Option<u32>,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Load a server that is already running (a loopback address such as
    /// 127.0.0.1:8080) instead of starting one. Repeat it for several servers sharing
    /// one database: each slot creates its games on one and spreads its connections
    /// over all of them.
    #[arg(long, conflicts_with = "fault")]
    pub server: Vec<SocketAddr>,
    /// Process id of that server, for its memory figures.
    #[arg(long, requires = "server")]
    pub server_pid: Option<u32>,
    /// Fault mode: kill the server with SIGKILL mid-load, restart it, check that every
    /// announced move is kept and every AI-to-move game goes on by itself.
    #[arg(long)]
    pub fault: bool,
    /// Fault mode: kill-and-restart cycles.
    #[arg(long, default_value_t = 10, requires = "fault")]
    pub cycles: u32,
    /// Fault mode: seconds of load before each kill, `MIN-MAX`.
    #[arg(long, default_value = "2-6", value_parser = parse_seconds_range, requires = "fault")]
    pub kill_after: (Duration, Duration),
    /// Fault mode: seconds an AI-to-move game may take to go on after a restart.
    #[arg(long, default_value_t = 30.0, requires = "fault")]
    pub ai_timeout: f64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_range(s: &str) -> Result<(f64, f64), String> {
    let (lo, hi) = s.split_once('-').unwrap_or((s, s));
    let num = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v <= 3600.0 * 1000.0)
            .ok_or_else(|| format!("'{t}' is not a number from 0 up"))
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo > hi {
        return Err(format!("the range {s} runs backwards"));
    }
    Ok((lo, hi))
}

fn parse_pace(s: &str) -> Result<Pace, String> {
    let (lo, hi) = parse_range(s)?;
    Ok(if hi == 0.0 {
        Pace::Flat
    } else {
        Pace::Human {
            min: Duration::from_secs_f64(lo / 1000.0),
            max: Duration::from_secs_f64(hi / 1000.0),
        }
    })
}

fn parse_seconds_range(s: &str) -> Result<(Duration, Duration), String> {
    let (lo, hi) = parse_range(s)?;
    Ok((Duration::from_secs_f64(lo), Duration::from_secs_f64(hi)))
}

fn seconds(what: &str, s: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(s)
        .map_err(|_| format!("{what} must be a number of seconds from 0 up"))
}

/// Runs the load (or the fault mode) and prints the report; a failed fault check is an
/// error, so scripts and CI see it in the exit status.
pub fn run(args: Args) -> CmdResult {
    let opts = Options {
        games: args.games,
        duration: seconds("--seconds", args.seconds)?,
        variant: args.variant,
        ai_share: args.ai_share,
        ai_level: args.ai_level,
        spectators: args.spectators,
        pace: args.think,
        addresses: args.addresses.unwrap_or(args.games),
        games_per_slot: args.games_per_slot,
        seed: args.seed,
        ..Options::default()
    };
    let program = std::env::current_exe()?;
    if args.fault {
        let fault = FaultOptions {
            cycles: args.cycles,
            load_before_kill: args.kill_after,
            ai_timeout: seconds("--ai-timeout", args.ai_timeout)?,
        };
        let report = blokus_load::fault::fault(opts, &program, fault)?;
        print(&report, args.json)?;
        if !report.passed() {
            return Err("the fault check failed (see above)".into());
        }
        return Ok(());
    }
    let target = if args.server.is_empty() {
        Target::Spawn { program }
    } else {
        Target::Running {
            addrs: args.server,
            pid: args.server_pid,
        }
    };
    let report = blokus_load::load(opts, target)?;
    print(&report, args.json)
}

fn print<T: serde::Serialize + std::fmt::Display>(report: &T, json: bool) -> CmdResult {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(report)?)?;
    } else {
        writeln!(out, "{report}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ranges_and_paces() {
        assert_eq!(parse_pace("0").unwrap(), Pace::Flat);
        assert_eq!(
            parse_pace("2000-8000").unwrap(),
            Pace::Human {
                min: Duration::from_secs(2),
                max: Duration::from_secs(8)
            }
        );
        assert_eq!(
            parse_seconds_range("1.5").unwrap(),
            (Duration::from_millis(1500), Duration::from_millis(1500))
        );
        assert!(parse_range("5-2").unwrap_err().contains("backwards"));
        assert!(parse_range("x").unwrap_err().contains("'x'"));
        assert!(parse_range("-1").is_err());
    }
}
