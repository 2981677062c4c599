//! Player specs: `random`, `greedy`, `mcts:level=5,threads=2,seed=7`.

use crate::mcts::{MctsOptions, MctsPlayer, PolicyChoice, Schedule, MAX_LEVEL};
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
/// `simulations`, `threads`, `seed`, `resign` (true/false), `policy` (`shipped`, `off` or a
/// weight file), `schedule` (`flat` or `growing`, see [`Schedule`]); of `random` and
/// `greedy`: `seed`.
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

/// `spec` with its `seed` option set to `seed`, replacing the one it names if any
/// (`greedy` → `greedy:seed=7`, `mcts:seed=1,level=3` → `mcts:level=3,seed=7`).
pub fn with_seed(spec: &str, seed: u64) -> String {
    let spec = spec.trim();
    let (kind, opts) = spec.split_once(':').unwrap_or((spec, ""));
    let mut kept: Vec<&str> = opts
        .split(',')
        .map(str::trim)
        .filter(|o| !o.is_empty() && o.split('=').next().map(str::trim) != Some("seed"))
        .collect();
    let seed = format!("seed={seed}");
    kept.push(&seed);
    format!("{kind}:{}", kept.join(","))
}

/// `spec` with `seed` added unless it names a seed of its own.
pub fn with_default_seed(spec: &str, seed: u64) -> String {
    if names_seed(spec) {
        spec.trim().to_string()
    } else {
        with_seed(spec, seed)
    }
}

/// Whether `spec` sets its `seed` option.
fn names_seed(spec: &str) -> bool {
    spec.split_once(':').is_some_and(|(_, opts)| {
        opts.split(',')
            .any(|o| o.split('=').next().map(str::trim) == Some("seed"))
    })
}

/// The `policy` option: `shipped`, `off`, or the path of a weight file.
fn policy_choice(value: &str) -> Result<PolicyChoice, SpecError> {
    match value {
        "shipped" => Ok(PolicyChoice::Shipped),
        "off" => Ok(PolicyChoice::Off),
        path => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| SpecError(format!("policy file '{path}': {e}")))?;
            let w = crate::policy::Weights::parse(&text)
                .map_err(|e| SpecError(format!("policy file '{path}': {e}")))?;
            Ok(PolicyChoice::Weights(std::sync::Arc::new(w)))
        }
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
            ("mcts", "book") => mcts.book = parse(key, value, "true or false")?,
            ("mcts", "policy") => mcts.policy = policy_choice(value)?,
            ("mcts", "schedule") => {
                mcts.schedule = Some(match value {
                    "flat" => Schedule::Flat,
                    "growing" => Schedule::Growing,
                    _ => {
                        return Err(SpecError(format!(
                            "schedule must be flat or growing, not '{value}'"
                        )))
                    }
                })
            }
            _ if PLAYER_KINDS.contains(&kind) => {
                let known = if kind == "mcts" {
                    "level, seconds, simulations, threads, seed, resign, book, policy, schedule"
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_set_or_kept() {
        assert_eq!(with_seed("greedy", 7), "greedy:seed=7");
        assert_eq!(with_seed("mcts:seed=1,level=3", 7), "mcts:level=3,seed=7");
        assert_eq!(with_default_seed("random", 2), "random:seed=2");
        assert_eq!(with_default_seed("mcts:level=2", 2), "mcts:level=2,seed=2");
        assert_eq!(with_default_seed("mcts:seed=5", 2), "mcts:seed=5");
        // `seed` is an option name, not any text containing it.
        assert_eq!(
            with_default_seed("mcts:simulations=9", 2),
            "mcts:simulations=9,seed=2"
        );
        for spec in ["greedy:seed=7", "mcts:level=3,seed=7"] {
            assert!(player_from_spec(spec).is_ok(), "{spec}");
        }
    }

    #[test]
    fn the_policy_option_reads_a_weight_file_and_names_what_is_wrong() {
        let (_, _, o) = parse_spec("mcts:policy=off").unwrap();
        assert_eq!(o.policy, PolicyChoice::Off);
        let (_, _, o) = parse_spec("mcts:level=2").unwrap();
        assert_eq!(o.policy, PolicyChoice::Shipped);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.txt");
        let w = crate::policy::PolicyFamily::Duo.weights();
        std::fs::write(&path, w.to_text()).unwrap();
        let (_, _, o) = parse_spec(&format!("mcts:policy={}", path.display())).unwrap();
        assert_eq!(o.policy, PolicyChoice::Weights(std::sync::Arc::new(w)));
        std::fs::write(&path, "size_1 x\n").unwrap();
        let e = parse_spec(&format!("mcts:policy={}", path.display())).unwrap_err();
        assert!(
            e.0.contains("w.txt") && e.0.contains("'x' is not a number"),
            "{e:?}"
        );
        let e = parse_spec("mcts:policy=/no/such/file").unwrap_err();
        assert!(e.0.contains("policy file '/no/such/file'"), "{e:?}");
    }

    #[test]
    fn the_schedule_option_is_flat_or_growing() {
        // Unsaid: growing for a level, flat for a simulation count.
        let (_, _, o) = parse_spec("mcts:level=7").unwrap();
        assert_eq!((o.schedule, o.schedule()), (None, Schedule::Growing));
        let (_, _, o) = parse_spec("mcts:simulations=900").unwrap();
        assert_eq!((o.schedule, o.schedule()), (None, Schedule::Flat));
        let (_, _, o) = parse_spec("mcts:simulations=900,schedule=growing").unwrap();
        assert_eq!(o.schedule(), Schedule::Growing);
        let (_, _, o) = parse_spec("mcts:schedule=flat").unwrap();
        assert_eq!(o.schedule(), Schedule::Flat);
        let e = parse_spec("mcts:schedule=late").unwrap_err();
        assert!(e.0.contains("flat or growing, not 'late'"), "{e:?}");
    }
}
