//! One WebSocket connection: a reader that checks size, rate and syntax before anything
//! reaches the room, and a writer that forwards the room's messages.

use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, OwnedSemaphorePermit};

use crate::hub::Hub;
use crate::protocol::{ClientMsg, ErrorCode, Refusal, ServerMsg};
use crate::room::{Outgoing, RoomMsg, OUTBOX};

/// A token bucket: `rate` messages per second on average, bursts up to `burst`.
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

    /// Whether the bucket has refilled completely by `now`.
    pub fn is_full(&self, now: Instant) -> bool {
        self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate >= self.burst
    }

    /// Takes one token if there is one.
    pub fn take(&mut self, now: Instant) -> bool {
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn error(code: ErrorCode, message: &str) -> Outgoing {
    ServerMsg::error(&Refusal::new(code, message))
}

/// Serves one connection to a room until either side closes.
pub async fn connection(socket: WebSocket, id: String, hub: Hub, _permit: OwnedSemaphorePermit) {
    let conn = hub.conn_id();
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = mpsc::channel::<Outgoing>(OUTBOX);
    // Through the hub, so a room evicted meanwhile is loaded again; once connected, the
    // room stays in memory until this connection leaves.
    let (reply, answer) = tokio::sync::oneshot::channel();
    let connect = RoomMsg::Connect {
        conn,
        out: out_tx.clone(),
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
    let writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(Duration::from_secs(25));
        ping.tick().await;
        loop {
            tokio::select! {
                m = out_rx.recv() => match m {
                    Some(text) => if sink.send(Message::Text(text.to_string())).await.is_err() { break },
                    None => break,
                },
                _ = ping.tick() => if sink.send(Message::Ping(Vec::new())).await.is_err() { break },
            }
        }
        let _ = sink.close().await;
    });
    let mut bucket = Bucket::new(hub.limits.msgs_per_second, hub.limits.msg_burst);
    let mut strikes = 0u32;
    while let Some(Ok(msg)) = stream.next().await {
        let text = match msg {
            Message::Text(t) => t,
            Message::Binary(_) => {
                let _ = out_tx.try_send(error(
                    ErrorCode::Malformed,
                    "binary messages are not supported; send JSON text",
                ));
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !bucket.take(Instant::now()) {
            strikes += 1;
            if strikes > 50 {
                break; // a client that keeps flooding is cut off
            }
            let _ = out_tx.try_send(error(
                ErrorCode::RateLimited,
                "too many messages; slow down",
            ));
            continue;
        }
        match serde_json::from_str::<ClientMsg>(&text) {
            Ok(msg) => {
                if room.send(RoomMsg::Client { conn, msg }).await.is_err() {
                    break;
                }
            }
            Err(e) => {
                let _ = out_tx.try_send(error(
                    ErrorCode::Malformed,
                    &format!("cannot read the message: {e}"),
                ));
            }
        }
    }
    let _ = room.send(RoomMsg::Disconnect { conn }).await;
    drop(out_tx);
    writer.abort();
}
