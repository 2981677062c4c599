//! Blokus 3D through the HTTP + WebSocket API: creation on built-in and uploaded sites
//! (and the refusals), a whole game of a person against the AI with illegal moves,
//! `check` answers, records read back by the core, and a kill of the server mid-game.

mod common;

use common::*;
use serde_json::{json, Value};

const YARD: &str = "name = yard\nheights = 2:2 3:3 4:3\nfootprint =\noooo\noooo\noooo\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sites_are_listed_and_bad_3d_creations_are_refused_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (status, sites) = get(&server, "/api/sites").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = sites
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["plaza", "cross", "ring", "diamond", "tower"]);
    assert_eq!(sites[0]["heights"], json!([4, 6, 8]));
    let (status, variants) = get(&server, "/api/cube-variants").await;
    assert_eq!(status, 200);
    let named: Vec<(&str, &str, u64)> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let id = v["id"].as_str().unwrap();
            (
                id,
                v["name"].as_str().unwrap(),
                v["players"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("rumis_4", "Blokus 3D", 4),
            ("rumis_3", "Blokus 3D Three-Player", 3),
            ("rumis_2", "Blokus 3D Duo", 2),
            ("rumis_2x4", "Blokus 3D Two-Player", 2),
        ]
    );
    let two = json!([{"kind": "me"}, {"kind": "ai"}]);
    for (body, reason) in [
        (
            json!({"variant": "rumis_2", "site": "moon", "seats": two}),
            "unknown site 'moon' (built in: plaza, cross, ring, diamond, tower",
        ),
        (
            json!({"variant": "rumis_2", "site_definition": "name = x\nheights = 2:2\n", "seats": two}),
            "site_definition: ",
        ),
        (
            json!({"variant": "rumis_2", "site": "plaza", "site_definition": YARD, "seats": two}),
            "not both",
        ),
        (
            json!({"variant": "duo", "site": "plaza", "seats": two}),
            "'site' is for the Blokus 3D variants",
        ),
        (
            json!({"variant": "rumis_4", "seats": two}),
            "variant 'rumis_4' has 4 players: give exactly 4 seats (got 2)",
        ),
        (
            json!({"variant": "rumis_9", "seats": two}),
            "unknown variant 'rumis_9' (known: classic,",
        ),
    ] {
        let (status, body) = post(&server, "/api/games", body).await;
        assert_eq!(status, 400, "{body}");
        let msg = body["message"].as_str().unwrap();
        assert!(msg.contains(reason), "{msg}");
    }
    // Every seating on a built-in site starts, with the site's height for its players.
    for (variant, seats, height) in [("rumis_4", 4, 8), ("rumis_3", 3, 6), ("rumis_2x4", 2, 8)] {
        let seats: Vec<Value> = (0..seats).map(|_| json!({"kind": "human"})).collect();
        let (id, created) = create_game(&server, json!({"variant": variant, "seats": seats})).await;
        assert_eq!(created["url"], format!("/cube/{id}"));
        let (_, st) = get(&server, &format!("/api/games/{id}")).await;
        assert_eq!(st["family"], "cube");
        assert_eq!(st["site"]["name"], "plaza");
        assert_eq!(st["site"]["height"], height);
        assert_eq!(st["status"], "open");
    }
}

/// Plays the first legal move of each `state` that lists them until the game ends;
/// returns the last state.
async fn play_out(a: &mut Ws) -> Value {
    loop {
        let s = until(a, |m| {
            is_state(m) && (m["over"] == true || m["legal"].is_array())
        })
        .await;
        if s["over"] == true {
            return s;
        }
        let first = s["legal"][0].as_str().unwrap().to_string();
        send(a, json!({"type": "move", "cells": first, "ply": s["ply"]})).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_whole_3d_game_against_the_ai_across_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path());
    let (id, created) = create_game(
        &server,
        json!({"variant": "rumis_2", "site_definition": YARD,
               "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]}),
    )
    .await;
    let token = token_of(&created, 0);
    let (mut a, s) = join(&server, &id, std::slice::from_ref(&token)).await;
    assert_eq!(s["family"], "cube");
    assert_eq!(s["variant"], "rumis_2");
    assert_eq!(s["site"]["name"], "yard");
    assert_eq!(s["site"]["height"], 2);
    assert_eq!(s["site"]["squares"].as_array().unwrap().len(), 12);
    assert_eq!(s["stones"].as_array().unwrap().len(), 11);
    assert_eq!(
        s["stones"][0],
        json!({"name": "I2", "cubes": [[0, 0, 0], [1, 0, 0]]})
    );
    assert_eq!(s["remaining"][0].as_array().unwrap().len(), 11);
    let legal: Vec<&str> = s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(legal.contains(&"a1.1,b1.1"), "{legal:?}");

    // A check answers with the rules' reason and plays nothing.
    send(&mut a, json!({"type": "check", "cells": "a1.2,b1.2"})).await;
    let c = until(&mut a, |m| m["type"] == "check").await;
    assert_eq!(
        c,
        json!({"type": "check", "cells": "a1.2,b1.2", "legal": false,
               "reason": "illegal move: a cube would have empty space under it"})
    );
    send(&mut a, json!({"type": "check", "cells": ["b1.1", "a1.1"]})).await;
    let c = until(&mut a, |m| m["type"] == "check").await;
    assert_eq!(c["legal"], true);
    // Illegal and malformed moves are refused with reasons.
    send(&mut a, json!({"type": "move", "cells": "a1.1,c3.1"})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "malformed");
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("is not the shape of a stone"));
    send(&mut a, json!({"type": "move", "cells": "a1.2,b1.2"})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "illegal");

    // Blue's first stone; the AI answers with Yellow's, touching it.
    send(
        &mut a,
        json!({"type": "move", "cells": "a1.1,b1.1", "ply": 0}),
    )
    .await;
    let m = until(&mut a, |m| m["type"] == "move").await;
    assert_eq!(
        m,
        json!({"type": "move", "ply": 0, "colour": 0,
                         "cells": ["a1.1", "b1.1"], "piece": "I2"})
    );
    let s = until(&mut a, |m| is_state(m) && m["ply"] == 2).await;
    assert_eq!(s["moves"][1]["colour"], 1);
    assert_eq!(s["moves"][1]["player"], 1);
    assert_eq!(s["remaining"][0][0], 0, "blue's domino is placed");
    assert_eq!(
        s["cubes"].as_array().unwrap().len(),
        2 + s["moves"][1]["cubes"].as_array().unwrap().len()
    );
    let (_, before) = get(&server, &format!("/api/games/{id}")).await;
    drop(a);
    server.kill();

    // After a crash the game is there, and play goes on to the end.
    let server = TestServer::start(dir.path());
    let (status, after) = get_when_served(&server, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(after["cubes"], before["cubes"]);
    assert_eq!(after["moves"], before["moves"]);
    let mut a = ws(&server, &id).await;
    send(&mut a, json!({"type": "join", "token": token})).await;
    let end = play_out(&mut a).await;
    assert_eq!(end["status"], "finished");
    assert!(end["out"].as_array().unwrap().iter().all(|o| o == true));
    let visible: i64 = end["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["visible"].as_i64().unwrap())
        .sum();
    assert!(visible > 0 && visible <= 12);
    assert_eq!(end["results"].as_array().unwrap().len(), 2);
    send(&mut a, json!({"type": "move", "cells": "a1.1,b1.1"})).await;
    assert_eq!(until(&mut a, is_error).await["code"], "game_over");

    // The records read back with the core's readers, to the same game.
    let sgf = reqwest::get(server.url(&format!("/api/games/{id}/record.blksgf")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(sgf.contains("GM[Blokus 3D Duo]") && sgf.contains("XSITEDEF[name = yard"));
    assert!(sgf.contains("PW[blokus AI level 1]"));
    let game = blokus_core::cube::record::from_blksgf(&sgf).unwrap();
    assert!(game.is_over());
    assert_eq!(game.moves().len(), end["ply"].as_u64().unwrap() as usize);
    let (status, record) = get(&server, &format!("/api/games/{id}/record.json")).await;
    assert_eq!(status, 200);
    assert_eq!(record["variant"], "rumis_2");
    let back = blokus_core::cube::record::from_json(&record.to_string()).unwrap();
    assert_eq!(back.position(), game.position());
}
