//! Accounts: sign up, log in, log out, change password, who is logged in, and profiles.
//! Accounts are optional: guests keep playing with seat tokens. An account attaches to
//! the seats it plays (the creator's seat, seats claimed while logged in, and at sign-up
//! the seats of the device's guest tokens), which gives its game history and ratings.
//!
//! - `POST /api/accounts` `{name, password, tokens?}`: sign up; 201 `{name, csrf}` and
//!   the session cookie.
//! - `POST /api/login` `{name, password}`: 200 `{name, csrf}` and a new session cookie.
//! - `POST /api/logout`: 204, the session ends.
//! - `POST /api/account/password` `{old, new}`: 200 `{name, csrf}`; other sessions end.
//! - `GET /api/account`: `{account: null}` or `{account: {name, csrf}}`.
//! - `GET /api/account/tokens`: the seat tokens of the account's unfinished games.
//! - `GET /api/users/{name}`: the public profile.
//! - `POST /api/games/{id}/account-seat`: between servers of one database only, see
//!   [`guest_seats`].
//!
//! See [`session`] for the cookie and the CSRF checks; `docs/accounts.md` for users.

pub mod guest_seats;
pub mod limits;
pub mod names;
pub mod password;
pub mod session;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use crate::error::AppError;
use crate::hub::Hub;
use crate::ratings::pool::Pool;
use crate::ratings::ShownRating;
use crate::room::RoomMsg;
use crate::seats::{is_token, new_token};
use crate::store::accounts::{AccountGame, NewSession, SessionRow};
use crate::store::ratings::HistoryRow;
use limits::LoginLimiter;
use names::{key_of, UserName};
use password::Password;

/// An account's id in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AccountId(pub i64);

/// An account as the other players of a game see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The account.
    pub account: AccountId,
    /// Its user name.
    pub name: String,
}

/// Password hashes computed at once: each takes 19 MiB and tens of milliseconds.
const HASHES_AT_ONCE: usize = 2;

/// The state of the account routes.
#[derive(Clone)]
struct Accounts {
    limiter: LoginLimiter,
    hashing: Arc<Semaphore>,
}

/// The account routes.
pub fn router(hub: &Hub) -> Router<Hub> {
    let state = Accounts {
        limiter: LoginLimiter::new(hub.limits.logins),
        hashing: Arc::new(Semaphore::new(HASHES_AT_ONCE)),
    };
    Router::new()
        .route("/api/accounts", post(sign_up))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/account", get(whoami))
        .route("/api/account/password", post(change_password))
        .route("/api/account/tokens", get(account_tokens))
        .route("/api/users/:name", get(profile))
        .route("/api/games/:id/account-seat", post(guest_seats::from_peer))
        .layer(Extension(state))
}

/// A logged-in browser.
#[derive(Clone, Debug)]
pub struct Session {
    /// The account.
    pub account: AccountId,
    /// Its name.
    pub name: String,
    /// The session's CSRF token.
    pub csrf: String,
    /// The hash of the cookie's secret.
    pub id_hash: String,
}

impl Session {
    /// The account as the other players of a game see it.
    pub fn player(&self) -> Player {
        Player {
            account: self.account,
            name: self.name.clone(),
        }
    }
}

/// The session of a request's cookie, if it is live (for reading only: no CSRF check).
///
/// # Errors
/// If the database fails.
pub async fn current(hub: &Hub, headers: &HeaderMap) -> Result<Option<Session>, AppError> {
    let Some(secret) = session::secret_of(headers) else {
        return Ok(None);
    };
    let id_hash = session::hash_secret(&secret);
    Ok(hub.store.session(id_hash.clone()).await?.map(
        |SessionRow {
             account,
             name,
             csrf,
         }| Session {
            account,
            name,
            csrf,
            id_hash,
        },
    ))
}

/// The session a state-changing request acts for: it must come from this site and carry
/// the session's CSRF token.
///
/// # Errors
/// 401 when not logged in, 403 for a request from elsewhere or without the right token.
pub async fn acting(hub: &Hub, headers: &HeaderMap) -> Result<Session, AppError> {
    session::check_same_origin(headers)?;
    let s = current(hub, headers).await?.ok_or_else(|| {
        AppError::Unauthorized("log in first (your session may have ended)".into())
    })?;
    if !session::csrf_matches(headers, &s.csrf) {
        return Err(AppError::Forbidden(
            "missing or wrong CSRF token (X-CSRF-Token): reload the page".into(),
        ));
    }
    Ok(s)
}

/// The account a request acts for when it may also come from a guest (creating and
/// joining games): the session when the request carries a CSRF token header, a guest
/// otherwise.
///
/// # Errors
/// As [`acting`], when the request carries the header.
pub async fn acting_if_claimed(
    hub: &Hub,
    headers: &HeaderMap,
) -> Result<Option<Session>, AppError> {
    if headers.contains_key(session::CSRF_HEADER) {
        acting(hub, headers).await.map(Some)
    } else {
        Ok(None)
    }
}

/// What a logged-in page needs: its name and the token for its requests.
#[derive(Serialize)]
struct LoggedIn {
    name: String,
    csrf: String,
}

/// `GET /api/account`.
#[derive(Serialize)]
struct WhoAmI {
    account: Option<LoggedIn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignUp {
    name: String,
    password: Password,
    /// The device's guest seat tokens: their seats join the new account.
    #[serde(default)]
    tokens: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Login {
    name: String,
    password: Password,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    old: Password,
    new: Password,
}

fn json_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, AppError> {
    // serde's messages quote the offending value only for unknown fields and types, never
    // a password's text (it is a plain string wherever it is valid).
    serde_json::from_slice(body)
        .map_err(|e| AppError::BadRequest(format!("invalid request body: {e}")))
}

/// A fresh session for a browser.
fn new_session() -> (String, NewSession) {
    let secret = session::new_secret();
    let s = NewSession {
        id_hash: session::hash_secret(&secret),
        csrf: new_token(),
        expires: crate::store::now() + session::LIFETIME,
    };
    (secret, s)
}

/// The answer of a successful sign-up, login or password change: the name, the CSRF
/// token and the new cookie.
fn logged_in(
    status: StatusCode,
    name: String,
    csrf: String,
    secret: &str,
    headers: &HeaderMap,
) -> Response {
    let mut res = (status, Json(LoggedIn { name, csrf })).into_response();
    res.headers_mut()
        .insert(header::SET_COOKIE, session::set_cookie(secret, headers));
    res.headers_mut()
        .insert(header::CACHE_CONTROL, "no-store".parse().expect("valid"));
    res
}

impl Accounts {
    /// The first checks of every request that tries a password: it comes from this
    /// site, its address has attempts left, and its body is the JSON expected.
    ///
    /// # Errors
    /// 403 from another site, 429 out of attempts, 400 for a bad body.
    fn admit<T: serde::de::DeserializeOwned>(
        &self,
        headers: &HeaderMap,
        peer: SocketAddr,
        body: &[u8],
    ) -> Result<T, AppError> {
        session::check_same_origin(headers)?;
        self.limiter.attempt_from(peer.ip())?;
        json_body(body)
    }

    /// Runs a password hash or check off the async workers, a few at a time.
    async fn hashing<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let _permit = self
            .hashing
            .acquire()
            .await
            .map_err(|_| AppError::Busy("the server is stopping".into()))?;
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|e| AppError::Internal(format!("password task failed: {e}")))
    }
}

/// The error of every failed login, whether the name exists or not.
fn wrong_credentials() -> AppError {
    AppError::Unauthorized("wrong user name or password".into())
}

async fn sign_up(
    State(hub): State<Hub>,
    Extension(acc): Extension<Accounts>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let req: SignUp = acc.admit(&headers, peer, &body)?;
    let name = UserName::parse(&req.name).map_err(AppError::BadRequest)?;
    req.password
        .check_new(name.as_str())
        .map_err(AppError::BadRequest)?;
    if req.tokens.len() > 200 || !req.tokens.iter().all(|t| is_token(t)) {
        return Err(AppError::BadRequest(
            "'tokens' must be at most 200 seat tokens (32 hex digits each)".into(),
        ));
    }
    let pw = req.password.clone();
    let hash = acc
        .hashing(move || pw.hash())
        .await?
        .map_err(AppError::Internal)?;
    let (secret, s) = new_session();
    let csrf = s.csrf.clone();
    let (account, seats) = hub
        .store
        .create_account(name.as_str().to_string(), name.key(), hash, s, req.tokens)
        .await?;
    // Live rooms of the games taken along show the new name at once.
    let player = Player {
        account,
        name: name.as_str().to_string(),
    };
    for (game, seat) in seats.attached {
        hub.tell_if_live(
            &game,
            RoomMsg::AccountSeated {
                seat,
                player: player.clone(),
            },
        )
        .await;
    }
    // Games other servers own: their rooms attach the seats. The account exists either
    // way; a seat that cannot be attached now stays the guest token's.
    for (game, seat) in seats.elsewhere {
        if let Err(e) = guest_seats::attach(&hub, &game, seat, &player).await {
            eprintln!("sign-up of {name}: seat {seat} of game {game} not attached: {e}");
        }
    }
    if let Some(old) = session::secret_of(&headers) {
        hub.store.end_session(session::hash_secret(&old)).await?;
    }
    Ok(logged_in(
        StatusCode::CREATED,
        name.to_string(),
        csrf,
        &secret,
        &headers,
    ))
}

async fn login(
    State(hub): State<Hub>,
    Extension(acc): Extension<Accounts>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let req: Login = acc.admit(&headers, peer, &body)?;
    let key = key_of(&req.name);
    acc.limiter.check_name(&key)?;
    if req.password.is_oversized() || key.len() > 64 {
        acc.limiter.failed(&key);
        return Err(wrong_credentials());
    }
    let found = hub.store.credentials(key.clone()).await?;
    let stored = found.as_ref().map(|c| c.password_hash.clone());
    let pw = req.password;
    let ok = acc.hashing(move || pw.verify(stored.as_deref())).await?;
    let Some(creds) = found.filter(|_| ok) else {
        acc.limiter.failed(&key);
        return Err(wrong_credentials());
    };
    let (secret, s) = new_session();
    let csrf = s.csrf.clone();
    let old = session::secret_of(&headers).map(|o| session::hash_secret(&o));
    hub.store.start_session(creds.account, s, old).await?;
    Ok(logged_in(
        StatusCode::OK,
        creds.name,
        csrf,
        &secret,
        &headers,
    ))
}

async fn logout(State(hub): State<Hub>, headers: HeaderMap) -> Result<Response, AppError> {
    session::check_same_origin(&headers)?;
    if let Some(s) = current(&hub, &headers).await? {
        if !session::csrf_matches(&headers, &s.csrf) {
            return Err(AppError::Forbidden(
                "missing or wrong CSRF token (X-CSRF-Token): reload the page".into(),
            ));
        }
        hub.store.end_session(s.id_hash).await?;
    }
    let mut res = StatusCode::NO_CONTENT.into_response();
    res.headers_mut()
        .insert(header::SET_COOKIE, session::clear_cookie(&headers));
    Ok(res)
}

async fn whoami(State(hub): State<Hub>, headers: HeaderMap) -> Result<Response, AppError> {
    let account = current(&hub, &headers).await?.map(|s| LoggedIn {
        name: s.name,
        csrf: s.csrf,
    });
    let mut res = Json(WhoAmI { account }).into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, "no-store".parse().expect("valid"));
    Ok(res)
}

async fn change_password(
    State(hub): State<Hub>,
    Extension(acc): Extension<Accounts>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let s = acting(&hub, &headers).await?;
    let req: PasswordChange = acc.admit(&headers, peer, &body)?;
    let key = key_of(&s.name);
    acc.limiter.check_name(&key)?;
    req.new.check_new(&s.name).map_err(AppError::BadRequest)?;
    let creds = hub
        .store
        .credentials(key.clone())
        .await?
        .ok_or_else(|| AppError::Unauthorized("log in first".into()))?;
    let old = req.old;
    let new = req.new;
    let (ok, hash) = acc
        .hashing(move || {
            if old.verify(Some(&creds.password_hash)) {
                (true, Some(new.hash()))
            } else {
                (false, None)
            }
        })
        .await?;
    if !ok {
        acc.limiter.failed(&key);
        return Err(AppError::Forbidden("the current password is wrong".into()));
    }
    let hash = hash
        .expect("hashed when the old password matched")
        .map_err(AppError::Internal)?;
    let (secret, ns) = new_session();
    let csrf = ns.csrf.clone();
    hub.store.change_password(s.account, hash, ns).await?;
    Ok(logged_in(StatusCode::OK, s.name, csrf, &secret, &headers))
}

/// A seat token of the account's games.
#[derive(Serialize)]
struct AccountToken {
    game: String,
    seat: usize,
    token: String,
}

async fn account_tokens(
    State(hub): State<Hub>,
    headers: HeaderMap,
) -> Result<Json<Vec<AccountToken>>, AppError> {
    let s = current(&hub, &headers)
        .await?
        .ok_or_else(|| AppError::Unauthorized("log in first".into()))?;
    let rows = hub.store.account_tokens(s.account).await?;
    Ok(Json(
        rows.into_iter()
            .map(|(game, seat, token)| AccountToken { game, seat, token })
            .collect(),
    ))
}

/// A rating as shown on a profile, with its pool's name.
#[derive(Serialize)]
pub struct RatingView {
    /// The pool id.
    pub pool: String,
    /// The pool's name.
    pub pool_name: String,
    /// The rating as shown.
    #[serde(flatten)]
    pub shown: ShownRating,
}

/// `GET /api/users/{name}`.
#[derive(Serialize)]
struct Profile {
    name: String,
    created: i64,
    ratings: Vec<RatingView>,
    history: Vec<HistoryRow>,
    games: Vec<AccountGame>,
    /// The events the account entered, newest first.
    events: Vec<crate::tournaments::EventPlayed>,
}

async fn profile(
    State(hub): State<Hub>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, AppError> {
    let unknown = || {
        AppError::NotFound(format!(
            "no user '{}'",
            name.chars().take(40).collect::<String>()
        ))
    };
    if name.len() > 64 {
        return Err(unknown());
    }
    let info = hub
        .store
        .account(key_of(&name))
        .await?
        .ok_or_else(unknown)?;
    let mut ratings: Vec<RatingView> = hub
        .store
        .ratings_of(info.account)
        .await?
        .into_iter()
        .filter_map(|r| {
            let pool = Pool::parse(&r.pool)?;
            Some(RatingView {
                pool_name: pool.name(),
                shown: ShownRating::of(r.value, r.games),
                pool: r.pool,
            })
        })
        .collect();
    let order: Vec<String> = Pool::all().into_iter().map(Pool::id).collect();
    ratings.sort_by_key(|r| order.iter().position(|p| *p == r.pool));
    Ok(Json(Profile {
        name: info.name,
        created: info.created,
        ratings,
        history: hub.store.rating_history(info.account, 500).await?,
        games: hub.store.account_games(info.account, 100).await?,
        events: hub
            .store
            .account_events(info.account, 100)
            .await?
            .into_iter()
            .map(crate::tournaments::EventPlayed::of)
            .collect(),
    }))
}
