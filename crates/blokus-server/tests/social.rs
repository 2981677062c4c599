//! The people around a game over real sockets: display names, the two chat channels
//! (limits, escaping left to the pages, history after a crash), the spectator count,
//! waiting for the invited player, rematches and the lobby's abandoned games.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// A Duo game between two people by link: (id, token of seat 0, token of seat 1).
async fn duo_between_people(server: &TestServer) -> (String, String, String) {
    let (id, created) = create_game(
        server,
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "human"}]}),
    )
    .await;
    let t1 = claim_seat(server, &id).await;
    (id, token_of(&created, 0), t1)
}

fn is_chat(m: &Value) -> bool {
    m["type"] == "chat"
}

/// Every message the room sent a connection before answering a new request of it (an
/// empty chat line, refused as `bad_chat`).
async fn drain(ws: &mut Ws) -> Vec<Value> {
    send(ws, json!({"type": "chat", "text": ""})).await;
    let mut seen = Vec::new();
    loop {
        let m = next(ws).await;
        if is_error(&m) && m["code"] == "bad_chat" {
            return seen;
        }
        seen.push(m);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_and_two_chat_channels_survive_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, t0, t1) = duo_between_people(&server).await;

    let mut a = ws(&server, &id).await;
    until(&mut a, |m| m["type"] == "chat_history").await;
    send(
        &mut a,
        json!({"type": "join", "token": t0, "name": "  Ada   Lovelace "}),
    )
    .await;
    let h = until(&mut a, |m| m["type"] == "chat_history").await;
    assert_eq!(h["channel"], "players");
    let mut b = ws(&server, &id).await;
    // A name that is not one is refused, and the seat is not taken either.
    send(
        &mut b,
        json!({"type": "join", "token": t1, "name": "<b>Bo</b>"}),
    )
    .await;
    let e = until(&mut b, is_error).await;
    assert_eq!(e["code"], "bad_name");
    assert!(e["message"].as_str().unwrap().contains("'<'"), "{e}");
    send(&mut b, json!({"type": "join", "token": t1, "name": "Bo"})).await;
    let s = until(&mut b, |m| is_state(m) && m["you"] == json!([1])).await;
    assert_eq!(s["seats"][0]["name"], "Ada Lovelace");
    assert_eq!(s["seats"][1]["name"], "Bo");
    assert_eq!(s["spectators"], 0);

    // A spectator arrives: everybody is told the count; it reads the spectators' chat.
    drain(&mut a).await;
    let mut sp = ws(&server, &id).await;
    let s = until(&mut sp, is_state).await;
    assert_eq!(s["spectators"], 1);
    assert_eq!(s["seats"][1]["name"], "Bo", "names are shown to spectators");
    let h = until(&mut sp, |m| m["type"] == "chat_history").await;
    assert_eq!(h["channel"], "spectators");
    let v = until(&mut a, |m| m["type"] == "viewers").await;
    assert_eq!(v["spectators"], 1);
    send(&mut sp, json!({"type": "name", "name": "Kibitzer"})).await;

    // Players talk; markup is kept as the text it is (the pages never read it as HTML).
    let payload = "gg <img src=x onerror=alert(1)>";
    send(&mut a, json!({"type": "chat", "text": payload})).await;
    let line = until(&mut b, is_chat).await;
    assert_eq!(line["text"], payload);
    assert_eq!(line["name"], "Ada Lovelace");
    assert_eq!(line["seat"], 0);
    assert_eq!(line["channel"], "players");
    until(&mut a, is_chat).await;
    send(&mut b, json!({"type": "chat", "text": "thanks!"})).await;
    let line = until(&mut a, is_chat).await;
    assert_eq!(
        (line["name"].as_str(), line["text"].as_str()),
        (Some("Bo"), Some("thanks!"))
    );
    // Spectators talk among themselves: the players never see it, nor they the players.
    send(&mut sp, json!({"type": "chat", "text": "nice X opening"})).await;
    let line = until(&mut sp, is_chat).await;
    assert_eq!(line["name"], "Kibitzer");
    assert_eq!(line["channel"], "spectators");
    assert_eq!(line["seat"], Value::Null);
    for m in drain(&mut a).await {
        assert!(!is_chat(&m), "a player saw a spectator's line: {m}");
    }
    for m in drain(&mut sp).await {
        assert!(!is_chat(&m), "a spectator saw a player's line: {m}");
    }

    // Lines too long or empty are refused by name.
    send(&mut a, json!({"type": "chat", "text": "x".repeat(301)})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "bad_chat");
    assert!(
        e["message"].as_str().unwrap().contains("at most 300"),
        "{e}"
    );
    send(&mut a, json!({"type": "chat", "text": " \n "})).await;
    assert_eq!(until(&mut a, is_error).await["code"], "bad_chat");

    // Flooding: a burst of lines, then refusals; a second connection of the same seat
    // does not get a fresh allowance.
    let mut sent = 0;
    let mut refused = 0;
    for i in 0..8 {
        send(&mut b, json!({"type": "chat", "text": format!("spam {i}")})).await;
        let m = until(&mut b, |m| is_chat(m) || is_error(m)).await;
        if is_error(&m) {
            assert_eq!(m["code"], "rate_limited", "{m}");
            refused += 1;
        } else {
            sent += 1;
        }
    }
    assert!(sent <= 5 && refused >= 3, "{sent} sent, {refused} refused");
    let mut b2 = ws(&server, &id).await;
    send(&mut b2, json!({"type": "join", "token": t1})).await;
    until(&mut b2, |m| is_state(m) && m["you"] == json!([1])).await;
    send(&mut b2, json!({"type": "chat", "text": "from my phone"})).await;
    let m = until(&mut b2, |m| is_chat(m) || is_error(m)).await;
    assert_eq!(m["code"], "rate_limited", "per seat: {m}");

    // The record names the players.
    let rec = reqwest::get(server.url(&format!("/api/games/{id}/record.blksgf")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        rec.contains("PB[Ada Lovelace]") && rec.contains("PW[Bo]"),
        "{rec}"
    );

    // A crash loses nothing that was said; each side gets its own history back.
    drop((a, b, b2, sp));
    server.kill();
    let server = TestServer::start(dir.path());
    get_when_served(&server, &format!("/api/games/{id}")).await;
    let mut a = ws(&server, &id).await;
    send(&mut a, json!({"type": "join", "token": t0})).await;
    let h = until(&mut a, |m| {
        m["type"] == "chat_history" && m["channel"] == "players"
    })
    .await;
    let texts: Vec<&str> = h["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(&texts[..2], [payload, "thanks!"]);
    assert!(texts.iter().all(|t| !t.contains("opening")));
    let mut sp = ws(&server, &id).await;
    let h = until(&mut sp, |m| m["type"] == "chat_history").await;
    assert_eq!(h["lines"][0]["text"], "nice X opening");
    assert_eq!(h["lines"].as_array().unwrap().len(), 1);
    let (_, st) = get(&server, &format!("/api/games/{id}")).await;
    assert_eq!(st["seats"][0]["name"], "Ada Lovelace");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nobody_moves_before_the_invited_player_takes_the_seat() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, created) = create_game(
        &server,
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "human"}]}),
    )
    .await;
    let (mut a, _) = join(&server, &id, &[token_of(&created, 0)]).await;
    send(
        &mut a,
        json!({"type": "move", "cells": "d9,c10,d10,e10,d11"}),
    )
    .await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "waiting_for_opponent");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("share this game's link"),
        "{e}"
    );
    claim_seat(&server, &id).await;
    until(&mut a, |m| is_state(m) && m["seats"][1]["claimed"] == true).await;
    send(
        &mut a,
        json!({"type": "move", "cells": "d9,c10,d10,e10,d11"}),
    )
    .await;
    until(&mut a, |m| is_state(m) && m["ply"] == 1).await;

    // An AI seat counts as taken, but waits for the invited person like everybody.
    let (id, _) = create_game(
        &server,
        json!({"variant": "duo", "seats": [{"kind": "ai", "level": 1}, {"kind": "human"}]}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (_, st) = get(&server, &format!("/api/games/{id}")).await;
    assert_eq!(st["ply"], 0, "the AI waits for its opponent");
    let mut b = ws(&server, &id).await;
    claim_seat(&server, &id).await;
    until(&mut b, |m| is_state(m) && m["ply"] == 1).await;
}

/// Plays the first legal move for whoever is to move until the game is over.
async fn play_to_the_end(server: &TestServer, id: &str, a: &mut Ws, b: &mut Ws) {
    loop {
        let (_, s) = get(server, &format!("/api/games/{id}?legal=1")).await;
        if s["over"] == true {
            return;
        }
        let mv = s["legal"][0].as_str().unwrap().to_string();
        let ply = s["ply"].as_u64().unwrap();
        let mover = if s["player_to_move"] == 0 {
            &mut *a
        } else {
            &mut *b
        };
        send(mover, json!({"type": "move", "cells": mv, "ply": ply})).await;
        // Both read on, so neither falls behind.
        until(a, |m| is_state(m) && m["ply"].as_u64() > Some(ply)).await;
        until(b, |m| is_state(m) && m["ply"].as_u64() > Some(ply)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_rotates_the_colours_and_the_opponent_accepts_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, t0, t1) = duo_between_people(&server).await;
    let mut a = ws(&server, &id).await;
    let mut b = ws(&server, &id).await;
    send(&mut a, json!({"type": "join", "token": t0, "name": "Ada"})).await;
    until(&mut a, |m| is_state(m) && m["you"] == json!([0])).await;
    send(&mut b, json!({"type": "join", "token": t1, "name": "Bo"})).await;
    until(&mut b, |m| is_state(m) && m["you"] == json!([1])).await;
    send(&mut a, json!({"type": "rematch"})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "rematch_refused", "not before the end: {e}");
    play_to_the_end(&server, &id, &mut a, &mut b).await;
    let mut sp = ws(&server, &id).await;

    send(&mut sp, json!({"type": "rematch"})).await;
    assert_eq!(until(&mut sp, is_error).await["code"], "rematch_refused");
    // Ada asks: the new game exists at once, her seat is hers, Bo's waits for him.
    send(&mut a, json!({"type": "rematch"})).await;
    let r = until(&mut a, |m| m["type"] == "rematch").await;
    let new_id = r["id"].as_str().unwrap().to_string();
    assert_eq!(r["url"], format!("/game/{new_id}"));
    assert_eq!(r["tokens"].as_array().unwrap().len(), 1);
    assert_eq!(r["tokens"][0]["seat"], 1, "Ada moves on to the second seat");
    let ada_token = r["tokens"][0]["token"].as_str().unwrap().to_string();
    let s = until(&mut b, |m| is_state(m) && !m["rematch"].is_null()).await;
    assert_eq!(s["rematch"], json!({"id": new_id, "accepted": [0]}));
    let (_, fresh) = get(&server, &format!("/api/games/{new_id}")).await;
    assert_eq!(fresh["seats"][0]["kind"], "human");
    assert_eq!(fresh["seats"][0]["reserved"], true);
    assert_eq!(fresh["seats"][0]["claimed"], false);
    assert_eq!(fresh["seats"][0]["name"], "Bo");
    assert_eq!(fresh["seats"][1]["kind"], "me");
    assert_eq!(fresh["seats"][1]["name"], "Ada");
    // The kept seat cannot be taken by link.
    let (status, _) = post(&server, &format!("/api/games/{new_id}/join"), json!({})).await;
    assert_eq!(status, 409);

    // Bo accepts and gets his seat's token; the offer shows both.
    send(&mut b, json!({"type": "rematch"})).await;
    let r = until(&mut b, |m| m["type"] == "rematch").await;
    assert_eq!(r["id"], new_id.as_str());
    assert_eq!(r["tokens"][0]["seat"], 0);
    let bo_token = r["tokens"][0]["token"].as_str().unwrap().to_string();
    let s = until(&mut a, |m| {
        is_state(m) && m["rematch"]["accepted"] == json!([0, 1])
    })
    .await;
    assert_eq!(s["rematch"]["id"], new_id.as_str());

    // In the new game Ada waits for Bo, who opens now.
    let mut a2 = ws(&server, &new_id).await;
    send(&mut a2, json!({"type": "join", "token": ada_token})).await;
    until(&mut a2, |m| is_state(m) && m["you"] == json!([1])).await;
    let mut b2 = ws(&server, &new_id).await;
    send(&mut b2, json!({"type": "join", "token": bo_token})).await;
    let s = until(&mut b2, |m| is_state(m) && m["you"] == json!([0])).await;
    assert_eq!(s["seats"][0]["claimed"], true);
    assert_eq!(s["status"], "running");
    assert_eq!(s["player_to_move"], 0);
    send(
        &mut b2,
        json!({"type": "move", "cells": "d9,c10,d10,e10,d11"}),
    )
    .await;
    until(&mut a2, |m| is_state(m) && m["ply"] == 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_abandoned_before_their_first_move_leave_the_running_list() {
    let dir = tempfile::tempdir().unwrap();
    let limits = blokus_server::Limits {
        abandoned_after: Duration::from_secs(1),
        ..blokus_server::Limits::default()
    };
    let server = TestServer::start_with(dir.path(), limits);
    let hotseat = json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "hotseat"}]});
    let (left, _) = create_game(&server, hotseat.clone()).await;
    let (watched_id, _) = create_game(&server, hotseat.clone()).await;
    let (played_id, played) = create_game(&server, hotseat).await;
    let mut w = ws(&server, &watched_id).await;
    until(&mut w, is_state).await;
    let tokens = [token_of(&played, 0), token_of(&played, 1)];
    let (mut p, _) = join(&server, &played_id, &tokens).await;
    send(
        &mut p,
        json!({"type": "move", "cells": "d9,c10,d10,e10,d11"}),
    )
    .await;
    until(&mut p, |m| is_state(m) && m["ply"] == 1).await;
    drop(p);
    let running = || async {
        let (_, lists) = get(&server, "/api/games").await;
        let ids: Vec<String> = lists["running"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect();
        ids
    };
    assert_eq!(running().await.len(), 3);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let now = running().await;
    assert!(!now.contains(&left), "abandoned without a move: {now:?}");
    assert!(now.contains(&watched_id), "somebody has it open: {now:?}");
    assert!(now.contains(&played_id), "games with moves stay: {now:?}");
    // Once its last watcher leaves, the clock starts for that one too.
    drop(w);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(running().await.contains(&watched_id));
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let now = running().await;
    assert!(!now.contains(&watched_id), "{now:?}");
    assert!(now.contains(&played_id));
}
