//! The defects found by probing the server from outside (issue 15), each checked over
//! real sockets on 127.0.0.1 in bounded loops: caps per address, timeouts, slow readers,
//! rate limits on every frame, error bodies, token guessing, security headers, the room
//! limit, and AI games resumed after a crash.

mod common;

use std::time::{Duration, Instant};

use blokus_server::seats::{new_game_id, new_token, AiLevel, GameStatus, Seat, SeatKind};
use blokus_server::store::Store;
use blokus_server::Limits;
use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

async fn hotseat_game(server: &TestServer) -> (String, Vec<String>) {
    let (status, created) = post(
        server,
        "/api/games",
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "hotseat"}]}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let tokens = created["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["token"].as_str().unwrap().to_string())
        .collect();
    (created["id"].as_str().unwrap().to_string(), tokens)
}

/// Reads until the server closes the socket; the close frame's code, if it sent one.
/// Panics if it stays open for `within`.
async fn closed_within<S>(
    ws: &mut tokio_tungstenite::WebSocketStream<S>,
    within: Duration,
) -> Option<u16>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, ws.next()).await {
            Err(_) => panic!("the connection is still open after {within:?}"),
            Ok(None) | Ok(Some(Err(_))) => return None,
            Ok(Some(Ok(Message::Close(f)))) => return f.map(|f| u16::from(f.code)),
            Ok(Some(Ok(_))) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_take_every_websocket() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits::default();
    let server = TestServer::start_with(dir.path(), limits);
    let (a, _) = hotseat_game(&server).await;
    let (b, _) = hotseat_game(&server).await;
    let mut open = Vec::new();
    for i in 0..limits.ws_per_address {
        let id = if i % 2 == 0 { &a } else { &b };
        open.push(ws(&server, id).await);
    }
    let refused =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{a}/ws", server.addr)).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status().as_u16(), 429)
        }
        other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
    }
    // A socket given back makes room again.
    drop(open.pop());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let r = tokio_tungstenite::connect_async(format!("ws://{}/api/games/{a}/ws", server.addr))
            .await;
        if r.is_ok() {
            break;
        }
        assert!(Instant::now() < deadline, "the slot comes back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_answering_pings_is_disconnected() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        ws_ping_every: Duration::from_millis(200),
        ws_idle: Duration::from_millis(800),
        ..Limits::default()
    };
    let server = TestServer::start_with(dir.path(), limits);
    let (id, _) = hotseat_game(&server).await;
    let mut silent = ws(&server, &id).await;
    // Not reading means not answering the server's pings.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        closed_within(&mut silent, Duration::from_secs(10)).await,
        Some(1001)
    );
    // A client that reads (and so answers pings) stays.
    let mut live = ws(&server, &id).await;
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        if let Ok(m) = tokio::time::timeout(Duration::from_millis(100), live.next()).await {
            assert!(!matches!(m, None | Some(Ok(Message::Close(_)))), "{m:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_half_sent_http_requests_time_out_and_an_address_holds_few() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        header_timeout: Duration::from_millis(500),
        http_per_address: 20,
        ..Limits::default()
    };
    let server = TestServer::start_with(dir.path(), limits);
    let mut socks = Vec::new();
    for i in 0..20 {
        let mut s = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        if i % 2 == 1 {
            s.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n")
                .await
                .unwrap();
        }
        socks.push(s);
    }
    // Over the cap: closed at once.
    let mut extra = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut buf = [0u8; 64];
    let n = tokio::time::timeout(Duration::from_secs(5), extra.read(&mut buf))
        .await
        .expect("the extra connection is closed")
        .unwrap_or(0);
    assert_eq!(n, 0);
    // The silent and half-sent ones are closed after the header deadline.
    for mut s in socks {
        let r = tokio::time::timeout(Duration::from_secs(10), async {
            let mut buf = Vec::new();
            s.read_to_end(&mut buf).await
        })
        .await;
        assert!(r.is_ok(), "a silent connection stays open");
    }
    // Once they are gone, the address is served again.
    let (status, _) = get(&server, "/api/variants").await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_too_slow_for_its_room_is_disconnected_and_joins_do_not_spam() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        msgs_per_second: 100_000.0,
        msg_burst: 100_000.0,
        ..Limits::default()
    };
    let server = TestServer::start_with(dir.path(), limits);
    let (id, tokens) = hotseat_game(&server).await;

    // Joining again with the same seat changes nobody's view: one state to the
    // spectator for the first join, none for the repeats.
    let mut spectator = ws(&server, &id).await;
    until(&mut spectator, is_state).await;
    let mut player = ws(&server, &id).await;
    for _ in 0..5 {
        send(&mut player, json!({"type": "join", "token": tokens[0]})).await;
    }
    send(&mut spectator, json!({"type": "ping"})).await;
    let mut states = 0;
    loop {
        let m = next(&mut spectator).await;
        if is_state(&m) {
            states += 1;
            if m["seats"][0]["connected"] == true && states >= 2 {
                break;
            }
        }
        assert!(states <= 2, "repeated joins re-sent the state: {states}");
    }

    // A reader with a tiny receive buffer that never reads.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(2048).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let (mut slow, _) =
        tokio_tungstenite::client_async(format!("ws://{}/api/games/{id}/ws", server.addr), stream)
            .await
            .unwrap();
    // It plays Blue, the side to move: every state it is sent carries the 414 legal
    // moves (some 10 KB).
    slow.send(Message::Text(
        json!({"type": "join", "token": tokens[0]}).to_string(),
    ))
    .await
    .unwrap();
    // Changes that concern everybody: whether the other seat is connected alternates.
    // The player reads every state, so only the slow reader falls behind.
    for i in 0..4000 {
        let token = if i % 2 == 0 { &tokens[1] } else { &tokens[0] };
        send(&mut player, json!({"type": "join", "token": token})).await;
        until(&mut player, is_state).await;
    }
    closed_within(&mut slow, Duration::from_secs(30)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_frames_count_against_the_rate_and_floods_are_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, _) = hotseat_game(&server).await;
    let mut a = ws(&server, &id).await;
    for _ in 0..200 {
        if a.send(Message::Binary(vec![1, 2, 3])).await.is_err() {
            break;
        }
    }
    let mut limited = false;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout(deadline - Instant::now(), a.next()).await {
            Err(_) => panic!("a flood of binary frames is never cut off"),
            Ok(Some(Ok(Message::Text(t)))) => {
                limited |= t.contains("rate_limited");
            }
            Ok(Some(Ok(Message::Close(f)))) => {
                assert_eq!(f.map(|f| u16::from(f.code)), Some(1008));
                break;
            }
            Ok(None) | Ok(Some(Err(_))) => break,
            Ok(Some(Ok(_))) => {}
        }
    }
    assert!(limited, "binary frames were not rate limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_has_the_documented_body() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, _) = hotseat_game(&server).await;
    let client = reqwest::Client::new();
    let cases = [
        (
            client
                .post(server.url("/api/games"))
                .header("content-type", "application/json")
                .body("x".repeat(64 * 1024)),
            413,
            "too_large",
        ),
        (
            client.get(server.url(&format!("/api/games/{id}?legal=many"))),
            400,
            "bad_request",
        ),
        (
            client.get(server.url("/api/nothing/here")),
            404,
            "not_found",
        ),
        (
            client.delete(server.url("/api/games")),
            405,
            "method_not_allowed",
        ),
        (
            client
                .post(server.url("/api/puzzles/all_84/check"))
                .header("content-type", "application/json")
                .body(r#"{"placements": 3}"#),
            400,
            "bad_request",
        ),
        (
            client
                .post(server.url("/api/puzzles/all_84/hint"))
                .body(r#"{"placements": []}"#),
            400,
            "bad_request",
        ),
    ];
    for (req, status, code) in cases {
        let r = req.send().await.unwrap();
        let url = r.url().to_string();
        assert_eq!(r.status().as_u16(), status, "{url}");
        if status == 413 {
            // The unread rest of the body ends the connection: the client is told.
            assert_eq!(r.headers()["connection"], "close", "{url}");
        }
        let body: Value = r.json().await.unwrap_or(Value::Null);
        assert_eq!(body["error"], code, "{url}: {body}");
        assert!(
            body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{url}"
        );
    }

    // WebSocket: unknown fields on every message type; oversize messages get a close
    // frame saying so.
    let mut a = ws(&server, &id).await;
    until(&mut a, is_state).await;
    for m in [r#"{"type":"ping","x":1}"#, r#"{"type":"undo","all":true}"#] {
        send_raw(&mut a, m).await;
        let e = until(&mut a, is_error).await;
        assert_eq!(e["code"], "malformed", "{m}");
    }
    send_raw(
        &mut a,
        &format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(8000)),
    )
    .await;
    assert_eq!(
        closed_within(&mut a, Duration::from_secs(10)).await,
        Some(1009)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_tokens_costs_the_guesser_and_pages_carry_security_headers() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        msgs_per_second: 1000.0,
        msg_burst: 1000.0,
        ..Limits::default()
    };
    let server = TestServer::start_with(dir.path(), limits);
    let (id, tokens) = hotseat_game(&server).await;
    let mut a = ws(&server, &id).await;
    let mut codes = Vec::new();
    for _ in 0..60 {
        send(&mut a, json!({"type": "join", "token": new_token()})).await;
        let e = until(&mut a, is_error).await;
        codes.push(e["code"].as_str().unwrap().to_string());
    }
    assert_eq!(codes[0], "bad_token");
    assert_eq!(codes.last().unwrap(), "rate_limited", "{codes:?}");
    // Meanwhile even a right token waits: the address is out of guesses.
    send(&mut a, json!({"type": "join", "token": tokens[0]})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "rate_limited");

    let guesses: Vec<String> = (0..200).map(|_| new_token()).collect();
    let (status, _) = get(&server, &format!("/api/games?mine={}", guesses.join(","))).await;
    assert_eq!(status, 429, "the address has no guesses left");

    for page in ["/", "/game/0123456789abcdef", "/puzzle", "/api/variants"] {
        let r = reqwest::get(server.url(page)).await.unwrap();
        let h = r.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"));
        assert!(!csp.contains("unsafe"), "{csp}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{page}");
        assert_eq!(h["x-frame-options"], "DENY", "{page}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_refused_at_the_room_limit_is_not_stored() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        max_rooms: 3,
        ..Limits::default()
    };
    let server = TestServer::start_with(dir.path(), limits);
    // Three live rooms, each held by a connection.
    let mut held = Vec::new();
    for _ in 0..3 {
        let (id, _) = hotseat_game(&server).await;
        held.push(ws(&server, &id).await);
    }
    let (status, body) = post(
        &server,
        "/api/games",
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "hotseat"}]}),
    )
    .await;
    assert_eq!(status, 503, "{body}");
    let (_, lists) = get(&server, "/api/games").await;
    let stored = ["open", "running", "finished"]
        .iter()
        .map(|k| lists[*k].as_array().unwrap().len())
        .sum::<usize>();
    assert_eq!(stored, 3, "the refused game was stored: {lists}");
    // Rooms nobody uses make way at once (no waiting for the idle sweep).
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, _) = post(
            &server,
            "/api/games",
            json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "hotseat"}]}),
        )
        .await;
        if status == 201 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "creation stays refused: {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_where_the_ai_is_to_move_goes_on_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let me = Seat::new(SeatKind::Me, None);
    let ai = Seat::new(SeatKind::Ai, Some(AiLevel::try_from(1).unwrap()));
    let mut ai_games = Vec::new();
    {
        {
            let store = Store::connect(&database_for(dir.path())).await.unwrap();
            // The AI (Blue) is to move in these, written first...
            for _ in 0..240 {
                let id = new_game_id();
                store
                    .create_game(blokus_server::store::NewGame {
                        id: id.clone(),
                        variant: "duo".into(),
                        options: "{}".into(),
                        seats: vec![ai.clone(), me.clone()],
                        status: GameStatus::Running,
                        ai_to_move: true,
                        tokens: vec![(new_token(), 1)],
                        clock: None,
                    })
                    .await
                    .unwrap();
                ai_games.push(id);
            }
            // ...and these, where a person is to move, changed later.
            tokio::time::sleep(Duration::from_millis(1100)).await;
            for _ in 0..220 {
                store
                    .create_game(blokus_server::store::NewGame {
                        id: new_game_id(),
                        variant: "duo".into(),
                        options: "{}".into(),
                        seats: vec![me.clone(), ai.clone()],
                        status: GameStatus::Running,
                        ai_to_move: false,
                        tokens: vec![(new_token(), 0)],
                        clock: None,
                    })
                    .await
                    .unwrap();
            }
        }
    }
    let server = TestServer::start(dir.path());
    let deadline = Instant::now() + Duration::from_secs(120);
    let store = Store::connect(&database_for(dir.path())).await.unwrap();
    for id in &ai_games {
        loop {
            let g = store.load_game(id.clone()).await.unwrap().unwrap();
            if !g.events.is_empty() {
                break;
            }
            assert!(Instant::now() < deadline, "game {id}: the AI never moved");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    drop(server);
}
