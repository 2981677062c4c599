//! The AI hint of a game against the computer: the move the AI would play for the
//! asking player, shown on the board as a ghost. Only for games without another person
//! at the table (unrated practice against the AI); the search runs through the hub's
//! CPU limiter like the AI's own moves.

use axum::extract::{Path, State};
use axum::routing::post;
use axum::{Json, Router};
use blokus_ai::cube::cube_player_from_spec;
use blokus_ai::{Budget, Decision};
use blokus_core::cube::notation::move_cubes;
use blokus_core::cube::CubeGame;
use blokus_core::notation::{move_cells, piece_name};
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::hub::Hub;
use crate::room::RoomMsg;
use crate::room_game::RoomGame;
use crate::seats::{is_token, AiLevel, SeatKind};

/// The level the hint plays at: strong, and well under a second per move.
const HINT_LEVEL: u8 = 6;

/// The request: the asking seat's token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    token: String,
}

/// The answer: the suggested placement for the colour to move, at this ply.
#[derive(Serialize)]
struct HintAnswer {
    ply: usize,
    piece: String,
    cells: Vec<String>,
}

/// `POST /api/games/{id}/hint`.
pub fn router() -> Router<Hub> {
    Router::new().route("/api/games/:id/hint", post(hint))
}

async fn hint(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<HintAnswer>, AppError> {
    let req: HintRequest = serde_json::from_slice(&body)
        .map_err(|e| AppError::BadRequest(format!("invalid request body: {e}")))?;
    if !is_token(&req.token) {
        return Err(AppError::BadRequest("'token' is not a seat token".into()));
    }
    let stored = hub
        .store
        .load_game(id.clone())
        .await?
        .ok_or_else(|| AppError::NotFound(format!("no game '{id}'")))?;
    if stored.tournament.is_some() {
        return Err(AppError::Forbidden("no hints in a tournament game".into()));
    }
    let seat = stored
        .tokens
        .iter()
        .find(|(t, _)| *t == req.token)
        .map(|&(_, s)| s)
        .ok_or_else(|| AppError::Forbidden("this token holds no seat of the game".into()))?;
    if stored.rated {
        return Err(AppError::Forbidden(
            "no hints in rated games: the rating is for your own play".into(),
        ));
    }
    let (game, seats) = hub.ask(&id, |reply| RoomMsg::GameCopy { reply }).await?;
    if !seats.iter().any(|s| s.kind == SeatKind::Ai)
        || seats.iter().any(|s| s.kind == SeatKind::Human)
    {
        return Err(AppError::Forbidden(
            "hints are for games against the computer only".into(),
        ));
    }
    let level = AiLevel::try_from(HINT_LEVEL).expect("a valid level");
    let game = match game {
        RoomGame::Flat(game) => game,
        RoomGame::Cube(game) => return cube_hint(&hub, game, seat, level).await.map(Json),
    };
    let pos = game.position();
    if game.is_over() || pos.awaiting_pie_choice() {
        return Err(AppError::Conflict("there is no placement to hint".into()));
    }
    if pos.player_to_move(game.rules()).index() != seat {
        return Err(AppError::Conflict("it is not your turn".into()));
    }
    let ply = game.events().len();
    let searched = game.clone();
    let decision = hub
        .cpu
        .run(move |_| {
            level
                .player(rand::random())
                .decide(&searched, Budget::default())
        })
        .await?;
    match decision {
        Decision::Place(mv) => {
            let table = game.rules().table();
            Ok(Json(HintAnswer {
                ply,
                piece: piece_name(table, mv).to_string(),
                cells: move_cells(table, mv),
            }))
        }
        _ => Err(AppError::Conflict("there is no placement to hint".into())),
    }
}

/// The hint of a Blokus 3D game: the stone and its cubes (`c4.2`) the AI would place.
async fn cube_hint(
    hub: &Hub,
    game: CubeGame,
    seat: usize,
    level: AiLevel,
) -> Result<HintAnswer, AppError> {
    if game.is_over() {
        return Err(AppError::Conflict("there is no placement to hint".into()));
    }
    if game.rules().seating().player_of(game.to_move()).index() != seat {
        return Err(AppError::Conflict("it is not your turn".into()));
    }
    let ply = game.moves().len();
    let spec = format!("mcts:level={},seed={}", level.get(), rand::random::<u64>());
    let searched = game.clone();
    let mv = hub
        .cpu
        .run(move |_| {
            cube_player_from_spec(&spec)
                .expect("AI levels are valid 3D player specs")
                .choose(&searched, Budget::default())
        })
        .await?;
    let table = game.rules().table();
    Ok(HintAnswer {
        ply,
        piece: table.get(mv).stone().name().to_string(),
        cells: move_cubes(table, mv),
    })
}
