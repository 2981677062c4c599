//! `blokus variants`: every variant with its game name, board, colours, players, teams and
//! piece set, as a table or JSON.

use blokus_core::cube::{CubeVariantId, Site, Stone, BUILTIN_SITES, CUBE_COLOURS, DEFAULT_SITE};
use blokus_core::variant::{StartRule, VariantData};
use blokus_core::{all_variants, geometry::column_name};
use std::io::Write;

use super::CmdResult;

/// Arguments of `blokus variants`.
#[derive(clap::Args)]
pub struct Args {
    /// Print JSON (an array of objects) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The players as text: `2` or `4 in 2 teams`.
fn players_text(v: &VariantData) -> String {
    match &v.teams {
        Some(_) => format!("{} in {} teams", v.players, v.num_sides()),
        None => v.players.to_string(),
    }
}

fn teams(v: &VariantData) -> Option<Vec<Vec<&'static str>>> {
    let teams = v.teams.as_ref()?;
    let mut out = vec![Vec::new(); v.num_sides()];
    for (c, seat) in v.seats.iter().enumerate() {
        if let blokus_core::variant::Seat::Player(p) = seat {
            out[teams[p.index()].index()].push(v.colours[c]);
        }
    }
    Some(out)
}

fn starting_points(v: &VariantData) -> Vec<String> {
    let g = v.geometry();
    match &v.start {
        StartRule::PerColour(c) | StartRule::Shared(c) => {
            c.iter().map(|&cell| g.cell_name(cell)).collect()
        }
        StartRule::Anywhere => Vec::new(),
    }
}

fn json(v: &VariantData) -> serde_json::Value {
    let set = v.piece_set.build();
    serde_json::json!({
        "id": v.id,
        "game_name": v.game_name,
        "aliases": v.id.aliases(),
        "family": v.family(),
        "description": v.description,
        "board": v.board,
        "board_text": v.board.describe(),
        "cells": v.geometry().num_cells(),
        "columns": format!("a..{}", column_name(v.geometry().width() - 1)),
        "rows": v.geometry().height(),
        "colours": v.colours,
        "players": v.players,
        "teams": teams(v),
        "piece_set": set.id.name(),
        "pieces_per_colour": set.total_pieces(),
        "cells_per_colour": set.total_cells(),
        "shared_pool": v.shared_pool,
        "starting_points": starting_points(v),
        "scoring": v.scoring,
        "pie_rule": v.pie,
        "alternate_contact_option": v.has_alternate_contact(),
    })
}

/// A Blokus 3D variant as JSON: its seating and every built-in site it can use.
fn cube_json(v: CubeVariantId) -> serde_json::Value {
    let seating = v.seating();
    let sites: Vec<_> = BUILTIN_SITES
        .iter()
        .filter_map(|name| Site::builtin(name))
        .map(|s| {
            serde_json::json!({
                "name": s.name(),
                "squares": s.squares(),
                "width": s.width(),
                "depth": s.depth(),
                "levels": s.height(seating.height_players()),
            })
        })
        .collect();
    serde_json::json!({
        "id": v.as_str(),
        "game_name": v.game_name(),
        "aliases": [],
        "family": blokus_core::Family::Cube,
        "description": v.description(),
        "board_text": format!("any site (default {DEFAULT_SITE})"),
        "sites": sites,
        "default_site": DEFAULT_SITE,
        "colours": CUBE_COLOURS[..seating.colours()],
        "players": seating.players(),
        "piece_set": "Blokus 3D",
        "pieces_per_colour": Stone::ALL.len(),
        "cells_per_colour": Stone::ALL.iter().map(|s| s.size()).sum::<usize>(),
        "scoring": "top_view",
        "best_colour_decides": seating.best_colour_decides(),
    })
}

/// A Blokus 3D variant as a table row.
fn cube_row(v: CubeVariantId) -> [String; 6] {
    let seating = v.seating();
    let players = if seating.players() == seating.colours() {
        seating.players().to_string()
    } else {
        format!("{} (two colours each)", seating.players())
    };
    [
        v.as_str().to_string(),
        v.game_name().to_string(),
        format!("any site (default {DEFAULT_SITE})"),
        CUBE_COLOURS[..seating.colours()].join(", "),
        players,
        "Blokus 3D (11 stones)".to_string(),
    ]
}

/// Prints the list.
pub fn run(args: Args) -> CmdResult {
    let mut out = std::io::stdout().lock();
    let variants = all_variants();
    if args.json {
        let list: Vec<_> = variants
            .iter()
            .map(|v| json(v))
            .chain(CubeVariantId::ALL.into_iter().map(cube_json))
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&list)?)?;
        return Ok(());
    }
    let header = [
        "id",
        "game name",
        "board",
        "colours",
        "players",
        "piece set",
    ];
    let rows: Vec<[String; 6]> = variants
        .iter()
        .map(|v| {
            let set = v.piece_set.build();
            [
                v.id.to_string(),
                v.game_name.to_string(),
                v.board.describe(),
                v.colours.join(", "),
                players_text(v),
                format!(
                    "{} ({} pieces{})",
                    set.id.name(),
                    set.total_pieces(),
                    if v.shared_pool { ", shared" } else { "" }
                ),
            ]
        })
        .chain(CubeVariantId::ALL.into_iter().map(cube_row))
        .collect();
    let mut widths = header.map(str::len);
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    writeln!(out, "{}", line(&header.map(String::from)))?;
    writeln!(out, "{}", line(&widths.map(|w| "-".repeat(w))))?;
    for r in &rows {
        writeln!(out, "{}", line(r))?;
    }
    Ok(())
}
