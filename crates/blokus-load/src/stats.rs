//! What a run measures: latency histograms, counts and errors, and the report made of them.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Which kind of game a measurement comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Every seat is played by a person (a harness client).
    People,
    /// Seat 0 is a person, the others are the server's AI.
    Ai,
}

impl GameKind {
    /// Both kinds, in report order.
    pub const ALL: [GameKind; 2] = [GameKind::People, GameKind::Ai];

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameKind::People => "people-only games",
            GameKind::Ai => "games against the AI",
        })
    }
}

/// What a latency is measured to, from the moment a person's move is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// The `move` announcement reaching the mover.
    MoveAnswer,
    /// The new `state` reaching the mover.
    StateMover,
    /// The new `state` reaching the game's other connections (players, spectators).
    StateOthers,
    /// A new game made ready: from asking to create it to the first `state` on its
    /// connections (creation, seats claimed, connections opened and joined).
    GameStart,
}

impl Metric {
    const ALL: [Metric; 4] = [
        Metric::MoveAnswer,
        Metric::StateMover,
        Metric::StateOthers,
        Metric::GameStart,
    ];

    fn index(self) -> usize {
        self as usize
    }

    fn label(self) -> &'static str {
        match self {
            Metric::MoveAnswer => "move answer",
            Metric::StateMover => "state to mover",
            Metric::StateOthers => "state to others",
            Metric::GameStart => "game start",
        }
    }
}

/// Counters and histograms of a run, shared by every game task behind a mutex.
pub struct Stats {
    hist: [[Histogram<u64>; 4]; 2],
    moves_sent: [u64; 2],
    /// `move` announcements received, counted once per game and ply.
    pub moves_announced: u64,
    /// Games created.
    pub games_started: u64,
    /// Games played to their end.
    pub games_finished: u64,
    /// Games given up because nothing arrived for the stall timeout.
    pub games_stalled: u64,
    /// `error` messages by code.
    pub ws_errors: BTreeMap<String, u64>,
    /// Failed HTTP requests by status (or `connect`/`timeout`/`body`).
    pub http_errors: BTreeMap<String, u64>,
    /// WebSocket connections that could not be opened or broke while the server was up,
    /// by what happened.
    pub ws_failures: BTreeMap<String, u64>,
    /// Failures while the server was known to be down (fault mode): expected.
    pub failures_while_down: u64,
    /// Time games spent in play, added up: from their first `state` to their end.
    pub play_time: Duration,
}

impl Default for Stats {
    fn default() -> Self {
        let h = || Histogram::new_with_bounds(1, 600_000_000, 3).expect("valid bounds");
        Stats {
            hist: [[h(), h(), h(), h()], [h(), h(), h(), h()]],
            moves_sent: [0; 2],
            moves_announced: 0,
            games_started: 0,
            games_finished: 0,
            games_stalled: 0,
            ws_errors: BTreeMap::new(),
            http_errors: BTreeMap::new(),
            ws_failures: BTreeMap::new(),
            failures_while_down: 0,
            play_time: Duration::ZERO,
        }
    }
}

impl Stats {
    /// Records one latency.
    pub fn latency(&mut self, kind: GameKind, metric: Metric, d: Duration) {
        let us = (d.as_micros() as u64).clamp(1, 600_000_000);
        let _ = self.hist[kind.index()][metric.index()].record(us);
    }

    /// Counts a person's move sent.
    pub fn move_sent(&mut self, kind: GameKind) {
        self.moves_sent[kind.index()] += 1;
    }

    /// Counts an `error` message.
    pub fn ws_error(&mut self, code: &str) {
        *self.ws_errors.entry(code.to_string()).or_default() += 1;
    }

    /// Counts a failed HTTP request.
    pub fn http_error(&mut self, what: impl Into<String>) {
        *self.http_errors.entry(what.into()).or_default() += 1;
    }

    /// The report of a run that lasted `elapsed`.
    pub fn report(&self, elapsed: Duration, server: ServerUsage) -> Report {
        let mut latency = Vec::new();
        for kind in GameKind::ALL {
            for metric in Metric::ALL {
                let h = &self.hist[kind.index()][metric.index()];
                if h.is_empty() {
                    continue;
                }
                let ms = |q: f64| h.value_at_quantile(q) as f64 / 1000.0;
                latency.push(Percentiles {
                    kind,
                    metric,
                    count: h.len(),
                    p50_ms: ms(0.5),
                    p90_ms: ms(0.9),
                    p99_ms: ms(0.99),
                    max_ms: h.max() as f64 / 1000.0,
                });
            }
        }
        let secs = elapsed.as_secs_f64().max(1e-9);
        Report {
            seconds: secs,
            games_started: self.games_started,
            games_finished: self.games_finished,
            games_stalled: self.games_stalled,
            moves_sent: self.moves_sent.iter().sum(),
            moves_announced: self.moves_announced,
            moves_per_second: self.moves_announced as f64 / secs,
            latency,
            ws_errors: self.ws_errors.clone(),
            http_errors: self.http_errors.clone(),
            ws_failures: self.ws_failures.clone(),
            failures_while_down: self.failures_while_down,
            games_in_play: self.play_time.as_secs_f64() / secs,
            server,
        }
    }
}

/// What the server process used: resident memory (`VmRSS` of `/proc/PID/status`, MiB)
/// and CPU time (user + system of `/proc/PID/stat`, summed over restarts).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct ServerUsage {
    /// CPU seconds used by the server during the run.
    pub cpu_seconds: Option<f64>,
    /// At the first sample.
    pub start_mib: Option<f64>,
    /// Largest sample.
    pub max_mib: Option<f64>,
    /// At the last sample.
    pub end_mib: Option<f64>,
}

impl ServerUsage {
    /// Adds a memory sample.
    pub fn sample(&mut self, mib: f64) {
        self.start_mib.get_or_insert(mib);
        self.max_mib = Some(self.max_mib.map_or(mib, |m| m.max(mib)));
        self.end_mib = Some(mib);
    }
}

/// Latency percentiles of one kind of game and metric.
#[derive(Debug, Clone, Serialize)]
pub struct Percentiles {
    /// Game kind.
    pub kind: GameKind,
    /// What was measured.
    pub metric: Metric,
    /// Samples.
    pub count: u64,
    /// Median, ms.
    pub p50_ms: f64,
    /// 90th percentile, ms.
    pub p90_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Largest, ms.
    pub max_ms: f64,
}

/// The result of a load run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Length of the run.
    pub seconds: f64,
    /// Games created.
    pub games_started: u64,
    /// Games played to the end.
    pub games_finished: u64,
    /// Games given up after the stall timeout.
    pub games_stalled: u64,
    /// People's moves sent.
    pub moves_sent: u64,
    /// Placements announced (people's and the AI's).
    pub moves_announced: u64,
    /// Announced placements per second.
    pub moves_per_second: f64,
    /// Latency percentiles.
    pub latency: Vec<Percentiles>,
    /// `error` messages by code.
    pub ws_errors: BTreeMap<String, u64>,
    /// Failed HTTP requests by status.
    pub http_errors: BTreeMap<String, u64>,
    /// WebSocket connections that failed while the server was up, by what happened.
    pub ws_failures: BTreeMap<String, u64>,
    /// Failures while the server was down (fault mode; expected).
    pub failures_while_down: u64,
    /// Games in play at once, on average (the rest of the slots are creating, joining
    /// and connecting): with moves sent at once, the latencies grow with this number.
    pub games_in_play: f64,
    /// Server memory and CPU time.
    pub server: ServerUsage,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:.1} s: {} games started, {} finished, {} stalled; {} moves sent, {} announced ({:.0} moves/s)",
            self.seconds,
            self.games_started,
            self.games_finished,
            self.games_stalled,
            self.moves_sent,
            self.moves_announced,
            self.moves_per_second
        )?;
        writeln!(
            f,
            "games in play at once: {:.0} on average",
            self.games_in_play
        )?;
        writeln!(
            f,
            "latency from sending a move, ms:  {:>8} {:>8} {:>8} {:>8} {:>8}",
            "p50", "p90", "p99", "max", "n"
        )?;
        for p in &self.latency {
            writeln!(
                f,
                "  {:<20} {:<16} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8}",
                p.kind.to_string(),
                p.metric.label(),
                p.p50_ms,
                p.p90_ms,
                p.p99_ms,
                p.max_ms,
                p.count
            )?;
        }
        let list = |m: &BTreeMap<String, u64>| {
            if m.is_empty() {
                "none".to_string()
            } else {
                m.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        writeln!(
            f,
            "errors: websocket {}; http {}; connections {}; failures while the server was down {}",
            list(&self.ws_errors),
            list(&self.http_errors),
            list(&self.ws_failures),
            self.failures_while_down
        )?;
        let mib = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.0}"));
        write!(
            f,
            "server RSS MiB: start {}, max {}, end {}",
            mib(self.server.start_mib),
            mib(self.server.max_mib),
            mib(self.server.end_mib)
        )?;
        if let Some(cpu) = self.server.cpu_seconds {
            write!(f, "; server CPU {cpu:.1} s")?;
            if self.moves_announced > 0 {
                let per = cpu * 1000.0 / self.moves_announced as f64;
                write!(f, " ({per:.2} ms per announced move)")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_come_from_the_samples() {
        let mut s = Stats::default();
        for ms in 1..=100 {
            s.latency(
                GameKind::People,
                Metric::StateMover,
                Duration::from_millis(ms),
            );
        }
        s.moves_announced = 50;
        let r = s.report(Duration::from_secs(10), ServerUsage::default());
        assert_eq!(r.latency.len(), 1);
        let p = &r.latency[0];
        assert_eq!(p.count, 100);
        assert!((p.p50_ms - 50.0).abs() < 0.1, "{}", p.p50_ms);
        assert!((p.p99_ms - 99.0).abs() < 0.1, "{}", p.p99_ms);
        assert!((r.moves_per_second - 5.0).abs() < 1e-9);
        assert!(r.to_string().contains("state to mover"));
    }

    #[test]
    fn memory_keeps_first_max_last() {
        let mut m = ServerUsage::default();
        for v in [10.0, 30.0, 20.0] {
            m.sample(v);
        }
        assert_eq!(
            (m.start_mib, m.max_mib, m.end_mib),
            (Some(10.0), Some(30.0), Some(20.0))
        );
    }
}
