//! Load and fault harness for `blokus serve`.
//!
//! [`load`] plays many games at once over the real HTTP + WebSocket API (people's seats,
//! AI seats, spectators), paced like people or flat out, and reports moves per second,
//! latency percentiles from sending a move to its `move` announcement and to the new
//! `state`, errors, and the server's memory. [`fault`] starts the server itself, kills it
//! with SIGKILL in the middle of the load, restarts it and checks that every announced
//! move is still there and that every game where the AI was to move goes on by itself.
//!
//! Traffic goes only to a server on 127.0.0.1; every loop is bounded in count and time.
//! `blokus load` is the command line; `docs/load.md` has the measured figures.

pub mod api;
pub mod fault;
pub mod game;
pub mod ledger;
pub mod options;
pub mod server;
pub mod stats;
pub mod wire;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

pub use fault::{FaultOptions, FaultReport};
pub use options::{Options, Pace};
pub use stats::{GameKind, Report, ServerUsage};

use crate::api::Api;
use crate::game::Shared;
use crate::server::ServerProcess;
use crate::stats::Stats;

/// Why a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The server could not be started, killed or reached.
    #[error("server: {0}")]
    Server(String),
    /// The options make no sense.
    #[error("{0}")]
    Options(String),
}

/// Which server a load run goes to.
#[derive(Debug, Clone)]
pub enum Target {
    /// Start `PROGRAM serve` on 127.0.0.1 with a fresh temporary data folder.
    Spawn {
        /// The `blokus` binary.
        program: PathBuf,
    },
    /// Servers already running on this machine (several when they share one database).
    Running {
        /// Their addresses (loopback addresses), at least one.
        addrs: Vec<SocketAddr>,
        /// The first one's process id, for the memory figures.
        pid: Option<u32>,
    },
}

/// Plays the load of `opts` against `target` and reports what it measured.
///
/// # Errors
/// If the options are invalid or the server cannot be started or reached.
pub fn load(opts: Options, target: Target) -> Result<Report, LoadError> {
    runtime()?.block_on(async move {
        let (_dir, _server, addr, pid) = match target {
            Target::Spawn { program } => {
                let dir = temp_dir()?;
                let server = ServerProcess::start(&program, &dir.path().join("data"))?;
                let (addr, pid) = (server.addr(), server.pid());
                (Some(dir), Some(server), vec![addr], Some(pid))
            }
            Target::Running { addrs, pid } => {
                if addrs.is_empty() {
                    return Err(LoadError::Options("no server to load".into()));
                }
                if let Some(addr) = addrs.iter().find(|a| !a.ip().is_loopback()) {
                    return Err(LoadError::Options(format!(
                        "{addr} is not a loopback address: the harness only loads a server on this machine"
                    )));
                }
                (None, None, addrs, pid)
            }
        };
        let pid = Arc::new(AtomicU32::new(pid.unwrap_or(0)));
        let run = Run::start(opts, addr, pid).await?;
        let end = run.shared.deadline;
        tokio::time::sleep_until(end).await;
        Ok(run.finish().await)
    })
}

/// A run in progress: the slots, the memory sampler and the switches that steer them.
pub(crate) struct Run {
    pub(crate) shared: Arc<Shared>,
    pub(crate) up: watch::Sender<bool>,
    stop: watch::Sender<bool>,
    slots: Vec<JoinHandle<()>>,
    sampler: JoinHandle<ServerUsage>,
    started: Instant,
}

impl Run {
    /// Checks the variant and starts every slot.
    pub(crate) async fn start(
        opts: Options,
        servers: Vec<SocketAddr>,
        pid: Arc<AtomicU32>,
    ) -> Result<Run, LoadError> {
        validate(&opts)?;
        let api = Api::new(servers[0], std::net::Ipv4Addr::LOCALHOST.into())
            .map_err(|e| LoadError::Server(e.to_string()))?;
        let players = api
            .variant(&opts.variant)
            .await
            .map_err(|e| LoadError::Options(format!("variant '{}': {e}", opts.variant)))?
            .players;
        let (up, up_rx) = watch::channel(true);
        let (stop, stop_rx) = watch::channel(false);
        let started = Instant::now();
        let shared = Arc::new(Shared {
            servers,
            stats: Mutex::new(Stats::default()),
            ledger: ledger::Ledger::default(),
            up: up_rx,
            stop: stop_rx.clone(),
            deadline: started + opts.duration,
            players,
            opts,
        });
        let slots = (0..shared.opts.games)
            .map(|i| tokio::spawn(game::run_slot(shared.clone(), i)))
            .collect();
        let sampler = tokio::spawn(sample_server(pid, stop_rx));
        Ok(Run {
            shared,
            up,
            stop,
            slots,
            sampler,
            started,
        })
    }

    /// Stops the slots and reports.
    pub(crate) async fn finish(self) -> Report {
        let elapsed = self.started.elapsed();
        let _ = self.stop.send(true);
        for s in self.slots {
            // Every slot returns promptly on stop; the bound is a safety net.
            let _ = tokio::time::timeout(Duration::from_secs(10), s).await;
        }
        let memory = self.sampler.await.unwrap_or_default();
        let stats = self.shared.stats.lock().unwrap_or_else(|e| e.into_inner());
        stats.report(elapsed, memory)
    }
}

fn validate(opts: &Options) -> Result<(), LoadError> {
    if opts.games == 0 || opts.games > 20_000 {
        return Err(LoadError::Options("games must be 1..=20000".into()));
    }
    if opts.duration.is_zero() || opts.duration > Duration::from_secs(24 * 3600) {
        return Err(LoadError::Options(
            "the duration must be 1 s to 24 h".into(),
        ));
    }
    if !(0.0..=1.0).contains(&opts.ai_share) {
        return Err(LoadError::Options("the AI share must be 0..=1".into()));
    }
    if !(1..=9).contains(&opts.ai_level) {
        return Err(LoadError::Options("the AI level must be 1..=9".into()));
    }
    if opts.spectators > 60 {
        return Err(LoadError::Options("at most 60 spectators per game".into()));
    }
    Ok(())
}

/// Samples the server's resident memory and CPU time twice a second until the run stops.
async fn sample_server(pid: Arc<AtomicU32>, mut stop: watch::Receiver<bool>) -> ServerUsage {
    let mut usage = ServerUsage::default();
    // CPU seconds per process id: a restarted server is a new process.
    let mut cpu: std::collections::HashMap<u32, f64> = std::collections::HashMap::new();
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        let p = pid.load(Ordering::Relaxed);
        if p != 0 {
            if let Some(mib) = server::rss_mib(p) {
                usage.sample(mib);
            }
            if let Some(s) = server::cpu_seconds(p) {
                cpu.insert(p, s);
                usage.cpu_seconds = Some(cpu.values().sum());
            }
        }
        tokio::select! {
            _ = tick.tick() => {}
            _ = stop.wait_for(|s| *s) => return usage,
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, LoadError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| LoadError::Options(format!("cannot start the runtime: {e}")))
}

fn temp_dir() -> Result<tempfile::TempDir, LoadError> {
    tempfile::Builder::new()
        .prefix("blokus-load-")
        .tempdir()
        .map_err(|e| LoadError::Server(format!("cannot make a temporary data folder: {e}")))
}
