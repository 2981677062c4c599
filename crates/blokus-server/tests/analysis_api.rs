//! Game analysis over HTTP: refused for running games, requested for a finished one,
//! queued, computed in the background, stored, and resumed after a kill.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_games_get_no_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let body = json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "ai"}]});
    let (_, created) = post(&server, "/api/games", body).await;
    let id = created["id"].as_str().unwrap();
    for (status, r) in [
        get(&server, &format!("/api/games/{id}/analysis")).await,
        post(&server, &format!("/api/games/{id}/analysis"), json!({})).await,
    ] {
        assert_eq!(status, 409, "{r}");
        assert_eq!(
            r["message"],
            "the game is not over: analysis is only for finished games"
        );
    }
    let (status, _) = get(&server, "/api/games/nope/analysis").await;
    assert_eq!(status, 404);
    let (status, _) = post(&server, "/api/games/nope/analysis", json!({})).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_in_the_background_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let id = finished_game(&server).await;
    let path = format!("/api/games/{id}/analysis");
    let (status, a) = get(&server, &path).await;
    assert_eq!(status, 200);
    assert_eq!(a["status"], "none");
    assert_eq!(a["done"], 0);
    assert_eq!(a["sides"], json!(["purple", "orange"]));
    assert_eq!(
        a["thresholds"],
        json!({"inaccuracy": 0.05, "mistake": 0.1, "blunder": 0.2})
    );

    let (status, a) = post(&server, &path, json!({})).await;
    assert_eq!(status, 202, "{a}");
    assert!(a["status"] == "queued" || a["status"] == "running", "{a}");
    assert_eq!(a["queue_position"], 0, "{a}");

    let a = analysis_done(&server, &id).await;
    let (_, state) = get(&server, &format!("/api/games/{id}")).await;
    let events = state["moves"].as_array().unwrap().len();
    assert_eq!(a["total"], events + 1);
    assert_eq!(a["done"], events + 1);
    assert!(a.get("queue_position").is_none(), "{a}");
    let positions = a["positions"].as_array().unwrap();
    assert_eq!(positions.len(), events + 1);
    for (i, p) in positions.iter().enumerate() {
        let v: Vec<f64> = p["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(v.len(), 2);
        assert!((v[0] + v[1] - 1.0).abs() < 0.01, "{p}");
        // Every position but the last has the AI's preferred placement.
        assert_eq!(p["best"]["cells"].is_array(), i < events, "{p}");
    }
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), events);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i);
        // In Duo each colour is its own side.
        assert_eq!(m["side"], state["moves"][i]["colour"], "{m}");
        let loss = m["loss"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&loss));
        let class = m.get("class").and_then(Value::as_str);
        let expected = if loss >= 0.2 {
            Some("blunder")
        } else if loss >= 0.1 {
            Some("mistake")
        } else if loss >= 0.05 {
            Some("inaccuracy")
        } else {
            None
        };
        assert_eq!(class, expected, "{m}");
    }
    // Level-1 play makes mistakes the analysis sees.
    assert!(moves.iter().any(|m| m.get("class").is_some()), "{a}");

    // Asking again answers the stored analysis.
    let (status, again) = post(&server, &path, json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(again["positions"], a["positions"]);

    // It survives a restart.
    server.kill();
    let server = TestServer::start(dir.path());
    let (status, after) = get_when_served(&server, &path).await;
    assert_eq!(status, 200);
    assert_eq!(after["status"], "done");
    assert_eq!(after["positions"], a["positions"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unfinished_analysis_resumes_after_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (first, second) = (finished_game(&server).await, finished_game(&server).await);
    let (status, _) = post(&server, &format!("/api/games/{first}/analysis"), json!({})).await;
    assert_eq!(status, 202);
    let (status, a) = post(&server, &format!("/api/games/{second}/analysis"), json!({})).await;
    assert_eq!(status, 202);
    // One worker: the second waits behind the first.
    if a["status"] == "queued" {
        assert_eq!(a["queue_position"], 1, "{a}");
    }
    // Kill once the first has some positions (it has many more to go).
    let mut done_at_kill = 0;
    for _ in 0..400 {
        let (_, a) = get(&server, &format!("/api/games/{first}/analysis")).await;
        done_at_kill = a["done"].as_u64().unwrap();
        if done_at_kill > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(done_at_kill > 0);
    server.kill();
    // On PostgreSQL the new server has another address: it takes the analysis over when
    // the dead server's claim runs out.
    let server = TestServer::start(dir.path());
    let (_, a) = get_when_served(&server, &format!("/api/games/{first}/analysis")).await;
    assert!(a["done"].as_u64().unwrap() >= done_at_kill, "kept: {a}");
    for id in [&first, &second] {
        let a = analysis_done(&server, id).await;
        assert_eq!(a["done"], a["total"]);
    }
}
