//! The GTP engine front-end: one game, one [`Player`], driven one command line at a time.
//!
//! The dialect is that of the `.blksgf` programs' engines (documented in `docs/gtp.md`):
//! colours as `.blksgf` property identifiers (`b`/`w` with two colours, `1`..`4`
//! otherwise, colour names too), moves as cell lists (`e8,d9,e9,f9,e10`), games by their
//! `GM` name (`set_game Blokus Duo`), `play` for any colour out of turn.
//!
//! [`Engine::handle_line`] takes one input line and returns the complete response text
//! (or nothing for empty and comment lines), so the protocol is testable without
//! processes; [`Engine::run`] is the loop over a reader and a writer.
//!
//! Blokus 3D games (`set_game Blokus 3D`) are played by [`crate::cube::CubeSession`]
//! with the engine's 3D player, on the site chosen with the `site` command.

use blokus_core::Colour;
use std::io::{self, BufRead, Write};

use std::sync::Arc;

use blokus_ai::cube::CubePlayer;
use blokus_ai::{Budget, Decision, Player};
use blokus_core::cube::{CubeVariantId, Site, DEFAULT_SITE};
use blokus_core::record::{blksgf, result_text, rewind_to_move};
use blokus_core::render::{self, RenderOptions};

use crate::cube::CubeSession;
use blokus_core::{
    notation, score, variant, Game, GameError, GameEvent, PieChoice, RuleOptions, Rules,
};

/// How the engine behaves, beyond its player.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Whether `genmove` may answer `resign` (two-player variants only).
    pub resign: bool,
    /// The thinking budget passed to the player for every move.
    pub budget: Budget,
    /// ANSI colours in `showboard`.
    pub ansi: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            resign: true,
            budget: Budget::default(),
            ansi: false,
        }
    }
}

/// Every command, in the order `list_commands` gives them.
const COMMANDS: [&str; 28] = [
    "all_legal",
    "clear_board",
    "cputime",
    "final_score",
    "g",
    "genmove",
    "get_place",
    "known_command",
    "list_commands",
    "loadsgf",
    "name",
    "p",
    "param_base",
    "play",
    "protocol_version",
    "quit",
    "rate_move",
    "rate_moves",
    "reg_genmove",
    "rules",
    "savesgf",
    "set_game",
    "set_random_seed",
    "showboard",
    "site",
    "undo",
    "version",
    "variants",
];

/// Commands that need a player.
const PLAYER_COMMANDS: [&str; 5] = ["g", "genmove", "rate_move", "rate_moves", "reg_genmove"];

type CmdResult = Result<String, String>;

/// A GTP engine over one game and an optional player.
pub struct Engine {
    game: Game,
    player: Option<Box<dyn Player>>,
    /// The 3D game, when a Blokus 3D variant is set (the flat game then waits).
    cube: Option<CubeSession>,
    /// The player of 3D games.
    cube_player: Option<Box<dyn CubePlayer>>,
    /// The site of the next 3D game.
    site: Arc<Site>,
    config: EngineConfig,
    /// The spec the players were built from, when `set_random_seed` may rebuild them.
    seedable_spec: Option<String>,
    quit: bool,
}

impl Engine {
    /// An engine playing `rules` (a new game), generating moves with `player` (without
    /// one, `genmove` and friends are unknown commands).
    pub fn new(rules: Rules, player: Option<Box<dyn Player>>, config: EngineConfig) -> Engine {
        Engine {
            game: Game::new(rules),
            player,
            cube: None,
            cube_player: None,
            site: Site::builtin(DEFAULT_SITE).expect("the default site is built in"),
            config,
            seedable_spec: None,
            quit: false,
        }
    }

    /// Lets `set_random_seed N` rebuild the players (flat and 3D) from `spec` with seed
    /// N, e.g. `mcts:level=3`; without it the command is unknown.
    pub fn with_seedable_spec(mut self, spec: &str) -> Engine {
        self.seedable_spec = Some(spec.to_string());
        self
    }

    /// Gives the engine a player for Blokus 3D games (without one, `genmove` in a 3D
    /// game is refused).
    pub fn with_cube_player(mut self, player: Box<dyn CubePlayer>) -> Engine {
        self.cube_player = Some(player);
        self
    }

    /// Starts a new game of a Blokus 3D variant on `site` (the site also holds for
    /// later 3D games).
    pub fn set_cube_game(&mut self, variant: CubeVariantId, site: Arc<Site>) {
        self.site = site.clone();
        self.cube = Some(CubeSession::new(variant.rules(site)));
    }

    /// Sets the site of later 3D games.
    pub fn set_site(&mut self, site: Arc<Site>) {
        self.site = site;
    }

    /// The current 3D game, if a 3D variant is set.
    pub fn cube_game(&self) -> Option<&blokus_core::cube::CubeGame> {
        self.cube.as_ref().map(|c| &c.game)
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Reads commands until end of input or `quit`, writing (and flushing) each response.
    /// Bytes that are not UTF-8 are replaced, never fatal.
    ///
    /// # Errors
    /// Only I/O errors of the reader or writer.
    pub fn run<R: BufRead, W: Write>(&mut self, mut input: R, mut output: W) -> io::Result<()> {
        let mut buf = Vec::new();
        while !self.quit {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            let line = String::from_utf8_lossy(&buf);
            if let Some(response) = self.handle_line(&line) {
                output.write_all(response.as_bytes())?;
                output.flush()?;
            }
        }
        Ok(())
    }

    /// Handles one input line; returns the full response (`=` or `?`, optional id, text,
    /// blank line), or `None` for an empty or comment-only line.
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        // GTP preprocessing: drop control characters but tab and newline, tabs become
        // spaces, `#` starts a comment.
        let cleaned: String = line
            .chars()
            .filter(|c| !c.is_control() || *c == '\t' || *c == '\n')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let cleaned = cleaned.split('#').next().unwrap_or("").trim();
        if cleaned.is_empty() {
            return None;
        }
        let (id, rest) = match cleaned.split_once(char::is_whitespace) {
            Some((first, rest)) if first.bytes().all(|b| b.is_ascii_digit()) => {
                (Some(first), rest.trim())
            }
            None if cleaned.bytes().all(|b| b.is_ascii_digit()) => (Some(cleaned), ""),
            _ => (None, cleaned),
        };
        let (command, args_text) = rest
            .split_once(char::is_whitespace)
            .map_or((rest, ""), |(c, a)| (c, a.trim()));
        let result = if command.is_empty() {
            Err("empty command".to_string())
        } else {
            self.execute(command, args_text)
        };
        Some(format_response(id.unwrap_or(""), result))
    }

    fn knows(&self, command: &str) -> bool {
        COMMANDS.contains(&command)
            && (self.player.is_some() || !PLAYER_COMMANDS.contains(&command))
            && (self.seedable_spec.is_some() || command != "set_random_seed")
    }

    /// `set_random_seed N`: new players of the same spec seeded with N, as if the
    /// engine had been started with that seed (the game is kept).
    fn set_random_seed(&mut self, arg: &str) -> CmdResult {
        let seed: u64 = arg
            .parse()
            .map_err(|_| format!("'{arg}' is not a seed (a whole number 0..2^64)"))?;
        let spec = blokus_ai::with_seed(self.seedable_spec.as_deref().unwrap_or(""), seed);
        self.player = Some(blokus_ai::player_from_spec(&spec).map_err(|e| e.to_string())?);
        if self.cube_player.is_some() {
            self.cube_player =
                Some(blokus_ai::cube::cube_player_from_spec(&spec).map_err(|e| e.to_string())?);
        }
        Ok(String::new())
    }

    /// Runs one command (already split from its id) with its argument text.
    fn execute(&mut self, command: &str, args_text: &str) -> CmdResult {
        if !self.knows(command) {
            return Err(format!("unknown command '{command}'"));
        }
        let args: Vec<&str> = args_text.split_whitespace().collect();
        let nargs = |min: usize, max: usize| -> Result<(), String> {
            if args.len() < min {
                Err(format!("missing argument: {command} needs {min}"))
            } else if args.len() > max {
                Err("too many arguments".into())
            } else {
                Ok(())
            }
        };
        if let Some(result) = self.execute_cube(command, &args) {
            return result;
        }
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("blokus".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                nargs(1, 1)?;
                Ok(self.knows(args[0]).to_string())
            }
            "list_commands" => Ok(COMMANDS
                .iter()
                .filter(|c| self.knows(c))
                .copied()
                .collect::<Vec<_>>()
                .join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "variants" => Ok(variant::all_variants()
                .iter()
                .map(|v| format!("{} {}", v.id, v.game_name))
                .chain(
                    CubeVariantId::ALL
                        .iter()
                        .map(|v| format!("{} {}", v.as_str(), v.game_name())),
                )
                .collect::<Vec<_>>()
                .join("\n")),
            "site" => self.site_command(args_text),
            "set_game" => self.set_game(args_text),
            "rules" => self.rules(args_text),
            "set_random_seed" => {
                nargs(1, 1)?;
                self.set_random_seed(args[0])
            }
            "clear_board" => {
                self.new_game(Game::new(self.game.rules().clone()));
                Ok(String::new())
            }
            "play" => {
                nargs(2, usize::MAX)?;
                let colour = self.colour(args[0])?;
                self.play(colour, &args[1..].join(" "))
            }
            "p" => {
                nargs(1, usize::MAX)?;
                let colour = self.game.to_move();
                self.play(colour, &args.join(" "))
            }
            "undo" => {
                nargs(0, 0)?;
                self.game
                    .undo()
                    .map(|_| String::new())
                    .map_err(|_| "cannot undo".to_string())
            }
            "all_legal" => {
                nargs(1, 1)?;
                let colour = self.colour(args[0])?;
                Ok(self.all_legal(colour))
            }
            "showboard" => Ok(format!("\n{}", self.board_text())),
            "final_score" => Ok(result_text(self.game.rules(), self.game.position())),
            "get_place" => {
                nargs(1, 1)?;
                let colour = self.colour(args[0])?;
                self.place_of(colour)
            }
            "loadsgf" => {
                nargs(1, 2)?;
                self.loadsgf(args[0], args.get(1).copied())
            }
            "savesgf" => {
                nargs(1, 1)?;
                std::fs::write(args[0], blksgf::write(&self.game))
                    .map(|_| String::new())
                    .map_err(|e| format!("cannot write '{}': {e}", args[0]))
            }
            "cputime" => cpu_time::ProcessTime::try_now()
                .map(|t| format!("{:.3}", t.as_duration().as_secs_f64()))
                .map_err(|e| format!("cannot read CPU time: {e}")),
            "param_base" => self.param_base(&args),
            "genmove" | "reg_genmove" => {
                nargs(1, 1)?;
                let colour = self.colour(args[0])?;
                self.genmove(colour, command == "genmove")
            }
            "rate_moves" => {
                nargs(0, 1)?;
                self.rate_moves(args.first().copied())
            }
            "rate_move" => {
                nargs(1, 1)?;
                self.rate_move(args[0])
            }
            "g" => {
                nargs(0, 0)?;
                let colour = self.game.to_move();
                self.genmove(colour, true)
            }
            _ => Err(format!("unknown command '{command}'")),
        }
    }

    fn new_game(&mut self, game: Game) {
        self.game = game;
        self.cube = None;
        if let Some(p) = self.player.as_mut() {
            p.reset();
        }
    }

    fn colour(&self, text: &str) -> Result<Colour, String> {
        self.game
            .rules()
            .parse_colour(text)
            .ok_or_else(|| format!("invalid color argument '{text}'"))
    }

    fn set_game(&mut self, name: &str) -> CmdResult {
        let name = name.trim();
        if name.is_empty() {
            return Err("missing argument: a game name such as Blokus Duo".into());
        }
        // Ids, game names and Pentobi's short names (`d`, `t2`) are all accepted.
        let v = match variant::variant(name) {
            Ok(v) => v,
            Err(e) => {
                let Some(cube) = CubeVariantId::parse(name) else {
                    return Err(blokus_core::cube::AnyVariant::parse(name)
                        .err()
                        .map_or_else(|| e.to_string(), |e| e.to_string()));
                };
                self.set_cube_game(cube, self.site.clone());
                return Ok(String::new());
            }
        };
        // The rule options chosen (`--rules`, `rules`) carry over to the new variant.
        let options = self.game.rules().options;
        self.new_game(Game::new(Rules::new(v, options)));
        Ok(String::new())
    }

    /// Without a list, the rule options in force (`none` if none); with one, a new game
    /// of the current variant under exactly those options.
    fn rules(&mut self, list: &str) -> CmdResult {
        if list.is_empty() {
            let on = self.game.rules().options.enabled();
            return Ok(if on.is_empty() {
                "none".into()
            } else {
                on.join(",")
            });
        }
        let options = RuleOptions::parse_list(list).map_err(|e| e.to_string())?;
        let v = self.game.rules().variant.clone();
        self.new_game(Game::new(Rules::new(v, options)));
        Ok(String::new())
    }

    fn play(&mut self, colour: Colour, text: &str) -> CmdResult {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            // Colours pass automatically; a controller relaying another engine's `pass`
            // gets a no-op.
            "pass" => return Ok(String::new()),
            "keep" | "swap" => {
                let choice = if lower == "keep" {
                    PieChoice::Keep
                } else {
                    PieChoice::Swap
                };
                return self
                    .game
                    .choose_pie(choice)
                    .map(|_| String::new())
                    .map_err(|e| e.to_string());
            }
            _ => {}
        }
        let mv = notation::parse_move(self.game.rules().table(), text)
            .map_err(|e| format!("invalid move: {e}"))?;
        self.game
            .play_for(colour, mv)
            .map(|_| String::new())
            .map_err(|e| match e {
                GameError::Illegal { message, .. } => format!("illegal move: {message}"),
                other => other.to_string(),
            })
    }

    fn all_legal(&self, colour: Colour) -> String {
        if self.game.position().awaiting_pie_choice() {
            return String::new();
        }
        let t = self.game.rules().table();
        self.game
            .legal_moves_of(colour)
            .into_iter()
            .map(|m| notation::format_move(t, m))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn board_text(&self) -> String {
        let last_move = self.game.events().iter().rev().find_map(|e| match e {
            GameEvent::Place { mv, .. } => Some(*mv),
            GameEvent::Pie(_) | GameEvent::TimeOut { .. } => None,
        });
        let opts = RenderOptions {
            ansi: self.config.ansi,
            last_move,
        };
        render::position(self.game.rules(), self.game.position(), &opts)
    }

    fn place_of(&self, colour: Colour) -> CmdResult {
        let rules = self.game.rules();
        let pos = self.game.position();
        let side = score::side_of_colour(rules, pos, colour)
            .ok_or_else(|| format!("the score of {} is not counted", rules.colour_name(colour)))?;
        let results = score::side_results(rules, pos);
        let place = results[side.index()].place;
        let shared = results.iter().any(|r| r.side != side && r.place == place);
        Ok(if shared {
            format!("{place} shared")
        } else {
            place.to_string()
        })
    }

    fn loadsgf(&mut self, file: &str, move_number: Option<&str>) -> CmdResult {
        let number = match move_number {
            Some(t) => Some(
                t.parse::<usize>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("invalid move number '{t}' (expected 1 or more)"))?,
            ),
            None => None,
        };
        let text = blokus_core::record::read_file(std::path::Path::new(file))?;
        if is_cube_record(&text) {
            let session = CubeSession::load(&text, file, number)?;
            self.site = session.site().clone();
            self.cube = Some(session);
            return Ok(String::new());
        }
        let mut game = blksgf::read(&text).map_err(|e| format!("{file}: {e}"))?;
        if let Some(n) = number {
            rewind_to_move(&mut game, n - 1);
        }
        self.new_game(game);
        Ok(String::new())
    }

    fn param_base(&mut self, args: &[&str]) -> CmdResult {
        match args {
            [] => Ok(format!("resign {}", u8::from(self.config.resign))),
            ["resign", v] => {
                self.config.resign = match *v {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => return Err(format!("invalid value '{v}' (expected 0 or 1)")),
                };
                Ok(String::new())
            }
            [name, _] => Err(format!("unknown parameter '{name}'")),
            _ => Err("expected no arguments, or a parameter name and value".into()),
        }
    }

    /// The player's rating of the current position, for the colour to move.
    fn rating(&mut self, game: &Game) -> Result<blokus_ai::Rating, String> {
        let budget = self.config.budget;
        let player = self.player.as_mut().ok_or("no player set")?;
        player.rate_moves(game, budget).ok_or_else(|| {
            format!(
                "player '{}' does not value moves (use an mcts player)",
                player.name()
            )
        })
    }

    /// `rate_moves [N]`: the candidates of the colour to move (or the pie choices), best
    /// first, as `MOVE VALUE VISITS` lines; at most `N` of them.
    fn rate_moves(&mut self, limit: Option<&str>) -> CmdResult {
        let limit = match limit {
            Some(t) => t
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("invalid count '{t}' (expected 1 or more)"))?,
            None => usize::MAX,
        };
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        let game = self.game.clone();
        let rating = self.rating(&game)?;
        Ok(rating
            .moves
            .iter()
            .take(limit)
            .map(|m| {
                format!(
                    "{} {:.3} {}",
                    blokus_ai::analysis::decision_text(&game, m.decision),
                    m.value,
                    m.visits
                )
            })
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// `rate_move MOVE`: the value of one placement (or pie choice) of the colour to
    /// move: the mover's expected result after it (exact if it ends the game), and the
    /// simulations of the search after it, as `VALUE SIMULATIONS`.
    fn rate_move(&mut self, text: &str) -> CmdResult {
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        let rules = self.game.rules().clone();
        let pos = self.game.position();
        let side = rules.v().side_of_player(pos.player_to_move(&rules)).index();
        let mut after = self.game.clone();
        match text.to_ascii_lowercase().as_str() {
            "keep" => after
                .choose_pie(PieChoice::Keep)
                .map_err(|e| e.to_string())?,
            "swap" => after
                .choose_pie(PieChoice::Swap)
                .map_err(|e| e.to_string())?,
            _ => {
                let mv = notation::parse_move(rules.table(), text)
                    .map_err(|e| format!("invalid move: {e}"))?;
                after.play(mv).map_err(|e| match e {
                    GameError::Illegal { message, .. } => format!("illegal move: {message}"),
                    other => other.to_string(),
                })?;
            }
        }
        if after.is_over() {
            let values = blokus_ai::Context::new(&rules).final_values(after.position());
            return Ok(format!("{:.3} 0", values[side]));
        }
        let rating = self.rating(&after)?;
        Ok(format!("{:.3} {}", rating.values[side], rating.simulations))
    }

    /// Asks the player for `colour`'s move; plays it when `play` (genmove).
    fn genmove(&mut self, colour: Colour, play: bool) -> CmdResult {
        let budget = self.config.budget;
        let resign_allowed = self.config.resign && self.game.rules().v().players == 2;
        let Some(player) = self.player.as_mut() else {
            return Err("no player set".into());
        };
        if self.game.position().awaiting_pie_choice() {
            let choice = match player.decide(&self.game, budget) {
                Decision::Pie(c) => c,
                _ => return Err("player did not make the pie choice".into()),
            };
            if play {
                self.game.choose_pie(choice).map_err(|e| e.to_string())?;
            }
            return Ok(match choice {
                PieChoice::Keep => "keep",
                PieChoice::Swap => "swap",
            }
            .into());
        }
        let rules = self.game.rules().clone();
        if !self.game.position().has_legal_move(&rules, colour) {
            return Ok("pass".into());
        }
        // Out of turn, the player sees the same placements with `colour` to move.
        let view = (self.game.to_move() != colour).then(|| {
            let mut setup: Vec<_> = self.game.setup().to_vec();
            setup.extend(self.game.moves());
            Game::with_setup(rules.clone(), setup, colour)
        });
        let seen = view.as_ref().unwrap_or(&self.game);
        let mv = match player.decide(seen, budget) {
            Decision::Place(mv) => mv,
            Decision::Resign if resign_allowed => return Ok("resign".into()),
            // Resigning is off or not possible here: play on with the one-move heuristic.
            Decision::Resign => match blokus_ai::GreedyPlayer::new(0).decide(seen, budget) {
                Decision::Place(mv) => mv,
                _ => self.game.legal_moves_of(colour)[0],
            },
            Decision::Pie(_) => return Err("player made a pie choice where a move is due".into()),
        };
        let text = notation::format_move(rules.table(), mv);
        if let Err(reason) = self.game.position().check_placement(&rules, colour, mv) {
            let why = blokus_core::position::IllegalDisplay(&reason, &rules).to_string();
            return Err(format!("player generated illegal move {text}: {why}"));
        }
        if play {
            self.game.play_for(colour, mv).map_err(|e| e.to_string())?;
        }
        Ok(text)
    }
}

/// Whether a `.blksgf` text records a Blokus 3D game (by its root's `GM`).
fn is_cube_record(text: &str) -> bool {
    blokus_core::record::sgf::parse(text)
        .ok()
        .and_then(|trees| {
            let root = trees.first()?.root()?;
            root.get("GM").and_then(CubeVariantId::parse)
        })
        .is_some()
}

impl Engine {
    /// `site`: without an argument the site of 3D games; with a built-in site's name or
    /// a site file's path, that site (and a new game if a 3D variant is set).
    fn site_command(&mut self, arg: &str) -> CmdResult {
        if arg.is_empty() {
            return Ok(self.site.name().to_string());
        }
        self.site = Site::builtin_or_file(arg)?;
        if let Some(c) = &self.cube {
            let variant = CubeVariantId::of_seating(c.game.rules().seating());
            self.set_cube_game(variant, self.site.clone());
        }
        Ok(String::new())
    }

    /// The commands that act on the game, when it is a 3D game; `None` for the others
    /// (and always for flat games).
    fn execute_cube(&mut self, command: &str, args: &[&str]) -> Option<CmdResult> {
        let cube = self.cube.as_mut()?;
        let nargs = |min: usize, max: usize| -> Result<(), String> {
            if args.len() < min {
                Err(format!("missing argument: {command} needs {min}"))
            } else if args.len() > max {
                Err("too many arguments".into())
            } else {
                Ok(())
            }
        };
        let budget = self.config.budget;
        let result = match command {
            "clear_board" => {
                *cube = CubeSession::new(cube.game.rules().clone());
                Ok(String::new())
            }
            "rate_moves" | "rate_move" => {
                Err("move ratings are for the flat games, not Blokus 3D".into())
            }
            "rules" if args.is_empty() => Ok("none".into()),
            "rules" => Err("Blokus 3D has no rule options".into()),
            "play" => nargs(2, usize::MAX)
                .and_then(|()| cube.colour(args[0]))
                .and_then(|c| cube.play(c, &args[1..].join(" "))),
            "p" => nargs(1, usize::MAX).and_then(|()| {
                let c = cube.game.to_move();
                cube.play(c, &args.join(" "))
            }),
            "undo" => nargs(0, 0).and_then(|()| cube.undo()),
            "all_legal" => nargs(1, 1)
                .and_then(|()| cube.colour(args[0]))
                .map(|c| cube.all_legal(c)),
            "showboard" => Ok(format!("\n{}", cube.board_text(self.config.ansi))),
            "final_score" => Ok(cube.final_score()),
            "get_place" => nargs(1, 1)
                .and_then(|()| cube.colour(args[0]))
                .and_then(|c| cube.place_of(c)),
            "savesgf" => nargs(1, 1).and_then(|()| cube.save(args[0])),
            "genmove" | "reg_genmove" | "g" => {
                let colour = if command == "g" {
                    nargs(0, 0).map(|()| cube.game.to_move())
                } else {
                    nargs(1, 1).and_then(|()| cube.colour(args[0]))
                };
                match (colour, self.cube_player.as_mut()) {
                    (Err(e), _) => Err(e),
                    (Ok(_), None) => Err("no player for Blokus 3D".into()),
                    (Ok(c), Some(p)) => {
                        cube.genmove(p.as_mut(), c, budget, command != "reg_genmove")
                    }
                }
            }
            _ => return None,
        };
        Some(result)
    }
}

/// `=id text` / `?id message`, ending with a blank line: the status, the id if any, a
/// space, then the text (so an empty success is `= ` and a blank line, as GTP clients
/// expect). The text never contains an empty line (that would end the response early),
/// and a message is one line.
fn format_response(id: &str, result: CmdResult) -> String {
    let (status, body) = match result {
        Ok(text) => ('=', text),
        Err(message) => ('?', message.replace(['\n', '\r'], " ")),
    };
    // A text that starts with a newline (a board) keeps it: `= ` alone on a line.
    let block = body.starts_with('\n');
    let lines: Vec<&str> = body
        .split('\n')
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    let mut out = format!("{status}{id} ");
    if block && !lines.is_empty() {
        out.push('\n');
    }
    out.push_str(&lines.join("\n"));
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(variant: &str) -> Engine {
        let player = blokus_ai::player_from_spec("random:seed=3").unwrap();
        Engine::new(
            Rules::by_name(variant).unwrap(),
            Some(player),
            EngineConfig::default(),
        )
    }

    fn ask(e: &mut Engine, line: &str) -> String {
        e.handle_line(line).expect("a response")
    }

    #[test]
    fn framing_ids_comments_and_errors() {
        let mut e = engine("duo");
        assert_eq!(ask(&mut e, "protocol_version"), "= 2\n\n");
        assert_eq!(ask(&mut e, "12 name"), "=12 blokus\n\n");
        assert_eq!(
            ask(&mut e, "7 frobnicate"),
            "?7 unknown command 'frobnicate'\n\n"
        );
        assert_eq!(e.handle_line("   # just a comment"), None);
        assert_eq!(e.handle_line(""), None);
        assert_eq!(ask(&mut e, "known_command\tplay # comment"), "= true\n\n");
        assert_eq!(ask(&mut e, "known_command foo"), "= false\n\n");
        assert_eq!(ask(&mut e, "3"), "?3 empty command\n\n");
    }

    #[test]
    fn plays_and_lists_duo_moves() {
        let mut e = engine("classic");
        assert_eq!(ask(&mut e, "set_game Blokus Duo"), "= \n\n");
        assert_eq!(ask(&mut e, "play b e8,d9,e9,f9,e10"), "= \n\n");
        let legal = ask(&mut e, "all_legal w");
        assert_eq!(legal.lines().count(), 414 + 1);
        assert!(legal.starts_with("= "));
        assert_eq!(
            ask(&mut e, "play w e8,d9,e9,f9,e10"),
            "? illegal move: cell e8 is already covered\n\n"
        );
        assert!(ask(&mut e, "play x a1").starts_with("? invalid color argument 'x'"));
        assert!(ask(&mut e, "play w zz1").starts_with("? invalid move:"));
        assert_eq!(ask(&mut e, "undo"), "= \n\n");
        assert_eq!(ask(&mut e, "undo"), "? cannot undo\n\n");
    }

    #[test]
    fn genmove_plays_and_final_score_reports() {
        let mut e = engine("duo");
        let mut guard = 0;
        loop {
            let c = if e.game().to_move() == Colour(0) {
                "b"
            } else {
                "w"
            };
            let r = ask(&mut e, &format!("genmove {c}"));
            assert!(r.starts_with("= "), "{r}");
            guard += 1;
            if e.game().is_over() || guard > 100 {
                break;
            }
        }
        assert!(e.game().is_over());
        let score = ask(&mut e, "final_score");
        assert!(
            score.starts_with("= B+") || score.starts_with("= W+") || score == "= 0\n\n",
            "{score}"
        );
        assert_eq!(ask(&mut e, "genmove b"), "= pass\n\n");
        let board = ask(&mut e, "showboard");
        assert!(board.starts_with("= \n   a b c"), "{board}");
        assert!(!board.trim_end().contains("\n\n"));
    }

    #[test]
    fn four_colour_games_use_numbers_and_list_points() {
        let mut e = engine("classic");
        assert_eq!(ask(&mut e, "play 1 a20"), "= \n\n");
        assert_eq!(ask(&mut e, "play yellow t20"), "= \n\n");
        assert!(ask(&mut e, "reg_genmove 3").starts_with("= "));
        assert_eq!(e.game().moves().count(), 2);
        assert_eq!(ask(&mut e, "final_score"), "= 1 1 0 0\n\n");
        assert!(ask(&mut e, "play b a1").starts_with("? invalid color"));
    }

    #[test]
    fn pie_choice_via_genmove_and_play() {
        let mut e = engine("polyomino_mini");
        ask(&mut e, "genmove b");
        ask(&mut e, "genmove w");
        assert!(e.game().position().awaiting_pie_choice());
        assert_eq!(ask(&mut e, "play w swap"), "= \n\n");
        assert_eq!(ask(&mut e, "play w swap"), "? no pie choice is pending\n\n");
        ask(&mut e, "undo");
        let r = ask(&mut e, "genmove w");
        assert!(r == "= keep\n\n" || r == "= swap\n\n", "{r}");
    }

    /// A player that always resigns.
    struct Resigner;

    impl Player for Resigner {
        fn name(&self) -> String {
            "resigner".into()
        }

        fn decide(&mut self, _game: &Game, _budget: Budget) -> Decision {
            Decision::Resign
        }
    }

    #[test]
    fn resign_only_when_allowed_and_with_two_players() {
        let mut e = Engine::new(
            Rules::by_name("duo").unwrap(),
            Some(Box::new(Resigner)),
            EngineConfig::default(),
        );
        assert_eq!(ask(&mut e, "genmove b"), "= resign\n\n");
        assert_eq!(e.game().moves().count(), 0);
        assert_eq!(ask(&mut e, "param_base resign 0"), "= \n\n");
        assert_eq!(ask(&mut e, "param_base"), "= resign 0\n\n");
        let r = ask(&mut e, "genmove b");
        assert!(r.starts_with("= ") && r.contains(','), "{r}");
        assert_eq!(e.game().moves().count(), 1);
        let mut four = Engine::new(
            Rules::by_name("classic_teams").unwrap(),
            Some(Box::new(Resigner)),
            EngineConfig::default(),
        );
        let r = ask(&mut four, "genmove 1");
        assert!(r.starts_with("= ") && r.contains("a20"), "{r}");
    }

    #[test]
    fn without_a_player_genmove_is_unknown() {
        let mut e = Engine::new(
            Rules::by_name("duo").unwrap(),
            None,
            EngineConfig::default(),
        );
        assert_eq!(ask(&mut e, "known_command genmove"), "= false\n\n");
        assert!(ask(&mut e, "genmove b").starts_with("? unknown command"));
        assert!(!ask(&mut e, "list_commands").contains("genmove"));
    }

    /// `set_random_seed` exists only with a spec to rebuild from, and makes the moves
    /// that follow those of a player started with that seed (ids and 3D games too).
    #[test]
    fn set_random_seed_replays_a_seeded_player() {
        assert_eq!(
            ask(&mut engine("duo"), "known_command set_random_seed"),
            "= false\n\n"
        );
        let moves =
            |e: &mut Engine, n: usize| -> Vec<String> { (0..n).map(|_| ask(e, "g")).collect() };
        let mut reseeded = engine("duo").with_seedable_spec("random:seed=3");
        assert!(ask(&mut reseeded, "list_commands").contains("set_random_seed"));
        assert_eq!(ask(&mut reseeded, "4 set_random_seed 11"), "=4 \n\n");
        let mut fresh = Engine::new(
            Rules::by_name("duo").unwrap(),
            Some(blokus_ai::player_from_spec("random:seed=11").unwrap()),
            EngineConfig::default(),
        );
        let reseeded_moves = moves(&mut reseeded, 6);
        assert_eq!(reseeded_moves, moves(&mut fresh, 6));
        // A different seed plays differently from the start.
        ask(&mut reseeded, "clear_board");
        ask(&mut reseeded, "set_random_seed 12");
        assert_ne!(moves(&mut reseeded, 6), reseeded_moves);
        assert!(ask(&mut reseeded, "set_random_seed -1").starts_with("? '-1' is not a seed"));
        assert!(ask(&mut reseeded, "set_random_seed").starts_with("? missing argument"));
    }

    /// Without the mirror opening, Trigon two-player's second move may be anything legal;
    /// the options survive `set_game`, and `rules` lists and changes them.
    #[test]
    fn rule_options_are_set_listed_and_kept_across_set_game() {
        let mut e = engine("trigon_2");
        assert_eq!(ask(&mut e, "rules"), "= none\n\n");
        // Colour 3 follows colour 1's opening with its mirror image.
        ask(&mut e, "genmove 1");
        let legal = ask(&mut e, "all_legal 3");
        assert_eq!(legal.lines().count(), 2, "only the mirror image: {legal}");
        assert_eq!(
            ask(&mut e, "rules no_mirror_opening , alternate_contact"),
            "= \n\n"
        );
        assert_eq!(e.game().moves().count(), 0, "a new game starts");
        assert_eq!(
            ask(&mut e, "rules"),
            "= alternate_contact,no_mirror_opening\n\n"
        );
        ask(&mut e, "set_game duo");
        ask(&mut e, "set_game t2");
        assert_eq!(
            ask(&mut e, "rules"),
            "= alternate_contact,no_mirror_opening\n\n"
        );
        ask(&mut e, "genmove 1");
        assert!(ask(&mut e, "all_legal 3").lines().count() > 2);
        assert_eq!(
            ask(&mut e, "rules fast"),
            "? unknown rule option 'fast' (known: alternate_contact, no_mirror_opening, \
             no_start_alternation)\n\n"
        );
        assert_eq!(ask(&mut e, "rules none"), "= \n\n");
        assert_eq!(ask(&mut e, "rules"), "= none\n\n");
    }

    fn mcts_engine(variant: &str) -> Engine {
        let player = blokus_ai::player_from_spec("mcts:simulations=200,seed=4").unwrap();
        Engine::new(
            Rules::by_name(variant).unwrap(),
            Some(player),
            EngineConfig::default(),
        )
    }

    /// The same search as the engine's, through the library: the expected bytes.
    fn expected_rating(game: &Game) -> blokus_ai::Rating {
        blokus_ai::player_from_spec("mcts:simulations=200,seed=4")
            .unwrap()
            .rate_moves(game, Budget::default())
            .unwrap()
    }

    #[test]
    fn rate_moves_lists_candidates_best_first_with_values_and_visits() {
        let mut e = mcts_engine("duo");
        ask(&mut e, "play b e8,d9,e9,f9,e10");
        let rating = expected_rating(e.game());
        let lines: Vec<String> = rating
            .moves
            .iter()
            .take(3)
            .map(|m| {
                let text = blokus_ai::analysis::decision_text(e.game(), m.decision);
                format!("{text} {:.3} {}", m.value, m.visits)
            })
            .collect();
        assert_eq!(
            ask(&mut e, "5 rate_moves 3"),
            format!("=5 {}\n\n", lines.join("\n"))
        );
        let all = ask(&mut e, "rate_moves");
        assert_eq!(
            all.lines().filter(|l| !l.is_empty()).count(),
            rating.moves.len()
        );
        let visits: u64 = all
            .lines()
            .filter_map(|l| l.split(' ').next_back()?.parse::<u64>().ok())
            .sum();
        assert_eq!(visits, 200, "{all}");
        assert_eq!(
            ask(&mut e, "rate_moves 0"),
            "? invalid count '0' (expected 1 or more)\n\n"
        );
        assert_eq!(ask(&mut e, "rate_moves 1 2"), "? too many arguments\n\n");
        assert_eq!(e.game().moves().count(), 1, "rating plays nothing");
    }

    #[test]
    fn rate_move_values_one_move_after_it_is_played() {
        let mut e = mcts_engine("duo");
        let mut after = e.game().clone();
        after.play_text("e8,d9,e9,f9,e10").unwrap();
        let rating = expected_rating(&after);
        assert_eq!(
            ask(&mut e, "rate_move e8,d9,e9,f9,e10"),
            format!("= {:.3} 200\n\n", rating.values[0])
        );
        assert_eq!(
            ask(&mut e, "rate_move a1"),
            "? illegal move: the first piece must cover a starting point\n\n"
        );
        assert!(ask(&mut e, "rate_move zz9").starts_with("? invalid move:"));
        assert_eq!(
            ask(&mut e, "rate_move"),
            "? missing argument: rate_move needs 1\n\n"
        );
        assert_eq!(e.game().moves().count(), 0, "rating plays nothing");
    }

    #[test]
    fn rating_needs_a_tree_search_player_and_a_running_game() {
        let mut e = engine("duo");
        assert_eq!(
            ask(&mut e, "rate_moves"),
            "? player 'random' does not value moves (use an mcts player)\n\n"
        );
        let mut e = mcts_engine("duo");
        while !e.game().is_over() {
            let c = if e.game().to_move() == Colour(0) {
                "b"
            } else {
                "w"
            };
            let best = ask(&mut e, "rate_moves 1");
            let mv = best[2..].split(' ').next().unwrap();
            assert_eq!(ask(&mut e, &format!("play {c} {mv}")), "= \n\n");
        }
        assert_eq!(ask(&mut e, "rate_moves"), "? the game is over\n\n");
        assert_eq!(ask(&mut e, "rate_move keep"), "? the game is over\n\n");
    }

    #[test]
    fn run_stops_at_quit() {
        let mut e = engine("duo");
        let input = b"name\nquit\nname\n" as &[u8];
        let mut out = Vec::new();
        e.run(input, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "= blokus\n\n= \n\n");
    }
}
