//! Rating routes:
//!
//! - `GET /api/leaderboard?pool=ID`: the best ratings of a pool (default `duo`), with
//!   the list of pools.
//! - `GET /api/games/{id}/players`: whether the game is rated, and the account (name and
//!   rating in the game's pool) or the AI's fixed rating of each seat.

use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::ai::ai_rating;
use super::pool::Pool;
use super::{is_provisional, ShownRating};
use crate::error::AppError;
use crate::hub::Hub;
use crate::room::RoomMsg;

/// The rating routes.
pub fn router() -> Router<Hub> {
    Router::new()
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/games/:id/players", get(players))
}

/// Lines of the leaderboard at most.
const LEADERBOARD_SIZE: usize = 100;

#[derive(Deserialize)]
struct LeaderQuery {
    #[serde(default)]
    pool: Option<String>,
}

/// A pool in the list.
#[derive(Serialize)]
struct PoolName {
    id: String,
    name: String,
}

/// A line of the leaderboard.
#[derive(Serialize)]
struct Line {
    rank: usize,
    name: String,
    #[serde(flatten)]
    shown: ShownRating,
}

/// `GET /api/leaderboard`.
#[derive(Serialize)]
struct Leaderboard {
    pool: String,
    name: String,
    pools: Vec<PoolName>,
    rows: Vec<Line>,
}

async fn leaderboard(
    State(hub): State<Hub>,
    Query(q): Query<LeaderQuery>,
) -> Result<Json<Leaderboard>, AppError> {
    let id = q.pool.unwrap_or_else(|| "duo".into());
    let pool = Pool::parse(&id).ok_or_else(|| {
        AppError::NotFound(format!(
            "no rating pool '{}' (pools: {})",
            id.chars().take(40).collect::<String>(),
            Pool::all()
                .into_iter()
                .map(Pool::id)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    let rows = hub.store.leaderboard(pool.id(), LEADERBOARD_SIZE).await?;
    Ok(Json(Leaderboard {
        pool: pool.id(),
        name: pool.name(),
        pools: Pool::all()
            .into_iter()
            .map(|p| PoolName {
                id: p.id(),
                name: p.name(),
            })
            .collect(),
        rows: rows
            .into_iter()
            .enumerate()
            .map(|(i, r)| Line {
                rank: i + 1,
                name: r.name,
                shown: ShownRating::of(r.rating.value, r.rating.games),
            })
            .collect(),
    }))
}

/// Who plays a seat, for people.
#[derive(Serialize, Default)]
struct SeatPlayer {
    seat: usize,
    /// The account's name (`None`: a guest or the computer).
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    /// The account's rating in the game's pool, or the AI level's fixed rating.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<i64>,
    /// Whether that rating is provisional.
    provisional: bool,
}

/// `GET /api/games/{id}/players`.
#[derive(Serialize)]
struct Players {
    rated: bool,
    pool: String,
    pool_name: String,
    seats: Vec<SeatPlayer>,
}

async fn players(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Players>, AppError> {
    let (game, seats) = hub.ask(&id, |reply| RoomMsg::GameCopy { reply }).await?;
    let pool = super::Outcome::of(&game).pool;
    let rated = hub.store.is_rated(id.clone()).await?;
    let accounts = hub.store.seat_accounts(id).await?;
    let mut out: Vec<SeatPlayer> = (0..seats.len())
        .map(|seat| SeatPlayer {
            seat,
            ..SeatPlayer::default()
        })
        .collect();
    for (seat, level) in seats.iter().enumerate() {
        if let Some(level) = level.level {
            out[seat].rating = Some(ai_rating(level).round() as i64);
        }
    }
    for a in accounts {
        let Some(p) = out.get_mut(a.seat) else {
            continue;
        };
        let (rating, games) = hub.store.rating_in(a.account, pool.id()).await?;
        p.name = Some(a.name);
        p.rating = Some(rating.rating.round() as i64);
        p.provisional = is_provisional(games);
    }
    Ok(Json(Players {
        rated,
        pool: pool.id(),
        pool_name: pool.name(),
        seats: out,
    }))
}
