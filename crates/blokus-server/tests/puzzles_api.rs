//! The puzzle API over a real socket: listing, board details, check and hint.

mod common;

use common::*;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_listed_with_boards() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (status, list) = get(&server, "/api/puzzles").await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["all_84", "tetro_8x10", "penta_15x16", "all_88"]);
    let (_, tetro) = get(&server, "/api/puzzles/tetro_8x10").await;
    assert_eq!(tetro["board"]["cells"].as_array().unwrap().len(), 80);
    assert_eq!(tetro["board"]["pieces"].as_array().unwrap().len(), 5);
    let (_, all88) = get(&server, "/api/puzzles/all_88").await;
    assert_eq!(all88["board"]["grid"], "triangle");
    let (status, _) = get(&server, "/api/puzzles/sudoku").await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_solve_tetro_strict_and_check_validates() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let mut placements: Vec<Value> = Vec::new();
    for _ in 0..20 {
        let (status, h) = post(
            &server,
            "/api/puzzles/tetro_8x10/hint",
            json!({"placements": placements, "strict": true}),
        )
        .await;
        assert_eq!(status, 200, "{h}");
        assert_eq!(h["status"], "next", "{h}");
        placements.push(h["placement"].clone());
        let (_, c) = post(
            &server,
            "/api/puzzles/tetro_8x10/check",
            json!({"placements": placements, "strict": true}),
        )
        .await;
        assert_eq!(c["valid"], true, "{c}");
        assert_eq!(c["placed"], placements.len());
    }
    let (_, c) = post(
        &server,
        "/api/puzzles/tetro_8x10/check",
        json!({"placements": placements, "strict": true}),
    )
    .await;
    assert_eq!(c["solved"], true);
    let (_, h) = post(
        &server,
        "/api/puzzles/tetro_8x10/hint",
        json!({"placements": placements, "strict": true}),
    )
    .await;
    assert_eq!(h["status"], "solved");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_and_hint_refuse_bad_positions() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    // Overlapping pieces.
    let o =
        |colour: &str| json!({"colour": colour, "piece": "O", "cells": ["a1", "b1", "a2", "b2"]});
    let (_, c) = post(
        &server,
        "/api/puzzles/tetro_8x10/check",
        json!({"placements": [o("blue"), o("red")]}),
    )
    .await;
    assert_eq!(c["valid"], false);
    assert_eq!(c["index"], 1);
    assert!(
        c["message"].as_str().unwrap().contains("already covered"),
        "{c}"
    );
    // A Classic first piece away from the colour's corner.
    let (_, c) = post(
        &server,
        "/api/puzzles/all_84/check",
        json!({"placements": [{"colour": "blue", "piece": "1", "cells": ["j10"]}]}),
    )
    .await;
    assert_eq!(c["valid"], false);
    assert!(
        c["message"].as_str().unwrap().contains("starting point"),
        "{c}"
    );
    // A legal first piece is accepted.
    let (_, c) = post(
        &server,
        "/api/puzzles/all_84/check",
        json!({"placements": [{"colour": "blue", "piece": "1", "cells": ["a20"]}], "decreasing": false}),
    )
    .await;
    assert_eq!(c["valid"], true, "{c}");
    // A dead end: column a below the four I4s can never be covered.
    let i4 = |colour: &str, col: &str| json!({"colour": colour, "piece": "I4", "cells": (1..=4).map(|r| format!("{col}{r}")).collect::<Vec<_>>()});
    let dead = json!({"placements": [i4("blue", "b"), i4("yellow", "c"), i4("red", "d"), i4("green", "e")]});
    let (status, h) = post(&server, "/api/puzzles/tetro_8x10/hint", dead).await;
    assert_eq!(status, 200);
    assert_eq!(h["status"], "no_solution", "{h}");
    // Hints on a broken position and unknown forms are bad requests.
    let (status, _) = post(
        &server,
        "/api/puzzles/tetro_8x10/hint",
        json!({"placements": [o("blue"), o("blue")]}),
    )
    .await;
    assert_eq!(status, 400);
    let (status, e) = post(
        &server,
        "/api/puzzles/all_88/check",
        json!({"placements": [], "strict": true}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    let (status, _) = post(
        &server,
        "/api/puzzles/tetro_8x10/check",
        json!({"moves": []}),
    )
    .await;
    assert!(status == 400 || status == 422);
}

/// Opening `all_84` searches its forms in the background, so hint after hint leads from
/// the empty board to the solved board (in decreasing order here), each checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_lead_all_84_decreasing_from_the_empty_board_to_solved() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (status, _) = get(&server, "/api/puzzles/all_84").await;
    assert_eq!(status, 200);
    let mut placements: Vec<Value> = Vec::new();
    let mut last_size = 5;
    for _ in 0..84 {
        let (status, h) = post(
            &server,
            "/api/puzzles/all_84/hint",
            json!({"placements": placements, "decreasing": true}),
        )
        .await;
        assert_eq!(status, 200, "{h}");
        assert_eq!(
            h["status"],
            "next",
            "after {} pieces: {h}",
            placements.len()
        );
        let size = h["placement"]["cells"].as_array().unwrap().len();
        assert!(size <= last_size, "decreasing order broken: {h}");
        last_size = size;
        placements.push(h["placement"].clone());
    }
    let (_, c) = post(
        &server,
        "/api/puzzles/all_84/check",
        json!({"placements": placements, "decreasing": true}),
    )
    .await;
    assert_eq!(c["valid"], true, "{c}");
    assert_eq!(c["solved"], true, "{c}");
}
