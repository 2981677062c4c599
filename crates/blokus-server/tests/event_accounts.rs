//! Events and accounts over the real API: an account enters an online event under its
//! user name and finds it on its profile; a guest who signs up in the middle of an event
//! keeps the entry, and its table's seat takes the account's name live; rated events
//! take only accounts and rate each table's game once, also across a crash.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// The view of event `id` once `pred` holds (results come in from game ends).
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

/// Creates an event (answering its id and organiser token).
async fn event(server: &TestServer, spec: Value) -> (String, String) {
    let (status, created) = post(server, "/api/tournaments", spec).await;
    assert_eq!(status, 201, "{created}");
    (
        created["id"].as_str().unwrap().to_string(),
        created["organiser_token"].as_str().unwrap().to_string(),
    )
}

/// Pairs the next round as the organiser.
async fn pair(server: &TestServer, id: &str, organiser: &str) -> Value {
    let (status, v) = post(
        server,
        &format!("/api/tournaments/{id}/pair"),
        json!({"token": organiser}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    v
}

/// The games of a player's tables, asked from the browser (its account, or `token`).
async fn my_games(server: &TestServer, b: &mut Browser, id: &str, body: Value) -> Value {
    let a = b
        .post(server, &format!("/api/tournaments/{id}/me"), body)
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    a.body
}

/// A profile once `pred` holds (ratings are settled by a task after the last move).
async fn wait_profile(
    b: &mut Browser,
    server: &TestServer,
    name: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..200 {
        let p = b.get(server, &format!("/api/users/{name}")).await.body;
        if pred(&p) {
            return p;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the profile did not get there");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_enters_an_event_under_its_name_and_its_profile_lists_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut alice = signed_up(&server, "alice").await;
    let (id, organiser) = event(
        &server,
        json!({"name": "Friday duo", "variant": "duo", "rounds": 1, "online": true,
               "bots": [{"level": 1}]}),
    )
    .await;
    let entry = format!("/api/tournaments/{id}/entrants");
    // Logged in, the entrant is the account under its user name, whatever name is sent.
    let a = alice
        .post(&server, &entry, json!({"name": "Queen Ann"}))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let entrant = a.body["entrant"].clone();
    let a = alice.post(&server, &entry, json!({})).await;
    assert_eq!(a.status, 409, "one entry per account: {}", a.body);
    assert!(a.body["message"].as_str().unwrap().contains("already"));
    // A guest can neither take an account's name nor enter without a name.
    let (status, r) = post(&server, &entry, json!({"name": "ALICE"})).await;
    assert_eq!(status, 409, "{r}");
    assert!(r["message"].as_str().unwrap().contains("account"), "{r}");
    let (status, _) = post(&server, &entry, json!({})).await;
    assert_eq!(status, 400);
    let (_, view) = get(&server, &format!("/api/tournaments/{id}")).await;
    let me = view["event"]["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == entrant)
        .unwrap()
        .clone();
    assert_eq!(me["name"], "alice", "{view}");
    assert_eq!(view["rated"], false);
    assert_eq!(
        view["accounts"],
        json!([{"entrant": entrant, "rating": 1500, "provisional": true}])
    );

    // The table's seat is played from the account: any logged-in device finds it.
    pair(&server, &id, &organiser).await;
    let mine = my_games(&server, &mut alice, &id, json!({})).await;
    assert_eq!(mine["name"], "alice");
    let game = mine["games"][0]["game"].as_str().unwrap().to_string();
    let seat = mine["games"][0]["seat"].as_u64().unwrap() as usize;
    let seat_token = mine["games"][0]["seat_token"].as_str().unwrap().to_string();
    let tokens = alice.get(&server, "/api/account/tokens").await.body;
    assert_eq!(
        tokens,
        json!([{"game": game, "seat": seat, "token": seat_token}])
    );
    let a = Browser::default()
        .post(&server, &format!("/api/tournaments/{id}/me"), json!({}))
        .await;
    assert_eq!(a.status, 403, "a guest has no entry without a token");
    let (_, state) = get(&server, &format!("/api/games/{game}")).await;
    assert_eq!(state["seats"][seat]["name"], "alice", "{state}");

    play_to_end(&server, &game, vec![seat_token]).await;
    wait_view(&server, &id, |v| v["finished"] == true).await;
    let p = alice.get(&server, "/api/users/alice").await.body;
    let ev = &p["events"][0];
    assert_eq!(ev["id"], id.as_str(), "{p}");
    assert_eq!(ev["name"], "Friday duo");
    assert_eq!(ev["variant"], "duo");
    assert_eq!(ev["finished"], true);
    assert_eq!(ev["rated"], false);
    assert_eq!(ev["entrants"], 2);
    assert!(ev["place"] == 1 || ev["place"] == 2, "{ev}");
    assert!(p["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == game.as_str()));
    // Nobody else's profile lists it.
    let mut bob = signed_up(&server, "bob").await;
    assert_eq!(
        bob.get(&server, "/api/users/bob").await.body["events"],
        json!([])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_who_signs_up_mid_event_keeps_the_entry_and_the_seat_takes_the_name_live() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let (id, organiser) = event(
        &server,
        json!({"name": "Open duo", "variant": "duo", "rounds": 2, "online": true,
               "bots": [{"level": 1}]}),
    )
    .await;
    let (status, r) = post(
        &server,
        &format!("/api/tournaments/{id}/entrants"),
        json!({"name": "Gus the guest"}),
    )
    .await;
    assert_eq!(status, 201, "{r}");
    let device = r["token"].as_str().unwrap().to_string();
    pair(&server, &id, &organiser).await;
    let mut guest = Browser::default();
    let mine = my_games(&server, &mut guest, &id, json!({"token": device})).await;
    let game = mine["games"][0]["game"].as_str().unwrap().to_string();
    let seat = mine["games"][0]["seat"].as_u64().unwrap() as usize;
    let seat_token = mine["games"][0]["seat_token"].as_str().unwrap().to_string();
    let mut table = ws(&server, &game).await;
    send(&mut table, json!({"type": "join", "tokens": [seat_token]})).await;
    until(&mut table, |m| {
        is_state(m) && m["seats"][seat]["name"] == "Gus the guest"
    })
    .await;

    // Signing up with the device's event token takes the entry along (the seat token
    // itself is not sent: the entry brings its tables' seats).
    let a = guest
        .post(
            &server,
            "/api/accounts",
            json!({"name": "Gus", "password": "gus's secret", "tokens": [device]}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    until(&mut table, |m| {
        is_state(m) && m["seats"][seat]["name"] == "Gus"
    })
    .await;
    let view = wait_view(&server, &id, |_| true).await;
    let names: Vec<&str> = view["event"]["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Gus"), "{names:?}");
    assert_eq!(view["accounts"].as_array().unwrap().len(), 1, "{view}");
    // The account plays on: its seat cannot be renamed by anybody.
    send(&mut table, json!({"type": "name", "name": "Somebody"})).await;
    assert_eq!(until(&mut table, is_error).await["code"], "bad_name");
    let p = guest.get(&server, "/api/users/gus").await.body;
    assert_eq!(p["events"][0]["id"], id.as_str(), "{p}");
    assert_eq!(p["events"][0]["finished"], false);
    assert_eq!(p["games"][0]["id"], game.as_str(), "{p}");
    // Its next rounds' seats are the account's from the start.
    drop(table);
    play_to_end(&server, &game, vec![seat_token]).await;
    let view = wait_view(&server, &id, |v| {
        v["event"]["rounds"].as_array().unwrap().len() == 2
    })
    .await;
    let next = view["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["round"] == 2)
        .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let tokens = guest.get(&server, "/api/account/tokens").await.body;
    assert!(
        tokens
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["game"] == next.as_str()),
        "{tokens}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_event_takes_only_accounts_and_rates_each_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    for (spec, needle) in [
        (
            json!({"name": "R", "variant": "duo", "rated": true}),
            "online",
        ),
        (
            json!({"name": "R", "variant": "duo", "rated": true, "online": true,
                   "entrants": ["Ada", "Bruno"]}),
            "accounts",
        ),
    ] {
        let (status, r) = post(&server, "/api/tournaments", spec).await;
        assert_eq!(status, 400, "{r}");
        assert!(r["message"].as_str().unwrap().contains(needle), "{r}");
    }
    let (id, organiser) = event(
        &server,
        json!({"name": "Rated duo", "variant": "duo", "rounds": 1, "online": true,
               "rated": true}),
    )
    .await;
    let entry = format!("/api/tournaments/{id}/entrants");
    let (status, r) = post(&server, &entry, json!({"name": "Gus"})).await;
    assert_eq!(status, 401, "a guest cannot enter a rated event: {r}");
    assert!(r["message"].as_str().unwrap().contains("rated"), "{r}");
    let mut alice = signed_up(&server, "alice").await;
    let mut bob = signed_up(&server, "bob").await;
    for b in [&mut alice, &mut bob] {
        let a = b.post(&server, &entry, json!({})).await;
        assert_eq!(a.status, 201, "{}", a.body);
    }
    let view = pair(&server, &id, &organiser).await;
    assert_eq!(view["rated"], true);
    let mut tokens = Vec::new();
    let mut game = String::new();
    for b in [&mut alice, &mut bob] {
        let mine = my_games(&server, b, &id, json!({})).await;
        game = mine["games"][0]["game"].as_str().unwrap().to_string();
        tokens.push(mine["games"][0]["seat_token"].as_str().unwrap().to_string());
    }
    let players = alice
        .get(&server, &format!("/api/games/{game}/players"))
        .await
        .body;
    assert_eq!(players["rated"], true, "{players}");
    let end = play_to_end(&server, &game, tokens).await;
    wait_view(&server, &id, |v| v["finished"] == true).await;
    let rated = |p: &Value| p["ratings"].as_array().is_some_and(|r| !r.is_empty());
    let a = wait_profile(&mut alice, &server, "alice", rated).await;
    let b = wait_profile(&mut bob, &server, "bob", rated).await;
    for p in [&a, &b] {
        assert_eq!(p["ratings"][0]["pool"], "duo", "{p}");
        assert_eq!(p["ratings"][0]["games"], 1, "{p}");
        assert_eq!(p["history"][0]["game"], game.as_str(), "{p}");
        assert_eq!(p["events"][0]["rated"], true, "{p}");
    }
    let (ra, rb) = (
        a["ratings"][0]["rating"].as_i64().unwrap(),
        b["ratings"][0]["rating"].as_i64().unwrap(),
    );
    let seat_of_alice = players["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["name"] == "alice")
        .unwrap();
    let (pa, pb) = (
        end["results"][seat_of_alice]["place"].clone(),
        end["results"][1 - seat_of_alice]["place"].clone(),
    );
    if pa == pb {
        assert_eq!((ra, rb), (1500, 1500));
    } else if pa == 1 {
        assert!(ra > 1500 && rb < 1500, "{ra} {rb}");
    } else {
        assert!(ra < 1500 && rb > 1500, "{ra} {rb}");
    }
    // The standings show the new ratings next to the names.
    let (_, view) = get(&server, &format!("/api/tournaments/{id}")).await;
    let shown: Vec<i64> = view["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["rating"].as_i64().unwrap())
        .collect();
    assert!(shown.contains(&ra) && shown.contains(&rb), "{view}");

    // A crash and the start-up sweep change nothing: the game counted once.
    server.kill();
    let server = TestServer::start_with(dir.path(), roomy());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let again = alice.get(&server, "/api/users/alice").await.body;
    assert_eq!(again["ratings"], a["ratings"]);
    assert_eq!(again["history"].as_array().unwrap().len(), 1);
    drop(server);
    let store = blokus_server::store::Store::connect(&database_for(dir.path()))
        .await
        .unwrap();
    assert_eq!(
        store.settle_game(game).await.unwrap(),
        blokus_server::ratings::Settlement::AlreadySettled
    );
}
