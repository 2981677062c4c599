//! Matches of Blokus 3D between built-in players (no GTP engine speaks 3D): the same
//! seat rotation, seeds, summary and records as the flat families' [`crate::run_match`].

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use blokus_ai::cube::{cube_player_from_spec, CubePlayer};
use blokus_ai::{with_default_seed, Budget};
use blokus_core::cube::{record, CubeGame, CubeRules};
use blokus_core::record::sgf::{self, Property};
use blokus_core::seed::mix;

use crate::{seating, ArenaError, EngineSpec};

/// Settings of a 3D match.
pub struct CubeMatchConfig {
    /// The rules of every game (seating and site).
    pub rules: CubeRules,
    /// The engines' built-in player specs: at least two, at most one per player.
    pub engines: Vec<String>,
    /// Number of games.
    pub games: usize,
    /// Games played at the same time.
    pub parallel: usize,
    /// Seed of the players (each game and engine gets its own, derived from it, unless
    /// the spec sets `seed`).
    pub seed: u64,
}

/// One finished 3D game.
pub struct CubeMatchGame {
    /// 0-based game number.
    pub index: usize,
    /// The engine playing each player's seat.
    pub engine_of_seat: Vec<usize>,
    /// The game as played.
    pub game: CubeGame,
    /// Each engine's share of the win (adding up to 1).
    pub points: Vec<f64>,
    /// Each engine's mean player score (0 for an engine without a seat).
    pub scores: Vec<f64>,
}

fn player(spec: &str, seed: u64) -> Result<Box<dyn CubePlayer>, ArenaError> {
    if let EngineSpec::Command(c) = EngineSpec::parse(spec) {
        return Err(ArenaError::Config(format!(
            "'{c}': Blokus 3D matches take built-in players only (random, greedy, mcts:...)"
        )));
    }
    cube_player_from_spec(&with_default_seed(spec, seed))
        .map_err(|e| ArenaError::Spec(e.to_string()))
}

/// Plays game `index` with rotating seats.
fn play_game(config: &CubeMatchConfig, index: usize) -> Result<CubeMatchGame, ArenaError> {
    let rules = &config.rules;
    let engines = config.engines.len();
    let mut players = config
        .engines
        .iter()
        .enumerate()
        .map(|(e, spec)| {
            player(
                spec,
                mix(config.seed ^ ((e as u64 + 1) << 40), index as u64),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let seats = seating(rules.seating().players(), engines, index);
    let mut game = CubeGame::new(rules.clone());
    while !game.is_over() {
        let e = seats[rules.seating().player_of(game.to_move()).index()];
        let m = players[e].choose(&game, Budget::default());
        game.play(m).map_err(|err| {
            ArenaError::Config(format!("{} played badly: {err}", config.engines[e]))
        })?;
    }
    let results = game.results();
    let winners = results.iter().filter(|r| r.place == 1).count() as f64;
    let (mut points, mut scores, mut count) = (
        vec![0.0; engines],
        vec![0.0; engines],
        vec![0usize; engines],
    );
    for r in &results {
        let e = seats[r.player.index()];
        if r.place == 1 {
            points[e] += 1.0 / winners;
        }
        scores[e] += f64::from(r.score);
        count[e] += 1;
    }
    for (s, n) in scores.iter_mut().zip(&count) {
        *s /= (*n).max(1) as f64;
    }
    Ok(CubeMatchGame {
        index,
        engine_of_seat: seats,
        game,
        points,
        scores,
    })
}

/// Plays a 3D match; `on_game` sees each game as it ends. Returns the games in order.
///
/// # Errors
/// A bad spec, a command line instead of a built-in player, a wrong number of engines,
/// or zero games.
pub fn run_cube_match(
    config: &CubeMatchConfig,
    on_game: &(dyn Fn(&CubeMatchGame) + Sync),
) -> Result<Vec<CubeMatchGame>, ArenaError> {
    if config.games == 0 {
        return Err(ArenaError::Config(
            "the number of games must be at least 1".into(),
        ));
    }
    let players = config.rules.seating().players();
    if !(2..=players).contains(&config.engines.len()) {
        return Err(ArenaError::Config(format!(
            "{} engines for {players} players: give 2 to {players}",
            config.engines.len()
        )));
    }
    for spec in &config.engines {
        player(spec, 0)?;
    }
    let next = AtomicUsize::new(0);
    let out = Mutex::new(Vec::new());
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..config.parallel.clamp(1, config.games) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= config.games {
                    break;
                }
                match play_game(config, i) {
                    Ok(g) => {
                        on_game(&g);
                        out.lock().unwrap_or_else(|e| e.into_inner()).push(g);
                    }
                    Err(e) => {
                        failure
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(e);
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut games = out.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.index);
    Ok(games)
}

/// Every game of a 3D match as one `.blksgf` collection, the engines named per player.
pub fn cube_match_to_blksgf(engine_names: &[&str], games: &[CubeMatchGame]) -> String {
    let trees: Vec<_> = games
        .iter()
        .map(|g| {
            let players: Vec<String> = g
                .engine_of_seat
                .iter()
                .enumerate()
                .map(|(p, &e)| format!("player {}: {}", p + 1, engine_names[e]))
                .collect();
            let extra = vec![
                Property::new("GN", format!("game {}", g.index + 1)),
                Property::new("C", players.join("\n")),
            ];
            record::to_tree(&g.game, extra)
        })
        .collect();
    sgf::write(&trees)
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::cube::{CubeVariantId, DEFAULT_SITE};

    fn config(variant: CubeVariantId, engines: &[&str], games: usize) -> CubeMatchConfig {
        CubeMatchConfig {
            rules: variant.rules_on(DEFAULT_SITE).unwrap(),
            engines: engines.iter().map(|s| s.to_string()).collect(),
            games,
            parallel: 2,
            seed: 1,
        }
    }

    #[test]
    fn matches_rotate_seats_add_up_and_write_records() {
        let c = config(
            CubeVariantId::Rumis3,
            &["greedy", "random", "mcts:simulations=20"],
            3,
        );
        let games = run_cube_match(&c, &|_| {}).unwrap();
        assert_eq!(games.len(), 3);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.index, i);
            assert!(g.game.is_over());
            assert!((g.points.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert_eq!(g.engine_of_seat[0], i % 3);
        }
        let text = cube_match_to_blksgf(&["g", "r", "m"], &games);
        let back = record::from_blksgf(&text).unwrap();
        assert_eq!(back.moves(), games[0].game.moves());
        let s = crate::summarize_points(
            3,
            games.iter().map(|g| (g.points.clone(), g.scores.clone())),
        );
        assert_eq!(s.games, 3);
    }

    #[test]
    fn command_lines_bad_specs_and_counts_are_refused() {
        let err = |c: &CubeMatchConfig| {
            run_cube_match(c, &|_| {})
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        assert!(
            err(&config(CubeVariantId::Rumis2, &["greedy", "blokus gtp"], 1))
                .contains("built-in players only")
        );
        assert!(err(&config(
            CubeVariantId::Rumis2,
            &["greedy", "mcts:level=99"],
            1
        ))
        .contains("level 99"));
        assert!(err(&config(
            CubeVariantId::Rumis2,
            &["greedy", "random", "greedy"],
            1
        ))
        .contains("give 2 to 2"));
        assert!(
            err(&config(CubeVariantId::Rumis2, &["greedy", "random"], 0)).contains("at least 1")
        );
    }
}
