//! HTTP routes: variants, game creation and listing, state, seat claims, records, the
//! WebSocket upgrade and the web app's pages.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State, WebSocketUpgrade};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use blokus_core::cube::{CubeGame, CubeVariantId, Site, BUILTIN_SITES, DEFAULT_SITE};
use blokus_core::{all_variants, Game, RuleOptions, Rules};
use serde::{Deserialize, Serialize};

use crate::accounts::{acting_if_claimed, Session};
use crate::clock::{now_ms, Clock, TimeControl};
use crate::error::AppError;
use crate::hub::Hub;
use crate::room::RoomMsg;
use crate::room_game::{CubeOptions, RoomGame};
use crate::seats::{
    is_token, new_game_id, new_token, AiLevel, GameStatus, Seat, SeatKind, SeatToken,
};
use crate::store::GameSummary;
use crate::variants::{VariantDetail, VariantSummary};
use crate::{assets, middleware, variants, ws};

/// Every route of the server.
pub fn router(hub: Hub) -> Router {
    let max_body = hub.limits.max_body;
    Router::new()
        .route("/api/variants", get(list_variants))
        .route("/api/variants/:id", get(variant_detail))
        .route("/api/sites", get(list_sites))
        .route("/api/cube-variants", get(list_cube_variants))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/:id", get(game_state))
        .route("/api/games/:id/join", post(join_game))
        .route("/api/games/:id/record.blksgf", get(record))
        .route("/api/games/:id/record.json", get(record_json))
        .route("/api/games/:id/ws", get(websocket))
        .route("/", get(|| async { assets::file("index.html") }))
        .route("/game/:id", get(|| async { assets::file("game.html") }))
        .route("/cube/:id", get(|| async { assets::file("cube.html") }))
        .route("/cube", get(|| async { assets::file("cube.html") }))
        .route("/events", get(|| async { assets::file("events.html") }))
        .route("/event/:id", get(|| async { assets::file("event.html") }))
        .route(
            "/*path",
            get(|Path(p): Path<String>| async move { assets::file(&p) }),
        )
        .merge(crate::puzzles::router())
        .merge(crate::game_hint::router())
        .merge(crate::analysis::router())
        .merge(crate::tournaments::router())
        .merge(crate::accounts::router(&hub))
        .merge(crate::ratings::routes::router())
        .route(
            "/profile/:name",
            get(|| async { assets::file("profile.html") }),
        )
        .route(
            "/leaderboard",
            get(|| async { assets::file("leaderboard.html") }),
        )
        .route("/account", get(|| async { assets::file("account.html") }))
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            crate::proxy::route,
        ))
        // Outside the forwarding: a forwarded request carries the real client's address.
        .layer(axum::middleware::from_fn_with_state(
            hub.trusted_proxies.clone(),
            crate::client_address::from_proxy,
        ))
        .layer(axum::middleware::from_fn_with_state(
            hub.limits.request_timeout,
            middleware::deadline,
        ))
        .layer(axum::middleware::from_fn(middleware::json_errors))
        .layer(axum::middleware::from_fn(middleware::security_headers))
        .with_state(hub)
}

async fn list_variants() -> Json<Vec<VariantSummary>> {
    Json(all_variants().iter().map(variants::summary).collect())
}

/// A built-in Blokus 3D site, for the page that creates 3D games.
#[derive(Serialize)]
struct SiteSummary {
    name: &'static str,
    width: usize,
    depth: usize,
    squares: usize,
    /// Levels with 2, 3 and 4 players.
    heights: [usize; 3],
}

/// A Blokus 3D variant, for the pages that create and list 3D games.
#[derive(Serialize)]
struct CubeVariantSummary {
    id: &'static str,
    /// The name people know it by (`Blokus 3D Duo`).
    name: &'static str,
    description: &'static str,
    players: usize,
    colours: usize,
}

/// `GET /api/cube-variants`: the Blokus 3D variants, in display order.
async fn list_cube_variants() -> Json<Vec<CubeVariantSummary>> {
    Json(
        CubeVariantId::ALL
            .iter()
            .map(|&v| CubeVariantSummary {
                id: v.as_str(),
                name: v.game_name(),
                description: v.description(),
                players: v.seating().players(),
                colours: v.seating().colours(),
            })
            .collect(),
    )
}

/// `GET /api/sites`: the built-in sites of Blokus 3D.
async fn list_sites() -> Json<Vec<SiteSummary>> {
    Json(
        BUILTIN_SITES
            .iter()
            .filter_map(|&name| {
                let s = Site::builtin(name)?;
                Some(SiteSummary {
                    name,
                    width: s.width(),
                    depth: s.depth(),
                    squares: s.squares(),
                    heights: [s.height(2), s.height(3), s.height(4)],
                })
            })
            .collect(),
    )
}

async fn variant_detail(Path(id): Path<String>) -> Result<Json<VariantDetail>, AppError> {
    let v = blokus_core::variant(&id).map_err(|e| AppError::NotFound(e.to_string()))?;
    Ok(Json(variants::detail(&v)))
}

/// The answer of `POST /api/games`.
#[derive(Serialize)]
struct Created {
    id: String,
    url: String,
    tokens: Vec<SeatToken>,
}

/// The answer of `GET /api/games`.
#[derive(Serialize)]
struct GameLists {
    open: Vec<GameSummary>,
    running: Vec<GameSummary>,
    finished: Vec<GameSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mine: Option<Vec<GameSummary>>,
}

/// A seat in a creation request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    kind: SeatKind,
    #[serde(default)]
    level: Option<u8>,
}

/// Options a creator may set.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct OptionsRequest {
    #[serde(default)]
    alternate_contact: bool,
}

/// `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    variant: String,
    #[serde(default)]
    options: OptionsRequest,
    /// Blokus 3D: a built-in site's name (default `plaza`).
    #[serde(default)]
    site: Option<String>,
    /// Blokus 3D: a site file's text (docs/blokus3d.md), instead of `site`.
    #[serde(default)]
    site_definition: Option<String>,
    seats: Vec<SeatRequest>,
    /// The time control; none when absent.
    #[serde(default)]
    clock: Option<TimeControl>,
    /// Whether the players' ratings change with the result (account holders only).
    #[serde(default)]
    rated: bool,
}

/// Checks the seats of a rated game: its creator is logged in and plays exactly one
/// seat, and nobody plays hot-seat (every person plays from their own account).
fn check_rated(seats: &[SeatRequest], creator: Option<&Session>) -> Result<(), AppError> {
    if creator.is_none() {
        return Err(AppError::Unauthorized(
            "log in to create a rated game".into(),
        ));
    }
    if seats.iter().any(|s| s.kind == SeatKind::Hotseat) {
        return Err(AppError::BadRequest(
            "a rated game has no hot-seat seats: each person plays from their own account".into(),
        ));
    }
    if seats.iter().filter(|s| s.kind == SeatKind::Me).count() != 1 {
        return Err(AppError::BadRequest(
            "in a rated game the creator plays exactly one seat ('me')".into(),
        ));
    }
    Ok(())
}

/// The game a creation request asks for: its variant id, stored options, a new game
/// and its number of players.
fn new_game_of(req: &CreateRequest) -> Result<(String, String, RoomGame, usize), AppError> {
    if let Some(cv) = CubeVariantId::parse(&req.variant) {
        if req.options.alternate_contact {
            return Err(AppError::BadRequest(
                "the alternate contact rule applies only to Trigon variants".into(),
            ));
        }
        let site = match (&req.site, &req.site_definition) {
            (Some(_), Some(_)) => {
                return Err(AppError::BadRequest(
                    "give 'site' or 'site_definition', not both".into(),
                ))
            }
            (_, Some(text)) => std::sync::Arc::new(
                Site::parse(text)
                    .map_err(|e| AppError::BadRequest(format!("site_definition: {e}")))?,
            ),
            (name, None) => {
                let name = name.as_deref().unwrap_or(DEFAULT_SITE);
                Site::builtin(name).ok_or_else(|| {
                    AppError::BadRequest(
                        blokus_core::cube::UnknownSite(name.to_string()).to_string(),
                    )
                })?
            }
        };
        let options = CubeOptions::of(&site);
        let game = CubeGame::new(cv.rules(site));
        return Ok((
            cv.as_str().to_string(),
            serde_json::to_string(&options).expect("options serialise"),
            RoomGame::Cube(game),
            cv.seating().players(),
        ));
    }
    if req.site.is_some() || req.site_definition.is_some() {
        return Err(AppError::BadRequest(format!(
            "'{}' is not played on a site: 'site' is for the Blokus 3D variants (rumis_2, ...)",
            req.variant
        )));
    }
    let v = blokus_core::variant(&req.variant).map_err(|_| {
        let known = blokus_core::cube::AnyVariant::parse(&req.variant)
            .err()
            .map_or_else(String::new, |e| e.to_string());
        AppError::BadRequest(known)
    })?;
    if req.options.alternate_contact && !v.has_alternate_contact() {
        return Err(AppError::BadRequest(format!(
            "the alternate contact rule applies only to Trigon variants, not '{}'",
            v.id
        )));
    }
    let options = RuleOptions {
        alternate_contact: req.options.alternate_contact,
        ..RuleOptions::default()
    };
    let players = v.players;
    Ok((
        v.id.to_string(),
        serde_json::to_string(&options).expect("options serialise"),
        RoomGame::Flat(Game::new(Rules::new(v, options))),
        players,
    ))
}

fn json_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, AppError> {
    serde_json::from_slice(body)
        .map_err(|e| AppError::BadRequest(format!("invalid request body: {e}")))
}

async fn create_game(
    State(hub): State<Hub>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    hub.allow_create(peer.ip())?;
    let req: CreateRequest = json_body(&body)?;
    let creator = acting_if_claimed(&hub, &headers).await?;
    if req.rated {
        check_rated(&req.seats, creator.as_ref())?;
    }
    let (variant, options, game, players) = new_game_of(&req)?;
    if req.seats.len() != players {
        return Err(AppError::BadRequest(format!(
            "variant '{variant}' has {players} players: give exactly {players} seats (got {})",
            req.seats.len()
        )));
    }
    if req.clock.is_some() && matches!(game, RoomGame::Cube(_)) {
        return Err(AppError::BadRequest(
            "time controls are for the flat variants: Blokus 3D games have no clock".into(),
        ));
    }
    let mut seats = Vec::new();
    let mut tokens = Vec::new();
    for (i, s) in req.seats.iter().enumerate() {
        let level = match (s.kind, s.level) {
            (SeatKind::Ai, Some(l)) => Some(
                AiLevel::try_from(l).map_err(|e| AppError::BadRequest(format!("seat {i}: {e}")))?,
            ),
            (SeatKind::Ai, None) => Some(AiLevel::DEFAULT),
            (_, Some(_)) => {
                return Err(AppError::BadRequest(format!(
                    "seat {i}: only AI seats have a level"
                )))
            }
            (_, None) => None,
        };
        let mut seat = Seat::new(s.kind, level);
        // The creator's own seat shows their account's user name.
        if let (SeatKind::Me, Some(c)) = (s.kind, &creator) {
            seat.name = Some(crate::room::account_name(&c.player()));
        }
        if seat.claimed {
            tokens.push((new_token(), i));
        }
        seats.push(seat);
    }
    let id = new_game_id();
    let status = GameStatus::of(false, &seats);
    let ai_first = crate::room::ai_to_move(&game, &seats);
    let page = game.page();
    // The first player's clock runs from the start once every seat is taken (else
    // when the last seat is claimed).
    let clock = req.clock.map(|control| {
        let mut c = Clock::new(control, players);
        if status == GameStatus::Running {
            c.start(game.player_to_move().unwrap_or(0), now_ms());
        }
        c
    });
    // Refuse before storing: a game whose room cannot start would be an orphan.
    hub.check_room_for_new_game().await?;
    // The creator's account plays the creator's seat (not hot-seat ones: those are
    // other people at the same device).
    let accounts = creator
        .map(|c| {
            req.seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind == SeatKind::Me)
                .map(|(i, _)| (i, c.account))
                .collect()
        })
        .unwrap_or_default();
    hub.store
        .create_game_with(
            crate::store::NewGame {
                id: id.clone(),
                variant,
                options,
                seats,
                status,
                ai_to_move: ai_first,
                tokens: tokens.clone(),
                clock,
            },
            crate::store::NewGameAccounts {
                rated: req.rated,
                accounts,
            },
        )
        .await?;
    // Start the room now so an AI that moves first starts thinking at once. If the last
    // room went to somebody else meanwhile, the game is taken back.
    if let Err(e) = hub.room(&id).await {
        hub.store.delete_game(id).await?;
        return Err(e);
    }
    let body = Created {
        url: format!("/{page}/{id}"),
        id,
        tokens: tokens
            .into_iter()
            .map(|(token, seat)| SeatToken { seat, token })
            .collect(),
    };
    Ok((axum::http::StatusCode::CREATED, Json(body)).into_response())
}

#[derive(Deserialize)]
struct ListQuery {
    #[serde(default)]
    mine: Option<String>,
}

async fn list_games(
    State(hub): State<Hub>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Query(q): Query<ListQuery>,
) -> Result<Json<GameLists>, AppError> {
    let mine = match q.mine {
        Some(m) => {
            // Tokens that hold no seat are guesses: they cost the address.
            if !hub.guesses.has(peer.ip()) {
                return Err(AppError::RateLimited(
                    "too many unknown tokens from your address; wait a minute".into(),
                ));
            }
            let tokens: Vec<String> = m
                .split(',')
                .filter(|t| is_token(t))
                .take(200)
                .map(String::from)
                .collect();
            let asked = tokens.len();
            let games = hub.store.mine(tokens, 100).await?;
            let found: usize = games.iter().map(|g| g.my_seats.len()).sum();
            hub.guesses
                .spend(peer.ip(), asked.saturating_sub(found) as f64);
            Some(games)
        }
        None => None,
    };
    let mut open = hub.store.list(GameStatus::Open, 50).await?;
    let mut running = hub
        .store
        .list_running(50, abandoned_cutoff(&hub), hub.presence.ids())
        .await?;
    // Ratings next to the names of the games one may join or watch.
    crate::ratings::annotate(&hub.store, &mut [&mut open, &mut running]).await?;
    Ok(Json(GameLists {
        open,
        running,
        finished: hub.store.list(GameStatus::Finished, 50).await?,
        mine,
    }))
}

/// The time (unix seconds) before which a running game without a move that nobody has
/// open counts as abandoned.
fn abandoned_cutoff(hub: &Hub) -> i64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    now - hub.limits.abandoned_after.as_secs() as i64
}

#[derive(Deserialize)]
struct StateQuery {
    #[serde(default)]
    legal: Option<u8>,
}

async fn game_state(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(q): Query<StateQuery>,
) -> Result<Response, AppError> {
    let legal = q.legal.unwrap_or(0) != 0;
    let snapshot = hub
        .ask(&id, |reply| RoomMsg::Snapshot { legal, reply })
        .await?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        snapshot.text().to_string(),
    )
        .into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    #[serde(default)]
    seat: Option<usize>,
}

async fn join_game(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<SeatToken>, AppError> {
    let player = acting_if_claimed(&hub, &headers).await?;
    let req: JoinRequest = if body.is_empty() {
        JoinRequest::default()
    } else {
        json_body(&body)?
    };
    let (seat, token) = hub
        .ask(&id, |reply| RoomMsg::Claim {
            seat: req.seat,
            account: player.map(|p| p.player()),
            reply,
        })
        .await??;
    Ok(Json(SeatToken { seat, token }))
}

async fn record(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, AppError> {
    let (game, seats) = hub.ask(&id, |reply| RoomMsg::GameCopy { reply }).await?;
    let state = hub
        .ask(&id, |reply| RoomMsg::Snapshot {
            legal: false,
            reply,
        })
        .await?;
    let clock = match state.game {
        crate::view::AnyView::Flat(v) => v.clock.map(|c| c.control),
        crate::view::AnyView::Cube(_) => None,
    };
    let text = crate::record::blksgf(&game, &seats, clock);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-blokus-sgf; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"blokus-{id}.blksgf\""),
            ),
        ],
        text,
    )
        .into_response())
}

async fn record_json(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, AppError> {
    let (game, _) = hub.ask(&id, |reply| RoomMsg::GameCopy { reply }).await?;
    Ok((
        [(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"blokus-{id}.json\""),
        )],
        Json(crate::record::json(&game)),
    )
        .into_response())
}

async fn websocket(
    State(hub): State<Hub>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, AppError> {
    // Refuse unknown games before upgrading.
    hub.room(&id).await?;
    let ip = peer.ip();
    let address = hub
        .ws_addresses
        .take(ip, hub.limits.ws_per_address)
        .ok_or_else(|| AppError::RateLimited("too many connections from your address".into()))?;
    let server = hub
        .connections
        .clone()
        .try_acquire_owned()
        .map_err(|_| AppError::Busy("too many connections; try again later".into()))?;
    let permits = ws::Permits { server, address };
    let max = hub.limits.max_message;
    Ok(upgrade
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| ws::connection(socket, id, hub, ip, permits)))
}
