//! The HTTP + WebSocket API over real sockets: creation, seats and tokens, legal,
//! illegal, out-of-turn and malformed moves, AI answers, persistence across a kill.

mod common;

use common::*;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variants_are_listed_with_details() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (status, list) = get(&server, "/api/variants").await;
    assert_eq!(status, 200);
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 14);
    let trigon = list.iter().find(|v| v["id"] == "trigon").unwrap();
    assert_eq!(trigon["alternate_contact"], true);
    assert_eq!(trigon["grid"], "triangle");
    let (_, duo) = get(&server, "/api/variants/duo").await;
    assert_eq!(duo["cells"].as_array().unwrap().len(), 196);
    assert_eq!(duo["pieces"].as_array().unwrap().len(), 21);
    assert_eq!(duo["pieces"][0]["symmetries"].as_array().unwrap().len(), 8);
    let (_, t3) = get(&server, "/api/variants/trigon_3").await;
    assert_eq!(t3["cells"].as_array().unwrap().len(), 384);
    let (status, _) = get(&server, "/api/variants/nope").await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_creation_requests_are_refused_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let cases = [
        (json!({"variant": "nope", "seats": []}), "unknown variant"),
        (
            json!({"variant": "duo", "seats": [{"kind": "me"}]}),
            "exactly 2 seats",
        ),
        (
            json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "ai", "level": 12}]}),
            "not in 1..9",
        ),
        (
            json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "robot"}]}),
            "invalid request body",
        ),
        (
            json!({"variant": "duo", "options": {"alternate_contact": true}, "seats": [{"kind": "me"}, {"kind": "me"}]}),
            "only to Trigon",
        ),
    ];
    for (body, expect) in cases {
        let (status, r) = post(&server, "/api/games", body.clone()).await;
        assert_eq!(status, 400, "{body}");
        assert!(
            r["message"].as_str().unwrap().contains(expect),
            "{body}: {r}"
        );
    }
    // Oversized bodies are cut off by the body limit.
    let big = "x".repeat(64 * 1024);
    let r = reqwest::Client::new()
        .post(server.url("/api/games"))
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    let (status, _) = get(&server, "/api/games/0123456789abcdef").await;
    assert_eq!(status, 404);
    let (status, _) = get(&server, "/api/games/..%2F..%2Fetc").await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_by_link_and_the_server_guards_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, created) = create_game(
        &server,
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "human"}]}),
    )
    .await;
    let t0 = token_of(&created, 0);
    assert_eq!(t0.len(), 32);
    assert_eq!(
        created["tokens"].as_array().unwrap().len(),
        1,
        "the other seat is open"
    );

    let (_, lists) = get(&server, &format!("/api/games?mine={t0}")).await;
    assert_eq!(lists["open"][0]["id"], id.as_str());
    assert_eq!(lists["mine"][0]["id"], id.as_str());
    assert_eq!(lists["mine"][0]["my_seats"], json!([0]));

    // The second person claims the open seat by link; it can't be claimed twice.
    let (status, joined) = post(&server, &format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    let t1 = joined["token"].as_str().unwrap().to_string();
    let (status, _) = post(
        &server,
        &format!("/api/games/{id}/join"),
        json!({"seat": 1}),
    )
    .await;
    assert_eq!(status, 409);

    let mut a = ws(&server, &id).await;
    let mut b = ws(&server, &id).await;
    let mut spectator = ws(&server, &id).await;
    let s = until(&mut a, is_state).await;
    assert_eq!(s["legal"], Value::Null, "no legal moves before joining");
    send(&mut a, json!({"type": "join", "token": t0})).await;
    let s = until(&mut a, |m| is_state(m) && m["you"] == json!([0])).await;
    assert_eq!(s["legal"].as_array().unwrap().len(), 414);
    assert_eq!(s["status"], "running");
    send(&mut b, json!({"type": "join", "token": t1})).await;
    until(&mut b, |m| is_state(m) && m["you"] == json!([1])).await;

    // A wrong token holds no seat.
    send(
        &mut spectator,
        json!({"type": "join", "token": "0".repeat(32)}),
    )
    .await;
    let e = until(&mut spectator, is_error).await;
    assert_eq!(e["code"], "bad_token");
    // Spectators cannot move.
    send(
        &mut spectator,
        json!({"type": "move", "cells": ["d9", "c10", "d10", "e10", "d11"]}),
    )
    .await;
    assert_eq!(until(&mut spectator, is_error).await["code"], "not_joined");
    // Out of turn: seat 1 tries to move while Purple (seat 0) is to move.
    send(&mut b, json!({"type": "move", "cells": "i4,h5,i5,j5,i6"})).await;
    let e = until(&mut b, is_error).await;
    assert_eq!(e["code"], "not_your_turn", "{e}");
    // Malformed messages.
    send_raw(&mut a, "{not json").await;
    assert_eq!(until(&mut a, is_error).await["code"], "malformed");
    send(&mut a, json!({"type": "move", "cells": ["zz99"]})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "malformed");
    assert!(e["message"].as_str().unwrap().contains("zz99"), "{e}");
    send(&mut a, json!({"type": "fly"})).await;
    assert_eq!(until(&mut a, is_error).await["code"], "malformed");
    // Illegal: the first piece must cover the starting point.
    send(&mut a, json!({"type": "move", "cells": ["a1", "b1"]})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "illegal");
    assert!(
        e["message"].as_str().unwrap().contains("starting point"),
        "{e}"
    );
    // Stale view.
    send(
        &mut a,
        json!({"type": "move", "cells": "d9,c10,d10,e10,d11", "ply": 5}),
    )
    .await;
    assert_eq!(until(&mut a, is_error).await["code"], "stale");
    // Nothing has changed.
    let (_, st) = get(&server, &format!("/api/games/{id}")).await;
    assert_eq!(st["ply"], 0);

    // A legal move reaches everybody, spectators included.
    send(
        &mut a,
        json!({"type": "move", "cells": ["e10", "d9", "c10", "d10", "d11"], "ply": 0}),
    )
    .await;
    let mv = until(&mut spectator, |m| m["type"] == "move").await;
    assert_eq!(mv["cells"], json!(["d9", "c10", "d10", "e10", "d11"]));
    assert_eq!(mv["piece"], "X");
    let s = until(&mut b, |m| is_state(m) && m["ply"] == 1).await;
    assert_eq!(s["to_move"], 1);
    assert_eq!(s["legal"].as_array().unwrap().len(), 414);
    send(&mut b, json!({"type": "move", "cells": "i4,h5,i5,j5,i6"})).await;
    let s = until(&mut a, |m| is_state(m) && m["ply"] == 2).await;
    assert_eq!(s["legal"].as_array().unwrap().len(), 696);
    // Undo is refused between people.
    send(&mut a, json!({"type": "undo"})).await;
    assert_eq!(until(&mut a, is_error).await["code"], "undo_refused");

    let (_, st) = get(&server, &format!("/api/games/{id}?legal=1")).await;
    assert_eq!(st["moves"].as_array().unwrap().len(), 2);
    assert_eq!(st["legal"].as_array().unwrap().len(), 696);
    let rec = reqwest::get(server.url(&format!("/api/games/{id}/record.blksgf")))
        .await
        .unwrap();
    assert_eq!(rec.status().as_u16(), 200);
    let text = rec.text().await.unwrap();
    assert!(text.contains("Blokus Duo"), "{text}");
    assert!(text.contains("d9,c10,d10,e10,d11"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_answers_and_undo_takes_back_both_moves() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, created) = create_game(
        &server,
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]}),
    )
    .await;
    let (mut a, _) = join(&server, &id, &[token_of(&created, 0)]).await;
    send(
        &mut a,
        json!({"type": "move", "cells": "d9,c10,d10,e10,d11"}),
    )
    .await;
    let s = until(&mut a, |m| is_state(m) && m["ply"] == 2).await;
    assert_eq!(s["moves"][1]["colour"], 1, "the AI played Orange");
    assert_eq!(s["can_undo"], true);
    send(&mut a, json!({"type": "undo"})).await;
    let s = until(&mut a, |m| is_state(m) && m["ply"] == 0).await;
    assert_eq!(s["to_move"], 0);
    let (_, st) = get(&server, &format!("/api/games/{id}")).await;
    assert_eq!(st["ply"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_a_crash_of_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, created) = create_game(
        &server,
        json!({"variant": "duo", "seats": [{"kind": "hotseat"}, {"kind": "hotseat"}]}),
    )
    .await;
    let tokens = vec![token_of(&created, 0), token_of(&created, 1)];
    let (mut a, _) = join(&server, &id, &tokens).await;
    for (ply, mv) in ["d9,c10,d10,e10,d11", "i4,h5,i5,j5,i6"].iter().enumerate() {
        send(&mut a, json!({"type": "move", "cells": mv})).await;
        until(&mut a, |m| is_state(m) && m["ply"] == ply + 1).await;
    }
    let (_, before) = get(&server, &format!("/api/games/{id}")).await;
    drop(a);
    server.kill();

    let server = TestServer::start(dir.path());
    let (status, after) = get_when_served(&server, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["owners"], before["owners"]);
    // The tokens still hold their seats and play goes on.
    let (_a, s) = join(&server, &id, &tokens).await;
    assert_eq!(s["you"], json!([0, 1]));
    assert_eq!(s["ply"], 2);
    assert_eq!(s["legal"].as_array().unwrap().len(), 696);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flooding_is_rate_limited() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, _) = create_game(
        &server,
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "human"}]}),
    )
    .await;
    let mut a = ws(&server, &id).await;
    for _ in 0..40 {
        send(&mut a, json!({"type": "ping"})).await;
    }
    until(&mut a, |m| is_error(m) && m["code"] == "rate_limited").await;
    // Oversized messages close the connection instead of reaching the room.
    let big = format!("{{\"type\":\"move\",\"cells\":\"{}\"}}", "a1,".repeat(4000));
    send_raw(&mut a, &big).await;
    let mut closed = false;
    for _ in 0..100 {
        match tokio::time::timeout(
            std::time::Duration::from_secs(5),
            futures_util::StreamExt::next(&mut a),
        )
        .await
        {
            Ok(None) | Ok(Some(Err(_))) => {
                closed = true;
                break;
            }
            Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_)))) => {
                closed = true;
                break;
            }
            Ok(Some(Ok(_))) => continue,
            Err(_) => break,
        }
    }
    assert!(closed, "an oversized message closes the connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_variant_plays_in_hot_seat_and_its_record_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (_, variants) = get(&server, "/api/variants").await;
    for v in variants.as_array().unwrap() {
        let vid = v["id"].as_str().unwrap();
        let players = v["players"].as_u64().unwrap() as usize;
        let seats: Vec<Value> = (0..players).map(|_| json!({"kind": "hotseat"})).collect();
        let options = json!({"alternate_contact": v["alternate_contact"]});
        let body = json!({"variant": vid, "options": options, "seats": seats});
        let (id, created) = create_game(&server, body).await;
        let tokens: Vec<String> = (0..players).map(|s| token_of(&created, s)).collect();
        let (mut a, mut s) = join(&server, &id, &tokens).await;
        let plies = 6;
        for ply in 0..plies {
            if s["awaiting_pie"] == true {
                assert!(v["pie"] == true, "{vid}");
                assert_eq!(s["player_to_move"], 1, "{vid}: the second player chooses");
                send(&mut a, json!({"type": "pie", "choice": "swap"})).await;
            } else {
                let mv = s["legal"][0]
                    .as_str()
                    .unwrap_or_else(|| panic!("{vid}: {s}"))
                    .to_string();
                send(&mut a, json!({"type": "move", "cells": mv, "ply": ply})).await;
            }
            s = until(&mut a, |m| is_state(m) && m["ply"] == ply + 1).await;
        }
        if vid == "classic_3" {
            // Green's first placement (ply 3) was the Blue player's; the next is Yellow's.
            assert_eq!(s["moves"][3]["colour"], 3);
            assert_eq!(s["moves"][3]["player"], 0);
            let seat1: Vec<&str> = s["seats"][1]["colours"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            assert!(seat1.contains(&"green"), "{s}");
            assert_eq!(s["scores"][3]["counted"], false);
        }
        if vid.ends_with("_teams") {
            assert_eq!(s["results"].as_array().unwrap().len(), 2, "{vid}");
        }
        if v["pie"] == true {
            assert_eq!(s["moves"][2]["pie"], "swap", "{vid}");
            assert_eq!(
                s["seats"][0]["colours"][0], v["colours"][0],
                "{vid}: after a swap player 1 plays Blue"
            );
        }
        let text = reqwest::get(server.url(&format!("/api/games/{id}/record.blksgf")))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let game = blokus_core::record::blksgf::read(&text)
            .unwrap_or_else(|e| panic!("{vid}: {e}\n{text}"));
        assert_eq!(game.events().len(), plies, "{vid}: {text}");
        let (status, rec) = get(&server, &format!("/api/games/{id}/record.json")).await;
        assert_eq!(status, 200);
        assert!(rec.is_object(), "{vid}");
    }
}

/// The plies of a game as stored (the list does not load rooms).
async fn stored_plies(server: &TestServer, id: &str) -> i64 {
    let (_, lists) = get(server, "/api/games").await;
    ["open", "running", "finished"]
        .iter()
        .flat_map(|k| lists[*k].as_array().unwrap().clone())
        .find(|g| g["id"] == id)
        .map_or(-1, |g| g["plies"].as_i64().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_game_goes_on_by_itself_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let seats: Vec<Value> = (0..4).map(|_| json!({"kind": "ai", "level": 1})).collect();
    let (id, _) = create_game(&server, json!({"variant": "classic", "seats": seats})).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while stored_plies(&server, &id).await < 2 {
        assert!(std::time::Instant::now() < deadline, "the AIs play");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    server.kill();
    let server = TestServer::start(dir.path());
    let at_restart = stored_plies(&server, &id).await;
    assert!(at_restart >= 2);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while stored_plies(&server, &id).await <= at_restart {
        assert!(
            std::time::Instant::now() < deadline,
            "the game resumes without visitors"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
