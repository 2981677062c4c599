//! Player specs: `random`, `greedy`, `mcts:level=5,threads=2,seed=7`.

use crate::mcts::{MctsOptions, MctsPlayer, MAX_LEVEL};
use crate::{GreedyPlayer, Player, RandomPlayer, SpecError};

/// The player kinds a spec may name.
pub const PLAYER_KINDS: [&str; 3] = ["random", "greedy", "mcts"];

fn parse<T: std::str::FromStr>(key: &str, value: &str, what: &str) -> Result<T, SpecError> {
    value.parse().map_err(|_| {
        SpecError(format!(
            "bad value '{value}' for option '{key}': expected {what}"
        ))
    })
}

/// Builds a player from a spec such as `random`, `greedy`, `mcts:level=5` or
/// `mcts:seconds=0.5,threads=2,seed=7`. Options of `mcts`: `level` (1..9), `seconds`,
/// `simulations`, `threads`, `seed`, `resign` (true/false); of `random` and `greedy`:
/// `seed`.
///
/// # Errors
/// [`SpecError`] naming the unknown player, the unknown option or the bad value.
pub fn player_from_spec(spec: &str) -> Result<Box<dyn Player>, SpecError> {
    let (kind, seed, mcts) = parse_spec(spec)?;
    match kind {
        "random" => Ok(Box::new(RandomPlayer::new(seed))),
        "greedy" => Ok(Box::new(GreedyPlayer::new(seed))),
        _ => Ok(Box::new(MctsPlayer::new(mcts))),
    }
}

/// Reads a spec into its player kind (one of [`PLAYER_KINDS`]), seed and search
/// options: the one parser of specs for every board family.
pub(crate) fn parse_spec(spec: &str) -> Result<(&str, u64, MctsOptions), SpecError> {
    let spec = spec.trim();
    let (kind, opts) = spec.split_once(':').unwrap_or((spec, ""));
    let mut seed = 0u64;
    let mut mcts = MctsOptions::default();
    for kv in opts.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((key, value)) = kv.split_once('=') else {
            return Err(SpecError(format!(
                "option '{kv}' of player '{kind}' needs a value (key=value)"
            )));
        };
        let (key, value) = (key.trim(), value.trim());
        match (kind, key) {
            (_, "seed") => {
                seed = parse(key, value, "a whole number")?;
                mcts.seed = seed;
            }
            ("mcts", "level") => {
                let level: u8 = parse(key, value, "a level 1..9")?;
                if !(1..=MAX_LEVEL).contains(&level) {
                    return Err(SpecError(format!(
                        "level {level} is out of range (1..{MAX_LEVEL})"
                    )));
                }
                mcts.level = level;
            }
            ("mcts", "seconds") => {
                let s: f64 = parse(key, value, "a number of seconds")?;
                if !(s.is_finite() && s > 0.0) {
                    return Err(SpecError(format!(
                        "seconds must be positive, not '{value}'"
                    )));
                }
                mcts.seconds = Some(s);
            }
            ("mcts", "simulations") => {
                let n: u64 = parse(key, value, "a whole number")?;
                if n == 0 {
                    return Err(SpecError("simulations must be at least 1".into()));
                }
                mcts.simulations = Some(n);
            }
            ("mcts", "threads") => {
                let n: usize = parse(key, value, "a whole number")?;
                if !(1..=256).contains(&n) {
                    return Err(SpecError(format!("threads must be 1..256, not {n}")));
                }
                mcts.threads = n;
            }
            ("mcts", "resign") => mcts.resign = parse(key, value, "true or false")?,
            _ if PLAYER_KINDS.contains(&kind) => {
                let known = if kind == "mcts" {
                    "level, seconds, simulations, threads, seed, resign"
                } else {
                    "seed"
                };
                return Err(SpecError(format!(
                    "unknown option '{key}' for player '{kind}' (known: {known})"
                )));
            }
            _ => break,
        }
    }
    if PLAYER_KINDS.contains(&kind) {
        Ok((kind, seed, mcts))
    } else {
        Err(SpecError(format!(
            "unknown player '{kind}' (known: {})",
            PLAYER_KINDS.join(", ")
        )))
    }
}
