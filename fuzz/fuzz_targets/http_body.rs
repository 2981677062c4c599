//! HTTP request bodies through the server's real router (in process, SQLite in a
//! temporary folder): the first byte picks the endpoint, the rest is the body. Every
//! answer must be a success or a documented client error, never a 500 or a panic.
#![no_main]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use blokus_server::{http, store::Store, Hub, Limits};
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

struct Server {
    rt: tokio::runtime::Runtime,
    router: Router,
    /// A game with an open `human` seat, for the join endpoint.
    game: String,
    _dir: tempfile::TempDir,
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let dir = tempfile::tempdir().expect("temp dir");
        let router = rt.block_on(async {
            let store = Store::open(dir.path()).expect("store");
            http::router(Hub::new(store, Limits::default()))
        });
        let body = r#"{"variant":"duo","seats":[{"kind":"me"},{"kind":"human"}]}"#;
        let (status, text) = rt.block_on(call(&router, "/api/games", body.as_bytes(), 0));
        assert_eq!(status, StatusCode::CREATED, "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).expect("json");
        let game = v["id"].as_str().expect("id").to_string();
        Server {
            rt,
            router,
            game,
            _dir: dir,
        }
    })
}

async fn call(router: &Router, path: &str, body: &[u8], peer: u32) -> (StatusCode, String) {
    let mut req = Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_vec()))
        .expect("request");
    // Each input comes from another address, so the creation rate limit does not turn
    // every later input into a 429.
    let addr = SocketAddr::from((std::net::Ipv4Addr::from(0x0A00_0000 | peer), 40000));
    req.extensions_mut().insert(ConnectInfo(addr));
    let resp = router.clone().oneshot(req).await.expect("infallible");
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    static PEER: AtomicU32 = AtomicU32::new(1);
    let s = server();
    let path = match pick % 4 {
        0 => "/api/games".to_string(),
        1 => format!("/api/games/{}/join", s.game),
        2 => "/api/puzzles/tetro_8x10/check".to_string(),
        _ => "/api/puzzles/tetro_8x10/hint".to_string(),
    };
    let peer = PEER.fetch_add(1, Ordering::Relaxed) & 0x00FF_FFFF;
    let (status, text) = s.rt.block_on(call(&s.router, &path, body, peer));
    assert!(
        !status.is_server_error() || status == StatusCode::SERVICE_UNAVAILABLE,
        "{path} {:?} -> {status} {text}",
        String::from_utf8_lossy(body)
    );
    // Issue #15 defect 8: the puzzle API's body rejections (axum's own 400/422) and 413
    // are plain text for now; drop these exceptions when the server answers them in the
    // documented format.
    let defect_8 = status == StatusCode::PAYLOAD_TOO_LARGE
        || (path.starts_with("/api/puzzles")
            && matches!(status, StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY));
    if status.is_client_error() && !defect_8 {
        let v: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|_| panic!("{path} -> {status}: error body is not JSON: {text:?}"));
        assert!(v["error"].is_string() && v["message"].is_string(), "{text}");
    }
});
