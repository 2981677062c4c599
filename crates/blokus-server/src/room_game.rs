//! The game a room plays, of either board family: a flat game (squares, Trigon) or a
//! Blokus 3D game. Every rule question goes to `blokus-core`; this module only puts the
//! two families behind the calls a room makes (play a move text, undo, whose turn,
//! the stored event texts, the notices and views for clients, the AI's move).

use blokus_core::Colour;
use std::sync::Arc;

use blokus_ai::cube::cube_player_from_spec;
use blokus_ai::{Budget, Decision};
use blokus_core::cube::{notation as cube_notation, CubeGame, CubeGameError, CubeVariantId, Site};
use blokus_core::{Game, GameError, PieChoice};
use serde::{Deserialize, Serialize};

use crate::codec;
use crate::protocol::{ErrorCode, Refusal, ServerMsg};
use crate::room::Outgoing;
use crate::seats::{AiLevel, Seat};
use crate::view::{self, AnyView, RoomFacts};

/// The stored options of a Blokus 3D game (the `options` column): its site, and the
/// site's definition when it is not built in.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CubeOptions {
    /// Site name.
    pub site: String,
    /// The site file's text, for a site that is not built in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_definition: Option<String>,
}

impl CubeOptions {
    /// The options of a game on `site`.
    pub fn of(site: &Site) -> CubeOptions {
        let builtin = Site::builtin(site.name()).is_some_and(|b| *b == *site);
        CubeOptions {
            site: site.name().to_string(),
            site_definition: (!builtin).then(|| site.to_text()),
        }
    }

    /// The site these options name.
    ///
    /// # Errors
    /// An unknown built-in name or a faulty definition.
    pub fn site(&self) -> Result<Arc<Site>, String> {
        match &self.site_definition {
            Some(text) => Site::parse(text).map(Arc::new).map_err(|e| e.to_string()),
            None => Site::builtin(&self.site)
                .ok_or_else(|| blokus_core::cube::UnknownSite(self.site.clone()).to_string()),
        }
    }
}

/// A move chosen by an AI seat.
pub enum AiMove {
    /// A flat player's decision.
    Flat(Decision),
    /// A 3D placement, as its move text.
    Cube(String),
}

/// A room's game.
#[derive(Clone)]
pub enum RoomGame {
    /// Squares or Trigon.
    Flat(Game),
    /// Blokus 3D.
    Cube(CubeGame),
}

impl RoomGame {
    /// Rebuilds a stored game from its variant, options and event texts.
    ///
    /// # Errors
    /// A message naming what cannot be read or the first event that cannot be replayed.
    pub fn rebuild(variant: &str, options: &str, events: &[String]) -> Result<RoomGame, String> {
        let Some(v) = CubeVariantId::parse(variant) else {
            return codec::rebuild(variant, options, events).map(RoomGame::Flat);
        };
        let options: CubeOptions =
            serde_json::from_str(options).map_err(|e| format!("bad stored options: {e}"))?;
        let mut game = CubeGame::new(v.rules(options.site()?));
        for (n, text) in events.iter().enumerate() {
            codec::apply_cube(&mut game, text).map_err(|e| format!("event {n} '{text}': {e}"))?;
        }
        Ok(RoomGame::Cube(game))
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        match self {
            RoomGame::Flat(g) => g.is_over(),
            RoomGame::Cube(g) => g.is_over(),
        }
    }

    /// Events so far (placements, and the pie choice of flat games).
    pub fn ply(&self) -> usize {
        match self {
            RoomGame::Flat(g) => g.events().len(),
            RoomGame::Cube(g) => g.moves().len(),
        }
    }

    /// The player (seat) to move, `None` when the game is over.
    pub fn player_to_move(&self) -> Option<usize> {
        if self.is_over() {
            return None;
        }
        Some(match self {
            RoomGame::Flat(g) => g.position().player_to_move(g.rules()).index(),
            RoomGame::Cube(g) => g.rules().seating().player_of(g.to_move()).index(),
        })
    }

    /// The name of the colour to move.
    pub fn colour_to_move_name(&self) -> &'static str {
        match self {
            RoomGame::Flat(g) => g.rules().colour_name(g.to_move()),
            RoomGame::Cube(g) => g.rules().colour_name(g.to_move()),
        }
    }

    /// The player who made event `n`.
    pub fn event_player(&self, n: usize) -> usize {
        match self {
            RoomGame::Flat(g) => view::event_player(g, n),
            RoomGame::Cube(g) => g.rules().seating().player_of(g.moves()[n].0).index(),
        }
    }

    /// Whether the Polyomino pie choice is due.
    pub fn awaiting_pie(&self) -> bool {
        matches!(self, RoomGame::Flat(g) if g.position().awaiting_pie_choice())
    }

    /// Plays a move text for the colour to move.
    ///
    /// # Errors
    /// `malformed` for a text that is no move, `illegal` with the rule it breaks.
    pub fn play_text(&mut self, text: &str) -> Result<(), Refusal> {
        match self {
            RoomGame::Flat(g) => {
                let colour = g.to_move();
                let mv = g.resolve(colour, text).map_err(|e| match e {
                    GameError::Notation(n) => Refusal::new(ErrorCode::Malformed, n.to_string()),
                    other => Refusal::new(ErrorCode::Illegal, other.to_string()),
                })?;
                g.play_as(colour, mv)
                    .map_err(|e| Refusal::new(ErrorCode::Illegal, e.to_string()))
            }
            RoomGame::Cube(g) => g.play_text(text).map(|_| ()).map_err(cube_refusal),
        }
    }

    /// Whether a move text is legal for the colour to move now, and if not why (the
    /// rules' words), without playing it.
    pub fn check_text(&self, text: &str) -> Result<(), Refusal> {
        let mut trial = self.clone();
        trial.play_text(text)
    }

    /// Whether the newest event is a player's time running out (not a move of theirs).
    pub fn last_is_time_out(&self) -> bool {
        matches!(self, RoomGame::Flat(g)
            if matches!(g.events().last(), Some(blokus_core::GameEvent::TimeOut { .. })))
    }

    /// A player's time ran out; the rules in `blokus-core` say what follows.
    ///
    /// # Errors
    /// When nothing is to decide (the game is over), and always in 3D (no clocks).
    pub fn time_out(&mut self, player: blokus_core::PlayerId) -> Result<(), String> {
        match self {
            RoomGame::Flat(g) => g.time_out(player).map(|_| ()).map_err(|e| e.to_string()),
            RoomGame::Cube(_) => Err("Blokus 3D games have no clock".into()),
        }
    }

    /// Makes the pie choice.
    ///
    /// # Errors
    /// When no choice is due (always in 3D).
    pub fn choose_pie(&mut self, choice: PieChoice) -> Result<(), Refusal> {
        match self {
            RoomGame::Flat(g) => g
                .choose_pie(choice)
                .map_err(|e| Refusal::new(ErrorCode::NoPie, e.to_string())),
            RoomGame::Cube(_) => Err(Refusal::new(
                ErrorCode::NoPie,
                "Blokus 3D has no pie choice",
            )),
        }
    }

    /// Takes back the last event.
    ///
    /// # Errors
    /// At the start of the game.
    pub fn undo(&mut self) -> Result<(), String> {
        match self {
            RoomGame::Flat(g) => g.undo().map(|_| ()).map_err(|e| e.to_string()),
            RoomGame::Cube(g) => g.undo().map(|_| ()).map_err(|e| e.to_string()),
        }
    }

    /// The stored text of the newest event.
    pub fn encode_last(&self) -> String {
        match self {
            RoomGame::Flat(g) => {
                let e = g.events().last().expect("an event was played");
                codec::encode(g, e)
            }
            RoomGame::Cube(g) => {
                let &(colour, m) = g.moves().last().expect("a move was played");
                codec::encode_cube(g, colour, m)
            }
        }
    }

    /// The notices of the newest event (event number `n`): the placement, then the
    /// colours that pass (flat) or go out (3D) after it.
    pub fn notices_last(&self, n: usize) -> Vec<Outgoing> {
        let mut out = Vec::new();
        let passes = match self {
            RoomGame::Flat(g) => {
                let (colour, mv) = match g.events()[n] {
                    blokus_core::GameEvent::Place { colour, mv } => (colour, mv),
                    blokus_core::GameEvent::TimeOut { player } => {
                        out.push(
                            ServerMsg::TimeOut {
                                ply: n,
                                seat: player.index(),
                            }
                            .text(),
                        );
                        return out;
                    }
                    blokus_core::GameEvent::Pie(_) => return out,
                };
                let table = g.rules().table();
                out.push(
                    ServerMsg::Move {
                        ply: n,
                        colour,
                        cells: blokus_core::notation::move_cells(table, mv),
                        piece: blokus_core::notation::piece_name(table, mv).to_string(),
                    }
                    .text(),
                );
                g.passes_after(n)
            }
            RoomGame::Cube(g) => {
                let (colour, m) = g.moves()[n];
                let t = g.rules().table();
                out.push(
                    ServerMsg::Move {
                        ply: n,
                        colour,
                        cells: cube_notation::move_cubes(t, m),
                        piece: t.get(m).stone().name().to_string(),
                    }
                    .text(),
                );
                g.outs_after(n)
            }
        };
        if !passes.is_empty() {
            let names = passes
                .iter()
                .map(|&c| self.colour_name(c).to_string())
                .collect();
            out.push(
                ServerMsg::Pass {
                    ply: n,
                    colours: passes,
                    names,
                }
                .text(),
            );
        }
        out
    }

    fn colour_name(&self, colour: Colour) -> &'static str {
        match self {
            RoomGame::Flat(g) => g.rules().colour_name(colour),
            RoomGame::Cube(g) => g.rules().colour_name(colour),
        }
    }

    /// The state every client sees.
    pub fn view(&self, id: &str, seats: &[Seat], facts: RoomFacts<'_>) -> AnyView {
        match self {
            RoomGame::Flat(g) => AnyView::Flat(view::state(id, g, seats, facts)),
            RoomGame::Cube(g) => AnyView::Cube(crate::cube_view::state(id, g, seats, facts)),
        }
    }

    /// The colours each seat plays now, by name.
    pub fn seat_colours(&self, players: usize) -> Vec<Vec<&'static str>> {
        match self {
            RoomGame::Flat(g) => view::seat_colours(g, players),
            RoomGame::Cube(g) => {
                let rules = g.rules();
                let mut out = vec![Vec::new(); players];
                for c in Colour::all(rules.num_colours()) {
                    let p = rules.seating().player_of(c).index();
                    if p < players {
                        out[p].push(rules.colour_name(c));
                    }
                }
                out
            }
        }
    }

    /// The web page that plays a game of this family: `game` (flat) or `cube` (3D), as in
    /// the game's address `/{page}/{id}`.
    pub fn page(&self) -> &'static str {
        match self {
            RoomGame::Flat(_) => "game",
            RoomGame::Cube(_) => "cube",
        }
    }

    /// A new game under the same rules (a rematch), with its stored variant and options.
    pub fn fresh(&self) -> (RoomGame, String, String) {
        match self {
            RoomGame::Flat(g) => {
                let rules = g.rules().clone();
                let variant = rules.v().id.to_string();
                let options = serde_json::to_string(&rules.options).expect("options serialise");
                (RoomGame::Flat(Game::new(rules)), variant, options)
            }
            RoomGame::Cube(g) => {
                let rules = g.rules().clone();
                let variant = CubeVariantId::of_seating(rules.seating())
                    .as_str()
                    .to_string();
                let options = serde_json::to_string(&CubeOptions::of(rules.site()))
                    .expect("options serialise");
                (RoomGame::Cube(CubeGame::new(rules)), variant, options)
            }
        }
    }

    /// The legal move texts of the colour to move and the pieces (stones) having one.
    pub fn legal_moves(&self) -> (Vec<String>, Vec<usize>) {
        match self {
            RoomGame::Flat(g) => view::legal_moves(g),
            RoomGame::Cube(g) => crate::cube_view::legal_moves(g),
        }
    }

    /// The AI's choice at `level` within `budget` (runs a search: call it on a blocking
    /// thread).
    pub fn think(&self, level: AiLevel, seed: u64, budget: Budget) -> AiMove {
        match self {
            RoomGame::Flat(g) => AiMove::Flat(level.player(seed).decide(g, budget)),
            RoomGame::Cube(g) => {
                let spec = format!("mcts:level={},seed={seed}", level.get());
                let mut player =
                    cube_player_from_spec(&spec).expect("AI levels are valid 3D player specs");
                let m = player.choose(g, budget);
                AiMove::Cube(cube_notation::format_move(g.rules().table(), m))
            }
        }
    }

    /// Plays an AI's choice; `false` if it cannot be played.
    pub fn apply_ai(&mut self, choice: AiMove) -> bool {
        match (self, choice) {
            (RoomGame::Flat(g), AiMove::Flat(Decision::Place(mv))) => {
                let colour = g.to_move();
                g.play_as(colour, mv).is_ok()
            }
            (RoomGame::Flat(g), AiMove::Flat(Decision::Pie(choice))) => {
                g.choose_pie(choice).is_ok()
            }
            (RoomGame::Cube(g), AiMove::Cube(text)) => g.play_text(&text).is_ok(),
            _ => false,
        }
    }

    /// Plays something legal for a player that failed: keep at the pie choice, else
    /// the first legal move; `false` if there is none.
    pub fn play_fallback(&mut self) -> bool {
        match self {
            RoomGame::Flat(g) => {
                if g.position().awaiting_pie_choice() {
                    return g.choose_pie(PieChoice::Keep).is_ok();
                }
                let colour = g.to_move();
                match g.legal_moves().first() {
                    Some(&mv) => g.play_as(colour, mv).is_ok(),
                    None => false,
                }
            }
            RoomGame::Cube(g) => match g.legal_moves().first() {
                Some(&m) => g.play(m).is_ok(),
                None => false,
            },
        }
    }
}

/// A refusal for a 3D move error.
fn cube_refusal(e: CubeGameError) -> Refusal {
    match e {
        CubeGameError::Notation(n) => Refusal::new(ErrorCode::Malformed, n.to_string()),
        other => Refusal::new(ErrorCode::Illegal, other.to_string()),
    }
}
