//! Two `blokus serve` processes on one PostgreSQL database (`BLOKUS_TEST_POSTGRES`, see
//! `scripts/postgres-test-server.sh`): a game owned by one is played through the other
//! (forwarded HTTP and WebSocket); the owner is killed with SIGKILL mid-game; the other
//! takes the games over within seconds, the AI game goes on by itself, the person's game
//! finishes after a reconnect, and every announced move is kept. Every server's lobby
//! lists a game without a move that somebody has open on another server, and a game's
//! chat said through one server survives the death of the other.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

struct Serve {
    child: Child,
    port: u16,
}

impl Serve {
    fn start(database: &str) -> Serve {
        Serve::start_with(database, &[])
    }

    fn start_with(database: &str, extra: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_blokus"))
            .args(["serve", "--port", "0", "--database", database])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("blokus starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert!(line.contains("PostgreSQL"), "{line}");
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Serve { child, port }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn kill9(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh database on the test server, or `None` (with a message) without one; on CI
/// (`CI` set) a missing server fails the test instead.
async fn fresh_database(tag: &str) -> Option<String> {
    let Some(server) = std::env::var("BLOKUS_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.is_empty())
    else {
        assert!(
            std::env::var("CI").map_or(true, |v| v.is_empty() || v == "false"),
            "BLOKUS_TEST_POSTGRES is not set: on CI the PostgreSQL tests must run \
             (scripts/test.sh starts scripts/postgres-test-server.sh)"
        );
        eprintln!("skipped: BLOKUS_TEST_POSTGRES is not set (no PostgreSQL server)");
        return None;
    };
    let (client, conn) = tokio_postgres::connect(&server, tokio_postgres::NoTls)
        .await
        .expect("the test PostgreSQL server answers");
    tokio::spawn(conn);
    // Named like the server's test databases (`blokus_t{pid}_...`), which drop those of
    // ended test processes.
    let name = format!("blokus_t{}_cluster_{tag}", std::process::id());
    // One statement each: neither may run inside a transaction block.
    for sql in [
        format!("DROP DATABASE IF EXISTS {name}"),
        format!("CREATE DATABASE {name}"),
    ] {
        client.batch_execute(&sql).await.unwrap();
    }
    let (base, _) = server.rsplit_once('/').unwrap();
    Some(format!("{base}/{name}"))
}

async fn get(url: &str) -> (u16, Value) {
    let r = reqwest::get(url).await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// GET until the answer is not 503 (a game whose server died is served again once its
/// lease expires).
async fn get_served(url: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = get(url).await;
        if status != 503 {
            assert_eq!(status, 200, "{body}");
            return body;
        }
        assert!(Instant::now() < deadline, "served again within 30 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn create(server: &Serve, body: Value) -> Value {
    let r = reqwest::Client::new()
        .post(server.url("/api/games"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    r.json().await.unwrap()
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the game's socket on `server` and joins with `token`, retrying while the game
/// is between servers; answers the socket and the first state (a `ping` then asks for
/// the state again, for [`play`]).
async fn join(server: &Serve, id: &str, token: &str) -> (Ws, Value) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let url = format!("ws://127.0.0.1:{}/api/games/{id}/ws", server.port);
        if let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await {
            let join = json!({"type": "join", "token": token}).to_string();
            if ws.send(Message::Text(join)).await.is_ok() {
                while let Some(Ok(m)) = next(&mut ws).await {
                    if m["type"] == "state" && m["you"] == json!([0]) {
                        let ping = json!({"type": "ping"}).to_string();
                        ws.send(Message::Text(ping)).await.unwrap();
                        return (ws, m);
                    }
                }
            }
        }
        assert!(Instant::now() < deadline, "the game is served within 30 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The next JSON message, `None` when the socket ends; within 30 s.
async fn next(ws: &mut Ws) -> Option<Result<Value, ()>> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("a message within 30 s")?;
        match m {
            Ok(Message::Text(t)) => return Some(Ok(serde_json::from_str(&t).unwrap())),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// Plays seat 0's first legal move whenever it is to move, recording every announced
/// move by ply, until the game is over (`true`) or the socket ends (`false`), or until
/// `stop_after` plies are announced.
async fn play(ws: &mut Ws, announced: &mut Vec<(u64, Value)>, stop_after: u64) -> bool {
    while let Some(Ok(m)) = next(ws).await {
        match m["type"].as_str() {
            Some("move") => {
                let ply = m["ply"].as_u64().unwrap();
                announced.push((ply, m["cells"].clone()));
                if ply + 1 >= stop_after {
                    return false;
                }
            }
            Some("game_over") => return true,
            Some("state") if m["over"] == true => return true,
            Some("state") => {
                if let Some(mv) = m["legal"].as_array().and_then(|l| l.first()) {
                    let ply = m["ply"].clone();
                    let msg = json!({"type": "move", "cells": mv, "ply": ply}).to_string();
                    if ws.send(Message::Text(msg)).await.is_err() {
                        return false;
                    }
                }
            }
            _ => {}
        }
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_games_and_one_takes_over_when_the_other_is_killed() {
    let Some(db) = fresh_database("takeover").await else {
        return;
    };
    let mut a = Serve::start(&db);
    let b = Serve::start(&db);

    // A person against the AI, created on A, played through B: A owns the game, B
    // forwards the socket.
    let person = create(
        &a,
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]}),
    )
    .await;
    let id = person["id"].as_str().unwrap().to_string();
    let token = person["tokens"][0]["token"].as_str().unwrap().to_string();
    let (mut ws, _) = join(&b, &id, &token).await;
    let mut announced = Vec::new();
    assert!(!play(&mut ws, &mut announced, 6).await);
    assert!(announced.len() >= 5, "{announced:?}");

    // Four AIs play on A; read through B, the game is under way.
    let ais: Vec<Value> = (0..4).map(|_| json!({"kind": "ai", "level": 3})).collect();
    let ai_game = create(&a, json!({"variant": "classic", "seats": ais})).await;
    let ai_id = ai_game["id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    let before = loop {
        let (status, s) = get(&b.url(&format!("/api/games/{ai_id}"))).await;
        assert_eq!(status, 200, "{s}");
        if s["ply"].as_u64().unwrap() >= 2 {
            break s;
        }
        assert!(Instant::now() < deadline, "the AIs play");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(before["over"], false, "killed mid-game");

    a.kill9();

    // The person's socket ends; through B again, the game goes on and finishes.
    while play(&mut ws, &mut announced, u64::MAX).await {}
    let (mut ws, state) = join(&b, &id, &token).await;
    let kept = state["moves"].as_array().unwrap().clone();
    for (ply, cells) in &announced {
        let m = &kept[*ply as usize];
        let mut a: Vec<String> = serde_json::from_value(m["cells"].clone()).unwrap();
        let mut c: Vec<String> = serde_json::from_value(cells.clone()).unwrap();
        a.sort();
        c.sort();
        assert_eq!(a, c, "move {ply} is kept");
    }
    let mut after = Vec::new();
    assert!(
        play(&mut ws, &mut after, u64::MAX).await,
        "the game finishes on B"
    );

    // The AI game goes on by itself on B, keeping every move made on A.
    let seen = before["moves"].as_array().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = get_served(&b.url(&format!("/api/games/{ai_id}"))).await;
        let done = s["moves"].as_array().unwrap();
        assert!(done.len() >= seen.len());
        assert_eq!(
            &done[..seen.len()],
            &seen[..],
            "the moves made on A are kept"
        );
        if done.len() > seen.len() + 4 || s["over"] == true {
            break;
        }
        assert!(Instant::now() < deadline, "the AI game goes on on B");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // The lobby (read from the database) lists the person's game as finished.
    let (_, lists) = get(&b.url("/api/games")).await;
    let finished: Vec<&str> = lists["finished"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert!(finished.contains(&id.as_str()), "{lists}");
}

/// The ids of the running games in a server's lobby.
async fn running(server: &Serve) -> Vec<String> {
    let (status, lists) = get(&server.url("/api/games")).await;
    assert_eq!(status, 200, "{lists}");
    lists["running"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["id"].as_str().map(String::from))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lobby_lists_games_open_elsewhere_and_chat_survives_the_owner() {
    let Some(db) = fresh_database("social").await else {
        return;
    };
    // Games without a move leave the lobbies after 1.2 s unless somebody has them open.
    let mut a = Serve::start_with(&db, &["--abandoned-after", "0.02"]);
    let b = Serve::start_with(&db, &["--abandoned-after", "0.02"]);
    let people = json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "hotseat"}]});
    let open = create(&a, people.clone()).await;
    let open_id = open["id"].as_str().unwrap().to_string();
    let token = open["tokens"][0]["token"].as_str().unwrap().to_string();
    let left = create(&a, people).await;
    let left_id = left["id"].as_str().unwrap().to_string();

    // Ada opens her game through B: A owns it, so only A knows she is there.
    let (mut ws, _) = join(&b, &open_id, &token).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (on_a, on_b) = (running(&a).await, running(&b).await);
        if !on_b.contains(&left_id) && on_b.contains(&open_id) {
            assert!(on_a.contains(&open_id), "{on_a:?}");
            assert!(!on_a.contains(&left_id), "{on_a:?}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "B lists the game open on A and drops the abandoned one: {on_b:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // She chats (through B, into A's room); A dies; B serves the game with the line.
    ws.send(Message::Text(
        json!({"type": "chat", "text": "anyone?"}).to_string(),
    ))
    .await
    .unwrap();
    while let Some(Ok(m)) = next(&mut ws).await {
        if m["type"] == "chat" {
            assert_eq!(m["text"], "anyone?");
            break;
        }
    }
    a.kill9();
    drop(ws);
    let deadline = Instant::now() + Duration::from_secs(30);
    let (_ws, history) = 'served: loop {
        let url = format!("ws://127.0.0.1:{}/api/games/{open_id}/ws", b.port);
        if let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await {
            let join = json!({"type": "join", "token": token}).to_string();
            if ws.send(Message::Text(join)).await.is_ok() {
                while let Some(Ok(m)) = next(&mut ws).await {
                    if m["type"] == "chat_history" && m["channel"] == "players" {
                        break 'served (ws, m);
                    }
                }
            }
        }
        assert!(Instant::now() < deadline, "B serves the game within 30 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(history["lines"][0]["text"], "anyone?", "{history}");
    // B now owns it and knows it is open (Ada's socket is there).
    assert!(running(&b).await.contains(&open_id));
}
