//! The fault mode: load, SIGKILL, restart, check, resume, for a number of cycles.
//!
//! After each kill the server is restarted on the same port and data folder while the
//! clients wait. Then, before any client comes back:
//! - every game where a client last saw the AI to move is watched through
//!   `GET /api/games?mine=` (read from the database, so watching does not load the game
//!   and wake its AI): its ply must grow on its own within the AI timeout;
//! - every game is read with `GET /api/games/{id}`: each announced move must be there,
//!   at its ply, with its colour and cells.
//!
//! Then the clients reconnect (like the web page) and play on until the next kill.

use std::collections::HashMap;
use std::fmt;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use tokio::time::Instant;

use crate::api::Api;
use crate::ledger::GameRecord;
use crate::server::ServerProcess;
use crate::stats::{GameKind, Report};
use crate::wire::move_key;
use crate::{runtime, temp_dir, LoadError, Options, Run};

/// Requests the checks send at once.
const CHECK_CONCURRENCY: usize = 8;
/// Tokens per `?mine=` request (the server reads at most 200, lists at most 100 games).
const MINE_BATCH: usize = 50;
/// Time for the clients to read what the server sent before it died.
const SETTLE: Duration = Duration::from_millis(300);
/// Examples of lost moves or stalled games kept in a report.
const EXAMPLES: usize = 5;

/// How the fault mode kills.
#[derive(Debug, Clone)]
pub struct FaultOptions {
    /// Kill-and-restart cycles.
    pub cycles: u32,
    /// Load before each kill: a uniformly random time in this range.
    pub load_before_kill: (Duration, Duration),
    /// How long games where the AI is to move may take to go on after a restart.
    pub ai_timeout: Duration,
}

impl Default for FaultOptions {
    fn default() -> Self {
        FaultOptions {
            cycles: 10,
            load_before_kill: (Duration::from_secs(2), Duration::from_secs(6)),
            ai_timeout: Duration::from_secs(30),
        }
    }
}

/// What one kill cycle found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CycleReport {
    /// Cycle number, from 1.
    pub cycle: u32,
    /// Time from SIGKILL to the restarted server listening, ms.
    pub restart_ms: f64,
    /// Games read back.
    pub games_checked: u64,
    /// Announced moves compared.
    pub moves_checked: u64,
    /// Announced moves missing or different.
    pub lost: u64,
    /// Some of them, described.
    pub lost_examples: Vec<String>,
    /// Games that could not be read back (each counts as a failure).
    pub unverified: u64,
    /// Games where the AI was to move at the kill.
    pub ai_waiting: u64,
    /// Of those, the games that went on by themselves.
    pub ai_went_on: u64,
    /// Time until the last of them moved, ms.
    pub ai_all_moved_ms: Option<f64>,
    /// Some games that did not go on.
    pub ai_stalled_examples: Vec<String>,
}

impl CycleReport {
    fn passed(&self) -> bool {
        self.lost == 0 && self.unverified == 0 && self.ai_went_on == self.ai_waiting
    }
}

/// The result of a fault run.
#[derive(Debug, Clone, Serialize)]
pub struct FaultReport {
    /// Each cycle.
    pub cycles: Vec<CycleReport>,
    /// The load over the whole run.
    pub load: Report,
}

impl FaultReport {
    /// No announced move lost, every game read back, every waiting AI went on.
    pub fn passed(&self) -> bool {
        !self.cycles.is_empty() && self.cycles.iter().all(CycleReport::passed)
    }
}

impl fmt::Display for FaultReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.load)?;
        for c in &self.cycles {
            writeln!(
                f,
                "kill {}: restarted in {:.0} ms; {} moves of {} games checked, {} lost, {} unreadable; AI to move in {} games, {} went on by themselves{}",
                c.cycle,
                c.restart_ms,
                c.moves_checked,
                c.games_checked,
                c.lost,
                c.unverified,
                c.ai_waiting,
                c.ai_went_on,
                c.ai_all_moved_ms
                    .map_or(String::new(), |ms| format!(" (all within {ms:.0} ms)"))
            )?;
            for e in c.lost_examples.iter().chain(&c.ai_stalled_examples) {
                writeln!(f, "  {e}")?;
            }
        }
        let lost: u64 = self.cycles.iter().map(|c| c.lost).sum();
        let checked: u64 = self.cycles.iter().map(|c| c.moves_checked).sum();
        write!(
            f,
            "{}: {} kills, {checked} announced moves checked, {lost} lost",
            if self.passed() { "PASSED" } else { "FAILED" },
            self.cycles.len()
        )
    }
}

/// Starts `PROGRAM serve` on 127.0.0.1 with a temporary data folder, plays the load of
/// `opts` and kills and restarts the server as `fault` says, checking after each restart.
///
/// # Errors
/// If the options are invalid or the server cannot be started.
pub fn fault(opts: Options, program: &Path, fault: FaultOptions) -> Result<FaultReport, LoadError> {
    if fault.cycles == 0 || fault.cycles > 1000 {
        return Err(LoadError::Options("cycles must be 1..=1000".into()));
    }
    let (lo, hi) = fault.load_before_kill;
    if lo > hi || hi > Duration::from_secs(3600) {
        return Err(LoadError::Options(
            "the load before a kill must be a range within an hour".into(),
        ));
    }
    runtime()?.block_on(async move {
        let dir = temp_dir()?;
        let mut server = ServerProcess::start(program, &dir.path().join("data"))?;
        let pid = Arc::new(AtomicU32::new(server.pid()));
        let mut rng = SmallRng::seed_from_u64(opts.seed);
        let run = Run::start(opts, vec![server.addr()], pid.clone()).await?;
        let mut cycles = Vec::new();
        for cycle in 1..=fault.cycles {
            let wait = if hi > lo { rng.gen_range(lo..=hi) } else { lo };
            let until = (Instant::now() + wait).min(run.shared.deadline);
            tokio::time::sleep_until(until).await;
            if Instant::now() >= run.shared.deadline {
                break;
            }
            let _ = run.up.send(false);
            server.kill9()?;
            let killed = Instant::now();
            tokio::time::sleep(SETTLE).await;
            let games = run.shared.ledger.snapshot();
            pid.store(0, Ordering::Relaxed);
            let restarted = tokio::task::spawn_blocking(move || server.restart().map(|()| server))
                .await
                .map_err(|e| LoadError::Server(e.to_string()))?;
            server = restarted?;
            pid.store(server.pid(), Ordering::Relaxed);
            let mut report = CycleReport {
                cycle,
                restart_ms: (killed.elapsed() - SETTLE).as_secs_f64() * 1000.0,
                ..CycleReport::default()
            };
            let addr = server.addr();
            check_ai_goes_on(addr, &games, fault.ai_timeout, &mut report).await;
            check_moves(addr, &games, &mut report).await;
            cycles.push(report);
            let _ = run.up.send(true);
        }
        let load = run.finish().await;
        drop(server);
        Ok(FaultReport { cycles, load })
    })
}

/// Clients for the checks, spread over a few source addresses.
fn checkers(addr: SocketAddr) -> Vec<Api> {
    let spread = Options {
        addresses: CHECK_CONCURRENCY,
        ..Options::default()
    };
    (0..CHECK_CONCURRENCY)
        .filter_map(|i| Api::new(addr, spread.source_address(i).into()).ok())
        .collect()
}

/// Watches the games where the AI was to move, without loading them, until each has
/// moved on or the timeout passes.
async fn check_ai_goes_on(
    addr: SocketAddr,
    games: &[GameRecord],
    timeout: Duration,
    report: &mut CycleReport,
) {
    // Game id -> (a token of it, the ply at which the AI was to move).
    let mut waiting: HashMap<&str, (&str, usize)> = games
        .iter()
        .filter(|g| g.kind == GameKind::Ai)
        .filter_map(|g| {
            let s = g.last_state?;
            (s.ai_to_move && !s.over).then_some((g.id.as_str(), (g.token.as_str(), s.ply)))
        })
        .collect();
    report.ai_waiting = waiting.len() as u64;
    let apis = checkers(addr);
    let start = Instant::now();
    while !waiting.is_empty() && start.elapsed() < timeout {
        let tokens: Vec<String> = waiting.values().map(|(t, _)| t.to_string()).collect();
        let batches = futures_util::stream::iter(tokens.chunks(MINE_BATCH).enumerate())
            .map(|(i, batch)| apis[i % apis.len()].mine(batch))
            .buffer_unordered(CHECK_CONCURRENCY)
            .collect::<Vec<_>>()
            .await;
        for listed in batches.into_iter().flatten().flatten() {
            let went_on = waiting
                .get(listed.id.as_str())
                .is_some_and(|&(_, ply)| listed.plies > ply || listed.status == "finished");
            if went_on {
                waiting.remove(listed.id.as_str());
                report.ai_went_on += 1;
            }
        }
        if waiting.is_empty() {
            report.ai_all_moved_ms = Some(start.elapsed().as_secs_f64() * 1000.0);
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    report.ai_stalled_examples = waiting
        .iter()
        .take(EXAMPLES)
        .map(|(id, (_, ply))| {
            format!("game {id}: the AI was to move at ply {ply} and did not move within {timeout:?} of the restart")
        })
        .collect();
}

/// Reads back every game and compares its moves with the announced ones.
async fn check_moves(addr: SocketAddr, games: &[GameRecord], report: &mut CycleReport) {
    let apis = checkers(addr);
    let results = futures_util::stream::iter(games.iter().enumerate())
        .map(|(i, g)| {
            let api = &apis[i % apis.len()];
            async move { (g, api.state(&g.id).await) }
        })
        .buffer_unordered(CHECK_CONCURRENCY)
        .collect::<Vec<_>>()
        .await;
    for (g, state) in results {
        let Ok(state) = state else {
            report.unverified += 1;
            if report.lost_examples.len() < EXAMPLES {
                let e = state.err().map(|e| e.to_string()).unwrap_or_default();
                report
                    .lost_examples
                    .push(format!("game {}: cannot read it back: {e}", g.id));
            }
            continue;
        };
        report.games_checked += 1;
        for (&ply, (colour, key)) in &g.announced {
            report.moves_checked += 1;
            let stored = state.moves.get(ply);
            let same =
                stored.is_some_and(|e| e.colour == Some(*colour) && move_key(&e.cells) == *key);
            if !same {
                report.lost += 1;
                if report.lost_examples.len() < EXAMPLES {
                    report.lost_examples.push(format!(
                        "game {}: announced ply {ply} (colour {colour}, {key}) is {}",
                        g.id,
                        stored.map_or("missing".into(), |e| format!(
                            "stored as colour {:?}, {}",
                            e.colour,
                            move_key(&e.cells)
                        ))
                    ));
                }
            }
        }
    }
}
