//! The AI's analysis of finished games: anyone may request one; each server's background
//! worker claims the oldest waiting analysis in the database (several servers on one
//! database share the queue, and a dead server's claim runs out and is taken over),
//! searches every position through the hub's CPU limiter at low priority (live AI moves
//! and hints go first), stores each position as it is done (a restart or a takeover
//! resumes where it stopped), and the replay shows the result. Running games have none.
//!
//! `POST /api/games/{id}/analysis` requests it, `GET` the same path answers its status,
//! queue position, progress and, as positions are done, the values and move reviews.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use blokus_ai::analysis::{review, MoveReview};
use blokus_ai::{Analyzer, Decision, MoveClass, PositionEval};
use blokus_core::notation::{move_cells, parse_move, piece_name};
use blokus_core::{score, Game, PieChoice, Side};
use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use crate::error::AppError;
use crate::hub::Hub;
use crate::room::RoomMsg;
use crate::room_game::RoomGame;
use crate::store::{AnalysisPlace, HEARTBEAT};

/// Most analyses unfinished at once; further requests are refused until some are done.
const MAX_QUEUED: usize = 200;

/// Wakes this server's worker when an analysis is requested here (requests made on other
/// servers are found at the next look, every [`HEARTBEAT`]).
#[derive(Clone, Default)]
pub struct Queue {
    wake: Arc<Notify>,
}

/// Simulations per analysed position: sharp enough to tell a blunder from noise, and a
/// few seconds of CPU for a whole Classic game.
pub const SIMULATIONS: u64 = 1_500;

/// One evaluated position as stored.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct StoredEval {
    /// Expected result per side.
    values: Vec<f32>,
    /// The preferred move's value per side.
    best_values: Vec<f32>,
    /// The preferred move as text (cells, `keep`, `swap`), if the game was not over.
    best: Option<String>,
    /// Simulations run.
    simulations: u64,
}

fn to_stored(game: &Game, e: &PositionEval) -> StoredEval {
    StoredEval {
        values: e.values.clone(),
        best_values: e.best_values.clone(),
        best: e.best.map(|d| blokus_ai::analysis::decision_text(game, d)),
        simulations: e.simulations,
    }
}

fn from_stored(game: &Game, s: StoredEval) -> Result<PositionEval, AppError> {
    let best = match s.best.as_deref() {
        None => None,
        Some("keep") => Some(Decision::Pie(PieChoice::Keep)),
        Some("swap") => Some(Decision::Pie(PieChoice::Swap)),
        Some(text) => Some(Decision::Place(
            parse_move(game.rules().table(), text)
                .map_err(|e| AppError::Internal(format!("stored analysis move '{text}': {e}")))?,
        )),
    };
    Ok(PositionEval {
        values: s.values,
        best_values: s.best_values,
        best,
        simulations: s.simulations,
    })
}

fn parse_evals(game: &Game, json: &str) -> Result<Vec<PositionEval>, AppError> {
    let stored: Vec<StoredEval> = serde_json::from_str(json)
        .map_err(|e| AppError::Internal(format!("stored analysis: {e}")))?;
    stored.into_iter().map(|s| from_stored(game, s)).collect()
}

/// Runs the analyses one after another, for as long as the server runs: claims the
/// oldest waiting one (unfinished ones from before a restart included), or waits for a
/// request or the next look.
pub async fn worker(hub: Hub) {
    while !hub.cpu.is_stopped() {
        let id = match hub.store.claim_analysis().await {
            Ok(Some(id)) => id,
            Ok(None) => {
                let _ = tokio::time::timeout(HEARTBEAT, hub.analyses.wake.notified()).await;
                continue;
            }
            Err(e) => {
                eprintln!("claiming an analysis failed: {e}");
                tokio::time::sleep(HEARTBEAT).await;
                continue;
            }
        };
        let result = analyse(&hub, &id).await;
        let failed = match result {
            Err(AppError::Busy(_)) if hub.cpu.is_stopped() => return,
            Err(e) => {
                eprintln!("analysis of game {id} failed: {e}");
                true
            }
            Ok(()) => false,
        };
        // A failed one goes to the back, so it cannot hold up the others.
        let _ = hub.store.release_analysis(id, failed).await;
        if failed {
            tokio::time::sleep(HEARTBEAT).await;
        }
    }
}

/// The finished game as the database has it (no room: another server may be showing it).
///
/// # Errors
/// Blokus 3D games: the analysis is of the flat games only.
async fn stored_finished_game(hub: &Hub, id: &str) -> Result<Option<Game>, AppError> {
    let Some(stored) = hub.store.load_game(id.to_string()).await? else {
        return Ok(None);
    };
    let game = RoomGame::rebuild(&stored.variant, &stored.options, &stored.events)
        .map_err(|e| AppError::Internal(format!("stored game {id}: {e}")))?;
    over(game)
}

/// The game as its room has it, if it is over.
///
/// # Errors
/// Blokus 3D games: the analysis is of the flat games only.
async fn finished_game(hub: &Hub, id: &str) -> Result<Option<Game>, AppError> {
    let (game, _) = hub.ask(id, |reply| RoomMsg::GameCopy { reply }).await?;
    over(game)
}

/// A flat game if it is over.
///
/// # Errors
/// Blokus 3D games: the analysis is of the flat games only.
fn over(game: RoomGame) -> Result<Option<Game>, AppError> {
    match game {
        RoomGame::Flat(g) => Ok(g.is_over().then_some(g)),
        RoomGame::Cube(_) => Err(AppError::Conflict(
            "the analysis is for the flat games, not Blokus 3D".into(),
        )),
    }
}

/// Waits for `job`, renewing this server's claim on the analysis meanwhile (the job may
/// wait long behind live AI moves); `None` if another server took the analysis over.
async fn holding_claim<T>(
    hub: &Hub,
    id: &str,
    job: impl std::future::Future<Output = Result<T, AppError>>,
) -> Result<Option<T>, AppError> {
    tokio::pin!(job);
    let mut beat = tokio::time::interval(HEARTBEAT);
    beat.tick().await;
    loop {
        tokio::select! {
            done = &mut job => return done.map(Some),
            _ = beat.tick() => {
                if !hub.store.renew_analysis(id.to_string()).await? {
                    return Ok(None);
                }
            }
        }
    }
}

/// Evaluates the positions of a claimed game not done yet, storing each, until done or
/// another server takes the analysis over.
async fn analyse(hub: &Hub, id: &str) -> Result<(), AppError> {
    let Some(stored) = hub.store.load_analysis(id.to_string()).await? else {
        return Ok(());
    };
    let game = match stored_finished_game(hub, id).await {
        Ok(Some(g)) if g.events().len() + 1 == stored.positions => g,
        // The game is gone, or changed under the request (a move taken back): forget it.
        Ok(_) | Err(AppError::NotFound(_)) => {
            return hub.store.delete_analysis(id.to_string()).await;
        }
        Err(e) => return Err(e),
    };
    let mut evals = parse_evals(&game, &stored.evals)?;
    let game = Arc::new(game);
    let seed = rand::random();
    let mut analyzer = Some(Analyzer::new(stored.simulations, None, 1, seed));
    while evals.len() < stored.positions {
        let ply = evals.len();
        let (mut a, g) = (analyzer.take().expect("the analyzer"), game.clone());
        let job = hub.cpu.run_background(move |_| {
            let eval = a.evaluate(&g, ply);
            (a, eval)
        });
        let Some((a, eval)) = holding_claim(hub, id, job).await? else {
            return Ok(());
        };
        analyzer = Some(a);
        evals.push(eval);
        let json = serde_json::to_string(
            &evals
                .iter()
                .map(|e| to_stored(&game, e))
                .collect::<Vec<_>>(),
        )
        .expect("evaluations serialise");
        if !hub
            .store
            .save_analysis(id.to_string(), evals.len(), json)
            .await?
        {
            return Ok(());
        }
    }
    Ok(())
}

/// Where an analysis is.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Nobody asked for one.
    None,
    /// Waiting for its turn.
    Queued,
    /// Being computed.
    Running,
    /// Complete.
    Done,
}

/// The preferred move of a position, for the board's ghost.
#[derive(Serialize)]
#[serde(untagged)]
enum BestView {
    Place { piece: String, cells: Vec<String> },
    Pie { pie: &'static str },
}

/// One position: the expected result of each side and the AI's preferred move.
#[derive(Serialize)]
struct PositionView {
    values: Vec<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<BestView>,
}

/// One move: what it was worth to its side.
#[derive(Serialize)]
struct MoveView {
    ply: usize,
    side: Side,
    before: f32,
    after: f32,
    loss: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    class: Option<&'static str>,
}

/// The losses at which a move is an inaccuracy, a mistake, a blunder.
#[derive(Serialize)]
struct Thresholds {
    inaccuracy: f32,
    mistake: f32,
    blunder: f32,
}

/// The answer of both routes.
#[derive(Serialize)]
struct AnalysisView {
    status: Status,
    /// Analyses before this one (0: being computed), while queued or running.
    #[serde(skip_serializing_if = "Option::is_none")]
    queue_position: Option<usize>,
    /// Positions evaluated.
    done: usize,
    /// Positions to evaluate.
    total: usize,
    simulations: u64,
    /// Side names, in side order (the index of `values`).
    sides: Vec<String>,
    positions: Vec<PositionView>,
    moves: Vec<MoveView>,
    thresholds: Thresholds,
}

fn best_view(game: &Game, d: Decision) -> Option<BestView> {
    let table = game.rules().table();
    match d {
        Decision::Place(mv) => Some(BestView::Place {
            piece: piece_name(table, mv).to_string(),
            cells: move_cells(table, mv),
        }),
        Decision::Pie(PieChoice::Keep) => Some(BestView::Pie { pie: "keep" }),
        Decision::Pie(PieChoice::Swap) => Some(BestView::Pie { pie: "swap" }),
        Decision::Resign => None,
    }
}

fn move_view(r: &MoveReview) -> MoveView {
    MoveView {
        ply: r.ply,
        side: r.side,
        before: r.before,
        after: r.after,
        loss: r.loss,
        class: r.class.map(MoveClass::name),
    }
}

/// The view of a finished game's analysis.
async fn view(hub: &Hub, id: &str, game: &Game) -> Result<AnalysisView, AppError> {
    let rules = game.rules();
    let sides = (0..rules.v().num_sides())
        .map(|s| score::side_name(rules, Side::new(s)))
        .collect();
    let total = game.events().len() + 1;
    let stored = hub.store.load_analysis(id.to_string()).await?;
    let (simulations, evals) = match &stored {
        Some(s) => (s.simulations, parse_evals(game, &s.evals)?),
        None => (SIMULATIONS, Vec::new()),
    };
    let place = hub.store.analysis_place(id.to_string()).await?;
    let status = match (&stored, place) {
        (None, _) => Status::None,
        (Some(_), _) if evals.len() >= total => Status::Done,
        (Some(_), Some(AnalysisPlace::Running)) => Status::Running,
        // Requested and unfinished: waiting for a worker (also just after a restart).
        (Some(_), _) => Status::Queued,
    };
    let queue_position = match (status, place) {
        (Status::Running, _) => Some(0),
        (Status::Queued, Some(AnalysisPlace::Queued(n))) => Some(n),
        _ => None,
    };
    Ok(AnalysisView {
        status,
        queue_position,
        done: evals.len(),
        total,
        simulations,
        sides,
        positions: evals
            .iter()
            .map(|e| PositionView {
                values: e.values.clone(),
                best: e.best.and_then(|d| best_view(game, d)),
            })
            .collect(),
        moves: review(game, &evals).iter().map(move_view).collect(),
        thresholds: Thresholds {
            inaccuracy: MoveClass::INACCURACY,
            mistake: MoveClass::MISTAKE,
            blunder: MoveClass::BLUNDER,
        },
    })
}

/// A finished game, or the refusal to analyse a running one.
async fn require_finished(hub: &Hub, id: &str) -> Result<Game, AppError> {
    finished_game(hub, id).await?.ok_or_else(|| {
        AppError::Conflict("the game is not over: analysis is only for finished games".into())
    })
}

/// `GET` and `POST /api/games/{id}/analysis`.
pub fn router() -> Router<Hub> {
    Router::new().route("/api/games/:id/analysis", get(status).post(request))
}

async fn status(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, AppError> {
    let game = require_finished(&hub, &id).await?;
    Ok(Json(view(&hub, &id, &game).await?).into_response())
}

async fn request(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, AppError> {
    let game = require_finished(&hub, &id).await?;
    let total = game.events().len() + 1;
    let exists = hub.store.load_analysis(id.clone()).await?.is_some();
    if !exists && hub.store.unfinished_analyses().await? >= MAX_QUEUED {
        return Err(AppError::Busy(
            "too many analyses are waiting; try again later".into(),
        ));
    }
    let created = hub
        .store
        .request_analysis(id.clone(), SIMULATIONS, total)
        .await?;
    if created {
        hub.analyses.wake.notify_one();
    }
    let code = if created {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((code, Json(view(&hub, &id, &game).await?)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_positions_read_back() {
        let mut game = Game::new(blokus_core::Rules::by_name("duo").unwrap());
        let mv = game.legal_moves()[3];
        let eval = PositionEval {
            values: vec![0.4, 0.6],
            best_values: vec![0.45, 0.55],
            best: Some(Decision::Place(mv)),
            simulations: 9,
        };
        let json = serde_json::to_string(&[to_stored(&game, &eval)]).unwrap();
        assert_eq!(parse_evals(&game, &json).unwrap(), vec![eval]);
        game.play(mv).unwrap();
        assert!(parse_evals(&game, "[{\"values\":1}]").is_err());
    }
}
