//! One game slot: creates a game over HTTP, plays it over WebSocket connections (one per
//! person, plus spectators) until it ends, then starts the next. After the server went
//! away it waits until it is back and reconnects to the same game, like the web page.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::stream::{select_all, SplitSink};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::watch;
use tokio::time::{sleep_until, timeout, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use crate::api::{Api, SeatPlan};
use crate::ledger::Ledger;
use crate::options::{Options, Pace};
use crate::stats::{GameKind, Metric, Stats};
use crate::wire::{ClientMsg, ErrorView, MoveView, ServerMsg, StateView};

/// Time allowed to open a connection or get an HTTP answer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Moves one game may send at most (a bound far above any variant's length).
const MAX_SENDS_PER_GAME: u32 = 1000;
/// Moves of one game whose results are still being timed, at most.
const MAX_IN_FLIGHT: usize = 8;
/// Reconnections to one game at most.
const MAX_RECONNECTS: u32 = 100;

type Ws = WebSocketStream<TcpStream>;

/// What every slot shares.
pub struct Shared {
    /// The run's options.
    pub opts: Options,
    /// The servers (several when they share one database): slot `i` creates its games
    /// on server `i`, and its connection `c` goes to server `i + c` (modulo their
    /// number), as a reverse proxy spreading users would.
    pub servers: Vec<SocketAddr>,
    /// Measurements.
    pub stats: Mutex<Stats>,
    /// Announced moves, for the fault checks.
    pub ledger: Ledger,
    /// Whether the server is up (fault mode lowers it around a kill and the checks).
    pub up: watch::Receiver<bool>,
    /// Raised when the run ends.
    pub stop: watch::Receiver<bool>,
    /// Hard end of the run, whatever happens.
    pub deadline: Instant,
    /// Seats of the variant.
    pub players: usize,
}

impl Shared {
    /// The server for the `i`-th slot or connection.
    pub fn server_for(&self, i: usize) -> SocketAddr {
        self.servers[i % self.servers.len()]
    }

    fn stats(&self) -> std::sync::MutexGuard<'_, Stats> {
        self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn over(&self) -> bool {
        *self.stop.borrow() || Instant::now() >= self.deadline
    }

    /// Counts a failure: expected while the server is down, an error otherwise.
    fn failure(&self, f: Failure) {
        let mut s = self.stats();
        if !*self.up.borrow() {
            s.failures_while_down += 1;
        } else {
            match f {
                Failure::Http(key) => s.http_error(key),
                Failure::Ws(what) => *s.ws_failures.entry(what.to_string()).or_default() += 1,
            }
        }
    }

    /// Waits until the server is up (or the run ends); false if the run ended.
    async fn wait_up(&self) -> bool {
        let mut up = self.up.clone();
        let mut stop = self.stop.clone();
        tokio::select! {
            r = up.wait_for(|u| *u) => r.is_ok() && !self.over(),
            _ = stopped(&mut stop) => false,
            _ = sleep_until(self.deadline) => false,
        }
    }
}

/// Resolves when the run's stop switch is raised (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is not Send: drop it here.
    let _ = stop.wait_for(|s| *s).await.map(|_| ());
}

/// A request or connection that failed.
enum Failure {
    /// An HTTP request, by status.
    Http(String),
    /// A WebSocket connection: what went wrong.
    Ws(&'static str),
}

/// How playing a game ended.
enum Outcome {
    Finished,
    Stalled,
    /// A connection broke (the server went away, or refused us).
    Lost,
    /// The run is over.
    Stop,
}

/// A created game and the tokens of its people.
struct Setup {
    id: String,
    kind: GameKind,
    /// Token per person seat.
    tokens: Vec<String>,
}

/// Runs slot `index` until the run ends.
pub async fn run_slot(shared: Arc<Shared>, index: usize) {
    let kind = if shared.opts.slot_has_ai(index) {
        GameKind::Ai
    } else {
        GameKind::People
    };
    let source = IpAddr::V4(shared.opts.source_address(index));
    let Ok(api) = Api::new(shared.server_for(index), source) else {
        shared.stats().http_error("client");
        return;
    };
    let mut rng =
        SmallRng::seed_from_u64(shared.opts.seed ^ (index as u64).wrapping_mul(0x9E37_79B9));
    // Slots start spread over the first second, as people would arrive.
    let spread = Duration::from_millis(rng.gen_range(0..1000));
    tokio::time::sleep(spread).await;
    let mut played = 0u32;
    while !shared.over() && shared.opts.games_per_slot.is_none_or(|m| played < m) {
        if !shared.wait_up().await {
            return;
        }
        let asked = Instant::now();
        let setup = match create(&shared, &api, kind).await {
            Ok(s) => s,
            Err(key) => {
                shared.failure(Failure::Http(key));
                // Back off before trying again (e.g. after 429 or 503).
                let pause = Duration::from_millis(rng.gen_range(500..1500));
                tokio::time::sleep(
                    pause.min(shared.deadline.saturating_duration_since(Instant::now())),
                )
                .await;
                continue;
            }
        };
        played += 1;
        shared.ledger.register(&setup.id, kind, &setup.tokens[0]);
        shared.stats().games_started += 1;
        let mut reconnects = 0;
        let mut asked = Some(asked);
        loop {
            match play(&shared, &setup, index, source, &mut rng, asked.take()).await {
                Outcome::Finished => {
                    shared.stats().games_finished += 1;
                    break;
                }
                Outcome::Stalled => {
                    shared.stats().games_stalled += 1;
                    break;
                }
                Outcome::Stop => return,
                Outcome::Lost => {
                    reconnects += 1;
                    if reconnects > MAX_RECONNECTS || !shared.wait_up().await {
                        break;
                    }
                    // Like the page: a short pause before reconnecting.
                    tokio::time::sleep(Duration::from_millis(rng.gen_range(50..250))).await;
                }
            }
        }
    }
}

/// Creates a game and claims its other person seats; the error is a key for counting.
async fn create(shared: &Shared, api: &Api, kind: GameKind) -> Result<Setup, String> {
    let mut seats = vec![SeatPlan::Me];
    for _ in 1..shared.players {
        seats.push(match kind {
            GameKind::People => SeatPlan::Human,
            GameKind::Ai => SeatPlan::Ai(shared.opts.ai_level),
        });
    }
    let created = api
        .create(&shared.opts.variant, &seats)
        .await
        .map_err(|e| e.key())?;
    let mut tokens: Vec<String> = created.tokens.into_iter().map(|t| t.token).collect();
    if kind == GameKind::People {
        for seat in 1..shared.players {
            let t = api.join(&created.id, seat).await.map_err(|e| e.key())?;
            tokens.push(t.token);
        }
    }
    if tokens.is_empty() {
        return Err("no_token".into());
    }
    Ok(Setup {
        id: created.id,
        kind,
        tokens,
    })
}

/// Opens a WebSocket to a game from `source`.
async fn connect(server: SocketAddr, source: IpAddr, id: &str) -> Result<Ws, String> {
    let sock = TcpSocket::new_v4().map_err(|e| e.to_string())?;
    sock.bind(SocketAddr::new(source, 0))
        .map_err(|e| e.to_string())?;
    let tcp = timeout(CONNECT_TIMEOUT, sock.connect(server))
        .await
        .map_err(|_| "connect timeout".to_string())?
        .map_err(|e| e.to_string())?;
    // Our side sends at once, so the latencies measure the server, not our Nagle.
    tcp.set_nodelay(true).map_err(|e| e.to_string())?;
    let url = format!("ws://{server}/api/games/{id}/ws");
    let (ws, _) = timeout(CONNECT_TIMEOUT, tokio_tungstenite::client_async(url, tcp))
        .await
        .map_err(|_| "handshake timeout".to_string())?
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

/// The move in flight: when it was sent and which connections have seen its result.
struct Pending {
    conn: usize,
    ply: usize,
    sent: Instant,
    move_seen: bool,
    state_seen: Vec<bool>,
}

/// An action a person will take at a given time.
struct Planned {
    conn: usize,
    at: Instant,
    ply: usize,
    action: Action,
}

/// What a person sends.
enum Action {
    /// A placement (canonical cells).
    Move(String),
    /// The pie choice `keep`.
    Pie,
    /// A request for a fresh state, after a refusal.
    Ping,
}

async fn send(sink: &mut SplitSink<Ws, Message>, msg: &ClientMsg<'_>) -> bool {
    let text = serde_json::to_string(msg).expect("client messages serialise");
    sink.send(Message::Text(text)).await.is_ok()
}

/// Plays a game over fresh connections until it ends, stalls, breaks or the run ends.
/// `asked` is when its creation was asked for, to time the start of a new game.
async fn play(
    shared: &Shared,
    setup: &Setup,
    slot: usize,
    source: IpAddr,
    rng: &mut SmallRng,
    mut asked: Option<Instant>,
) -> Outcome {
    let players = setup.tokens.len();
    let conns = players + shared.opts.spectators;
    let mut sinks = Vec::with_capacity(conns);
    let mut streams = Vec::with_capacity(conns);
    for c in 0..conns {
        let ws = match connect(shared.server_for(slot + c), source, &setup.id).await {
            Ok(ws) => ws,
            Err(_) => {
                shared.failure(Failure::Ws("cannot connect"));
                return Outcome::Lost;
            }
        };
        let (mut sink, stream) = ws.split();
        if c < players
            && !send(
                &mut sink,
                &ClientMsg::Join {
                    token: &setup.tokens[c],
                },
            )
            .await
        {
            shared.failure(Failure::Ws("send failed"));
            return Outcome::Lost;
        }
        sinks.push(sink);
        streams.push(stream.map(move |m| (c, m)));
    }
    let mut incoming = select_all(streams);
    let mut in_play = InPlay {
        shared,
        since: None,
    };
    let mut stop = shared.stop.clone();
    let mut planned: Option<Planned> = None;
    // Moves in flight; with several people, the next move may be sent before every
    // connection has seen the state after the previous one.
    let mut pending: Vec<Pending> = Vec::new();
    // The ply of the last action sent (by any of the game's people): a state for it or
    // before it must not send anything again.
    let mut acted_at: Option<usize> = None;
    let mut sends = 0u32;
    let mut last_news = Instant::now();
    loop {
        let act_at = planned.as_ref().map_or(shared.deadline, |p| p.at);
        tokio::select! {
            m = incoming.next() => {
                let (c, text) = match m {
                    Some((c, Ok(Message::Text(t)))) => (c, t),
                    Some((_, Ok(Message::Close(_)))) | None => {
                        shared.failure(Failure::Ws("closed by the server"));
                        return Outcome::Lost;
                    }
                    Some((_, Err(_))) => {
                        shared.failure(Failure::Ws("broken"));
                        return Outcome::Lost;
                    }
                    Some(_) => continue, // pings and pongs
                };
                last_news = Instant::now();
                let msg = match ServerMsg::parse(&text) {
                    Ok(m) => m,
                    Err(_) => {
                        shared.stats().ws_error("unreadable");
                        continue;
                    }
                };
                match msg {
                    ServerMsg::Move(MoveView { ply, colour, cells }) => {
                        if shared.ledger.announce(&setup.id, ply, colour, &cells) {
                            shared.stats().moves_announced += 1;
                        }
                        for p in pending.iter_mut().filter(|p| p.conn == c && p.ply == ply && !p.move_seen) {
                            p.move_seen = true;
                            shared.stats().latency(setup.kind, Metric::MoveAnswer, p.sent.elapsed());
                        }
                    }
                    ServerMsg::State(s) => {
                        if let Some(t) = asked.take() {
                            shared.stats().latency(setup.kind, Metric::GameStart, t.elapsed());
                        }
                        in_play.since.get_or_insert_with(Instant::now);
                        shared.ledger.saw_state(&setup.id, s.last_state());
                        for p in pending.iter_mut().filter(|p| s.ply > p.ply && !p.state_seen[c]) {
                            p.state_seen[c] = true;
                            let metric = if c == p.conn { Metric::StateMover } else { Metric::StateOthers };
                            shared.stats().latency(setup.kind, metric, p.sent.elapsed());
                        }
                        pending.retain(|p| !p.state_seen.iter().all(|&seen| seen));
                        if s.over {
                            return Outcome::Finished;
                        }
                        if planned.is_none() && after_last_action(s.ply, acted_at) {
                            planned = plan(&s, c, shared.opts.pace, rng);
                        }
                    }
                    ServerMsg::Error(ErrorView { code }) => {
                        // Refused: ask for a fresh state and decide again from it (after
                        // a pause if we were too fast, so the ping is not refused too).
                        if c < players {
                            let pause = if code == "rate_limited" { Duration::from_secs(1) } else { Duration::ZERO };
                            acted_at = None;
                            planned = Some(Planned { conn: c, at: Instant::now() + pause, ply: 0, action: Action::Ping });
                        }
                        shared.stats().ws_error(&code);
                    }
                    ServerMsg::Other => {}
                }
            }
            _ = sleep_until(act_at), if planned.is_some() => {
                let p = planned.take().expect("guarded");
                sends += 1;
                if sends > MAX_SENDS_PER_GAME {
                    return Outcome::Stalled;
                }
                let msg = match &p.action {
                    Action::Move(cells) => ClientMsg::Move { cells, ply: p.ply },
                    Action::Pie => ClientMsg::Pie { choice: "keep" },
                    Action::Ping => {
                        if !send(&mut sinks[p.conn], &ClientMsg::Ping).await {
                            shared.failure(Failure::Ws("send failed"));
                            return Outcome::Lost;
                        }
                        continue;
                    }
                };
                acted_at = Some(p.ply);
                // A move refused or lost in a broken connection never completes: keep few.
                if pending.len() >= MAX_IN_FLIGHT {
                    pending.remove(0);
                }
                pending.push(Pending {
                    conn: p.conn,
                    ply: p.ply,
                    sent: Instant::now(),
                    move_seen: false,
                    state_seen: vec![false; conns],
                });
                if matches!(p.action, Action::Move(_)) {
                    shared.stats().move_sent(setup.kind);
                }
                if !send(&mut sinks[p.conn], &msg).await {
                    shared.failure(Failure::Ws("send failed"));
                    return Outcome::Lost;
                }
            }
            _ = sleep_until(last_news + shared.opts.stall) => return Outcome::Stalled,
            _ = sleep_until(shared.deadline) => return Outcome::Stop,
            _ = stopped(&mut stop) => return Outcome::Stop,
        }
    }
}

/// Whether a state of event `ply` is newer than the last action of the game's people
/// (sent in the state of event `acted_at`). A state queued on one connection before
/// another person's move can arrive after it: acting on it would be refused as stale.
fn after_last_action(ply: usize, acted_at: Option<usize>) -> bool {
    acted_at.is_none_or(|a| a < ply)
}

/// Adds a game's time in play (from its first `state` on) to the run's, however
/// playing it ends.
struct InPlay<'a> {
    shared: &'a Shared,
    since: Option<Instant>,
}

impl Drop for InPlay<'_> {
    fn drop(&mut self) {
        if let Some(t) = self.since {
            self.shared.stats().play_time += t.elapsed();
        }
    }
}

/// What the person on connection `conn` does with this state, if it is their turn.
fn plan(s: &StateView, conn: usize, pace: Pace, rng: &mut SmallRng) -> Option<Planned> {
    if !s.mine_to_move() {
        return None;
    }
    let action = if s.awaiting_pie {
        Action::Pie
    } else {
        let legal = s.legal.as_ref().filter(|l| !l.is_empty())?;
        Action::Move(legal[rng.gen_range(0..legal.len())].to_string())
    };
    let think = match pace {
        Pace::Flat => Duration::ZERO,
        Pace::Human { min, max } if max > min => rng.gen_range(min..=max),
        Pace::Human { min, .. } => min,
    };
    Some(Planned {
        conn,
        at: Instant::now() + think,
        ply: s.ply,
        action,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_from_before_the_last_action_are_not_acted_on() {
        assert!(after_last_action(0, None));
        // The person on one connection moved at 0, the other at 1; the first
        // connection's state of event 0, queued before both moves, comes late.
        assert!(!after_last_action(0, Some(1)));
        assert!(!after_last_action(1, Some(1)));
        assert!(after_last_action(2, Some(1)));
    }
}
