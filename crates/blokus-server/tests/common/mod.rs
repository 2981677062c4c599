//! A server on its own thread and runtime, on a temporary data directory, that can be
//! killed abruptly (its runtime is dropped with every task in flight) and restarted.
//!
//! With `BLOKUS_TEST_BACKEND=postgres` (and `BLOKUS_TEST_POSTGRES` the URL of a server
//! where databases may be created, see `scripts/postgres-test-server.sh`), every test
//! server keeps its games in PostgreSQL instead: one database per data directory, so a
//! restart on the same directory finds its games again. Test databases are named after
//! the test process (`blokus_t{pid}_...`); the first database a process creates drops
//! those of test processes that have ended, so repeated runs do not fill the disk.

#![allow(dead_code, unused_imports)]

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

mod browser;
pub use browser::*;

/// A running server.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server on a free port over `data`.
    pub fn start(data: &Path) -> TestServer {
        TestServer::start_with(data, blokus_server::Limits::default())
    }

    /// Starts a server with these limits.
    pub fn start_with(data: &Path, limits: blokus_server::Limits) -> TestServer {
        TestServer::start_on(database_for(data), limits)
    }

    /// Starts a server on this database with these limits.
    pub fn start_on(
        database: blokus_server::Database,
        limits: blokus_server::Limits,
    ) -> TestServer {
        TestServer::start_behind(database, limits, Vec::new())
    }

    /// Starts a server on this database with these limits, believing the forwarding
    /// headers of these reverse proxies.
    pub fn start_behind(
        database: blokus_server::Database,
        limits: blokus_server::Limits,
        trusted_proxies: Vec<std::net::IpAddr>,
    ) -> TestServer {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let listener = rt
                .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
                .unwrap();
            addr_tx.send(listener.local_addr().unwrap()).unwrap();
            let config = blokus_server::Config {
                host: "127.0.0.1".into(),
                port: 0,
                database,
                advertise: None,
                trusted_proxies,
                limits,
            };
            rt.spawn(async move {
                blokus_server::serve_listener(listener, config)
                    .await
                    .unwrap();
            });
            let _ = stop_rx.recv();
            // Like kill -9: every task is dropped wherever it is.
            rt.shutdown_background();
        });
        let addr = addr_rx.recv().unwrap();
        TestServer {
            addr,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Stops the server abruptly.
    pub fn kill(mut self) {
        self.stop.take();
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The PostgreSQL server of the tests (`BLOKUS_TEST_POSTGRES`), if any.
pub fn postgres_server() -> Option<String> {
    std::env::var("BLOKUS_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
}

/// Whether the tests run on PostgreSQL (`BLOKUS_TEST_BACKEND=postgres`).
pub fn on_postgres() -> bool {
    std::env::var("BLOKUS_TEST_BACKEND").is_ok_and(|b| b == "postgres")
}

/// The database of a test server on `data`: its SQLite folder, or (on PostgreSQL) a
/// database named after the folder, created on first use.
pub fn database_for(data: &Path) -> blokus_server::Database {
    if !on_postgres() {
        return blokus_server::Database::Sqlite(data.to_path_buf());
    }
    let server = postgres_server()
        .expect("BLOKUS_TEST_BACKEND=postgres needs BLOKUS_TEST_POSTGRES (a postgres:// URL)");
    let name = format!(
        "dir_{}",
        data.to_string_lossy()
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b))
                .wrapping_mul(0x100_0000_01b3))
    );
    blokus_server::Database::Postgres(create_database(&server, &name))
}

/// The prefix of the databases this test process creates.
fn own_prefix() -> String {
    format!("blokus_t{}_", std::process::id())
}

/// Creates the database `blokus_t{pid}_{tag}` on the PostgreSQL server at `server`
/// (unless it exists) and answers its URL.
pub fn create_database(server: &str, tag: &str) -> String {
    let name = format!("{}{tag}", own_prefix());
    // On a thread of its own: callers may be inside a runtime already.
    let (s, n) = (server.to_string(), name.clone());
    std::thread::spawn(move || create_database_now(&s, &n))
        .join()
        .unwrap();
    let (base, _) = server.rsplit_once('/').expect("a URL with a database");
    format!("{base}/{name}")
}

/// The process id in a test database's name, if it is one (`blokus_t{pid}_...`).
fn test_process_of(database: &str) -> Option<u32> {
    database
        .strip_prefix("blokus_t")?
        .split('_')
        .next()?
        .parse()
        .ok()
}

/// Drops the test databases whose process has ended (once per test process).
async fn drop_stale_databases(client: &tokio_postgres::Client) {
    static SWEPT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if SWEPT.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    let names: Vec<String> = client
        .query(
            "SELECT datname::text FROM pg_database WHERE datname LIKE 'blokus\\_t%'",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    for name in names {
        let Some(pid) = test_process_of(&name) else {
            continue;
        };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        // Another process may be sweeping too: a database already gone is fine.
        let _ = client
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .await;
    }
}

fn create_database_now(server: &str, name: &str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (client, conn) = tokio_postgres::connect(server, tokio_postgres::NoTls)
            .await
            .expect("the test PostgreSQL server answers");
        tokio::spawn(conn);
        drop_stale_databases(&client).await;
        let exists = client
            .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
            .await
            .unwrap()
            .is_some();
        if !exists {
            client
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .await
                .unwrap();
        }
    });
}

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a game's WebSocket.
pub async fn ws(server: &TestServer, id: &str) -> Ws {
    let (ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", server.addr))
            .await
            .unwrap();
    ws
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string())).await.unwrap();
}

pub async fn send_raw(ws: &mut Ws, text: &str) {
    ws.send(Message::Text(text.to_string())).await.unwrap();
}

/// The next JSON message (skipping pings), within 20 s.
pub async fn next(ws: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message within 20 s")
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// Reads until a message matching `pred`.
pub async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let m = next(ws).await;
        if pred(&m) {
            return m;
        }
    }
    panic!("no matching message");
}

pub fn is_state(m: &Value) -> bool {
    m["type"] == "state"
}

pub fn is_error(m: &Value) -> bool {
    m["type"] == "error"
}

pub async fn post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

pub async fn get(server: &TestServer, path: &str) -> (u16, Value) {
    let r = reqwest::get(server.url(path)).await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// A GET that waits while the answer is 503 (on PostgreSQL, a game of a server that
/// crashed is served again when its lease expires, within seconds), for up to 20 s.
pub async fn get_when_served(server: &TestServer, path: &str) -> (u16, Value) {
    for _ in 0..100 {
        let (status, body) = get(server, path).await;
        if status != 503 {
            return (status, body);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    get(server, path).await
}

/// The seat token of `seat` in the answer to a game's creation.
pub fn token_of(created: &Value, seat: usize) -> String {
    created["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["seat"] == seat)
        .unwrap_or_else(|| panic!("no token for seat {seat}: {created}"))["token"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Creates a game, which must succeed: its id and the creation's answer (with the seat
/// tokens).
pub async fn create_game(server: &TestServer, body: Value) -> (String, Value) {
    let (status, created) = post(server, "/api/games", body).await;
    assert_eq!(status, 201, "{created}");
    (created["id"].as_str().unwrap().to_string(), created)
}

/// Claims the seat a game keeps for a person by link: its token.
pub async fn claim_seat(server: &TestServer, id: &str) -> String {
    let (status, joined) = post(
        server,
        &format!("/api/games/{id}/join"),
        serde_json::json!({}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    joined["token"].as_str().unwrap().to_string()
}

/// Opens a game's WebSocket and takes the seats of `tokens`: the socket and the first
/// state that shows them taken.
pub async fn join(server: &TestServer, id: &str, tokens: &[String]) -> (Ws, Value) {
    let mut socket = ws(server, id).await;
    send(
        &mut socket,
        serde_json::json!({"type": "join", "tokens": tokens}),
    )
    .await;
    let state = until(&mut socket, |m| {
        is_state(m) && m["you"].as_array().is_some_and(|y| y.len() == tokens.len())
    })
    .await;
    (socket, state)
}

/// Plays the first legal move for every seat `tokens` hold until the game is over
/// (the AI plays the others); answers the final state.
pub async fn play_to_end(server: &TestServer, id: &str, tokens: Vec<String>) -> Value {
    let mut a = ws(server, id).await;
    send(&mut a, json!({"type": "join", "tokens": tokens})).await;
    // A state can come twice for one ply (a connection of the table comes or goes):
    // each ply is answered once.
    let mut answered = None;
    loop {
        let s = next(&mut a).await;
        assert!(!is_error(&s), "{s}");
        if !is_state(&s) {
            continue;
        }
        if s["over"] == true {
            return s;
        }
        let ply = s["ply"].as_u64();
        if answered == ply || !s["legal"].is_array() {
            continue;
        }
        if s["awaiting_pie"] == true {
            send(&mut a, json!({"type": "pie", "choice": "keep"})).await;
            answered = ply;
        } else if let Some(first) = s["legal"].as_array().and_then(|l| l.first()) {
            send(&mut a, json!({"type": "move", "cells": first, "ply": ply})).await;
            answered = ply;
        }
    }
}

/// A Duo game between two quick AI seats, played to the end.
pub async fn finished_game(server: &TestServer) -> String {
    finished_ai_game(server, "duo").await
}

/// A game of `variant` between quick AI seats (one per player), played to the end.
pub async fn finished_ai_game(server: &TestServer, variant: &str) -> String {
    let players = blokus_core::Rules::by_name(variant).unwrap().v().players;
    let seats = vec![json!({"kind": "ai", "level": 1}); players];
    let (status, created) = post(
        server,
        "/api/games",
        json!({"variant": variant, "seats": seats}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for _ in 0..1200 {
        let (_, state) = get(server, &format!("/api/games/{id}")).await;
        if state["over"] == true {
            return id;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the AI game did not finish");
}

/// Polls the analysis until it is done.
pub async fn analysis_done(server: &TestServer, id: &str) -> Value {
    let mut last = Value::Null;
    for _ in 0..1200 {
        let (status, a) = get(server, &format!("/api/games/{id}/analysis")).await;
        assert_eq!(status, 200, "{a}");
        if a["status"] == "done" {
            return a;
        }
        assert!(a["status"] == "queued" || a["status"] == "running", "{a}");
        assert!(a["done"].as_u64().unwrap() <= a["total"].as_u64().unwrap());
        last = a;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the analysis did not finish: {last}");
}
