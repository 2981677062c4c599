//! Blokus players behind one [`Player`] trait.
#![deny(missing_docs)]

mod player;
mod random;

pub use player::{Budget, Decision, Player, SpecError};
pub use random::RandomPlayer;

/// Builds a player from a spec such as `random`, `greedy`, `mcts:level=5` or
/// `mcts:seconds=0.5,threads=2,seed=7`.
///
/// # Errors
/// [`SpecError`] naming the unknown player or option.
pub fn player_from_spec(spec: &str) -> Result<Box<dyn Player>, SpecError> {
    let (kind, opts) = spec.split_once(':').unwrap_or((spec, ""));
    let mut seed = None;
    for kv in opts.split(',').filter(|s| !s.is_empty()) {
        match kv.split_once('=') {
            Some(("seed", v)) => {
                seed = Some(
                    v.parse()
                        .map_err(|_| SpecError(format!("bad seed '{v}'")))?,
                )
            }
            _ => {
                return Err(SpecError(format!(
                    "unknown option '{kv}' for player '{kind}'"
                )))
            }
        }
    }
    match kind {
        "random" => Ok(Box::new(RandomPlayer::new(seed.unwrap_or(0)))),
        _ => Err(SpecError(format!(
            "unknown player '{kind}' (known: random)"
        ))),
    }
}
