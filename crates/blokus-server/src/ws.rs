//! One WebSocket connection: a reader that checks size, rate and syntax before anything
//! reaches the room, and a writer that forwards the room's messages. The connection
//! closes (with a close frame saying why) when the client floods, sends an oversize
//! message, stops answering pings, or when the room lets it go (too slow a reader).

use std::net::IpAddr;
use std::time::{Duration, Instant};

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit};

use crate::hub::Hub;
use crate::listen::Slot;
use crate::protocol::{ClientMsg, ErrorCode, Refusal, ServerMsg};
use crate::room::{Goodbye, Outgoing, RoomMsg, OUTBOX};

/// A token bucket: `rate` tokens per second on average, bursts up to `burst`.
pub struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            last: Instant::now(),
            rate,
            burst,
        }
    }

    fn refill(&mut self, now: Instant) {
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
    }

    /// Whether the bucket has refilled completely by `now`.
    pub fn is_full(&self, now: Instant) -> bool {
        self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate >= self.burst
    }

    /// Takes one token if there is one.
    pub fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether a token is left (without taking it).
    pub fn has(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= 1.0
    }

    /// Takes `n` tokens, going into debt down to minus one burst: a client that spends
    /// far beyond its allowance waits longer.
    pub fn spend(&mut self, now: Instant, n: f64) {
        self.refill(now);
        self.tokens = (self.tokens - n).max(-self.burst);
    }
}

fn error(code: ErrorCode, message: &str) -> Outgoing {
    ServerMsg::error(&Refusal::new(code, message))
}

/// Why the server closes a connection.
fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.to_string().into(),
    }))
}

/// What a connection holds while it lives: its share of the server's and of its
/// address's connections.
pub struct Permits {
    /// One of the server's connections.
    pub server: OwnedSemaphorePermit,
    /// One of its address's connections.
    pub address: Slot,
}

/// Serves one connection to a room until either side closes.
pub async fn connection(socket: WebSocket, id: String, hub: Hub, ip: IpAddr, _permits: Permits) {
    let conn = hub.conn_id();
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = mpsc::channel::<Outgoing>(OUTBOX);
    // Completes when the room lets this connection go (e.g. its outbox overflowed).
    let (alive, mut released) = oneshot::channel::<Goodbye>();
    // Through the hub, so a room evicted meanwhile is loaded again; once connected, the
    // room stays in memory until this connection leaves.
    let (reply, answer) = oneshot::channel();
    let connect = RoomMsg::Connect {
        conn,
        ip,
        out: out_tx.clone(),
        alive,
        reply,
    };
    let connected = match hub.send(&id, connect).await {
        Ok(room) => match answer.await {
            Ok(Ok(())) => Ok(room),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(crate::AppError::Internal("the game room stopped".into())),
        },
        Err(e) => Err(e),
    };
    let room = match connected {
        Ok(room) => room,
        Err(e) => {
            let _ = sink
                .send(Message::Text(ServerMsg::error(&e.refusal()).to_string()))
                .await;
            let _ = sink.close().await;
            return;
        }
    };
    // The reader asks the writer to close with a reason.
    let (close_tx, mut close_rx) = oneshot::channel::<Message>();
    let ping_every = hub.limits.ws_ping_every;
    let mut writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(ping_every);
        ping.tick().await;
        let last = loop {
            tokio::select! {
                // A reason to close comes first: the room lets go of the connection when
                // it leaves, and that must not read as "too slow".
                biased;
                m = &mut close_rx => {
                    // What was queued before the reason (e.g. the rate-limit errors that
                    // led to it) goes out first.
                    while let Ok(text) = out_rx.try_recv() {
                        let send = sink.send(Message::Text(text.to_string()));
                        if !matches!(tokio::time::timeout(CLOSE_WAIT, send).await, Ok(Ok(()))) {
                            break;
                        }
                    }
                    break m.ok();
                }
                m = out_rx.recv() => match m {
                    // A client that does not read blocks this send: the room then lets
                    // the connection go, which must end the wait too.
                    Some(text) => tokio::select! {
                        r = sink.send(Message::Text(text.to_string())) => if r.is_err() { return },
                        r = &mut released => break Some(goodbye(r.ok())),
                    },
                    None => break None,
                },
                _ = ping.tick() => if sink.send(Message::Ping(Vec::new())).await.is_err() { return },
                r = &mut released => break Some(goodbye(r.ok())),
            }
        };
        // A socket that is full takes no close frame either: then it is just dropped.
        if let Some(m) = last {
            let _ = tokio::time::timeout(CLOSE_WAIT, sink.send(m)).await;
        }
        let _ = tokio::time::timeout(CLOSE_WAIT, sink.close()).await;
    });
    let mut bucket = Bucket::new(hub.limits.msgs_per_second, hub.limits.msg_burst);
    let mut strikes = 0u32;
    let idle = hub.limits.ws_idle;
    let mut writer_done = false;
    let ending = loop {
        let next = tokio::select! {
            n = tokio::time::timeout(idle, stream.next()) => n,
            // The writer ended (socket gone or the room let go): stop reading too.
            _ = &mut writer => {
                writer_done = true;
                break None;
            }
        };
        let msg = match next {
            Err(_) => break Some(close(close_code::AWAY, "no answer to pings")),
            Ok(None) => break None,
            Ok(Some(Err(e))) => break Some(read_error(&e)),
            Ok(Some(Ok(m))) => m,
        };
        let text = match msg {
            Message::Close(_) => break None,
            // Pongs (and pings) show the client is alive; they cost nothing.
            Message::Ping(_) | Message::Pong(_) => continue,
            m => m,
        };
        // Every data frame, text or binary, counts against the rate.
        if !bucket.take(Instant::now()) {
            strikes += 1;
            if strikes > 50 {
                break Some(close(close_code::POLICY, "too many messages"));
            }
            let _ = out_tx.try_send(error(
                ErrorCode::RateLimited,
                "too many messages; slow down",
            ));
            continue;
        }
        let Message::Text(text) = text else {
            let _ = out_tx.try_send(error(
                ErrorCode::Malformed,
                "binary messages are not supported; send JSON text",
            ));
            continue;
        };
        match serde_json::from_str::<ClientMsg>(&text) {
            Ok(msg) => {
                if room.send(RoomMsg::Client { conn, msg }).await.is_err() {
                    break None;
                }
            }
            Err(e) => {
                let _ = out_tx.try_send(error(
                    ErrorCode::Malformed,
                    &format!("cannot read the message: {e}"),
                ));
            }
        }
    };
    if let Some(frame) = ending {
        let _ = close_tx.send(frame);
        // The closing handshake: read (and drop) what the client still sends until its
        // close frame, for a moment, so the socket is not reset with unread data (which
        // would destroy the close frame on its way to the client).
        let _ = tokio::time::timeout(CLOSE_WAIT * 2, async {
            while let Some(Ok(m)) = stream.next().await {
                if matches!(m, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    let _ = room.send(RoomMsg::Disconnect { conn }).await;
    drop(out_tx);
    // Give the writer a moment to send its close frame, then end it.
    if !writer_done
        && tokio::time::timeout(CLOSE_WAIT * 2, &mut writer)
            .await
            .is_err()
    {
        writer.abort();
    }
}

/// How long a close frame may take to go out.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// The close frame when the room lets the connection go: on purpose (`Some`), or
/// because its messages piled up (`None`: the room dropped it).
fn goodbye(why: Option<Goodbye>) -> Message {
    match why {
        Some(Goodbye::Restart) => close(close_code::RESTART, "the server is restarting"),
        None => close(
            close_code::POLICY,
            "too slow: messages were piling up; reconnect for a fresh state",
        ),
    }
}

/// The close frame for a failed read: an oversize message gets 1009, anything else is a
/// protocol error.
fn read_error(e: &axum::Error) -> Message {
    let text = e.to_string();
    if text.contains("too long") || text.contains("too big") || text.contains("Space limit") {
        close(close_code::SIZE, "message too large")
    } else {
        close(close_code::PROTOCOL, "cannot read the message")
    }
}
