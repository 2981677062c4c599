//! Accepting HTTP/1.1 connections: `TCP_NODELAY` on every socket (a `state` must not wait for
//! the client's delayed ACK), a cap on the connections one address holds open, a
//! deadline for request headers (which also closes silent and idle keep-alive
//! connections), and graceful shutdown (requests in progress finish, idle connections
//! close).

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// Open HTTP connections per client address (WebSockets are counted by the hub).
#[derive(Clone, Default)]
pub struct PerAddress {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One connection counted against its address until dropped.
pub struct Slot {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    ip: IpAddr,
}

impl PerAddress {
    /// Counts a connection of `ip`, unless it already holds `cap`.
    pub fn take(&self, ip: IpAddr, cap: usize) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Slot {
            open: self.open.clone(),
            ip,
        })
    }

    /// Connections of `ip` now.
    pub fn count(&self, ip: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.get(&ip).copied().unwrap_or(0)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Settings of the accept loop.
#[derive(Clone, Debug)]
pub struct Accept {
    /// Connections one address may hold open at once.
    pub per_address: usize,
    /// Addresses without that cap: trusted reverse proxies, which carry many clients.
    pub uncapped: crate::client_address::TrustedProxies,
    /// Time a client has to send a request's headers, and that an idle keep-alive
    /// connection stays open.
    pub header_timeout: Duration,
}

/// Readies an accepted socket: no Nagle delay.
pub fn prepare(stream: &TcpStream) -> std::io::Result<()> {
    stream.set_nodelay(true)
}

/// Serves `app` on `listener` until `stop` completes, then lets the requests in
/// progress finish (at most `drain`) and returns.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    accept: Accept,
    stop: impl Future<Output = ()> + Send + 'static,
    drain: Duration,
) {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(accept.header_timeout);
    // Told to every connection when the server stops; each holds a `done` sender, so
    // the receiver ends when the last connection has ended.
    let (stopping_tx, stopping) = tokio::sync::watch::channel(false);
    let (done, mut all_done) = tokio::sync::mpsc::channel::<()>(1);
    let per_address = PerAddress::default();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                // Out of descriptors or similar: wait a little instead of spinning.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let cap = if accept.uncapped.contains(peer.ip()) {
            usize::MAX
        } else {
            accept.per_address
        };
        let Some(slot) = per_address.take(peer.ip(), cap) else {
            // Closing at once is the cheapest answer to an address that hoards sockets.
            drop(stream);
            continue;
        };
        let _ = prepare(&stream);
        let service = app
            .clone()
            .map_request(move |mut req: hyper::Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                req
            });
        let conn = builder
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
            .with_upgrades();
        let mut stopping = stopping.clone();
        let done = done.clone();
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = async { stopping.wait_for(|s| *s).await.map(|_| ()) } => {
                    // Finish the request in progress, then close.
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(slot);
            drop(done);
        });
    }
    drop(listener);
    let _ = stopping_tx.send(true);
    drop(done);
    let _ = tokio::time::timeout(drain, all_done.recv()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_cap_and_gets_slots_back() {
        let per = PerAddress::default();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let s1 = per.take(a, 2).unwrap();
        let _s2 = per.take(a, 2).unwrap();
        assert!(per.take(a, 2).is_none());
        assert!(per.take(b, 2).is_some());
        drop(s1);
        assert_eq!(per.count(a), 1);
        assert!(per.take(a, 2).is_some());
    }

    #[tokio::test]
    async fn accepted_sockets_send_without_delay() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::spawn(TcpStream::connect(addr));
        let (stream, _) = listener.accept().await.unwrap();
        assert!(!stream.nodelay().unwrap());
        prepare(&stream).unwrap();
        assert!(stream.nodelay().unwrap());
        drop(client.await);
    }
}
