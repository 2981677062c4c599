//! The AI hint of games against the computer (`POST /api/games/{id}/hint`), over HTTP.

mod common;

use common::*;
use serde_json::{json, Value};

fn sorted(cells: &Value) -> Vec<String> {
    let mut v: Vec<String> = cells
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_a_legal_move_for_the_player_to_move_against_the_ai() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (status, g) = post(
        &server,
        "/api/games",
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]}),
    )
    .await;
    assert_eq!(status, 201);
    let id = g["id"].as_str().unwrap();
    let token = g["tokens"][0]["token"].as_str().unwrap();
    let (status, hint) = post(
        &server,
        &format!("/api/games/{id}/hint"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["ply"], 0);
    let (_, state) = get(&server, &format!("/api/games/{id}?legal=1")).await;
    let want = sorted(&hint["cells"]).join(",");
    let legal = state["legal"].as_array().unwrap().iter().any(|m| {
        let mut cells: Vec<&str> = m.as_str().unwrap().split(',').collect();
        cells.sort();
        cells.join(",") == want
    });
    assert!(legal, "the hint {want} is a legal move");
    assert!(hint["piece"].is_string());

    // Tokens that hold no seat, and junk, are refused with a reason.
    let (status, e) = post(
        &server,
        &format!("/api/games/{id}/hint"),
        json!({"token": "0".repeat(32)}),
    )
    .await;
    assert_eq!(status, 403, "{e}");
    let (status, e) = post(
        &server,
        &format!("/api/games/{id}/hint"),
        json!({"token": "x"}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(e["message"].as_str().unwrap().contains("token"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_hints_with_another_person_at_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (_, g) = post(
        &server,
        "/api/games",
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "human"}]}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let token = g["tokens"][0]["token"].as_str().unwrap();
    let (status, e) = post(
        &server,
        &format!("/api/games/{id}/hint"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(status, 403, "{e}");
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("against the computer"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blokus_3d_hint_is_a_legal_stone_placement() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (status, g) = post(
        &server,
        "/api/games",
        json!({"variant": "rumis_2", "site": "plaza",
               "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]}),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap();
    let token = g["tokens"][0]["token"].as_str().unwrap();
    let (status, hint) = post(
        &server,
        &format!("/api/games/{id}/hint"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["ply"], 0);
    let (_, state) = get(&server, &format!("/api/games/{id}?legal=1")).await;
    let want = sorted(&hint["cells"]).join(",");
    assert!(want.contains('.'), "cubes name their level: {want}");
    let legal = state["legal"].as_array().unwrap().iter().any(|m| {
        let mut cubes: Vec<&str> = m.as_str().unwrap().split(',').collect();
        cubes.sort();
        cubes.join(",") == want
    });
    assert!(legal, "the hint {want} is a legal placement");
    let stones: Vec<&str> = state["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(stones.contains(&hint["piece"].as_str().unwrap()), "{hint}");
}
