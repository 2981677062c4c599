//! Tournament routes: events run by an organiser on the pairing systems of
//! `blokus-tournament`, over the board (results entered by hand) or online (each table's
//! game played in the web app, see [`online`]). Every change is one stored transaction;
//! organiser actions need the organiser's token (in the body, `token`). docs/api.md
//! describes every route.
//!
//! - `POST /api/tournaments` `{name, variant, rounds?, pairing?, short_tables?,
//!   place_points?, bye?, tiebreaks?, seed?, last_round_by_standings?, entrants?, online?,
//!   auto_pair?, bots?, clock?}`: 201 `{id, organiser_token, players?, ...view}`.
//! - `GET /api/tournaments/{id}`: the view `{id, event, standings, crosstable, finished,
//!   online, auto_pair, games}`.
//! - `POST /api/tournaments/{id}/entrants` `{name}`: registration (anyone with the link),
//!   201 `{entrant, token}` with the player's device token. Logged in (with
//!   `X-CSRF-Token`), the entrant is the account, under its user name; a rated event
//!   takes only accounts.
//! - `POST /api/tournaments/{id}/me` `{token}` (or `{}` when logged in as an entrant): the
//!   player's entrant and the games of their tables with their seat tokens.
//! - `POST /api/tournaments/{id}/bots` `{token, level, name?}`: the organiser adds a bot.
//! - `POST /api/tournaments/{id}/players` `{token}`: the organiser's list of players'
//!   device tokens (to hand out links).
//! - `POST /api/tournaments/{id}/numbers` `{token, numbers}`: numbers drawn by hand.
//! - `POST /api/tournaments/{id}/withdraw` `{token, entrant}`.
//! - `POST /api/tournaments/{id}/pair` `{token}`: pairs the next round (online: and
//!   starts its games).
//! - `POST /api/tournaments/{id}/results` `{token, round, table, scores}` (places follow
//!   from the scores) or `{token, round, table, absent}` (a forfeit); a result can be
//!   corrected until the next round is paired.
//! - `GET /api/tournaments/{id}/standings.csv` and `GET /api/tournaments/{id}/games.blksgf`.

pub mod export;
pub mod online;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use blokus_core::VariantId;
use blokus_tournament::{
    ByeScore, Crosstable, EntrantId, EntrantKind, Event, EventConfig, EventError, NewEntrant,
    PairingSystem, PlacePoints, Points, ShortTables, Standings, TableResult, Tiebreak,
};
use serde::{Deserialize, Serialize};

use crate::accounts::names::key_of;
use crate::accounts::{acting_if_claimed, AccountId};
use crate::clock::TimeControl;
use crate::error::AppError;
use crate::hub::Hub;
use crate::names::DisplayName;
use crate::seats::{is_token, new_game_id, new_token, AiLevel};
use crate::store::{EntrantAccount, StoredTournament, TableGameRow};

/// The tournament routes.
pub fn router() -> Router<Hub> {
    Router::new()
        .route("/api/tournaments", post(create))
        .route("/api/tournaments/:id", get(view))
        .route("/api/tournaments/:id/entrants", post(register))
        .route("/api/tournaments/:id/me", post(me))
        .route("/api/tournaments/:id/bots", post(add_bot))
        .route("/api/tournaments/:id/players", post(players))
        .route("/api/tournaments/:id/numbers", post(numbers))
        .route("/api/tournaments/:id/withdraw", post(withdraw))
        .route("/api/tournaments/:id/pair", post(pair))
        .route("/api/tournaments/:id/results", post(result))
        .route(
            "/api/tournaments/:id/standings.csv",
            get(export::standings_csv),
        )
        .route(
            "/api/tournaments/:id/games.blksgf",
            get(export::games_blksgf),
        )
}

/// An event's refusal as an HTTP error: bad input 400, a clash with the event's state 409,
/// an unknown entrant or table 404.
fn refused(e: EventError) -> AppError {
    let m = e.to_string();
    match e {
        EventError::Config(_)
        | EventError::BadName(_)
        | EventError::BadResult { .. }
        | EventError::Draw(_) => AppError::BadRequest(m),
        EventError::UnknownEntrant(_) | EventError::UnknownTable { .. } => AppError::NotFound(m),
        EventError::Audit(_) => AppError::Internal(m),
        _ => AppError::Conflict(m),
    }
}

fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    serde_json::from_slice(bytes)
        .map_err(|e| AppError::BadRequest(format!("invalid request body: {e}")))
}

fn check_token(given: &str, t: &StoredTournament) -> Result<(), AppError> {
    if given == t.organiser_token {
        Ok(())
    } else {
        Err(AppError::Forbidden(
            "only the organiser can do this (wrong token)".into(),
        ))
    }
}

/// A number of points as JSON: `1`, `0.5` or `"7/3"`.
fn points(v: &serde_json::Value) -> Result<Points, AppError> {
    let text = match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    text.parse()
        .map_err(|e: blokus_tournament::BadPoints| AppError::BadRequest(e.to_string()))
}

/// The name of an entrant of an online event, normalised: it is shown at the tables as
/// the seat's display name, so it must be one (see [`DisplayName`]).
fn online_name(name: &str) -> Result<String, AppError> {
    DisplayName::try_from(name.to_string())
        .map(String::from)
        .map_err(|e| AppError::BadRequest(format!("entrant name {name:?}: {e}")))
}

/// A bot asked for: its AI level and, optionally, its name.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotRequest {
    level: u8,
    name: Option<String>,
}

impl BotRequest {
    /// The bot as an entrant: named `AI k - level L` by default, the first free `k`.
    fn entrant(&self, event: &Event) -> Result<NewEntrant, AppError> {
        let level = AiLevel::try_from(self.level).map_err(AppError::BadRequest)?;
        let taken = |n: &str| {
            event
                .entrants()
                .iter()
                .any(|e| e.name.to_lowercase() == n.to_lowercase())
        };
        let name = match &self.name {
            Some(n) => online_name(n)?,
            None => (1..)
                .map(|k| format!("AI {k} - level {level}"))
                .find(|n| !taken(n))
                .expect("a free name"),
        };
        Ok(NewEntrant {
            name,
            kind: EntrantKind::Bot {
                spec: online::bot_spec(level),
            },
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    name: String,
    variant: String,
    rounds: Option<u32>,
    pairing: Option<PairingSystem>,
    short_tables: Option<ShortTables>,
    place_points: Option<Vec<serde_json::Value>>,
    /// `average`, `win` or a number.
    bye: Option<serde_json::Value>,
    tiebreaks: Option<Vec<Tiebreak>>,
    seed: Option<u64>,
    last_round_by_standings: Option<bool>,
    #[serde(default)]
    entrants: Vec<String>,
    /// Games in the web app rather than over the board.
    #[serde(default)]
    online: bool,
    /// Online: pair the next round when the last game of a round ends (default on).
    auto_pair: Option<bool>,
    /// Online: bots by AI level.
    #[serde(default)]
    bots: Vec<BotRequest>,
    /// Online: the time control of every table's game.
    clock: Option<TimeControl>,
    /// Online: every table's game is rated (only account holders enter).
    #[serde(default)]
    rated: bool,
}

impl CreateRequest {
    fn config(&self) -> Result<EventConfig, AppError> {
        let variant: VariantId =
            self.variant
                .parse()
                .map_err(|e: blokus_core::variant::UnknownVariant| {
                    AppError::BadRequest(e.to_string())
                })?;
        let mut c = EventConfig::new(&self.name, variant);
        c.rounds = self.rounds.unwrap_or(c.rounds);
        c.pairing = self.pairing.unwrap_or(c.pairing);
        c.short_tables = self.short_tables.unwrap_or(c.short_tables);
        if let Some(p) = &self.place_points {
            let values = p.iter().map(points).collect::<Result<Vec<_>, _>>()?;
            c.place_points = PlacePoints::new(values).map_err(AppError::BadRequest)?;
        }
        c.bye = match &self.bye {
            None => c.bye,
            Some(serde_json::Value::String(s)) if s == "average" => ByeScore::Average,
            Some(serde_json::Value::String(s)) if s == "win" => ByeScore::Win,
            Some(v) => ByeScore::Fixed(points(v)?),
        };
        if let Some(t) = &self.tiebreaks {
            c.tiebreaks = t.clone();
        }
        // Without a seed the draw is random, and the seed is kept for the audit.
        c.seed = self.seed.unwrap_or_else(rand::random);
        c.last_round_by_standings = self.last_round_by_standings.unwrap_or(false);
        Ok(c)
    }

    /// The event with its people, then its bots.
    fn event(&self) -> Result<Event, AppError> {
        if !self.online
            && (!self.bots.is_empty() || self.auto_pair.is_some() || self.clock.is_some())
        {
            return Err(AppError::BadRequest(
                "bots, auto_pair and clock are for online events (\"online\": true)".into(),
            ));
        }
        if self.rated && !self.online {
            return Err(AppError::BadRequest(
                "a rated event is played online (\"online\": true): its games are rated \
                 when they end in the web app"
                    .into(),
            ));
        }
        if self.rated && !self.entrants.is_empty() {
            return Err(AppError::BadRequest(
                "a rated event takes only players who enter from their accounts: leave \
                 'entrants' empty and share the event's link (bots may be added)"
                    .into(),
            ));
        }
        let names = if self.online {
            self.entrants
                .iter()
                .map(|n| online_name(n))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            self.entrants.clone()
        };
        let mut event = Event::new(
            self.config()?,
            names.iter().map(|n| NewEntrant::person(n)).collect(),
        )
        .map_err(refused)?;
        for b in &self.bots {
            let entrant = b.entrant(&event)?;
            event.add_entrant(entrant).map_err(refused)?;
        }
        Ok(event)
    }
}

/// What clients see of a tournament.
#[derive(Serialize)]
struct View {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    organiser_token: Option<String>,
    /// At creation of an online event: the device tokens of the people it was created
    /// with.
    #[serde(skip_serializing_if = "Option::is_none")]
    players: Option<Vec<PlayerToken>>,
    event: Event,
    standings: Standings,
    crosstable: Crosstable,
    finished: bool,
    online: bool,
    auto_pair: bool,
    /// Whether every table's game is rated.
    rated: bool,
    /// The entrants who play from an account (under its user name), with their rating
    /// in the event's pool.
    accounts: Vec<EntrantRating>,
    /// Online: the time control of every table's game (absent: untimed).
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<EventClock>,
    /// Online: the game of each table so far.
    games: Vec<TableGameRow>,
}

impl View {
    async fn new(hub: &Hub, id: String, t: StoredTournament) -> Result<View, AppError> {
        let games = if t.online {
            hub.store.tournament_games(id.clone()).await?
        } else {
            Vec::new()
        };
        let accounts = entrant_ratings(hub, &t).await?;
        let event = t.event;
        Ok(View {
            rated: t.rated,
            accounts,
            id,
            organiser_token: None,
            players: None,
            standings: event.standings(),
            crosstable: Crosstable::new(&event),
            finished: event.is_finished(),
            event,
            online: t.online,
            auto_pair: t.auto_pair,
            clock: t.clock.map(|control| EventClock {
                label: control.label(),
                control,
            }),
            games,
        })
    }
}

/// An entrant who plays from an account, with the account's rating in the event's pool.
#[derive(Serialize)]
struct EntrantRating {
    entrant: EntrantId,
    /// The rating, rounded.
    rating: i64,
    /// Whether it is provisional.
    provisional: bool,
}

/// The ratings of an event's account holders in the event's pool.
async fn entrant_ratings(hub: &Hub, t: &StoredTournament) -> Result<Vec<EntrantRating>, AppError> {
    let pool = crate::ratings::pool::Pool::of(&t.event.config().variant.variant()).id();
    let mut out = Vec::new();
    for a in &t.accounts {
        let (rating, games) = hub.store.rating_in(a.account, pool.clone()).await?;
        out.push(EntrantRating {
            entrant: a.entrant,
            rating: rating.rating.round() as i64,
            provisional: crate::ratings::is_provisional(games),
        });
    }
    Ok(out)
}

/// The time control of an online event's games, with its short name (`5+3`).
#[derive(Serialize)]
struct EventClock {
    control: TimeControl,
    label: String,
}

/// A player's device token.
#[derive(Serialize)]
struct PlayerToken {
    entrant: EntrantId,
    name: String,
    token: String,
}

async fn create(
    State(hub): State<Hub>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    bytes: axum::body::Bytes,
) -> Result<Response, AppError> {
    hub.allow_create(peer.ip())?;
    let req: CreateRequest = body(&bytes)?;
    let event = req.event()?;
    let (id, token) = (new_game_id(), new_token());
    // In an online event every person gets a device token for "your table".
    let players: Vec<PlayerToken> = if req.online {
        event
            .entrants()
            .iter()
            .filter(|e| e.kind == EntrantKind::Person)
            .map(|e| PlayerToken {
                entrant: e.id,
                name: e.name.clone(),
                token: new_token(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let stored = StoredTournament {
        event,
        organiser_token: token.clone(),
        online: req.online,
        auto_pair: req.online && req.auto_pair.unwrap_or(true),
        clock: req.clock,
        rated: req.rated,
        accounts: Vec::new(),
    };
    hub.store
        .create_tournament(
            id.clone(),
            stored.clone(),
            players
                .iter()
                .map(|p| (p.token.clone(), p.entrant))
                .collect(),
        )
        .await?;
    let mut view = View::new(&hub, id, stored).await?;
    view.organiser_token = Some(token);
    view.players = req.online.then_some(players);
    Ok((axum::http::StatusCode::CREATED, Json(view)).into_response())
}

async fn view(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Json<View>, AppError> {
    let t = hub.store.load_tournament(id.clone()).await?;
    Ok(Json(View::new(&hub, id, t).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Registration {
    /// A guest's name (a logged-in player enters under the account's user name).
    #[serde(default)]
    name: Option<String>,
}

#[derive(Serialize)]
struct Registered {
    entrant: EntrantId,
    /// The player's device token: "your table" and the seats of their games.
    token: String,
}

async fn register(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, AppError> {
    let req: Registration = body(&bytes)?;
    let session = acting_if_claimed(&hub, &headers).await?;
    let guest_name = match (&session, req.name) {
        (Some(_), _) => None,
        (None, Some(name)) => {
            // A user name is its account's: a guest cannot enter under it.
            if hub.store.account(key_of(&name)).await?.is_some() {
                return Err(AppError::Conflict(format!(
                    "'{}' is the user name of an account: log in as it to enter under \
                     it, or choose another name",
                    name.chars().take(40).collect::<String>()
                )));
            }
            Some(name)
        }
        (None, None) => {
            return Err(AppError::BadRequest(
                "give the name to enter under ('name'), or log in".into(),
            ))
        }
    };
    let account = session.map(|s| (s.account, s.name));
    let token = new_token();
    let device = token.clone();
    let (entrant, _) = hub
        .store
        .update_tournament(id, move |t, changes| {
            let name = match (&account, guest_name) {
                (Some((a, name)), _) => {
                    if let Some(e) = t.entrant_of(*a) {
                        let shown = t.event.entrant(e).map_err(refused)?.name.clone();
                        return Err(AppError::Conflict(format!(
                            "your account has entered this event already (as {shown})"
                        )));
                    }
                    name.clone()
                }
                (None, _) if t.rated => {
                    return Err(AppError::Unauthorized(
                        "this event is rated: log in (or sign up) to enter it".into(),
                    ))
                }
                (None, Some(name)) => name,
                (None, None) => unreachable!("a guest gives a name"),
            };
            let name = if t.online { online_name(&name)? } else { name };
            let entrant = t
                .event
                .add_entrant(NewEntrant::person(&name))
                .map_err(refused)?;
            changes.players.push((device, entrant));
            if let Some((account, _)) = account {
                changes.accounts.push(EntrantAccount { entrant, account });
            }
            Ok(entrant)
        })
        .await?;
    Ok((
        axum::http::StatusCode::CREATED,
        Json(Registered { entrant, token }),
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Organiser {
    token: String,
}

/// One of a player's games, with the seat token that plays it.
#[derive(Serialize)]
struct MyGame {
    round: u32,
    table: u32,
    seat: usize,
    game: String,
    seat_token: String,
}

/// The answer of `me`.
#[derive(Serialize)]
struct Me {
    entrant: EntrantId,
    name: String,
    games: Vec<MyGame>,
}

/// `me`: the player's device token, or none for the logged-in account's entry.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MeRequest {
    #[serde(default)]
    token: Option<String>,
}

async fn me(
    State(hub): State<Hub>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<Me>, AppError> {
    let req: MeRequest = body(&bytes)?;
    let Some(token) = req.token else {
        let t = hub.store.load_tournament(id.clone()).await?;
        let account: Option<AccountId> = crate::accounts::current(&hub, &headers)
            .await?
            .map(|s| s.account);
        let entrant = account.and_then(|a| t.entrant_of(a)).ok_or_else(|| {
            AppError::Forbidden("you have not entered this event from your account".into())
        })?;
        return my_games(&hub, id, t, entrant).await.map(Json);
    };
    // Unknown tokens are guesses: they cost the address, as for game seats.
    if !hub.guesses.has(peer.ip()) {
        return Err(AppError::RateLimited(
            "too many unknown tokens from your address; wait a minute".into(),
        ));
    }
    let entrant = if is_token(&token) {
        hub.store.tournament_player(id.clone(), token).await?
    } else {
        None
    };
    let Some(entrant) = entrant else {
        hub.guesses.spend(peer.ip(), 1.0);
        return Err(AppError::Forbidden(
            "this token is not a player's of this event".into(),
        ));
    };
    let t = hub.store.load_tournament(id.clone()).await?;
    my_games(&hub, id, t, entrant).await.map(Json)
}

/// An entrant's games with their seat tokens.
async fn my_games(
    hub: &Hub,
    id: String,
    t: StoredTournament,
    entrant: EntrantId,
) -> Result<Me, AppError> {
    let rows = hub.store.tournament_games(id).await?;
    let mut games = Vec::new();
    for round in t.event.rounds() {
        let Some(table) = round.table_of(entrant) else {
            continue;
        };
        let seat = table
            .seats
            .iter()
            .position(|&e| e == entrant)
            .expect("seated at its table");
        let Some(row) = rows
            .iter()
            .find(|r| r.round == round.number && r.table == table.number)
        else {
            continue;
        };
        if let Some(seat_token) = hub.store.seat_token(row.game.clone(), seat).await? {
            games.push(MyGame {
                round: round.number,
                table: table.number,
                seat,
                game: row.game.clone(),
                seat_token,
            });
        }
    }
    let name = t.event.entrant(entrant).map_err(refused)?.name.clone();
    Ok(Me {
        entrant,
        name,
        games,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddBot {
    token: String,
    level: u8,
    name: Option<String>,
}

async fn add_bot(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Json<View>, AppError> {
    let req: AddBot = body(&bytes)?;
    let (_, t) = hub
        .store
        .update_tournament(id.clone(), move |t, _| {
            check_token(&req.token, t)?;
            if !t.online {
                return Err(AppError::Conflict("bots play only in online events".into()));
            }
            let bot = BotRequest {
                level: req.level,
                name: req.name,
            };
            let entrant = bot.entrant(&t.event)?;
            t.event.add_entrant(entrant).map_err(refused)
        })
        .await?;
    Ok(Json(View::new(&hub, id, t).await?))
}

async fn players(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Json<Vec<PlayerToken>>, AppError> {
    let req: Organiser = body(&bytes)?;
    let t = hub.store.load_tournament(id.clone()).await?;
    check_token(&req.token, &t)?;
    let tokens = hub.store.tournament_player_tokens(id).await?;
    Ok(Json(
        tokens
            .into_iter()
            .filter_map(|(entrant, token)| {
                let name = t.event.entrant(entrant).ok()?.name.clone();
                Some(PlayerToken {
                    entrant,
                    name,
                    token,
                })
            })
            .collect(),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HandDraw {
    token: String,
    /// `numbers[i]`: the number entrant `i` drew.
    numbers: Vec<u32>,
}

async fn numbers(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Json<View>, AppError> {
    let req: HandDraw = body(&bytes)?;
    let (_, t) = hub
        .store
        .update_tournament(id.clone(), move |t, _| {
            check_token(&req.token, t)?;
            t.event.draw_by_hand(&req.numbers).map_err(refused)
        })
        .await?;
    Ok(Json(View::new(&hub, id, t).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Withdrawal {
    token: String,
    entrant: EntrantId,
}

async fn withdraw(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Json<View>, AppError> {
    let req: Withdrawal = body(&bytes)?;
    let (_, t) = hub
        .store
        .update_tournament(id.clone(), move |t, _| {
            check_token(&req.token, t)?;
            t.event.withdraw(req.entrant).map_err(refused)
        })
        .await?;
    Ok(Json(View::new(&hub, id, t).await?))
}

async fn pair(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Json<View>, AppError> {
    let req: Organiser = body(&bytes)?;
    let (started, t) = hub
        .store
        .update_tournament(id.clone(), move |t, changes| {
            check_token(&req.token, t)?;
            online::pair_round(t, changes)
        })
        .await?;
    online::start_games(&hub, &started).await;
    Ok(Json(View::new(&hub, id, t).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultEntry {
    token: String,
    round: u32,
    table: u32,
    /// Each seat's game score; the places follow (highest first, equal shared).
    scores: Option<Vec<i32>>,
    /// The seats that did not show up (a forfeit).
    absent: Option<Vec<usize>>,
}

async fn result(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Json<View>, AppError> {
    let req: ResultEntry = body(&bytes)?;
    let result = match (req.scores, req.absent) {
        (Some(scores), None) => TableResult::from_scores(scores),
        (None, Some(absent)) => TableResult::forfeit(absent),
        _ => {
            return Err(AppError::BadRequest(
                "give either the scores of every seat or the absent seats".into(),
            ))
        }
    };
    let (round, table) = (req.round, req.table);
    let (_, t) = hub
        .store
        .update_tournament(id.clone(), move |t, _| {
            check_token(&req.token, t)?;
            t.event.record_result(round, table, result).map_err(refused)
        })
        .await?;
    // An online event may now pair its next round.
    if t.online {
        hub.tables_done.send(&id);
    }
    Ok(Json(View::new(&hub, id, t).await?))
}

/// An event on its player's profile.
#[derive(Serialize)]
pub struct EventPlayed {
    /// The tournament id (its page is `/event/{id}`).
    pub id: String,
    /// The event's name.
    pub name: String,
    /// The variant id.
    pub variant: String,
    /// When it was created (unix seconds).
    pub created: i64,
    /// Whether its games are rated.
    pub rated: bool,
    /// Whether its last round is complete.
    pub finished: bool,
    /// The player's place: final once the event is finished, so far before.
    pub place: Option<u32>,
    /// Whether that place is shared.
    pub shared: bool,
    /// How many entrants it has.
    pub entrants: usize,
}

impl EventPlayed {
    /// The profile line of an event an account entered.
    pub fn of(e: crate::store::AccountEvent) -> EventPlayed {
        let row = e
            .event
            .standings()
            .rows
            .into_iter()
            .find(|r| r.entrant == e.entrant);
        EventPlayed {
            name: e.event.config().name.clone(),
            variant: e.event.config().variant.to_string(),
            created: e.created,
            rated: e.rated,
            finished: e.event.is_finished(),
            place: row.as_ref().map(|r| r.place),
            shared: row.is_some_and(|r| r.shared),
            entrants: e.event.entrants().len(),
            id: e.id,
        }
    }
}
