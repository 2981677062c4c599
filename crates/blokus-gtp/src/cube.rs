//! The engine's Blokus 3D game: the GTP commands that act on a game, for the 3D
//! variants (`set_game Blokus 3D Duo`). Moves are cube lists with levels (`a1.1,b1.1`),
//! colours `b`/`w` with two colours and `1`..`4` otherwise, as for the flat variants.
//! Turns are strict in 3D: a colour that cannot place is out for the rest of the game,
//! so `play` and `genmove` act only for the colour to move.

use std::sync::Arc;

use blokus_ai::cube::CubePlayer;
use blokus_ai::Budget;
use blokus_core::cube::render::{self, CubeRenderOptions};
use blokus_core::cube::{notation, record, score, CubeGame, CubeGameError, CubeRules, Site};
use blokus_core::Colour;

/// A command's answer text or error message.
type CmdResult = Result<String, String>;

/// A 3D game in the engine.
pub struct CubeSession {
    /// The game.
    pub game: CubeGame,
}

impl CubeSession {
    /// A new game under `rules`.
    pub fn new(rules: CubeRules) -> CubeSession {
        CubeSession {
            game: CubeGame::new(rules),
        }
    }

    /// The site of the game.
    pub fn site(&self) -> &Arc<Site> {
        self.game.rules().site()
    }

    /// A colour argument: `b`/`w` (`black`/`white`) with two colours, a 1-based number
    /// or a colour name.
    pub fn colour(&self, text: &str) -> Result<Colour, String> {
        let rules = self.game.rules();
        let t = text.trim().to_ascii_lowercase();
        let two = rules.num_colours() == 2;
        let by_letter = match t.as_str() {
            "b" | "black" if two => Some(Colour(0)),
            "w" | "white" if two => Some(Colour(1)),
            _ => None,
        };
        by_letter
            .or_else(|| rules.parse_colour(&t))
            .ok_or_else(|| format!("invalid color argument '{text}'"))
    }

    fn name(&self, colour: Colour) -> &'static str {
        self.game.rules().colour_name(colour)
    }

    /// Refuses a colour that is not to move (3D turns are strict).
    fn check_to_move(&self, colour: Colour) -> Result<(), String> {
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        let to_move = self.game.to_move();
        if colour != to_move {
            return Err(format!(
                "{} is to move, not {} (in Blokus 3D colours move in turn)",
                self.name(to_move),
                self.name(colour)
            ));
        }
        Ok(())
    }

    /// `play`: the move of `colour`, which must be to move; `pass` does nothing.
    pub fn play(&mut self, colour: Colour, text: &str) -> CmdResult {
        if text.trim().eq_ignore_ascii_case("pass") {
            return Ok(String::new());
        }
        self.check_to_move(colour)?;
        self.game
            .play_text(text)
            .map(|_| String::new())
            .map_err(|e| match e {
                CubeGameError::Notation(n) => format!("invalid move: {n}"),
                other => other.to_string(),
            })
    }

    /// `undo`.
    pub fn undo(&mut self) -> CmdResult {
        self.game
            .undo()
            .map(|_| String::new())
            .map_err(|_| "cannot undo".to_string())
    }

    /// `all_legal`: the legal moves of `colour` here, one per line.
    pub fn all_legal(&self, colour: Colour) -> String {
        let pos = self.game.position();
        if self.game.is_over() || pos.is_out(colour) {
            return String::new();
        }
        let t = self.game.rules().table();
        pos.legal_moves(t, colour)
            .into_iter()
            .map(|m| notation::format_move(t, m))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `showboard`: top view with heights, the levels and the scores.
    pub fn board_text(&self, ansi: bool) -> String {
        render::position(&self.game, CubeRenderOptions { ansi })
    }

    /// `final_score`.
    pub fn final_score(&self) -> String {
        record::result_text(self.game.rules(), self.game.position())
    }

    /// `get_place`: the place of the player of `colour`.
    pub fn place_of(&self, colour: Colour) -> CmdResult {
        let rules = self.game.rules();
        let player = rules.seating().player_of(colour);
        let results = score::results(rules, self.game.position());
        let place = results[player.index()].place;
        let shared = results
            .iter()
            .any(|r| r.player != player && r.place == place);
        Ok(if shared {
            format!("{place} shared")
        } else {
            place.to_string()
        })
    }

    /// `loadsgf` of a 3D record text, rewound to before move `number` if given.
    pub fn load(text: &str, file: &str, number: Option<usize>) -> Result<CubeSession, String> {
        let mut game = record::from_blksgf(text).map_err(|e| format!("{file}: {e}"))?;
        if let Some(n) = number {
            while game.moves().len() > n - 1 {
                game.undo().map_err(|e| e.to_string())?;
            }
        }
        Ok(CubeSession { game })
    }

    /// `savesgf`.
    pub fn save(&self, file: &str) -> CmdResult {
        std::fs::write(file, record::to_blksgf(&self.game))
            .map(|_| String::new())
            .map_err(|e| format!("cannot write '{file}': {e}"))
    }

    /// `genmove` (`play` true) or `reg_genmove`: `pass` for a colour that is out or a
    /// game that is over.
    pub fn genmove(
        &mut self,
        player: &mut dyn CubePlayer,
        colour: Colour,
        budget: Budget,
        play: bool,
    ) -> CmdResult {
        if self.game.is_over() || self.game.position().is_out(colour) {
            return Ok("pass".into());
        }
        self.check_to_move(colour)?;
        let m = player.choose(&self.game, budget);
        let text = notation::format_move(self.game.rules().table(), m);
        let rules = self.game.rules().clone();
        if let Err(why) = self.game.position().check(&rules, colour, m) {
            return Err(format!("player generated illegal move {text}: {why}"));
        }
        if play {
            self.game.play(m).map_err(|e| e.to_string())?;
        }
        Ok(text)
    }
}
