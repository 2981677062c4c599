//! Forwarding to the server that owns a game (several servers on one database).
//!
//! A request for a game (`/api/games/{id}...`, its WebSocket included) that another
//! server holds the lease of is forwarded to that server, and the answer comes back
//! unchanged. Forwarding (rather than redirecting) works behind any reverse proxy, which
//! may send a user to any server and usually does not expose the servers one by one;
//! rather than handing the game over, it keeps all of a game's connections in one room,
//! so two players on different servers do not pull the game back and forth.
//!
//! Forwarded requests carry the servers' shared secret and the client's address; a
//! server serves such a request itself (never forwarding it again) and counts it
//! against that client's address. Without the secret those headers are ignored.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use http_body_util::Full;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::cluster::Cluster;
use crate::error::AppError;
use crate::hub::Hub;

/// Carries the servers' shared secret on a forwarded request.
const PEER: &str = "x-blokus-peer";
/// Carries the client's address on a forwarded request.
const CLIENT: &str = "x-blokus-client";
/// Carries the servers' shared secret on a server's own request to another server (not
/// a client's, forwarded): see [`Internal`].
const INTERNAL: &str = "x-blokus-internal";
/// How long reaching the owning server may take.
const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// Marks a request that another server of the database made on its own behalf (never
/// one of a client it forwards): handlers of calls between servers require it.
#[derive(Clone, Copy, Debug)]
pub struct Internal;

/// The HTTP client that forwards requests (keeps connections to peers open).
#[derive(Clone)]
pub struct Forwarder {
    client: Client<HttpConnector, Full<Bytes>>,
    cluster: Arc<Cluster>,
}

impl Forwarder {
    /// A forwarder for this server's cluster.
    pub fn new(cluster: Arc<Cluster>) -> Forwarder {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(CONNECT_WAIT));
        Forwarder {
            client: Client::builder(TokioExecutor::new()).build(connector),
            cluster,
        }
    }
}

impl Forwarder {
    /// Posts a JSON body to another server of the database as this server (see
    /// [`Internal`]); answers the status and body of its answer.
    ///
    /// # Errors
    /// [`AppError::Busy`] when the other server cannot be reached in time.
    pub async fn call(
        &self,
        server: &str,
        path: &str,
        body: Vec<u8>,
        wait: Duration,
    ) -> Result<(StatusCode, Bytes), AppError> {
        let unreachable = || AppError::Busy(format!("the server {server} does not answer"));
        let mut out = hyper::Request::new(Full::new(Bytes::from(body)));
        *out.method_mut() = hyper::Method::POST;
        *out.uri_mut() = format!("{server}{path}")
            .parse()
            .map_err(|_| AppError::Internal(format!("a server has a bad address: {server}")))?;
        out.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        if let Ok(v) = HeaderValue::from_str(&self.cluster.secret) {
            out.headers_mut().insert(INTERNAL, v);
        }
        let resp = tokio::time::timeout(wait, self.client.request(out))
            .await
            .map_err(|_| unreachable())?
            .map_err(|_| unreachable())?;
        let status = StatusCode::from_u16(resp.status().as_u16())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = tokio::time::timeout(wait, http_body_util::BodyExt::collect(resp.into_body()))
            .await
            .map_err(|_| unreachable())?
            .map_err(|_| unreachable())?
            .to_bytes();
        Ok((status, body))
    }
}

/// The game id of an API path, if it names one.
fn game_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/games/")?;
    let id = rest.split('/').next()?;
    crate::seats::is_game_id(id).then_some(id)
}

/// Headers that belong to one connection, not to the request (RFC 9110, 7.6.1).
fn hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection"
            | "keep-alive"
            | "proxy-connection"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
            | "host"
            | "content-length"
    ) || name.as_str().starts_with("sec-websocket-")
}

fn unavailable(why: &str) -> Response {
    AppError::Busy(format!("{why}; try again in a few seconds")).into_response()
}

/// The middleware: serves forwarded requests as their client's, forwards requests for
/// games other servers own, and passes everything else on.
pub async fn route(State(hub): State<Hub>, mut req: Request, next: Next) -> Response {
    let Some(fwd) = hub.forwarder.clone() else {
        return next.run(req).await;
    };
    let internal = req
        .headers_mut()
        .remove(INTERNAL)
        .is_some_and(|v| v.as_bytes() == fwd.cluster.secret.as_bytes());
    if internal {
        req.extensions_mut().insert(Internal);
        return next.run(req).await;
    }
    let from_peer = req
        .headers()
        .get(PEER)
        .is_some_and(|v| v.as_bytes() == fwd.cluster.secret.as_bytes());
    let client = req
        .headers_mut()
        .remove(CLIENT)
        .and_then(|v| v.to_str().ok()?.parse::<IpAddr>().ok());
    req.headers_mut().remove(PEER);
    if from_peer {
        if let Some(ip) = client {
            req.extensions_mut()
                .insert(ConnectInfo(SocketAddr::new(ip, 0)));
        }
        return next.run(req).await;
    }
    let Some(id) = game_of(req.uri().path()).map(str::to_string) else {
        return next.run(req).await;
    };
    if hub.is_live(&id).await {
        return next.run(req).await;
    }
    let owner = match hub.store.owner_elsewhere(&id).await {
        Ok(Some(owner)) => owner,
        Ok(None) => return next.run(req).await,
        Err(e) => return e.into_response(),
    };
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let is_websocket = req
        .headers()
        .get(header::UPGRADE)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
    if is_websocket {
        forward_websocket(&hub, &fwd, &owner, ip, req).await
    } else {
        forward_http(&hub, &fwd, &owner, ip, req).await
    }
}

fn peer_headers(fwd: &Forwarder, ip: Option<IpAddr>, into: &mut HeaderMap) {
    if let Ok(v) = HeaderValue::from_str(&fwd.cluster.secret) {
        into.insert(PEER, v);
    }
    if let Some(v) = ip.and_then(|ip| HeaderValue::from_str(&ip.to_string()).ok()) {
        into.insert(CLIENT, v);
    }
}

async fn forward_http(
    hub: &Hub,
    fwd: &Forwarder,
    owner: &str,
    ip: Option<IpAddr>,
    req: Request,
) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(body) = axum::body::to_bytes(body, hub.limits.max_body).await else {
        // Worded by the JSON error layer, as for requests served here.
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut out = hyper::Request::new(Full::new(body));
    *out.method_mut() = parts.method;
    *out.uri_mut() = match format!("{owner}{path}").parse() {
        Ok(u) => u,
        Err(_) => return unavailable("the server of this game has a bad address"),
    };
    for (name, value) in &parts.headers {
        if !hop_by_hop(name) {
            out.headers_mut().append(name, value.clone());
        }
    }
    peer_headers(fwd, ip, out.headers_mut());
    match tokio::time::timeout(hub.limits.request_timeout, fwd.client.request(out)).await {
        Ok(Ok(resp)) => {
            let (parts, body) = resp.into_parts();
            Response::from_parts(parts, Body::new(body))
        }
        _ => unavailable("the server of this game does not answer"),
    }
}

async fn forward_websocket(
    hub: &Hub,
    fwd: &Forwarder,
    owner: &str,
    ip: Option<IpAddr>,
    req: Request,
) -> Response {
    let (mut parts, _) = req.into_parts();
    let upgrade = match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
        Ok(u) => u,
        Err(r) => return r.into_response(),
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let url = format!("ws{}{path}", owner.trim_start_matches("http"));
    let Ok(mut upstream_req) = url.into_client_request() else {
        return unavailable("the server of this game has a bad address");
    };
    if let Some(origin) = parts.headers.get(header::ORIGIN) {
        upstream_req
            .headers_mut()
            .insert(header::ORIGIN, origin.clone());
    }
    peer_headers(fwd, ip, upstream_req.headers_mut());
    let max = hub.limits.max_message;
    let idle = hub.limits.ws_idle;
    // Connect first: the owner's refusal (full, rate limited, unknown game) then reaches
    // the client as the same HTTP answer it would have given.
    let upstream =
        match tokio::time::timeout(CONNECT_WAIT, tokio_tungstenite::connect_async(upstream_req))
            .await
        {
            Ok(Ok((ws, _))) => ws,
            Ok(Err(tungstenite::Error::Http(resp))) => {
                let (parts, body) = resp.into_parts();
                let status = StatusCode::from_u16(parts.status.as_u16())
                    .unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
                let mut r = Response::new(Body::from(body.unwrap_or_default()));
                *r.status_mut() = status;
                if let Some(ct) = parts.headers.get(header::CONTENT_TYPE) {
                    if let Ok(v) = HeaderValue::from_bytes(ct.as_bytes()) {
                        r.headers_mut().insert(header::CONTENT_TYPE, v);
                    }
                }
                return r;
            }
            _ => return unavailable("the server of this game does not answer"),
        };
    upgrade
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| pump(socket, upstream, idle))
}

type Upstream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Copies frames both ways until either side closes; when the owning server goes away,
/// the client is told to reconnect (close code 1012), which brings it to the game's new
/// owner.
/// A client silent for `idle` (no frame, not even a pong to the owner's pings, which are
/// passed on) is cut off here, as the owner would.
async fn pump(client: WebSocket, upstream: Upstream, idle: Duration) {
    let (mut client_tx, mut client_rx) = client.split();
    let (mut up_tx, mut up_rx) = upstream.split();
    let to_owner = async {
        while let Ok(Some(Ok(m))) = tokio::time::timeout(idle, client_rx.next()).await {
            let m = match m {
                Message::Text(t) => tungstenite::Message::Text(t),
                Message::Binary(b) => tungstenite::Message::Binary(b),
                Message::Ping(p) => tungstenite::Message::Ping(p),
                Message::Pong(p) => tungstenite::Message::Pong(p),
                Message::Close(c) => {
                    let _ = up_tx
                        .send(tungstenite::Message::Close(c.map(|c| {
                            tungstenite::protocol::CloseFrame {
                                code: c.code.into(),
                                reason: c.reason,
                            }
                        })))
                        .await;
                    break;
                }
            };
            if up_tx.send(m).await.is_err() {
                break;
            }
        }
        let _ = up_tx.close().await;
    };
    let to_client = async {
        let mut closed = None;
        while let Some(m) = up_rx.next().await {
            let m = match m {
                Ok(tungstenite::Message::Text(t)) => Message::Text(t),
                Ok(tungstenite::Message::Binary(b)) => Message::Binary(b),
                // Passed on so that the client answers them (its pongs go back up).
                Ok(tungstenite::Message::Ping(p)) => Message::Ping(p),
                Ok(tungstenite::Message::Pong(_)) => continue,
                Ok(tungstenite::Message::Close(c)) => {
                    closed = Some(c.map(|c| CloseFrame {
                        code: c.code.into(),
                        reason: c.reason,
                    }));
                    break;
                }
                Ok(tungstenite::Message::Frame(_)) => continue,
                Err(_) => break,
            };
            if client_tx.send(m).await.is_err() {
                return;
            }
        }
        let frame = closed.unwrap_or(Some(CloseFrame {
            code: axum::extract::ws::close_code::RESTART,
            reason: "the game's server went away; reconnect".into(),
        }));
        let _ = client_tx.send(Message::Close(frame)).await;
        let _ = client_tx.close().await;
    };
    // Whichever direction ends first ends the link.
    tokio::select! {
        () = to_owner => {}
        () = to_client => {}
    }
}
