//! Matches: many games between the same engines at one kind of table, seats rotating,
//! several games at a time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use blokus_core::seed::mix;
use blokus_core::Rules;

use crate::engine::{Contestant, EngineSpec};
use crate::table::{play_seated, TableResult};
use crate::ArenaError;

/// Settings of a match.
pub struct MatchConfig {
    /// The rules of every game.
    pub rules: Rules,
    /// The engines: at least two and at most one per player of the variant. With fewer
    /// engines than players an engine plays several seats (see [`seating`]).
    pub engines: Vec<EngineSpec>,
    /// Number of games.
    pub games: usize,
    /// Games played at the same time (each with its own engine processes).
    pub parallel: usize,
    /// Seed of the players (each game and engine gets its own, derived from it: a
    /// built-in player unless its spec sets `seed`, an engine if it knows
    /// `set_random_seed`).
    pub seed: u64,
}

/// One game of a match.
#[derive(Clone)]
pub struct MatchGame {
    /// 0-based game number.
    pub index: usize,
    /// The engine playing each seat.
    pub engine_of_seat: Vec<usize>,
    /// The game and every seat's result.
    pub result: TableResult,
}

impl MatchGame {
    /// Each engine's share of the win (adding up to 1): the win shares of the sides it
    /// played, each side counted once.
    pub fn engine_points(&self, engines: usize) -> Vec<f64> {
        let points: Vec<f64> = self
            .per_engine_side(engines, |s| s.points)
            .into_iter()
            .map(|(sum, _)| sum)
            .collect();
        let total: f64 = points.iter().sum();
        if total > 0.0 {
            points.into_iter().map(|x| x / total).collect()
        } else {
            points
        }
    }

    /// Each engine's mean side score (the variant's scoring), 0 for an engine without
    /// a side.
    pub fn engine_scores(&self, engines: usize) -> Vec<f64> {
        self.per_engine_side(engines, |s| f64::from(s.score))
            .into_iter()
            .map(|(sum, n)| sum / n.max(1) as f64)
            .collect()
    }

    /// The engine that resigned or forfeited, if any.
    pub fn loser(&self) -> Option<usize> {
        self.result
            .lost_by
            .as_ref()
            .map(|l| self.engine_of_seat[l.seat.index()])
    }

    /// Sums `value` over the distinct sides each engine played, with the count.
    fn per_engine_side(
        &self,
        engines: usize,
        value: impl Fn(&crate::SeatResult) -> f64,
    ) -> Vec<(f64, usize)> {
        let mut out = vec![(0.0, 0usize); engines];
        let mut seen = Vec::new();
        for (seat, r) in self.result.seats.iter().enumerate() {
            let e = self.engine_of_seat[seat];
            // Teammates share one side result: count it once per engine.
            if !seen.contains(&(e, r.side)) {
                seen.push((e, r.side));
                out[e].0 += value(r);
                out[e].1 += 1;
            }
        }
        out
    }
}

/// The engine of each seat in game `index`: seat *p* is played by engine
/// `(p + index) mod engines`, so seats rotate from game to game (and with two engines
/// in a four-colour two-player game each keeps its two colours together).
pub fn seating(players: usize, engines: usize, index: usize) -> Vec<usize> {
    (0..players).map(|p| (p + index) % engines).collect()
}

/// Plays a match. `on_game` is called as each game ends (from worker threads, in the
/// order games end). Returns the games in game order.
///
/// # Errors
/// Bad settings, a bad spec, or the first engine failure; games still running are
/// abandoned.
pub fn run_match(
    config: &MatchConfig,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> Result<Vec<MatchGame>, ArenaError> {
    let players = config.rules.v().players;
    if config.games == 0 {
        return Err(ArenaError::Config(
            "the number of games must be at least 1".into(),
        ));
    }
    if config.engines.len() < 2 || config.engines.len() > players {
        return Err(ArenaError::Config(format!(
            "{} engines given: {} needs 2 to {players}",
            config.engines.len(),
            config.rules.v().id
        )));
    }
    // Catch bad built-in specs before starting anything.
    for spec in &config.engines {
        spec.validate()?;
    }
    let workers = config.parallel.clamp(1, config.games);
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<ArenaError>> = Mutex::new(None);
    let (tx, rx) = mpsc::channel::<MatchGame>();
    let out = std::thread::scope(|scope| {
        for w in 0..workers {
            let tx = tx.clone();
            let (next, failure) = (&next, &failure);
            scope.spawn(move || {
                if let Err(e) = play_games(config, w, next, failure, &tx) {
                    let mut f = failure.lock().unwrap_or_else(|e| e.into_inner());
                    f.get_or_insert(e);
                }
            });
        }
        drop(tx);
        let mut out = Vec::new();
        for rec in rx {
            on_game(&rec);
            out.push(rec);
        }
        out.sort_by_key(|r| r.index);
        out
    });
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// One worker: takes the next game number until none are left or another failed.
fn play_games(
    config: &MatchConfig,
    worker: usize,
    next: &AtomicUsize,
    failure: &Mutex<Option<ArenaError>>,
    tx: &mpsc::Sender<MatchGame>,
) -> Result<(), ArenaError> {
    // Engine `e` in game (or worker) `i` gets its own stream of the match seed.
    let seed = |e: usize, i: usize| mix(config.seed ^ ((e as u64 + 1) << 40), i as u64);
    let mut engines = config
        .engines
        .iter()
        .enumerate()
        .map(|(e, spec)| Contestant::start(spec, seed(e, worker)))
        .collect::<Result<Vec<_>, _>>()?;
    let players = config.rules.v().players;
    loop {
        if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
            break;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= config.games {
            break;
        }
        // A fresh seed per game, so games differ and game i is the same in every run
        // whichever worker plays it.
        for (e, spec) in config.engines.iter().enumerate() {
            engines[e].reseed(spec, seed(e, i))?;
        }
        let engine_of_seat = seating(players, engines.len(), i);
        let result = play_seated(&config.rules, &mut engines, &engine_of_seat)?;
        let _ = tx.send(MatchGame {
            index: i,
            engine_of_seat,
            result,
        });
    }
    for e in engines {
        e.finish();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(variant: &str, engines: &[&str], games: usize) -> MatchConfig {
        MatchConfig {
            rules: Rules::by_name(variant).unwrap(),
            engines: engines.iter().map(|s| EngineSpec::parse(s)).collect(),
            games,
            parallel: 2,
            seed: 1,
        }
    }

    #[test]
    fn builtin_match_plays_every_game_with_rotating_seats() {
        let config = config("duo", &["greedy", "random"], 4);
        let count = AtomicUsize::new(0);
        let games = run_match(&config, &|_| {
            count.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
        assert_eq!(games.len(), 4);
        assert_eq!(count.load(Ordering::SeqCst), 4);
        assert_eq!(games[0].engine_of_seat, vec![0, 1]);
        assert_eq!(games[1].engine_of_seat, vec![1, 0]);
        for g in &games {
            assert!(g.result.game.is_over());
            let p = g.engine_points(2);
            assert!((p[0] + p[1] - 1.0).abs() < 1e-9);
        }
        let s = crate::summarize(2, &games);
        let e = &s.engines;
        assert_eq!(e[0].wins + e[1].wins + e[0].draws, 4);
        assert_eq!(e[0].wins, e[1].losses);
        // Greedy beats random.
        assert!(e[0].wins >= 3, "{s:?}");
        let text = crate::record::match_to_blksgf(&["greedy", "random"], &games);
        assert_eq!(blokus_core::record::sgf::parse(&text).unwrap().len(), 4);
    }

    #[test]
    fn four_engines_rotate_through_the_four_seats_of_classic() {
        let config = config("classic", &["greedy", "random", "greedy", "random"], 4);
        let games = run_match(&config, &|_| {}).unwrap();
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.engine_of_seat, seating(4, 4, i));
            let p = g.engine_points(4);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
        let s = crate::summarize(4, &games);
        assert!(s.head_to_head.is_none());
        assert!((s.engines.iter().map(|e| e.points).sum::<f64>() - 4.0).abs() < 1e-9);
        let text = crate::format_summary(&["a", "b", "c", "d"], &s);
        assert!(text.ends_with("4 games.\n"), "{text}");
    }

    #[test]
    fn two_engines_keep_their_colours_together_in_two_player_four_colour_games() {
        let g = seating(4, 2, 1);
        assert_eq!(g, vec![1, 0, 1, 0]);
        assert_eq!(seating(3, 3, 2), vec![2, 0, 1]);
    }

    #[test]
    fn bad_settings_are_refused() {
        let e = run_match(&config("duo", &["mcts:levle=3", "random"], 1), &|_| {})
            .err()
            .unwrap();
        assert!(e.to_string().contains("levle"), "{e}");
        assert!(run_match(&config("duo", &["greedy", "random"], 0), &|_| {}).is_err());
        let e = run_match(&config("duo", &["greedy", "random", "greedy"], 1), &|_| {})
            .err()
            .unwrap();
        assert!(e.to_string().contains("needs 2 to 2"), "{e}");
    }
}
