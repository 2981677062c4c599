//! Online tournaments over real sockets: a Duo event of two people and two bots from
//! registration to its final standings, the people playing through the WebSocket with
//! the seat tokens "your table" gives them, results flowing in when games end, the next
//! round paired by itself, a `kill -9` in the middle of a round, the exports; and every
//! organiser action refused without the organiser's token.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// Plays a game for the given seat tokens (the first legal move whenever one of them is
/// to move) until it is over, or until `moves` of ours are made. Returns whether it ended.
async fn play(server: &TestServer, game: &str, tokens: &[String], moves: usize) -> bool {
    let mut ws = ws(server, game).await;
    send(&mut ws, json!({"type": "join", "tokens": tokens})).await;
    let mut made = 0;
    loop {
        let s = until(&mut ws, is_state).await;
        if s["over"] == true {
            return true;
        }
        if made == moves {
            return false;
        }
        if let Some(first) = s["legal"].as_array().and_then(|l| l.first()) {
            send(
                &mut ws,
                json!({"type": "move", "cells": first, "ply": s["ply"]}),
            )
            .await;
            made += 1;
        }
    }
}

/// A server whose connections may move as fast as the test plays.
fn fast_server(dir: &std::path::Path) -> TestServer {
    TestServer::start_with(
        dir,
        blokus_server::Limits {
            msgs_per_second: 1000.0,
            msg_burst: 1000.0,
            ..blokus_server::Limits::default()
        },
    )
}

/// The view, once `pred` holds (polled: results and pairings come from game ends).
async fn wait_view(server: &TestServer, id: &str, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let (status, v) = get(server, &format!("/api/tournaments/{id}")).await;
        assert_eq!(status, 200, "{v}");
        if pred(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the event did not get there");
}

fn rounds(v: &Value) -> usize {
    v["event"]["rounds"].as_array().unwrap().len()
}

/// The seat tokens of each person's game in round `round`, by game.
async fn people_games(
    server: &TestServer,
    id: &str,
    players: &[String],
    round: u64,
) -> Vec<(String, Vec<String>)> {
    let mut games: Vec<(String, Vec<String>)> = Vec::new();
    for token in players {
        let (status, me) = post(
            server,
            &format!("/api/tournaments/{id}/me"),
            json!({"token": token}),
        )
        .await;
        assert_eq!(status, 200, "{me}");
        for g in me["games"].as_array().unwrap() {
            if g["round"] != round {
                continue;
            }
            let game = g["game"].as_str().unwrap().to_string();
            let seat_token = g["seat_token"].as_str().unwrap().to_string();
            match games.iter_mut().find(|(id, _)| *id == game) {
                Some((_, t)) => t.push(seat_token),
                None => games.push((game, vec![seat_token])),
            }
        }
    }
    games
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_event_plays_to_its_standings_through_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let server = fast_server(dir.path());
    let (status, created) = post(
        &server,
        "/api/tournaments",
        json!({"name": "Online night", "variant": "duo", "rounds": 2, "seed": 3,
               "online": true, "bots": [{"level": 1}, {"level": 1}]}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let organiser = created["organiser_token"].as_str().unwrap().to_string();
    assert_eq!(created["auto_pair"], true);
    assert_eq!(
        created["event"]["entrants"][0]["name"], "AI 1 - level 1",
        "{created}"
    );
    assert_eq!(
        created["event"]["entrants"][1]["kind"]["spec"],
        "mcts:level=1"
    );

    // Two people register through the link and get their device tokens.
    let mut players = Vec::new();
    for name in ["Ada", "Bruno"] {
        let (status, r) = post(
            &server,
            &format!("/api/tournaments/{id}/entrants"),
            json!({"name": name}),
        )
        .await;
        assert_eq!(status, 201, "{r}");
        players.push(r["token"].as_str().unwrap().to_string());
    }
    let (status, r) = post(
        &server,
        &format!("/api/tournaments/{id}/players"),
        json!({"token": organiser}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r.as_array().unwrap().len(), 2, "{r}");

    // The organiser starts round 1: a game per table, bots at AI seats.
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{id}/pair"),
        json!({"token": organiser}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 2, "{v}");
    let games = people_games(&server, &id, &players, 1).await;
    assert!(!games.is_empty());
    // Spectators see every table's game.
    for g in v["games"].as_array().unwrap() {
        let (status, s) = get(
            &server,
            &format!("/api/games/{}", g["game"].as_str().unwrap()),
        )
        .await;
        assert_eq!(status, 200, "{s}");
    }

    // A few moves, then the server dies in the middle of the round.
    let (first, tokens) = &games[0];
    assert!(!play(&server, first, tokens, 3).await);
    let (_, before) = get(&server, &format!("/api/games/{first}")).await;
    server.kill();
    let server = fast_server(dir.path());
    let (_, after) = get_when_served(&server, &format!("/api/games/{first}")).await;
    // No move lost (an AI may have answered since, after the restart).
    let (b, a) = (
        before["moves"].as_array().unwrap(),
        after["moves"].as_array().unwrap(),
    );
    assert!(b.len() >= 3 && a.starts_with(b), "{before} / {after}");
    let (_, v) = get(&server, &format!("/api/tournaments/{id}")).await;
    assert_eq!(rounds(&v), 1);

    // The people play their games out; bots finish theirs; round 2 pairs itself.
    for (game, tokens) in &games {
        assert!(play(&server, game, tokens, 100).await);
    }
    let v = wait_view(&server, &id, |v| rounds(v) == 2).await;
    assert!(
        v["event"]["rounds"][0]["tables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["result"]["kind"] == "played"),
        "{v}"
    );
    // A result for a table of another round is refused.
    let (status, r) = post(
        &server,
        &format!("/api/tournaments/{id}/results"),
        json!({"token": organiser, "round": 1, "table": 1, "scores": [1, 0]}),
    )
    .await;
    assert_eq!(status, 409, "{r}");
    for (game, tokens) in people_games(&server, &id, &players, 2).await {
        assert!(play(&server, &game, &tokens, 100).await);
    }
    let done = wait_view(&server, &id, |v| v["finished"] == true).await;
    assert_eq!(done["standings"]["rows"].as_array().unwrap().len(), 4);
    assert!(done["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["played"] == 2));
    assert_eq!(done["games"].as_array().unwrap().len(), 4);

    // Exports: the standings and every game in one collection.
    let sgf = reqwest::get(server.url(&format!("/api/tournaments/{id}/games.blksgf")))
        .await
        .unwrap();
    assert_eq!(sgf.status(), 200);
    let text = sgf.text().await.unwrap();
    assert_eq!(text.matches("GM[").count(), 4, "{text}");
    assert!(text.contains("EV[Online night]") && text.contains("GN[round 2, table 2]"));
    assert!(text.contains("PB[") && text.contains("RE["), "{text}");
    let trees = blokus_core::record::sgf::parse(&text).unwrap();
    for t in &trees {
        let game = blokus_core::record::blksgf::from_tree(t).unwrap();
        assert!(game.is_over());
    }
    let csv = reqwest::get(server.url(&format!("/api/tournaments/{id}/standings.csv")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    assert!(csv.contains("Ada") && csv.contains("AI 2 - level 1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_organiser_action_needs_the_token_and_bad_input_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (status, created) = post(
        &server,
        "/api/tournaments",
        json!({"name": "Guarded", "variant": "duo", "online": true, "auto_pair": false,
               "entrants": ["Ada", "Bruno"], "bots": [{"level": 2, "name": "Robo"}]}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let organiser = created["organiser_token"].as_str().unwrap().to_string();
    assert_eq!(created["players"].as_array().unwrap().len(), 2, "{created}");
    let wrong = "0".repeat(32);
    let actions = [
        ("pair", json!({})),
        ("withdraw", json!({"entrant": 0})),
        ("results", json!({"round": 1, "table": 1, "scores": [1, 0]})),
        ("bots", json!({"level": 1})),
        ("numbers", json!({"numbers": [1, 2, 3]})),
        ("players", json!({})),
    ];
    for (action, mut req) in actions {
        req["token"] = json!(wrong);
        let (status, r) = post(&server, &format!("/api/tournaments/{id}/{action}"), req).await;
        assert_eq!(status, 403, "{action}: {r}");
        assert!(r["message"].as_str().unwrap().contains("organiser"), "{r}");
    }
    let (status, r) = post(
        &server,
        &format!("/api/tournaments/{id}/me"),
        json!({"token": wrong}),
    )
    .await;
    assert_eq!(status, 403, "{r}");
    let (_, unchanged) = get(&server, &format!("/api/tournaments/{id}")).await;
    assert_eq!(unchanged["event"], created["event"]);

    // Bad input, each refused by name.
    let bad = [
        (
            "entrants",
            json!({"name": "ada"}),
            409,
            "already registered",
        ),
        (
            "bots",
            json!({"token": organiser, "level": 0}),
            400,
            "AI level 0",
        ),
        (
            "numbers",
            json!({"token": organiser, "numbers": [1, 1, 2]}),
            400,
            "number 1 is given twice",
        ),
        (
            "results",
            json!({"token": organiser, "round": 1, "table": 1, "scores": [1, 0]}),
            409,
            "current round (0)",
        ),
    ];
    for (action, req, code, message) in bad {
        let (status, r) = post(&server, &format!("/api/tournaments/{id}/{action}"), req).await;
        assert_eq!(status, code, "{action}: {r}");
        assert!(
            r["message"].as_str().unwrap().contains(message),
            "{action}: {r}"
        );
    }
    let (_, unchanged) = get(&server, &format!("/api/tournaments/{id}")).await;
    assert_eq!(unchanged["event"], created["event"]);

    // Numbers drawn by hand decide round 1: Robo drew 1, Ada 2, Bruno 3 -> Robo-Ada.
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{id}/numbers"),
        json!({"token": organiser, "numbers": [2, 3, 1]}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{id}/pair"),
        json!({"token": organiser}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let table = &v["event"]["rounds"][0]["tables"][0]["seats"];
    let mut seated: Vec<u64> = table
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    seated.sort();
    assert_eq!(seated, vec![0, 2], "{v}");
    assert_eq!(v["event"]["rounds"][0]["byes"][0]["entrant"], 1, "{v}");

    // An over-the-board event takes no bots; one round at least.
    for (req, message) in [
        (
            json!({"name": "x", "variant": "duo", "bots": [{"level": 1}]}),
            "online events",
        ),
        (
            json!({"name": "x", "variant": "duo", "rounds": 0, "online": true}),
            "at least 1 round",
        ),
    ] {
        let (status, r) = post(&server, "/api/tournaments", req).await;
        assert_eq!(status, 400, "{r}");
        assert!(r["message"].as_str().unwrap().contains(message), "{r}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_table_shows_the_entrants_names_and_has_no_rematch() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    // A name the tables could not show is refused for an online event.
    let (status, r) = post(
        &server,
        "/api/tournaments",
        json!({"name": "Names", "variant": "duo", "online": true,
               "entrants": ["<b>Ada</b>"]}),
    )
    .await;
    assert_eq!(status, 400, "{r}");
    assert!(r["message"].as_str().unwrap().contains("<b>Ada</b>"), "{r}");
    let (status, created) = post(
        &server,
        "/api/tournaments",
        json!({"name": "Names", "variant": "duo", "online": true, "auto_pair": false,
               "rounds": 1, "entrants": ["Ada  Lovelace"], "bots": [{"level": 1, "name": "Robo"}]}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let organiser = created["organiser_token"].as_str().unwrap().to_string();
    // Registered names are display names, kept in their normal form.
    assert_eq!(created["event"]["entrants"][0]["name"], "Ada Lovelace");
    let (status, r) = post(
        &server,
        &format!("/api/tournaments/{id}/entrants"),
        json!({"name": "Bo\u{7}"}),
    )
    .await;
    assert_eq!(status, 400, "{r}");
    let (status, r) = post(
        &server,
        &format!("/api/tournaments/{id}/bots"),
        json!({"token": organiser, "level": 1, "name": "R2 (D2)"}),
    )
    .await;
    assert_eq!(status, 400, "{r}");
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{id}/pair"),
        json!({"token": organiser}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let player = created["players"][0]["token"].as_str().unwrap().to_string();
    let games = people_games(&server, &id, &[player], 1).await;
    let (game, tokens) = &games[0];

    // Each seat shows its entrant's name; the player can neither rename it nor undo.
    let mut ws = ws(&server, game).await;
    send(
        &mut ws,
        json!({"type": "join", "tokens": tokens, "name": "Someone Else"}),
    )
    .await;
    let s = until(&mut ws, |m| is_state(m) && m["you"].is_array()).await;
    let mut names: Vec<&str> = s["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|seat| seat["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["Ada Lovelace", "Robo"], "{s}");
    assert_eq!(s["tournament"]["id"], id.as_str());
    assert_eq!(s["tournament"]["round"], 1);
    assert_eq!(s["can_undo"], false);
    send(&mut ws, json!({"type": "name", "name": "Someone Else"})).await;
    let e = until(&mut ws, is_error).await;
    assert_eq!(e["code"], "bad_name", "{e}");
    assert!(e["message"].as_str().unwrap().contains("registered"), "{e}");
    // The players' chat carries the entrant's name.
    send(&mut ws, json!({"type": "chat", "text": "good luck"})).await;
    let line = until(&mut ws, |m| m["type"] == "chat").await;
    assert_eq!(line["name"], "Ada Lovelace", "{line}");
    // The event pairs the next round: a tournament game has no rematch.
    send(&mut ws, json!({"type": "rematch"})).await;
    let e = until(&mut ws, is_error).await;
    assert_eq!(e["code"], "rematch_refused", "{e}");
    assert!(e["message"].as_str().unwrap().contains("tournament"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_timed_event_a_player_who_does_not_come_loses_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    // A clock is for online events, and is checked like a game's.
    for (req, message) in [
        (
            json!({"name": "x", "variant": "duo", "clock": {"type": "fischer", "base": 60,
                   "increment": 0}}),
            "online events",
        ),
        (
            json!({"name": "x", "variant": "duo", "online": true,
                   "clock": {"type": "fischer", "base": 0, "increment": 0}}),
            "clock base 0",
        ),
    ] {
        let (status, r) = post(&server, "/api/tournaments", req).await;
        assert_eq!(status, 400, "{r}");
        assert!(r["message"].as_str().unwrap().contains(message), "{r}");
    }
    let clock = json!({"type": "fischer", "base": 1, "increment": 0});
    let (status, created) = post(
        &server,
        "/api/tournaments",
        json!({"name": "Blitz", "variant": "duo", "online": true, "rounds": 1,
               "entrants": ["Ada", "Bruno"], "clock": clock}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["clock"]["control"], clock);
    assert_eq!(created["clock"]["label"], "1s+0");
    let id = created["id"].as_str().unwrap().to_string();
    let organiser = created["organiser_token"].as_str().unwrap().to_string();
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{id}/pair"),
        json!({"token": organiser}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let game = v["games"][0]["game"].as_str().unwrap().to_string();
    // The first player's clock runs from the pairing.
    let (_, s) = get(&server, &format!("/api/games/{game}")).await;
    assert_eq!(s["clock"]["control"], clock, "{s}");
    assert_eq!(s["clock"]["running"], 0, "{s}");

    // Nobody comes: the first player's time runs out, which ends a game of two, and the
    // result is entered at the table with it.
    let done = wait_view(&server, &id, |v| v["finished"] == true).await;
    let table = &done["event"]["rounds"][0]["tables"][0];
    assert_eq!(table["result"]["kind"], "played", "{done}");
    assert_eq!(table["result"]["places"], json!([2, 1]), "{done}");
    let (_, s) = get(&server, &format!("/api/games/{game}")).await;
    assert_eq!(s["over"], true, "{s}");
}
