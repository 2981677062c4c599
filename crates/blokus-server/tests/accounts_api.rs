//! Accounts and ratings through the real HTTP + WebSocket API: every account path and
//! its bad input, session fixation, CSRF, user-name enumeration, login rate limits, a
//! guest's games kept at sign-up, and rated games (between accounts and against the AI)
//! played to the end, rated exactly once, also across a crash.

mod common;

use common::*;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_log_in_log_out_and_change_password() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut alice = Browser::default();
    let a = alice
        .post(
            &server,
            "/api/accounts",
            json!({"name": "Alice", "password": "correct horse"}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(a.body["name"], "Alice");
    let cookie = a.set_cookie.unwrap();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    assert_eq!(alice.whoami(&server).await, "Alice");

    // Names are unique whatever their case, and checked.
    let mut other = Browser::default();
    let a = other
        .post(
            &server,
            "/api/accounts",
            json!({"name": "ALICE", "password": "another one"}),
        )
        .await;
    assert_eq!(a.status, 409);
    assert!(a.body["message"].as_str().unwrap().contains("taken"));
    for (body, needle) in [
        (json!({"name": "al", "password": "long enough"}), "3 to 20"),
        (
            json!({"name": "a b c", "password": "long enough"}),
            "may contain only",
        ),
        (
            json!({"name": "1abc", "password": "long enough"}),
            "starts with a letter",
        ),
        (
            json!({"name": "admin", "password": "long enough"}),
            "reserved",
        ),
        (json!({"name": "bobby", "password": "short"}), "at least 8"),
        (
            json!({"name": "bobby", "password": "x".repeat(300)}),
            "at most 256",
        ),
        (
            json!({"name": "bobbybob", "password": "BOBBYBOB"}),
            "not be the user name",
        ),
        (json!({"name": "bobby", "password": "bobby"}), "at least 8"),
        (json!({"name": "bobbyb", "password": "BOBBYB12"}), "long"),
        (json!({"name": "bobby"}), "password"),
        (
            json!({"name": "bobby", "password": "long enough", "admin": true}),
            "unknown field",
        ),
        (
            json!({"name": "bobby", "password": "long enough", "tokens": ["x"]}),
            "seat tokens",
        ),
    ] {
        let a = other.post(&server, "/api/accounts", body.clone()).await;
        if needle == "long" {
            // A password that merely contains the name is allowed.
            assert_eq!(a.status, 201, "{body}: {}", a.body);
            continue;
        }
        assert_eq!(a.status, 400, "{body}");
        let m = a.body["message"].as_str().unwrap();
        assert!(m.contains(needle), "{body}: {m}");
        assert!(
            !m.contains("long enough"),
            "the password is not echoed: {m}"
        );
    }
    let a = reqwest::Client::new()
        .post(server.url("/api/login"))
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(a.status().as_u16(), 400);

    // Logging out needs the page's CSRF token.
    let mut forged = alice.clone();
    forged.csrf = None;
    let a = forged.post(&server, "/api/logout", json!({})).await;
    assert_eq!(a.status, 403);
    assert_eq!(alice.whoami(&server).await, "Alice");
    let old = alice.cookie.clone();
    let a = alice.post(&server, "/api/logout", json!({})).await;
    assert_eq!(a.status, 204);
    assert!(a.set_cookie.unwrap().contains("Max-Age=0"));
    assert_eq!(alice.cookie, None);
    alice.cookie = old;
    assert_eq!(
        alice.whoami(&server).await,
        Value::Null,
        "the session ended"
    );

    // Wrong password and unknown name: the same answer.
    let mut b = Browser::default();
    let wrong = b.log_in(&server, "alice", "wrong horse").await;
    let unknown = b.log_in(&server, "zed", "wrong horse").await;
    assert_eq!(wrong.status, 401);
    assert_eq!(wrong.status, unknown.status);
    assert_eq!(wrong.body, unknown.body);
    let ok = b.log_in(&server, "aLiCe", "correct horse").await;
    assert_eq!(ok.status, 200);
    assert_eq!(ok.body["name"], "Alice", "the name as its owner spelled it");

    // A second device; then a password change on the first logs the second out.
    let mut phone = Browser::default();
    phone.log_in(&server, "alice", "correct horse").await;
    assert_eq!(phone.whoami(&server).await, "Alice");
    let a = b
        .post(
            &server,
            "/api/account/password",
            json!({"old": "not it at all", "new": "battery staple"}),
        )
        .await;
    assert_eq!(a.status, 403);
    let a = b
        .post(
            &server,
            "/api/account/password",
            json!({"old": "correct horse", "new": "short"}),
        )
        .await;
    assert_eq!(a.status, 400);
    let before = b.cookie.clone();
    let a = b
        .post(
            &server,
            "/api/account/password",
            json!({"old": "correct horse", "new": "battery staple"}),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_ne!(b.cookie, before, "a new session after the change");
    assert_eq!(b.whoami(&server).await, "Alice");
    assert_eq!(phone.whoami(&server).await, Value::Null);
    let mut c = Browser::default();
    let a = c.log_in(&server, "alice", "correct horse").await;
    assert_eq!(a.status, 401);
    let a = c.log_in(&server, "alice", "battery staple").await;
    assert_eq!(a.status, 200);
    // Without a session, the password cannot be changed.
    let a = Browser::default()
        .post(
            &server,
            "/api/account/password",
            json!({"old": "battery staple", "new": "whatever else"}),
        )
        .await;
    assert_eq!(a.status, 401);

    // Behind an HTTPS proxy the cookie is Secure.
    let a = Browser::default()
        .request(
            &server,
            reqwest::Method::POST,
            "/api/login",
            Some(json!({"name": "alice", "password": "battery staple"})),
            &[("x-forwarded-proto", "https")],
        )
        .await;
    assert!(a.set_cookie.unwrap().contains("; Secure"));

    // No password is stored or written anywhere in the data folder.
    drop(server);
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        // The killed server's last database call may still be closing the connection,
        // which removes SQLite's -wal and -shm files: one listed may be gone.
        let bytes = match std::fs::read(entry.unwrap().path()) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => panic!("{e}"),
        };
        for pw in ["correct horse", "battery staple", "wrong horse"] {
            assert!(
                !bytes.windows(pw.len()).any(|w| w == pw.as_bytes()),
                "'{pw}' found in the data folder"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_gets_a_new_session_whatever_cookie_it_came_with() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    signed_up(&server, "alice").await;
    // Mallory has a session of her own and plants its cookie in Alice's browser.
    let mallory = signed_up(&server, "mallory").await;
    let planted = mallory.cookie.clone().unwrap();
    let mut victim = Browser {
        cookie: Some(planted.clone()),
        csrf: None,
    };
    let a = victim.log_in(&server, "alice", "alice's secret").await;
    assert_eq!(a.status, 200);
    assert_ne!(victim.cookie.as_deref(), Some(planted.as_str()));
    assert_eq!(victim.whoami(&server).await, "alice");
    // The planted secret does not log anybody in as Alice (it is gone altogether).
    let mut m = Browser {
        cookie: Some(planted),
        csrf: None,
    };
    assert_eq!(m.whoami(&server).await, Value::Null);
    // A made-up cookie is nobody.
    let mut forged = Browser {
        cookie: Some("0123456789abcdef0123456789abcdef".into()),
        csrf: None,
    };
    assert_eq!(forged.whoami(&server).await, Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_from_other_sites_and_without_the_csrf_token_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut alice = signed_up(&server, "alice").await;
    let body = json!({"name": "alice", "password": "alice's secret"});
    for headers in [
        vec![("origin", "http://evil.example")],
        vec![("origin", "null")],
        vec![("sec-fetch-site", "cross-site")],
        vec![("sec-fetch-site", "same-site")],
    ] {
        let mut b = Browser::default();
        let a = b
            .request(
                &server,
                reqwest::Method::POST,
                "/api/login",
                Some(body.clone()),
                &headers,
            )
            .await;
        assert_eq!(a.status, 403, "{headers:?}");
        assert!(a.set_cookie.is_none());
        assert!(a.body["message"].as_str().unwrap().contains("cross-site"));
    }
    let a = alice
        .request(
            &server,
            reqwest::Method::POST,
            "/api/account/password",
            Some(json!({"old": "alice's secret", "new": "evil's choice"})),
            &[("origin", "http://evil.example")],
        )
        .await;
    assert_eq!(a.status, 403);
    // The cookie alone (a form of another site) acts for nobody.
    let mut cookie_only = alice.clone();
    cookie_only.csrf = None;
    let a = cookie_only
        .post(
            &server,
            "/api/account/password",
            json!({"old": "alice's secret", "new": "evil's choice"}),
        )
        .await;
    assert_eq!(a.status, 403);
    let mut wrong = alice.clone();
    wrong.csrf = Some("0123456789abcdef0123456789abcdef".into());
    let rated = json!({"variant": "duo", "rated": true,
        "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]});
    let a = wrong.post(&server, "/api/games", rated.clone()).await;
    assert_eq!(a.status, 403);
    let a = cookie_only.post(&server, "/api/games", rated.clone()).await;
    assert_eq!(a.status, 401, "a guest cannot create a rated game");
    let a = alice.post(&server, "/api/games", rated).await;
    assert_eq!(a.status, 201, "{}", a.body);
    // The password is unchanged.
    let a = Browser::default()
        .log_in(&server, "alice", "alice's secret")
        .await;
    assert_eq!(a.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_attempts_are_limited_per_name_and_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let limits = blokus_server::Limits {
        logins: blokus_server::accounts::limits::LoginLimits {
            per_address_minute: 0.01,
            address_burst: 14.0,
            per_name_minute: 0.01,
            name_burst: 3.0,
        },
        ..blokus_server::Limits::default()
    };
    let server = TestServer::start_with(dir.path(), limits);
    signed_up(&server, "bob").await; // attempt 1
    signed_up(&server, "carol").await; // 2
    let mut b = Browser::default();
    for _ in 0..3 {
        let a = b.log_in(&server, "bob", "guess").await;
        assert_eq!(a.status, 401);
    } // 5
      // Bob's name is out of attempts, even with the right password...
    let a = b.log_in(&server, "bob", "bob's secret").await;
    assert_eq!(a.status, 429);
    assert!(a.body["message"].as_str().unwrap().contains("user name"));
    // ...as is a name nobody has, after as many failures: the limit tells nothing.
    for _ in 0..3 {
        let a = b.log_in(&server, "nobody", "guess").await;
        assert_eq!(a.status, 401);
    }
    let a = b.log_in(&server, "nobody", "guess").await;
    assert_eq!(a.status, 429);
    assert!(a.body["message"].as_str().unwrap().contains("user name"));
    // Carol is not locked out by Bob's attacker...
    let a = b.log_in(&server, "carol", "carol's secret").await;
    assert_eq!(a.status, 200); // 11
                               // ...until the address runs out of attempts altogether.
    for _ in 0..3 {
        b.log_in(&server, "carol", "carol's secret").await;
    }
    let a = b.log_in(&server, "carol", "carol's secret").await;
    assert_eq!(a.status, 429);
    assert!(a.body["message"].as_str().unwrap().contains("address"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_who_signs_up_keeps_the_games_of_the_device() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut guest = Browser::default();
    let created = guest
        .post(
            &server,
            "/api/games",
            json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]}),
        )
        .await
        .body;
    let id = created["id"].as_str().unwrap().to_string();
    let token = token_of(&created, 0);
    // Somebody else's guest game is not taken along.
    let other = guest
        .post(
            &server,
            "/api/games",
            json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "ai"}]}),
        )
        .await
        .body;
    // The guest plays on under a display name while signing up in another tab.
    let mut table = ws(&server, &id).await;
    send(
        &mut table,
        json!({"type": "join", "tokens": [token], "name": "Guesty"}),
    )
    .await;
    until(&mut table, |m| {
        is_state(m) && m["seats"][0]["name"] == "Guesty"
    })
    .await;
    let a = guest
        .post(
            &server,
            "/api/accounts",
            json!({"name": "Newcomer", "password": "new password", "tokens": [token]}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    // From now on the seat shows the account's name, live and stored.
    until(&mut table, |m| {
        is_state(m) && m["seats"][0]["name"] == "Newcomer"
    })
    .await;
    let (_, state) = get(&server, &format!("/api/games/{id}")).await;
    assert_eq!(state["seats"][0]["name"], "Newcomer", "{state}");
    let p = guest.get(&server, "/api/users/newcomer").await;
    assert_eq!(p.status, 200);
    assert_eq!(p.body["name"], "Newcomer");
    let games = p.body["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0]["id"], id.as_str());
    assert_eq!(games[0]["my_seats"], json!([0]));
    assert_eq!(games[0]["rated"], false);
    // The account finds its seat tokens on any device; never the other game's.
    let t = guest.get(&server, "/api/account/tokens").await;
    assert_eq!(t.body, json!([{"game": id, "seat": 0, "token": token}]));
    assert_ne!(other["id"], json!(id));
    // An account logged in on a device that already belongs to another account gets
    // nothing of that account's seats: the tokens are the only key to a seat.
    let mut thief = Browser::default();
    let a = thief
        .post(
            &server,
            "/api/accounts",
            json!({"name": "thief", "password": "thief's word", "tokens": [token]}),
        )
        .await;
    assert_eq!(a.status, 201);
    let p = thief.get(&server, "/api/users/thief").await;
    assert_eq!(
        p.body["games"],
        json!([]),
        "the seat already has its account"
    );
    assert_eq!(
        thief.get(&server, "/api/account/tokens").await.body,
        json!([])
    );
    assert_eq!(
        thief.get(&server, "/api/users/nobody-here").await.status,
        404
    );
    let anonymous = Browser::default().get(&server, "/api/account/tokens").await;
    assert_eq!(anonymous.status, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_between_accounts_is_rated_once_also_across_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut alice = signed_up(&server, "alice").await;
    let mut bob = signed_up(&server, "bob").await;
    // Rated games refuse hot-seat and a creator on two seats.
    for seats in [
        json!([{"kind": "me"}, {"kind": "hotseat"}]),
        json!([{"kind": "me"}, {"kind": "me"}]),
        json!([{"kind": "human"}, {"kind": "ai"}]),
    ] {
        let a = alice
            .post(
                &server,
                "/api/games",
                json!({"variant": "duo", "rated": true, "seats": seats}),
            )
            .await;
        assert_eq!(a.status, 400, "{seats}: {}", a.body);
    }
    let created = alice
        .post(
            &server,
            "/api/games",
            json!({"variant": "duo", "rated": true, "seats": [{"kind": "me"}, {"kind": "human"}]}),
        )
        .await
        .body;
    let id = created["id"].as_str().unwrap().to_string();
    // A guest may not take the seat of a rated game; nor may Alice take a second one.
    let a = Browser::default()
        .post(&server, &format!("/api/games/{id}/join"), json!({}))
        .await;
    assert_eq!(a.status, 401);
    let a = alice
        .post(&server, &format!("/api/games/{id}/join"), json!({}))
        .await;
    assert_eq!(a.status, 409);
    let joined = bob
        .post(&server, &format!("/api/games/{id}/join"), json!({}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let bob_token = joined.body["token"].as_str().unwrap().to_string();
    let players = alice
        .get(&server, &format!("/api/games/{id}/players"))
        .await
        .body;
    assert_eq!(players["rated"], true);
    assert_eq!(players["pool"], "duo");
    assert_eq!(players["seats"][0]["name"], "alice");
    assert_eq!(players["seats"][1]["name"], "bob");
    assert_eq!(players["seats"][1]["rating"], 1500);
    assert_eq!(players["seats"][1]["provisional"], true);

    // Bob's account holds nothing of Alice's seat.
    let t = bob.get(&server, "/api/account/tokens").await.body;
    assert_eq!(t.as_array().unwrap().len(), 1);
    assert_eq!(t[0]["seat"], 1);

    let end = play_to_end(&server, &id, vec![token_of(&created, 0), bob_token]).await;
    let alice_won = end["results"][0]["place"] == 1;
    let rating_of = |p: &Value| p["ratings"][0]["rating"].as_i64().unwrap();
    // The rating is settled by a task after the last move; wait for it.
    let mut profile = Value::Null;
    for _ in 0..200 {
        profile = alice.get(&server, "/api/users/alice").await.body;
        if profile["ratings"].as_array().is_some_and(|r| !r.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let bob_profile = bob.get(&server, "/api/users/bob").await.body;
    assert_eq!(profile["ratings"][0]["pool"], "duo");
    assert_eq!(profile["ratings"][0]["games"], 1);
    assert_eq!(profile["ratings"][0]["provisional"], true);
    let (a, b) = (rating_of(&profile), rating_of(&bob_profile));
    if end["results"][0]["place"] == end["results"][1]["place"] {
        assert_eq!((a, b), (1500, 1500));
    } else if alice_won {
        assert!(a > 1500 && b < 1500, "{a} {b}");
    } else {
        assert!(a < 1500 && b > 1500, "{a} {b}");
    }
    assert_eq!(profile["history"].as_array().unwrap().len(), 1);
    assert_eq!(profile["history"][0]["game"], id.as_str());
    assert_eq!(profile["games"][0]["rated"], true);
    let board = alice.get(&server, "/api/leaderboard?pool=duo").await.body;
    assert_eq!(board["rows"].as_array().unwrap().len(), 2);
    assert_eq!(board["rows"][0]["rank"], 1);
    assert_eq!(
        alice
            .get(&server, "/api/leaderboard?pool=chess")
            .await
            .status,
        404
    );

    // The rematch is rated too, each account on its player's new seat (colours rotate).
    let mut a = ws(&server, &id).await;
    send(
        &mut a,
        json!({"type": "join", "tokens": [token_of(&created, 0)]}),
    )
    .await;
    send(&mut a, json!({"type": "rematch"})).await;
    let r = until(&mut a, |m| m["type"] == "rematch").await;
    let new_id = r["id"].as_str().unwrap().to_string();
    let players = alice
        .get(&server, &format!("/api/games/{new_id}/players"))
        .await
        .body;
    assert_eq!(players["rated"], true, "{players}");
    assert_eq!(players["seats"][0]["name"], "bob");
    assert_eq!(players["seats"][1]["name"], "alice");
    drop(a);

    // A crash and a restart (whose sweep settles unsettled games) change nothing.
    server.kill();
    let server = TestServer::start_with(dir.path(), roomy());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let again = alice.get(&server, "/api/users/alice").await.body;
    assert_eq!(again["ratings"], profile["ratings"]);
    assert_eq!(again["history"].as_array().unwrap().len(), 1);
    drop(server);
    let store = blokus_server::store::Store::connect(&database_for(dir.path()))
        .await
        .unwrap();
    assert_eq!(
        store.settle_game(id).await.unwrap(),
        blokus_server::ratings::Settlement::AlreadySettled
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_against_the_ai_moves_the_rating_and_allows_no_undo_or_hint() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut alice = signed_up(&server, "alice").await;
    let created = alice
        .post(
            &server,
            "/api/games",
            json!({"variant": "duo", "rated": true,
                   "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]}),
        )
        .await
        .body;
    let id = created["id"].as_str().unwrap().to_string();
    let token = token_of(&created, 0);
    let players = alice
        .get(&server, &format!("/api/games/{id}/players"))
        .await
        .body;
    assert_eq!(players["seats"][1]["rating"], 641, "level 1's fixed rating");
    let a = alice
        .post(
            &server,
            &format!("/api/games/{id}/hint"),
            json!({"token": token}),
        )
        .await;
    assert_eq!(a.status, 403);
    let mut a = ws(&server, &id).await;
    send(&mut a, json!({"type": "join", "tokens": [token.clone()]})).await;
    let s = until(&mut a, |m| is_state(m) && m["you"] == json!([0])).await;
    let first = s["legal"][0].clone();
    send(&mut a, json!({"type": "move", "cells": first})).await;
    let s = until(&mut a, |m| is_state(m) && m["ply"] == 2).await;
    assert_eq!(s["can_undo"], false);
    send(&mut a, json!({"type": "undo"})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "undo_refused");
    drop(a);
    let end = play_to_end(&server, &id, vec![token]).await;
    let mut profile = Value::Null;
    for _ in 0..200 {
        profile = alice.get(&server, "/api/users/alice").await.body;
        if profile["ratings"].as_array().is_some_and(|r| !r.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let r = profile["ratings"][0]["rating"].as_i64().unwrap();
    if end["results"][0]["place"] == 1 && end["results"][1]["place"] != 1 {
        // Beating a player rated 641 is worth little but something.
        assert!(r > 1500, "{r}");
    } else {
        assert!(r < 1500, "{r}");
    }
    let board = alice.get(&server, "/api/leaderboard").await.body;
    assert_eq!(board["pool"], "duo");
    assert_eq!(board["rows"][0]["name"], "alice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_played_from_an_account_shows_its_user_name() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut alice = signed_up(&server, "alice").await;
    let mut bob = signed_up(&server, "bob").await;
    let created = alice
        .post(
            &server,
            "/api/games",
            json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "human"}]}),
        )
        .await
        .body;
    let id = created["id"].as_str().unwrap().to_string();
    let joined = bob
        .post(&server, &format!("/api/games/{id}/join"), json!({}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    // A display name sent with the seat token does not replace the account's name.
    let mut a = ws(&server, &id).await;
    send(
        &mut a,
        json!({"type": "join", "tokens": [token_of(&created, 0)], "name": "Queen Ann"}),
    )
    .await;
    let s = until(&mut a, |m| is_state(m) && m["you"] == json!([0])).await;
    assert_eq!(s["seats"][0]["name"], "alice", "{s}");
    assert_eq!(s["seats"][1]["name"], "bob", "{s}");
    // Naming an account's seat is refused with the reason; the name stays.
    send(&mut a, json!({"type": "name", "name": "Queen Ann"})).await;
    let e = until(&mut a, is_error).await;
    assert_eq!(e["code"], "bad_name", "{e}");
    assert!(e["message"].as_str().unwrap().contains("account"), "{e}");
    send(
        &mut a,
        json!({"type": "name", "name": "Queen Ann", "seat": 0}),
    )
    .await;
    assert_eq!(until(&mut a, is_error).await["code"], "bad_name");
    // The chat calls the seat by the account's name too.
    send(&mut a, json!({"type": "chat", "text": "hello"})).await;
    let line = until(&mut a, |m| m["type"] == "chat").await;
    assert_eq!(line["name"], "alice", "{line}");
    // The lobby's lists show it as well (the stored seats carry the name).
    let (_, lists) = get(&server, "/api/games").await;
    let game = lists["running"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(game["seats"][0]["name"], "alice", "{lists}");

    // A guest's seats keep the names their players choose.
    let (_, guest) = post(
        &server,
        "/api/games",
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "ai"}]}),
    )
    .await;
    let gid = guest["id"].as_str().unwrap().to_string();
    let mut g = ws(&server, &gid).await;
    send(
        &mut g,
        json!({"type": "join", "tokens": [token_of(&guest, 0)], "name": "Gus"}),
    )
    .await;
    let s = until(&mut g, |m| is_state(m) && m["seats"][0]["name"] == "Gus").await;
    assert_eq!(s["seats"][0]["name"], "Gus");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_up_takes_the_own_seat_of_a_hot_seat_game_not_the_companions() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let (_, created) = post(
        &server,
        "/api/games",
        json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "hotseat"}]}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut b = Browser::default();
    let a = b
        .post(
            &server,
            "/api/accounts",
            json!({"name": "Host", "password": "host password",
                   "tokens": [token_of(&created, 0), token_of(&created, 1)]}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let p = b.get(&server, "/api/users/host").await.body;
    assert_eq!(p["games"][0]["my_seats"], json!([0]), "{p}");
    let (_, state) = get(&server, &format!("/api/games/{id}")).await;
    assert_eq!(state["seats"][0]["name"], "Host", "{state}");
    assert_eq!(state["seats"][1]["name"], Value::Null, "{state}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_clocked_game_shows_its_seats_and_clock_on_the_profile() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut alice = signed_up(&server, "alice").await;
    let created = alice
        .post(
            &server,
            "/api/games",
            json!({"variant": "duo", "clock": {"type": "correspondence", "days": 3},
                   "seats": [{"kind": "ai", "level": 1}, {"kind": "me"}]}),
        )
        .await
        .body;
    let id = created["id"].as_str().unwrap().to_string();
    play_to_end(&server, &id, vec![token_of(&created, 1)]).await;
    let p = alice.get(&server, "/api/users/alice").await.body;
    let game = &p["games"][0];
    assert_eq!(game["id"], id.as_str(), "{p}");
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["clock"], "3 days/move", "{game}");
    assert_eq!(game["my_seats"], json!([1]), "{game}");
    assert_eq!(game["seats"][1]["name"], "alice", "{game}");
    assert_eq!(game["seats"][0]["kind"], "ai", "{game}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_blokus_3d_game_counts_in_its_own_pool() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(dir.path(), roomy());
    let mut alice = signed_up(&server, "alice").await;
    let a = alice
        .post(
            &server,
            "/api/games",
            json!({"variant": "rumis_2", "rated": true,
                   "seats": [{"kind": "me"}, {"kind": "ai", "level": 1}]}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.body["id"].as_str().unwrap().to_string();
    let players = alice
        .get(&server, &format!("/api/games/{id}/players"))
        .await
        .body;
    assert_eq!(players["rated"], true, "{players}");
    assert_eq!(players["pool"], "3d");
    assert_eq!(players["pool_name"], "Blokus 3D (two players)");
    play_to_end(&server, &id, vec![token_of(&a.body, 0)]).await;
    let mut profile = Value::Null;
    for _ in 0..200 {
        profile = alice.get(&server, "/api/users/alice").await.body;
        if profile["ratings"].as_array().is_some_and(|r| !r.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(profile["ratings"][0]["pool"], "3d", "{profile}");
    assert_eq!(profile["ratings"][0]["games"], 1, "{profile}");
    assert_eq!(profile["history"][0]["game"], id.as_str(), "{profile}");
    let board = alice.get(&server, "/api/leaderboard?pool=3d").await.body;
    assert_eq!(board["rows"][0]["name"], "alice", "{board}");
}
