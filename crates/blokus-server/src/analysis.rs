//! The AI's analysis of finished games: anyone may request one; a single background
//! worker searches every position through the hub's CPU limiter at low priority (live AI
//! moves and hints go first), stores each position as it is done (a restart resumes
//! where it stopped), and the replay shows the result. Running games have none.
//!
//! `POST /api/games/{id}/analysis` requests it, `GET` the same path answers its status,
//! queue position, progress and, as positions are done, the values and move reviews.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

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

/// Most analyses waiting at once; further requests are refused until some are done.
const MAX_QUEUED: usize = 200;

/// The analyses waiting and the one being computed, shared by the routes and the worker.
#[derive(Clone, Default)]
pub struct Queue {
    state: Arc<Mutex<QueueState>>,
    wake: Arc<Notify>,
}

/// A game's place in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Being analysed.
    Running,
    /// Waiting, with this many analyses before it.
    Queued(usize),
}

#[derive(Default)]
struct QueueState {
    waiting: VecDeque<String>,
    running: Option<String>,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a game at the end (once).
    fn push(&self, id: &str) -> Result<(), AppError> {
        let mut q = self.lock();
        if q.running.as_deref() == Some(id) || q.waiting.iter().any(|w| w == id) {
            return Ok(());
        }
        if q.waiting.len() >= MAX_QUEUED {
            return Err(AppError::Busy(
                "too many analyses are waiting; try again later".into(),
            ));
        }
        q.waiting.push_back(id.to_string());
        drop(q);
        self.wake.notify_one();
        Ok(())
    }

    /// Where a game is, if queued or running.
    fn place(&self, id: &str) -> Option<Place> {
        let q = self.lock();
        if q.running.as_deref() == Some(id) {
            return Some(Place::Running);
        }
        let ahead = usize::from(q.running.is_some());
        q.waiting
            .iter()
            .position(|w| w == id)
            .map(|i| Place::Queued(i + ahead))
    }

    /// Waits for the next game and marks it running.
    async fn next(&self) -> String {
        loop {
            {
                let mut q = self.lock();
                if let Some(id) = q.waiting.pop_front() {
                    q.running = Some(id.clone());
                    return id;
                }
            }
            self.wake.notified().await;
        }
    }

    fn finish(&self) {
        self.lock().running = None;
    }
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

/// Runs the analyses one after another, for as long as the server runs. Unfinished ones
/// from before a restart go first, oldest first.
pub async fn worker(hub: Hub) {
    if let Ok(ids) = hub.store.unfinished_analyses().await {
        for id in ids {
            let _ = hub.analyses.push(&id);
        }
    }
    loop {
        let id = hub.analyses.next().await;
        let result = analyse(&hub, &id).await;
        hub.analyses.finish();
        match result {
            Err(AppError::Busy(_)) if hub.cpu.is_stopped() => return,
            Err(e) => eprintln!("analysis of game {id} failed: {e}"),
            Ok(()) => {}
        }
    }
}

/// The game as its room has it, if it is over.
///
/// # Errors
/// Blokus 3D games: the analysis is of the flat games only.
async fn finished_game(hub: &Hub, id: &str) -> Result<Option<Game>, AppError> {
    let (game, _) = hub.ask(id, |reply| RoomMsg::GameCopy { reply }).await?;
    match game {
        crate::room_game::RoomGame::Flat(g) => Ok(g.is_over().then_some(g)),
        crate::room_game::RoomGame::Cube(_) => Err(AppError::Conflict(
            "the analysis is for the flat games, not Blokus 3D".into(),
        )),
    }
}

/// Evaluates the positions of a game not done yet, storing each.
async fn analyse(hub: &Hub, id: &str) -> Result<(), AppError> {
    let Some(stored) = hub.store.load_analysis(id.to_string()).await? else {
        return Ok(());
    };
    let game = match finished_game(hub, id).await {
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
        let (a, eval) = hub
            .cpu
            .run_background(move |_| {
                let eval = a.evaluate(&g, ply);
                (a, eval)
            })
            .await?;
        analyzer = Some(a);
        evals.push(eval);
        let json = serde_json::to_string(
            &evals
                .iter()
                .map(|e| to_stored(&game, e))
                .collect::<Vec<_>>(),
        )
        .expect("evaluations serialise");
        hub.store
            .save_analysis(id.to_string(), evals.len(), json)
            .await?;
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
    let place = hub.analyses.place(id);
    let status = match (&stored, place) {
        (None, _) => Status::None,
        (Some(_), _) if evals.len() >= total => Status::Done,
        (Some(_), Some(Place::Running)) => Status::Running,
        // Requested and unfinished: waiting for the worker (also just after a restart).
        (Some(_), _) => Status::Queued,
    };
    let queue_position = match (status, place) {
        (Status::Running, _) => Some(0),
        (Status::Queued, Some(Place::Queued(n))) => Some(n),
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
    let created = hub
        .store
        .request_analysis(id.clone(), SIMULATIONS, total)
        .await?;
    let unfinished = hub
        .store
        .load_analysis(id.clone())
        .await?
        .is_some_and(|s| parse_evals(&game, &s.evals).map_or(true, |e| e.len() < s.positions));
    if unfinished {
        if let Err(e) = hub.analyses.push(&id) {
            if created {
                hub.store.delete_analysis(id.clone()).await?;
            }
            return Err(e);
        }
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
    fn queue_places_count_the_running_analysis() {
        let q = Queue::default();
        q.push("a").unwrap();
        q.push("b").unwrap();
        q.push("a").unwrap();
        use Place::{Queued, Running};
        assert_eq!(
            (q.place("a"), q.place("b"), q.place("c")),
            (Some(Queued(0)), Some(Queued(1)), None)
        );
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        assert_eq!(rt.block_on(q.next()), "a");
        assert_eq!(
            (q.place("a"), q.place("b")),
            (Some(Running), Some(Queued(1)))
        );
        q.push("a").unwrap();
        assert_eq!(
            q.place("a"),
            Some(Running),
            "a running analysis is not queued again"
        );
        q.finish();
        assert_eq!((q.place("a"), q.place("b")), (None, Some(Queued(0))));
    }

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
