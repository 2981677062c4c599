//! Puzzle routes: the solitaire puzzles of SPEC 7, played by hand in the browser.
//!
//! Stateless: the browser keeps its placements and sends them with every request; the
//! server checks them through blokus-core (via blokus-solver's `play` module) and
//! answers hints with the next piece of a solution found by the solver.
//!
//! - `GET /api/puzzles`: the puzzles with their forms.
//! - `GET /api/puzzles/{id}`: one puzzle with its board, in the shape of
//!   `GET /api/variants/{id}` (so the web app's board code draws it).
//! - `POST /api/puzzles/{id}/check` `{placements, strict?, decreasing?}`: `{valid,
//!   placed, total, solved}` or `{valid: false, index, message}`.
//! - `POST /api/puzzles/{id}/hint` `{placements, strict?, decreasing?, seed?}`:
//!   `{status: "next", placement}`, `{status: "solved"}`, `{status: "no_solution"}` or
//!   `{status: "not_found"}` (the search gave up within its limit).
//!
//! Hints are searched by [`crate::hints`] through the hub's CPU limiter.

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use blokus_core::{GridKind, PieceSetId};
use blokus_solver::play::{self, Hint};
use blokus_solver::puzzle::{self, Form, PlacementOut, PuzzleInfo, COLOURS};
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::hub::Hub;
use crate::variants::{PieceInfo, VariantDetail, VariantSummary};

/// The puzzle routes.
pub fn router() -> Router<Hub> {
    Router::new()
        .route("/api/puzzles", get(list))
        .route("/api/puzzles/:id", get(detail))
        .route("/api/puzzles/:id/check", post(check))
        .route("/api/puzzles/:id/hint", post(hint))
        .route(
            "/puzzle",
            get(|| async { crate::assets::file("puzzle.html") }),
        )
}

fn find(id: &str) -> Result<&'static PuzzleInfo, AppError> {
    puzzle::find(id).map_err(|e| AppError::NotFound(e.to_string()))
}

/// A puzzle in the list.
#[derive(Serialize)]
struct PuzzleSummary {
    id: &'static str,
    task: &'static str,
    strict: bool,
    decreasing: bool,
    /// The game board's variant, or `null` for a tiling.
    variant: Option<&'static str>,
    /// Pieces of a tiling (`null` on game boards).
    pieces: Option<usize>,
}

/// `GET /api/puzzles/{id}`.
#[derive(Serialize)]
struct PuzzleDetail {
    #[serde(flatten)]
    summary: PuzzleSummary,
    board: VariantDetail,
}

fn summary(p: &PuzzleInfo) -> PuzzleSummary {
    PuzzleSummary {
        id: p.id,
        task: p.task,
        strict: p.strict,
        decreasing: p.decreasing,
        variant: p.variant,
        pieces: p
            .variant
            .is_none()
            .then(|| p.width * p.height / p.piece_size),
    }
}

async fn list() -> Json<Vec<PuzzleSummary>> {
    Json(puzzle::PUZZLES.iter().map(summary).collect())
}

/// The board of a tiling, described as a one-player variant on a rectangle with the
/// pieces of the puzzle's size, one of each.
fn tiling_board(p: &PuzzleInfo) -> VariantDetail {
    let (w, h) = (p.width, p.height);
    let set = PieceSetId::Classic;
    let kind = GridKind::Square;
    VariantDetail {
        summary: VariantSummary {
            id: p.id,
            name: p.id,
            description: p.task,
            board: format!("{w}x{h} squares"),
            grid: kind,
            colours: COLOURS.to_vec(),
            players: 1,
            seat_names: Vec::new(),
            piece_set: set.name(),
            alternate_contact: false,
            pie: false,
            teams: None,
        },
        width: w,
        height: h,
        cells: (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y, 0)))
            .collect(),
        names: (0..h)
            .flat_map(|y| (0..w).map(move |x| puzzle::cell_name(x, y)))
            .collect(),
        starts: Vec::new(),
        starts_per_colour: false,
        colour_player: vec![None; COLOURS.len()],
        pieces: set
            .build()
            .pieces
            .iter()
            .filter(|d| d.size == p.piece_size)
            .map(|d| PieceInfo::of(kind, d, 1))
            .collect(),
        shared_pool: false,
    }
}

async fn detail(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<PuzzleDetail>, AppError> {
    let p = find(&id)?;
    hub.hints.warm_up(p);
    let board = match p.variant {
        Some(v) => {
            let variant = blokus_core::variant(v).map_err(|e| AppError::Internal(e.to_string()))?;
            crate::variants::detail(&variant)
        }
        None => tiling_board(p),
    };
    Ok(Json(PuzzleDetail {
        summary: summary(p),
        board,
    }))
}

/// The answer of `check`.
#[derive(Serialize)]
#[serde(untagged)]
enum CheckAnswer {
    /// The placements obey the rules.
    Valid {
        valid: bool,
        placed: usize,
        total: usize,
        solved: bool,
    },
    /// A placement breaks a rule.
    Invalid {
        valid: bool,
        index: Option<usize>,
        message: String,
    },
}

/// The answer of `hint`.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum HintAnswer {
    /// The next piece of a solution.
    Next { placement: PlacementOut },
    /// Nothing left to place.
    Solved,
    /// No solution extends the position.
    NoSolution { message: &'static str },
    /// The search gave up.
    NotFound { message: &'static str },
}

/// The body of `check` and `hint`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    placements: Vec<PlacementOut>,
    #[serde(default)]
    strict: bool,
    #[serde(default)]
    decreasing: bool,
    #[serde(default)]
    seed: u64,
}

fn form_of(p: &PuzzleInfo, r: &PlayRequest) -> Result<Form, AppError> {
    let form = Form {
        strict: r.strict,
        decreasing: r.decreasing,
    };
    p.check_form(form)
        .map_err(|e| AppError::BadRequest(e.to_string()))?;
    Ok(form)
}

async fn check(
    Path(id): Path<String>,
    Json(r): Json<PlayRequest>,
) -> Result<Json<CheckAnswer>, AppError> {
    let p = find(&id)?;
    let form = form_of(p, &r)?;
    Ok(Json(match play::check(p, form, &r.placements) {
        Ok(progress) => CheckAnswer::Valid {
            valid: true,
            placed: progress.placed,
            total: progress.total,
            solved: progress.solved,
        },
        Err(refusal) => CheckAnswer::Invalid {
            valid: false,
            index: refusal.index,
            message: refusal.to_string(),
        },
    }))
}

async fn hint(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Json(r): Json<PlayRequest>,
) -> Result<Json<HintAnswer>, AppError> {
    let p = find(&id)?;
    let form = form_of(p, &r)?;
    let answer = hub.hints.hint(p, form, r.placements, r.seed).await?;
    Ok(Json(match answer {
        Hint::Next(placement) => HintAnswer::Next { placement },
        Hint::Solved => HintAnswer::Solved,
        Hint::NoSolution => HintAnswer::NoSolution {
            message: "no solution from here",
        },
        Hint::NotFound => HintAnswer::NotFound {
            message: "no solution found from here within the search limit (there may still be one: ask again, or undo some pieces)",
        },
    }))
}
