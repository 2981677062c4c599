//! The game state as clients see it (the `state` message and `GET /api/games/{id}`).

use blokus_core::notation::{move_cells, piece_name};
use blokus_core::score::{colour_scores, side_name, side_results};
use blokus_core::variant::Seat as ColourSeat;
use blokus_core::{Game, GameEvent, PieChoice};
use serde_json::{json, Map, Value};

use crate::seats::Seat;

/// The player who made event `n` (the player to move just before it).
pub fn event_player(game: &Game, n: usize) -> usize {
    game.position_at(n)
        .expect("event index within history")
        .player_to_move(game.rules())
}

/// The colours each seat plays now, by name. The rotating Green of `classic_3` is listed
/// with the seat whose turn it is to play it next.
pub fn seat_colours(game: &Game, players: usize) -> Vec<Vec<&'static str>> {
    let rules = game.rules();
    let pos = game.position();
    let mut out = vec![Vec::new(); players];
    for c in 0..rules.num_colours() {
        let p = match rules.seat(c) {
            ColourSeat::Player(p) if !rules.v().pie => *p,
            _ => pos.player_of(rules, c),
        };
        if p < players {
            out[p].push(rules.colour_name(c));
        }
    }
    out
}

/// The state of a game, without the per-connection fields (`you`, `can_undo`) and
/// without the legal moves (see [`legal_moves`]).
pub fn state(
    id: &str,
    game: &Game,
    seats: &[Seat],
    status: &str,
    connected: &[bool],
) -> Map<String, Value> {
    let rules = game.rules();
    let table = rules.table();
    let g = table.geometry();
    let pos = game.position();
    let over = game.is_over();
    let owners: Vec<i8> = g
        .cells()
        .map(|c| pos.owner(c).map_or(-1, |o| o as i8))
        .collect();
    let mut moves = Vec::new();
    for (n, e) in game.events().iter().enumerate() {
        let player = event_player(game, n);
        moves.push(match *e {
            GameEvent::Place { colour, mv } => json!({
                "colour": colour,
                "player": player,
                "cells": move_cells(table, mv),
                "piece": piece_name(table, mv),
                "passes": game.passes_after(n),
            }),
            GameEvent::Pie(choice) => json!({
                "player": player,
                "pie": match choice { PieChoice::Keep => "keep", PieChoice::Swap => "swap" },
            }),
        });
    }
    let pie = pos.awaiting_pie_choice();
    let to_move = (!over).then(|| pos.to_move());
    let attach: Vec<String> = match to_move {
        Some(c) if !pie => pos
            .attach_points(rules, c)
            .iter()
            .map(|c| g.cell_name(c))
            .collect(),
        _ => Vec::new(),
    };
    let npieces = table.pieces().pieces.len();
    let remaining: Vec<Vec<u8>> = (0..rules.num_colours())
        .map(|c| (0..npieces).map(|p| pos.remaining(rules, c, p)).collect())
        .collect();
    let results: Vec<Value> = side_results(rules, pos)
        .into_iter()
        .map(|r| {
            json!({
                "side": r.side, "name": side_name(rules, r.side), "score": r.score,
                "tiebreak": r.tiebreak, "place": r.place,
            })
        })
        .collect();
    let colours = seat_colours(game, seats.len());
    let seats_json: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "seat": i, "kind": s.kind, "level": s.level, "claimed": s.claimed,
                "colours": colours[i], "connected": connected.get(i).copied().unwrap_or(false),
            })
        })
        .collect();
    let mut m = Map::new();
    m.insert("type".into(), json!("state"));
    m.insert("id".into(), json!(id));
    m.insert("variant".into(), json!(rules.v().id));
    m.insert("options".into(), json!(rules.options));
    m.insert("status".into(), json!(status));
    m.insert("ply".into(), json!(game.events().len()));
    m.insert("over".into(), json!(over));
    m.insert("to_move".into(), json!(to_move));
    m.insert(
        "player_to_move".into(),
        json!((!over).then(|| pos.player_to_move(rules))),
    );
    m.insert("awaiting_pie".into(), json!(pie && !over));
    m.insert("owners".into(), json!(owners));
    m.insert("moves".into(), Value::Array(moves));
    m.insert("attach".into(), json!(attach));
    m.insert("remaining".into(), json!(remaining));
    m.insert("scores".into(), json!(colour_scores(rules, pos)));
    m.insert("results".into(), Value::Array(results));
    m.insert("seats".into(), Value::Array(seats_json));
    m
}

/// The legal placements of the colour to move, each as its cells in canonical order
/// joined by commas (the spelling of move text), and the sorted indices of the pieces
/// that have at least one of them.
pub fn legal_moves(game: &Game) -> (Vec<String>, Vec<usize>) {
    let table = game.rules().table();
    let moves = game.legal_moves();
    let mut pieces: Vec<usize> = moves
        .iter()
        .map(|&m| table.info(m).piece as usize)
        .collect();
    pieces.sort_unstable();
    pieces.dedup();
    let texts = moves
        .into_iter()
        .map(|m| move_cells(table, m).join(","))
        .collect();
    (texts, pieces)
}
