//! `--trusted-proxy`: behind a reverse proxy the per-address limits count the client
//! that the proxy names in `X-Forwarded-For` / `Forwarded`, but only for connections
//! from a proxy the server trusts; from any other peer those headers change nothing.

mod common;

use std::time::Duration;

use blokus_server::Limits;
use common::*;
use serde_json::json;

/// Two game creations per address, then one a minute.
fn two_creations() -> Limits {
    Limits {
        creates_per_minute: 1.0,
        create_burst: 2.0,
        http_per_address: 2,
        ..Limits::default()
    }
}

/// Creates a game sending `header: value`; answers the status.
async fn create_as(server: &TestServer, header: &str, value: &str) -> u16 {
    reqwest::Client::new()
        .post(server.url("/api/games"))
        .header(header, value)
        .json(&json!({"variant": "duo", "seats": [{"kind": "me"}, {"kind": "human"}]}))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_names_the_client_and_others_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let behind = TestServer::start_behind(
        database_for(dir.path()),
        two_creations(),
        vec!["127.0.0.1".parse().unwrap()],
    );
    let xff = "x-forwarded-for";
    // The client claims an address; the proxy appends the one it saw.
    for _ in 0..2 {
        assert_eq!(create_as(&behind, xff, "9.9.9.9, 203.0.113.1").await, 201);
    }
    assert_eq!(create_as(&behind, xff, "8.8.8.8, 203.0.113.1").await, 429);
    // Other clients of the same proxy have their own allowance, in either header.
    assert_eq!(create_as(&behind, xff, "203.0.113.2").await, 201);
    assert_eq!(
        create_as(
            &behind,
            "forwarded",
            "for=\"[2001:db8::7]:4711\";proto=https"
        )
        .await,
        201
    );

    // A server that trusts another proxy: the headers of this peer are its own words.
    let dir = tempfile::tempdir().unwrap();
    let direct = TestServer::start_behind(
        database_for(dir.path()),
        two_creations(),
        vec!["10.9.9.9".parse().unwrap()],
    );
    assert_eq!(create_as(&direct, xff, "203.0.113.1").await, 201);
    assert_eq!(
        create_as(&direct, "forwarded", "for=203.0.113.2").await,
        201
    );
    assert_eq!(create_as(&direct, xff, "203.0.113.3").await, 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_may_hold_more_connections_than_one_address() {
    let dir = tempfile::tempdir().unwrap();
    let behind = TestServer::start_behind(
        database_for(dir.path()),
        two_creations(),
        vec!["127.0.0.1".parse().unwrap()],
    );
    // Six idle connections from the proxy (the cap is two per address): all served.
    let mut idle = Vec::new();
    for _ in 0..6 {
        idle.push(tokio::net::TcpStream::connect(behind.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _) = get(&behind, "/api/variants").await;
    assert_eq!(status, 200);
    drop(idle);
}
