//! The tournament API over a real socket: an over-the-board Duo event from creation to
//! final standings, with registration, results, a correction, a forfeit, a withdrawal,
//! refused actions that change nothing, a server killed mid-round, and the CSV export.

mod common;

use common::*;
use serde_json::{json, Value};

/// Enters a result for every table of the current round: seat 0 scores 10, seat 1 -5.
async fn enter_round(server: &TestServer, id: &str, token: &str, view: &Value) -> Value {
    let round = view["event"]["rounds"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    let mut last = Value::Null;
    for t in round["tables"].as_array().unwrap() {
        let (status, v) = post(
            server,
            &format!("/api/tournaments/{id}/results"),
            json!({"token": token, "round": round["number"], "table": t["number"], "scores": [10, -5]}),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        last = v;
    }
    last
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_over_the_board_event_runs_to_its_standings_and_survives_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (status, created) = post(
        &server,
        "/api/tournaments",
        json!({"name": "Ludoteca", "variant": "duo", "rounds": 3, "seed": 7,
               "entrants": ["Ada", "Bruno", "Chiara", "Dario", "Elena"]}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["organiser_token"].as_str().unwrap().to_string();
    assert_eq!(created["event"]["config"]["pairing"], "italo_svizzero");

    // Registration through the link; a duplicate name is refused.
    let reg = format!("/api/tournaments/{id}/entrants");
    let (status, r) = post(&server, &reg, json!({"name": "Fabio"})).await;
    assert_eq!((status, r["entrant"].as_u64()), (201, Some(5)), "{r}");
    let (status, r) = post(&server, &reg, json!({"name": "ada"})).await;
    assert_eq!(status, 409, "{r}");
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("already registered"),
        "{r}"
    );

    // Only the organiser pairs.
    let pair = format!("/api/tournaments/{id}/pair");
    let (status, _) = post(&server, &pair, json!({"token": "0".repeat(32)})).await;
    assert_eq!(status, 403);
    let (status, round1) = post(&server, &pair, json!({"token": token})).await;
    assert_eq!(status, 200, "{round1}");
    assert_eq!(
        round1["event"]["rounds"][0]["tables"]
            .as_array()
            .unwrap()
            .len(),
        3
    );

    // Pairing again before the results are in, or a result for another round: refused,
    // and nothing changes.
    let (status, r) = post(&server, &pair, json!({"token": token})).await;
    assert_eq!(status, 409, "{r}");
    let results = format!("/api/tournaments/{id}/results");
    let (status, r) = post(
        &server,
        &results,
        json!({"token": token, "round": 2, "table": 1, "scores": [1, 0]}),
    )
    .await;
    assert_eq!(status, 409, "{r}");
    let (status, r) = post(
        &server,
        &results,
        json!({"token": token, "round": 1, "table": 1, "scores": [1, 0, 4]}),
    )
    .await;
    assert_eq!(status, 400, "{r}");
    let (_, unchanged) = get(&server, &format!("/api/tournaments/{id}")).await;
    assert_eq!(unchanged["event"], round1["event"]);

    // Round 1: table 1 entered wrongly then corrected, table 3 a forfeit.
    enter_round(&server, &id, &token, &round1).await;
    let (status, v) = post(
        &server,
        &results,
        json!({"token": token, "round": 1, "table": 1, "scores": [-5, 10]}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = post(
        &server,
        &results,
        json!({"token": token, "round": 1, "table": 3, "absent": [1]}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let winner1 = v["event"]["rounds"][0]["tables"][0]["seats"][1].clone();
    let row = |v: &Value, e: &Value| {
        v["standings"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["entrant"] == *e)
            .unwrap()
            .clone()
    };
    assert_eq!(row(&v, &winner1)["points"], json!(1), "{v}");

    // The server dies between rounds; the event resumes where it was.
    server.kill();
    let server = TestServer::start(dir.path());
    let (status, after) = get(&server, &format!("/api/tournaments/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(after["event"], v["event"]);

    // A withdrawal, then the remaining rounds.
    let (status, w) = post(
        &server,
        &format!("/api/tournaments/{id}/withdraw"),
        json!({"token": token, "entrant": 0}),
    )
    .await;
    assert_eq!(status, 200, "{w}");
    for round in 2..=3 {
        let (status, paired) = post(&server, &pair, json!({"token": token})).await;
        assert_eq!(status, 200, "{paired}");
        let seated: Vec<&Value> = paired["event"]["rounds"][round - 1]["tables"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["seats"].as_array().unwrap())
            .collect();
        assert!(
            !seated.contains(&&json!(0)),
            "the withdrawn entrant is not paired"
        );
        enter_round(&server, &id, &token, &paired).await;
    }
    let (_, done) = get(&server, &format!("/api/tournaments/{id}")).await;
    assert_eq!(done["finished"], true);
    let (status, r) = post(&server, &pair, json!({"token": token})).await;
    assert_eq!(status, 409, "{r}");
    assert_eq!(done["crosstable"]["lines"].as_array().unwrap().len(), 6);

    let csv = reqwest::get(server.url(&format!("/api/tournaments/{id}/standings.csv")))
        .await
        .unwrap();
    assert_eq!(csv.headers()["content-type"], "text/csv; charset=utf-8");
    let text = csv.text().await.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "place,number,name,points,game_score,buchholz,median_buchholz,wins,head_to_head,games,byes,withdrawn"
    );
    assert_eq!(lines.len(), 7, "{text}");
    assert!(text.contains("Ada") && text.contains(",true"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_events_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let cases = [
        (
            json!({"name": "x", "variant": "chess"}),
            "unknown variant 'chess'",
        ),
        (
            json!({"name": "x", "variant": "duo", "rounds": 0}),
            "at least 1 round",
        ),
        (
            json!({"name": "x", "variant": "classic", "pairing": "round_robin"}),
            "2-player tables",
        ),
        (
            json!({"name": "x", "variant": "duo", "entrants": ["A", "a"]}),
            "already registered",
        ),
        (
            json!({"name": "x", "variant": "duo", "place_points": [0, 1]}),
            "must not increase",
        ),
        (
            json!({"name": "x", "variant": "duo", "pairing": "knockout"}),
            "unknown variant `knockout`",
        ),
    ];
    for (req, message) in cases {
        let (status, r) = post(&server, "/api/tournaments", req.clone()).await;
        assert!(status == 400 || status == 409, "{req}: {status} {r}");
        assert!(
            r["message"].as_str().unwrap_or("").contains(message),
            "{req}: {r}"
        );
    }
    // One entrant cannot be paired.
    let (_, one) = post(
        &server,
        "/api/tournaments",
        json!({"name": "x", "variant": "duo", "entrants": ["A"]}),
    )
    .await;
    let id = one["id"].as_str().unwrap();
    let (status, r) = post(
        &server,
        &format!("/api/tournaments/{id}/pair"),
        json!({"token": one["organiser_token"]}),
    )
    .await;
    assert_eq!(status, 409);
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("cannot fill a table"),
        "{r}"
    );
    let (status, _) = get(&server, "/api/tournaments/nope").await;
    assert_eq!(status, 404);
}
