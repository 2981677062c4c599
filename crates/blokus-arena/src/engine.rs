//! Who sits at a seat: a built-in player or an external GTP engine, and how the arena
//! talks to either.

use blokus_ai::{player_from_spec, with_default_seed, Budget, Decision, Player, PLAYER_KINDS};
use blokus_core::record::blksgf;
use blokus_core::{notation, Game, GameEvent, PieChoice, Rules};
use blokus_gtp::client::GtpClient;

use crate::ArenaError;

/// How to get a player: a built-in spec or a command line starting a GTP engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EngineSpec {
    /// A built-in player spec (`greedy`, `mcts:level=5`).
    Builtin(String),
    /// A command line starting an external GTP engine.
    Command(String),
}

impl EngineSpec {
    /// A built-in spec when the text names a built-in player kind (`random`, `greedy`,
    /// `mcts`, with `:options`), otherwise an engine command line. `gtp:` forces a
    /// command line.
    pub fn parse(text: &str) -> EngineSpec {
        let text = text.trim();
        if let Some(cmd) = text.strip_prefix("gtp:") {
            return EngineSpec::Command(cmd.trim().to_string());
        }
        let kind = text.split(':').next().unwrap_or("");
        if !text.contains(char::is_whitespace) && PLAYER_KINDS.contains(&kind) {
            EngineSpec::Builtin(text.to_string())
        } else {
            EngineSpec::Command(text.to_string())
        }
    }

    /// The spec or command line as given, as a label for tables and records.
    pub fn label(&self) -> &str {
        match self {
            EngineSpec::Builtin(s) | EngineSpec::Command(s) => s,
        }
    }

    /// Checks a built-in spec without starting anything (command lines are only checked
    /// when started).
    ///
    /// # Errors
    /// [`ArenaError::Spec`] naming what is wrong.
    pub fn validate(&self) -> Result<(), ArenaError> {
        if let EngineSpec::Builtin(s) = self {
            player_from_spec(s).map_err(|e| ArenaError::Spec(e.to_string()))?;
        }
        Ok(())
    }
}

impl std::fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// A started player: built-in, or an engine process with what it has been told.
pub(crate) enum Contestant {
    Builtin(Box<dyn Player>),
    Gtp {
        client: GtpClient,
        /// Events of the current game the engine already knows.
        synced: usize,
        /// Whether the engine knows `set_random_seed` (ours and Pentobi's do).
        seedable: bool,
    },
}

impl Contestant {
    /// Starts a player seeded with `seed`: a built-in one unless its spec sets a seed,
    /// an engine with `set_random_seed` when it knows that command (see [`Self::reseed`]).
    pub(crate) fn start(spec: &EngineSpec, seed: u64) -> Result<Contestant, ArenaError> {
        match spec {
            EngineSpec::Builtin(s) => {
                let p = player_from_spec(&with_default_seed(s, seed))
                    .map_err(|e| ArenaError::Spec(e.to_string()))?;
                Ok(Contestant::Builtin(p))
            }
            EngineSpec::Command(c) => {
                let mut client = GtpClient::spawn(c)?;
                let seedable = client.send("known_command set_random_seed")?.trim() == "true";
                let mut engine = Contestant::Gtp {
                    client,
                    synced: 0,
                    seedable,
                };
                engine.reseed(spec, seed)?;
                Ok(engine)
            }
        }
    }

    /// Gives the player a new seed for the next game: a built-in player is started
    /// afresh from `spec` (keeping a seed the spec sets), an engine that knows
    /// `set_random_seed` is sent it; other engines play on unseeded.
    pub(crate) fn reseed(&mut self, spec: &EngineSpec, seed: u64) -> Result<(), ArenaError> {
        match self {
            Contestant::Builtin(_) => *self = Contestant::start(spec, seed)?,
            Contestant::Gtp {
                client,
                seedable: true,
                ..
            } => {
                client.send(&format!("set_random_seed {seed}"))?;
            }
            Contestant::Gtp { .. } => {}
        }
        Ok(())
    }

    /// Prepares for a new game of `rules`.
    pub(crate) fn new_game(&mut self, rules: &Rules) -> Result<(), ArenaError> {
        match self {
            Contestant::Builtin(p) => p.reset(),
            Contestant::Gtp { client, synced, .. } => {
                client.send(&format!("set_game {}", rules.v().game_name))?;
                client.send("clear_board")?;
                *synced = 0;
            }
        }
        Ok(())
    }

    /// Asks for a decision for the colour to move; the game is not changed.
    pub(crate) fn decide(&mut self, game: &Game) -> Result<Decision, ArenaError> {
        match self {
            Contestant::Builtin(p) => Ok(p.decide(game, Budget::default())),
            Contestant::Gtp { client, synced, .. } => {
                let rules = game.rules();
                // Tell the engine what happened since it last heard.
                for (i, e) in game.events().iter().enumerate().skip(*synced) {
                    let before = game.position_at(i).expect("event position");
                    let cmd = match *e {
                        GameEvent::Place { colour, mv } => format!(
                            "play {} {}",
                            blksgf::move_prop(rules, colour),
                            notation::format_move(rules.table(), mv)
                        ),
                        GameEvent::Pie(choice) => format!(
                            "play {} {}",
                            blksgf::move_prop(rules, before.to_move()),
                            pie_text(choice)
                        ),
                        // Arena games have no clocks, and GTP no way to say it.
                        GameEvent::TimeOut { player } => {
                            return Err(ArenaError::Config(format!(
                                "{player} ran out of time: GTP engines cannot be told"
                            )))
                        }
                    };
                    client.send(&cmd)?;
                }
                *synced = game.events().len();
                let colour = blksgf::move_prop(rules, game.to_move());
                let answer = client.send(&format!("genmove {colour}"))?;
                // The engine has played its answer on its own board.
                *synced += 1;
                let text = answer.trim().to_ascii_lowercase();
                Ok(match text.as_str() {
                    "resign" => Decision::Resign,
                    "keep" => Decision::Pie(PieChoice::Keep),
                    "swap" => Decision::Pie(PieChoice::Swap),
                    _ => Decision::Place(notation::parse_move(rules.table(), &text).map_err(
                        |e| ArenaError::BadAnswer {
                            engine: client.command_line().to_string(),
                            answer: text.clone(),
                            reason: e.to_string(),
                        },
                    )?),
                })
            }
        }
    }

    /// Stops an engine process (built-in players need nothing).
    pub(crate) fn finish(self) {
        if let Contestant::Gtp { client, .. } = self {
            client.quit();
        }
    }
}

fn pie_text(c: PieChoice) -> &'static str {
    match c {
        PieChoice::Keep => "keep",
        PieChoice::Swap => "swap",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_told_apart() {
        assert_eq!(
            EngineSpec::parse("greedy"),
            EngineSpec::Builtin("greedy".into())
        );
        assert_eq!(
            EngineSpec::parse("mcts:level=2"),
            EngineSpec::Builtin("mcts:level=2".into())
        );
        assert_eq!(
            EngineSpec::parse("blokus gtp --level 3"),
            EngineSpec::Command("blokus gtp --level 3".into())
        );
        assert_eq!(
            EngineSpec::parse("gtp:engine"),
            EngineSpec::Command("engine".into())
        );
        assert!(EngineSpec::parse("mcts:levle=3").validate().is_err());
    }
}
