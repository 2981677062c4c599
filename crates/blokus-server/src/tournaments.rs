//! Tournament routes: events run by an organiser, over the board (results entered by
//! hand) on the pairing systems of `blokus-tournament`. Every change is one stored
//! transaction; organiser actions need the organiser's token (in the body, `token`).
//!
//! - `POST /api/tournaments` `{name, variant, rounds?, pairing?, short_tables?,
//!   place_points?, bye?, tiebreaks?, seed?, last_round_by_standings?, entrants?}`:
//!   201 `{id, organiser_token, ...view}`.
//! - `GET /api/tournaments/{id}`: the view `{id, event, standings, crosstable, finished}`.
//! - `POST /api/tournaments/{id}/entrants` `{name}`: registration (anyone with the link).
//! - `POST /api/tournaments/{id}/withdraw` `{token, entrant}`.
//! - `POST /api/tournaments/{id}/pair` `{token}`: pairs the next round.
//! - `POST /api/tournaments/{id}/results` `{token, round, table, scores}` (places follow
//!   from the scores) or `{token, round, table, absent}` (a forfeit); a result can be
//!   corrected until the next round is paired.
//! - `GET /api/tournaments/{id}/standings.csv`.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use blokus_core::VariantId;
use blokus_tournament::{
    ByeScore, Crosstable, EntrantId, Event, EventConfig, EventError, NewEntrant, PairingSystem,
    PlacePoints, Points, ShortTables, Standings, TableResult, Tiebreak,
};
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::hub::Hub;
use crate::seats::{new_game_id, new_token};

/// The tournament routes.
pub fn router() -> Router<Hub> {
    Router::new()
        .route("/api/tournaments", post(create))
        .route("/api/tournaments/:id", get(view))
        .route("/api/tournaments/:id/entrants", post(register))
        .route("/api/tournaments/:id/withdraw", post(withdraw))
        .route("/api/tournaments/:id/pair", post(pair))
        .route("/api/tournaments/:id/results", post(result))
        .route("/api/tournaments/:id/standings.csv", get(standings_csv))
}

/// An event's refusal as an HTTP error: bad input 400, a clash with the event's state 409,
/// an unknown entrant or table 404.
fn refused(e: EventError) -> AppError {
    let m = e.to_string();
    match e {
        EventError::Config(_) | EventError::BadName(_) | EventError::BadResult { .. } => {
            AppError::BadRequest(m)
        }
        EventError::UnknownEntrant(_) | EventError::UnknownTable { .. } => AppError::NotFound(m),
        EventError::Audit(_) => AppError::Internal(m),
        _ => AppError::Conflict(m),
    }
}

fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    serde_json::from_slice(bytes)
        .map_err(|e| AppError::BadRequest(format!("invalid request body: {e}")))
}

fn check_token(given: &str, organiser: &str) -> Result<(), AppError> {
    if given == organiser {
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
}

/// What clients see of a tournament.
#[derive(Serialize)]
struct View {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    organiser_token: Option<String>,
    event: Event,
    standings: Standings,
    crosstable: Crosstable,
    finished: bool,
}

impl View {
    fn new(id: String, event: Event) -> View {
        View {
            id,
            organiser_token: None,
            standings: event.standings(),
            crosstable: Crosstable::new(&event),
            finished: event.is_finished(),
            event,
        }
    }
}

async fn create(
    State(hub): State<Hub>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    bytes: axum::body::Bytes,
) -> Result<Response, AppError> {
    hub.allow_create(peer.ip())?;
    let req: CreateRequest = body(&bytes)?;
    let event = Event::new(
        req.config()?,
        req.entrants.iter().map(|n| NewEntrant::person(n)).collect(),
    )
    .map_err(refused)?;
    let (id, token) = (new_game_id(), new_token());
    hub.store
        .create_tournament(id.clone(), token.clone(), &event)
        .await?;
    let mut view = View::new(id, event);
    view.organiser_token = Some(token);
    Ok((axum::http::StatusCode::CREATED, Json(view)).into_response())
}

async fn view(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Json<View>, AppError> {
    let (event, _) = hub.store.load_tournament(id.clone()).await?;
    Ok(Json(View::new(id, event)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Registration {
    name: String,
}

#[derive(Serialize)]
struct Registered {
    entrant: EntrantId,
}

async fn register(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Response, AppError> {
    let req: Registration = body(&bytes)?;
    let (entrant, _) = hub
        .store
        .update_tournament(id, move |e, _| {
            e.add_entrant(NewEntrant::person(&req.name))
                .map_err(refused)
        })
        .await?;
    Ok((
        axum::http::StatusCode::CREATED,
        Json(Registered { entrant }),
    )
        .into_response())
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
    let (_, event) = hub
        .store
        .update_tournament(id.clone(), move |e, organiser| {
            check_token(&req.token, organiser)?;
            e.withdraw(req.entrant).map_err(refused)
        })
        .await?;
    Ok(Json(View::new(id, event)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Organiser {
    token: String,
}

async fn pair(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Result<Json<View>, AppError> {
    let req: Organiser = body(&bytes)?;
    let (_, event) = hub
        .store
        .update_tournament(id.clone(), move |e, organiser| {
            check_token(&req.token, organiser)?;
            e.pair_next_round().map(|_| ()).map_err(refused)
        })
        .await?;
    Ok(Json(View::new(id, event)))
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
    let (_, event) = hub
        .store
        .update_tournament(id.clone(), move |e, organiser| {
            check_token(&req.token, organiser)?;
            e.record_result(round, table, result).map_err(refused)
        })
        .await?;
    Ok(Json(View::new(id, event)))
}

async fn standings_csv(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let (event, _) = hub.store.load_tournament(id.clone()).await?;
    let csv = standings_to_csv(&event.standings())?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"standings-{id}.csv\""),
            ),
        ],
        csv,
    )
        .into_response())
}

/// Place, number, name, points, the tiebreaks by name, games, byes, withdrawn.
fn standings_to_csv(st: &Standings) -> Result<String, AppError> {
    let fail = |e: csv::Error| AppError::Internal(format!("standings CSV: {e}"));
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec!["place", "number", "name", "points"];
    head.extend(st.tiebreaks.iter().map(|t| t.name()));
    head.extend(["games", "byes", "withdrawn"]);
    w.write_record(&head).map_err(fail)?;
    for r in &st.rows {
        let mut row = vec![
            r.place.to_string(),
            r.number.map_or(String::new(), |n| n.to_string()),
            r.name.clone(),
            r.points.to_string(),
        ];
        row.extend(r.tiebreaks.iter().map(Points::to_string));
        row.extend([
            r.played.to_string(),
            r.byes.to_string(),
            r.withdrawn.to_string(),
        ]);
        w.write_record(&row).map_err(fail)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| AppError::Internal(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| AppError::Internal(e.to_string()))
}
