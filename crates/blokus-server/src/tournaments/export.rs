//! Exports of a tournament: the standings as CSV, and every game of an online event as
//! one `.blksgf` collection.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use blokus_core::record::sgf::{self, Property};
use blokus_core::record::{blksgf, result_text};
use blokus_tournament::{Event, Points, Standings};

use crate::error::AppError;
use crate::hub::Hub;

/// `GET /api/tournaments/{id}/standings.csv`.
pub async fn standings_csv(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let t = hub.store.load_tournament(id.clone()).await?;
    let csv = standings_to_csv(&t.event.standings())?;
    Ok(download(
        "text/csv; charset=utf-8",
        &format!("standings-{id}.csv"),
        csv,
    ))
}

/// `GET /api/tournaments/{id}/games.blksgf`: every table's game, by round and table.
pub async fn games_blksgf(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let t = hub.store.load_tournament(id.clone()).await?;
    let mut trees = Vec::new();
    for row in hub.store.tournament_games(id.clone()).await? {
        let stored = hub
            .store
            .load_game(row.game.clone())
            .await?
            .ok_or_else(|| AppError::Internal(format!("game {} is missing", row.game)))?;
        let game = crate::codec::rebuild(&stored.variant, &stored.options, &stored.events)
            .map_err(|e| AppError::Internal(format!("game {}: {e}", row.game)))?;
        let props = game_properties(&t.event, row.round, row.table, &game);
        trees.push(blksgf::to_tree(&game, &props));
    }
    if trees.is_empty() {
        return Err(AppError::NotFound(
            "this event has no games in the web app yet".into(),
        ));
    }
    Ok(download(
        "application/x-blokus-sgf; charset=utf-8",
        &format!("event-{id}.blksgf"),
        sgf::write(&trees),
    ))
}

/// The root properties naming a table's game: players (`PB`/`PW`, or a comment naming
/// each seat), event, round, game name and, once over, the result.
fn game_properties(
    event: &Event,
    round: u32,
    table: u32,
    game: &blokus_core::Game,
) -> Vec<Property> {
    let names: Vec<String> = event
        .rounds()
        .get(round as usize - 1)
        .and_then(|r| r.tables.iter().find(|t| t.number == table))
        .map(|t| {
            t.seats
                .iter()
                .map(|e| event.entrants()[e.index()].name.clone())
                .collect()
        })
        .unwrap_or_default();
    let mut props = Vec::new();
    if names.len() == 2 {
        props.push(Property::new("PB", names[0].clone()));
        props.push(Property::new("PW", names[1].clone()));
    } else if !names.is_empty() {
        let seats: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(p, n)| format!("player {}: {n}", p + 1))
            .collect();
        props.push(Property::new("C", seats.join("; ")));
    }
    props.push(Property::new("EV", event.config().name.clone()));
    props.push(Property::new("RO", round.to_string()));
    props.push(Property::new("GN", format!("round {round}, table {table}")));
    if game.is_over() {
        props.push(Property::new(
            "RE",
            result_text(game.rules(), game.position()),
        ));
    }
    props
}

fn download(mime: &str, file: &str, text: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        text,
    )
        .into_response()
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
