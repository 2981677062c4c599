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
//! Hints remember the last solutions they found: a position that a known solution (or,
//! for a tiling, a mirror image of it with the colours renamed) extends gets its next
//! piece at once, so asking for hint after hint costs one search. Opening a puzzle
//! (`GET /api/puzzles/{id}`) starts one search per form in the background, once per
//! process, so that the first hint from the empty board needs no search either.

use axum::extract::Path;
use axum::routing::{get, post};
use axum::{Json, Router};
use blokus_core::piece::{normalize, symmetry_count, transform};
use blokus_core::GridKind;
use blokus_solver::play::{self, Completion, Hint, Limits};
use blokus_solver::puzzle::{self, Form, PlacementOut, PuzzleInfo, COLOURS};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::Semaphore;

use crate::error::AppError;

/// Time a hint may search on a tiling.
const TILING_HINT_TIME: Duration = Duration::from_secs(2);
/// Placements a hint may try on a game board (a few seconds).
const BOARD_HINT_NODES: u64 = 20_000;
/// Hints searched at once; more wait, so hints cannot starve the games.
static HINT_SLOTS: Semaphore = Semaphore::const_new(1);
/// Solutions remembered per puzzle and form.
const KNOWN_PER_FORM: usize = 4;
/// Solutions found by hints, newest last: (puzzle id, form, solution).
static KNOWN: Mutex<Vec<(&'static str, Form, Vec<PlacementOut>)>> = Mutex::new(Vec::new());

/// Time the background search of a tiling form may take (short: a stopping server
/// waits for it).
const WARM_UP_TIME: Duration = Duration::from_secs(10);
/// Placements the background search of a placement puzzle may try (a few seconds; the
/// puzzles' first solutions take a median of well under a second).
const WARM_UP_NODES: u64 = 500_000;
/// Puzzle forms whose background search has started.
static WARMED: Mutex<Vec<(&'static str, Form)>> = Mutex::new(Vec::new());

/// Starts a background search for a solution of each form of a puzzle, once per
/// process. It takes the hint slot, so it never runs beside another search; a hint
/// asked meanwhile waits for it and is then answered from memory.
fn warm_up(p: &'static PuzzleInfo) {
    let forms = [(false, false), (true, false), (false, true)]
        .into_iter()
        .filter(|&(strict, decreasing)| (!strict || p.strict) && (!decreasing || p.decreasing))
        .map(|(strict, decreasing)| Form { strict, decreasing });
    for form in forms {
        {
            let mut warmed = WARMED.lock().unwrap_or_else(|e| e.into_inner());
            if warmed.contains(&(p.id, form)) {
                continue;
            }
            warmed.push((p.id, form));
        }
        tokio::spawn(async move {
            let Ok(_slot) = HINT_SLOTS.acquire().await else {
                return;
            };
            if known_extension(p, form, &[]).is_some() {
                return;
            }
            let limits = if p.variant.is_some() {
                Limits {
                    max_nodes: WARM_UP_NODES,
                    max_time: None,
                }
            } else {
                Limits {
                    max_nodes: 0,
                    max_time: Some(WARM_UP_TIME),
                }
            };
            let search =
                tokio::task::spawn_blocking(move || play::complete(p, form, &[], 1, limits));
            if let Ok(Ok(Completion::Found(solution))) = search.await {
                remember(p, form, solution);
            }
        });
    }
}

/// A remembered solution that extends the placements, if any.
fn known_extension(
    p: &PuzzleInfo,
    form: Form,
    placements: &[PlacementOut],
) -> Option<Vec<PlacementOut>> {
    let known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    known
        .iter()
        .rev()
        .filter(|(id, f, _)| *id == p.id && *f == form)
        .find_map(|(_, _, sol)| play::extend_with(p, sol, placements))
}

/// Remembers a solution, forgetting the oldest of its puzzle and form beyond
/// [`KNOWN_PER_FORM`].
fn remember(p: &PuzzleInfo, form: Form, solution: Vec<PlacementOut>) {
    let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    let same = |(id, f, _): &(&'static str, Form, Vec<PlacementOut>)| *id == p.id && *f == form;
    if known.iter().filter(|k| same(k)).count() >= KNOWN_PER_FORM {
        if let Some(i) = known.iter().position(same) {
            known.remove(i);
        }
    }
    known.push((p.id, form, solution));
}

/// The puzzle routes.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
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

fn summary(p: &PuzzleInfo) -> Value {
    json!({
        "id": p.id,
        "task": p.task,
        "strict": p.strict,
        "decreasing": p.decreasing,
        "variant": p.variant,
        "pieces": match p.variant {
            Some(_) => None,
            None => Some(p.width * p.height / p.piece_size),
        },
    })
}

async fn list() -> Json<Value> {
    Json(json!(puzzle::PUZZLES
        .iter()
        .map(summary)
        .collect::<Vec<_>>()))
}

/// The board of a tiling in the shape of a variant detail.
fn tiling_board(p: &PuzzleInfo) -> Value {
    let (w, h) = (p.width, p.height);
    let mut cells = Vec::new();
    let mut names = Vec::new();
    for y in 0..h {
        for x in 0..w {
            cells.push(json!([x, y, 0]));
            names.push(puzzle::cell_name(x, y));
        }
    }
    let set = blokus_core::PieceSetId::Classic.build();
    let kind = GridKind::Square;
    let pieces: Vec<Value> = set
        .pieces
        .iter()
        .filter(|d| d.size == p.piece_size)
        .map(|d| {
            let sym: Vec<_> = (0..symmetry_count(kind))
                .map(|t| normalize(kind, &transform(kind, &d.orientations[0], t)))
                .collect();
            json!({"name": d.name, "size": d.size, "count": 1, "symmetries": sym})
        })
        .collect();
    json!({
        "id": p.id,
        "name": p.id,
        "description": p.task,
        "board": format!("{w}x{h} squares"),
        "grid": "square",
        "colours": COLOURS,
        "players": 1,
        "seat_names": [],
        "piece_set": "Classic",
        "alternate_contact": false,
        "pie": false,
        "teams": null,
        "width": w,
        "height": h,
        "cells": cells,
        "names": names,
        "starts": [],
        "starts_per_colour": false,
        "colour_player": [null, null, null, null],
        "pieces": pieces,
        "shared_pool": false,
    })
}

async fn detail(Path(id): Path<String>) -> Result<Json<Value>, AppError> {
    let p = find(&id)?;
    warm_up(p);
    let board = match p.variant {
        Some(v) => {
            let variant = blokus_core::variant(v).map_err(|e| AppError::Internal(e.to_string()))?;
            json!(crate::variants::detail(&variant))
        }
        None => tiling_board(p),
    };
    let mut out = summary(p);
    out["board"] = board;
    Ok(Json(out))
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
) -> Result<Json<Value>, AppError> {
    let p = find(&id)?;
    let form = form_of(p, &r)?;
    Ok(Json(match play::check(p, form, &r.placements) {
        Ok(progress) => json!({
            "valid": true,
            "placed": progress.placed,
            "total": progress.total,
            "solved": progress.solved,
        }),
        Err(refusal) => json!({
            "valid": false,
            "index": refusal.index,
            "message": refusal.to_string(),
        }),
    }))
}

async fn hint(Path(id): Path<String>, Json(r): Json<PlayRequest>) -> Result<Json<Value>, AppError> {
    let p = find(&id)?;
    let form = form_of(p, &r)?;
    let _slot = HINT_SLOTS
        .acquire()
        .await
        .map_err(|_| AppError::Internal("hint slots closed".into()))?;
    let limits = if p.variant.is_some() {
        Limits {
            max_nodes: BOARD_HINT_NODES,
            max_time: None,
        }
    } else {
        Limits {
            max_nodes: 0,
            max_time: Some(TILING_HINT_TIME),
        }
    };
    let answer = tokio::task::spawn_blocking(move || {
        // Check first: a remembered solution must never excuse a broken position.
        play::check(p, form, &r.placements)?;
        if let Some(solution) = known_extension(p, form, &r.placements) {
            return Ok(play::hint_of(&r.placements, Completion::Found(solution)));
        }
        let completion = play::complete(p, form, &r.placements, r.seed, limits)?;
        if let Completion::Found(solution) = &completion {
            remember(p, form, solution.clone());
        }
        Ok::<_, play::Refusal>(play::hint_of(&r.placements, completion))
    })
    .await
    .map_err(|e| AppError::Internal(format!("hint search failed: {e}")))?
    .map_err(|refusal| AppError::BadRequest(refusal.to_string()))?;
    Ok(Json(match answer {
        Hint::Next(placement) => json!({"status": "next", "placement": placement}),
        Hint::Solved => json!({"status": "solved"}),
        Hint::NoSolution => json!({"status": "no_solution", "message": "no solution from here"}),
        Hint::NotFound => json!({
            "status": "not_found",
            "message": "no solution found from here within the search limit (there may still be one: ask again, or undo some pieces)",
        }),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_solutions_answer_hints_per_form_and_the_oldest_go() {
        let p = puzzle::find("tetro_8x10").unwrap();
        let strict = Form {
            strict: true,
            decreasing: false,
        };
        let solution = |seed| {
            puzzle::solve("tetro_8x10", strict, seed, &mut |_| {})
                .unwrap()
                .unwrap()
                .placements()
        };
        let first = solution(1);
        remember(p, strict, first.clone());
        // The empty board and a start of the solution: answered from memory.
        assert_eq!(known_extension(p, strict, &[]).unwrap().len(), 20);
        let ext = known_extension(p, strict, &first[..4]).unwrap();
        assert_eq!(&ext[..4], &first[..4]);
        // The plain form remembers nothing yet.
        assert!(known_extension(p, Form::default(), &[]).is_none());
        // Newer solutions push the oldest out.
        for seed in 2..2 + KNOWN_PER_FORM as u64 {
            remember(p, strict, solution(seed));
        }
        let kept = KNOWN
            .lock()
            .unwrap()
            .iter()
            .filter(|(id, f, _)| *id == p.id && *f == strict)
            .count();
        assert_eq!(kept, KNOWN_PER_FORM);
        assert!(!KNOWN.lock().unwrap().iter().any(|(_, _, s)| *s == first));
    }
}
