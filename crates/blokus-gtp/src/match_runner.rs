//! Plays two engines against each other: built-in players or external GTP engines,
//! many games, rotating seats, several games at a time, with a results summary.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use blokus_ai::{player_from_spec, Budget, Decision, Player, PLAYER_KINDS};
use blokus_core::record::blksgf;
use blokus_core::record::sgf::{self, Property};
use blokus_core::{notation, score, Game, PieChoice, Rules};

use crate::client::{GtpClient, GtpError};

/// How to get one of the two engines.
#[derive(Clone, Debug, PartialEq, Eq)]
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

    /// A short label.
    pub fn label(&self) -> &str {
        match self {
            EngineSpec::Builtin(s) | EngineSpec::Command(s) => s,
        }
    }
}

/// What can go wrong in a match.
#[derive(Debug)]
pub enum MatchError {
    /// A built-in spec is invalid.
    Spec(String),
    /// An external engine failed.
    Gtp(GtpError),
    /// The settings make no sense (e.g. zero games).
    Config(String),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Spec(m) | MatchError::Config(m) => write!(f, "{m}"),
            MatchError::Gtp(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<GtpError> for MatchError {
    fn from(e: GtpError) -> Self {
        MatchError::Gtp(e)
    }
}

/// Settings of a match.
pub struct MatchConfig {
    /// The rules of every game.
    pub rules: Rules,
    /// The two engines.
    pub engines: [EngineSpec; 2],
    /// Number of games.
    pub games: usize,
    /// Games played at the same time.
    pub parallel: usize,
    /// Seed of the built-in players (each game and engine gets its own, derived from
    /// it, unless the spec sets `seed`).
    pub seed: u64,
}

/// One finished game.
#[derive(Clone)]
pub struct GameRecord {
    /// 0-based game number.
    pub index: usize,
    /// The game as played.
    pub game: Game,
    /// The engine (0 or 1) of each player.
    pub engine_of_player: Vec<usize>,
    /// The engine that resigned or forfeited, if any.
    pub lost_by: Option<(usize, String)>,
    /// Each engine's share of the win (they add up to 1).
    pub points: [f64; 2],
    /// Each engine's mean side score.
    pub score: [f64; 2],
}

impl GameRecord {
    /// 0: engine 0 won, 1: engine 1 won, `None`: a draw.
    pub fn winner(&self) -> Option<usize> {
        if self.points[0] > self.points[1] {
            Some(0)
        } else if self.points[1] > self.points[0] {
            Some(1)
        } else {
            None
        }
    }
}

/// One side of a game: a built-in player or an external engine.
enum Contestant {
    Builtin(Box<dyn Player>),
    Gtp {
        client: GtpClient,
        /// Events of the current game the engine already knows.
        synced: usize,
    },
}

impl Contestant {
    fn start(spec: &EngineSpec, seed: u64) -> Result<Contestant, MatchError> {
        match spec {
            EngineSpec::Builtin(s) => {
                let s = if s.contains("seed=") {
                    s.clone()
                } else if s.contains(':') {
                    format!("{s},seed={seed}")
                } else {
                    format!("{s}:seed={seed}")
                };
                let p = player_from_spec(&s).map_err(|e| MatchError::Spec(e.to_string()))?;
                Ok(Contestant::Builtin(p))
            }
            EngineSpec::Command(c) => Ok(Contestant::Gtp {
                client: GtpClient::spawn(c)?,
                synced: 0,
            }),
        }
    }

    fn new_game(&mut self, rules: &Rules, seed: u64) -> Result<(), MatchError> {
        match self {
            Contestant::Builtin(p) => {
                p.reset();
                let _ = seed;
            }
            Contestant::Gtp { client, synced } => {
                client.send(&format!("set_game {}", rules.v().game_name))?;
                client.send("clear_board")?;
                *synced = 0;
            }
        }
        Ok(())
    }

    /// Asks for a decision; the game is not changed.
    fn decide(&mut self, game: &Game) -> Result<Decision, MatchError> {
        match self {
            Contestant::Builtin(p) => Ok(p.decide(game, Budget::default())),
            Contestant::Gtp { client, synced } => {
                let rules = game.rules();
                // Tell the engine what happened since it last heard.
                for (i, e) in game.events().iter().enumerate().skip(*synced) {
                    let before = game.position_at(i).expect("event position");
                    let cmd = match *e {
                        blokus_core::GameEvent::Place { colour, mv } => format!(
                            "play {} {}",
                            blksgf::move_prop(rules, colour),
                            notation::format_move(rules.table(), mv)
                        ),
                        blokus_core::GameEvent::Pie(choice) => format!(
                            "play {} {}",
                            blksgf::move_prop(rules, before.to_move()),
                            pie_text(choice)
                        ),
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
                    _ => match notation::parse_move(rules.table(), &text) {
                        Ok(m) => Decision::Place(m),
                        Err(e) => {
                            return Err(MatchError::Gtp(GtpError::Io(format!(
                                "engine '{}' answered genmove with '{text}': {e}",
                                client.command_line()
                            ))))
                        }
                    },
                })
            }
        }
    }

    fn finish(self) {
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

/// The engine of each player in game `index`: seats rotate from game to game.
pub fn seating(rules: &Rules, index: usize) -> Vec<usize> {
    (0..rules.v().players).map(|p| (p + index) % 2).collect()
}

/// Plays one game between two contestants.
fn play_game(
    rules: &Rules,
    index: usize,
    engines: &mut [Contestant; 2],
    seed: u64,
) -> Result<GameRecord, MatchError> {
    let seats = seating(rules, index);
    for e in engines.iter_mut() {
        e.new_game(rules, seed)?;
    }
    let mut game = Game::new(rules.clone());
    let mut lost_by = None;
    while !game.is_over() {
        let player = game.position().player_to_move(rules);
        let e = seats[player];
        let decision = engines[e].decide(&game)?;
        let result = match decision {
            Decision::Place(m) => game.play(m).map_err(|err| err.to_string()),
            Decision::Pie(c) if game.position().awaiting_pie_choice() => {
                game.choose_pie(c).map_err(|err| err.to_string())
            }
            Decision::Pie(_) => Err("a pie choice when a move was due".to_string()),
            Decision::Resign if rules.v().players == 2 => {
                lost_by = Some((e, "resigned".to_string()));
                break;
            }
            Decision::Resign => Err("resigned in a game of more than two players".into()),
        };
        if let Err(why) = result {
            lost_by = Some((e, format!("forfeited: {why}")));
            break;
        }
    }
    let v = rules.v();
    let results = score::side_results(rules, game.position());
    let shares = score::win_shares(rules, game.position());
    let mut points = [0.0; 2];
    let mut score_sum = [0.0; 2];
    let mut sides = [0usize; 2];
    for s in 0..v.num_sides() {
        // A side belongs to the engine of its players (seating keeps teams together).
        let Some(p) = (0..v.players).find(|&p| v.side_of_player(p) == s) else {
            continue;
        };
        let e = seats[p];
        points[e] += shares[s];
        score_sum[e] += results[s].score as f64;
        sides[e] += 1;
    }
    if let Some((loser, _)) = &lost_by {
        points[*loser] = 0.0;
        points[1 - loser] = 1.0;
    } else {
        let total = points[0] + points[1];
        if total > 0.0 {
            points = [points[0] / total, points[1] / total];
        }
    }
    let score = [0, 1].map(|e| score_sum[e] / sides[e].max(1) as f64);
    Ok(GameRecord {
        index,
        game,
        engine_of_player: seats,
        lost_by,
        points,
        score,
    })
}

/// Plays a match. `on_game` is called as each game ends (from worker threads, in the
/// order games end). Returns the games in game order.
///
/// # Errors
/// The first engine failure or bad spec; games still running are abandoned.
pub fn run_match(
    config: &MatchConfig,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, MatchError> {
    if config.games == 0 {
        return Err(MatchError::Config(
            "the number of games must be at least 1".into(),
        ));
    }
    // Catch bad built-in specs before starting anything.
    for spec in &config.engines {
        if let EngineSpec::Builtin(s) = spec {
            player_from_spec(s).map_err(|e| MatchError::Spec(e.to_string()))?;
        }
    }
    let workers = config.parallel.clamp(1, config.games);
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<MatchError>> = Mutex::new(None);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let out = std::thread::scope(|scope| {
        for w in 0..workers {
            let tx = tx.clone();
            let (next, failure) = (&next, &failure);
            scope.spawn(move || {
                let run = || -> Result<(), MatchError> {
                    let seed = |e: u64, i: usize| {
                        config.seed ^ (e << 40) ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    };
                    let mut engines = [
                        Contestant::start(&config.engines[0], seed(1, w))?,
                        Contestant::start(&config.engines[1], seed(2, w))?,
                    ];
                    loop {
                        if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= config.games {
                            break;
                        }
                        // Built-in players get a fresh seed per game so games differ.
                        for (k, e) in engines.iter_mut().enumerate() {
                            if let (Contestant::Builtin(_), EngineSpec::Builtin(_)) =
                                (&*e, &config.engines[k])
                            {
                                *e = Contestant::start(&config.engines[k], seed(k as u64 + 1, i))?;
                            }
                        }
                        let rec = play_game(&config.rules, i, &mut engines, seed(3, i))?;
                        let _ = tx.send(rec);
                    }
                    for e in engines {
                        e.finish();
                    }
                    Ok(())
                };
                if let Err(e) = run() {
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

/// A progress bar on standard error (hidden when standard error is not a terminal).
pub struct Progress {
    bar: indicatif::ProgressBar,
    score: Mutex<[f64; 2]>,
}

impl Progress {
    /// A bar for `games` games.
    pub fn new(games: usize) -> Progress {
        let bar = indicatif::ProgressBar::new(games as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}  eta {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        Progress {
            bar,
            score: Mutex::new([0.0; 2]),
        }
    }

    /// Counts a finished game.
    pub fn game_done(&self, g: &GameRecord) {
        let mut s = self.score.lock().unwrap_or_else(|e| e.into_inner());
        s[0] += g.points[0];
        s[1] += g.points[1];
        self.bar.set_message(format!("{:.1} - {:.1}", s[0], s[1]));
        self.bar.inc(1);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Aggregate figures of a match, from engine 0's point of view where one-sided.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Wins of each engine.
    pub wins: [usize; 2],
    /// Drawn games.
    pub draws: usize,
    /// Mean score per game of each engine (its sides' mean, rules' convention).
    pub mean_score: [f64; 2],
    /// Engine 0's score rate (wins + half the draws) / games.
    pub win_rate: f64,
    /// 95% interval of the score rate (Wilson score interval).
    pub win_rate_interval: (f64, f64),
    /// Elo difference of engine 0 over engine 1 (a rate of 0% or 100% is clamped to
    /// half a game from it, to stay finite).
    pub elo: f64,
    /// 95% interval of the Elo difference.
    pub elo_interval: (f64, f64),
}

/// The Elo difference for a score rate (clamped so 0% and 100% stay finite).
pub fn elo_of(rate: f64, games: usize) -> f64 {
    let eps = 0.5 / games.max(1) as f64;
    let p = rate.clamp(eps, 1.0 - eps);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Sums up a match.
pub fn summarize(games: &[GameRecord]) -> Summary {
    let n = games.len();
    let mut wins = [0; 2];
    let mut draws = 0;
    let mut score = [0.0; 2];
    for g in games {
        match g.winner() {
            Some(w) => wins[w] += 1,
            None => draws += 1,
        }
        score[0] += g.score[0];
        score[1] += g.score[1];
    }
    let nf = n.max(1) as f64;
    let rate = (wins[0] as f64 + 0.5 * draws as f64) / nf;
    // Wilson score interval: sensible even at 0% or 100%.
    let z = 1.96;
    let centre = (rate + z * z / (2.0 * nf)) / (1.0 + z * z / nf);
    let half = z / (1.0 + z * z / nf) * (rate * (1.0 - rate) / nf + z * z / (4.0 * nf * nf)).sqrt();
    let lo = (centre - half).max(0.0);
    let hi = (centre + half).min(1.0);
    Summary {
        games: n,
        wins,
        draws,
        mean_score: [score[0] / nf, score[1] / nf],
        win_rate: rate,
        win_rate_interval: (lo, hi),
        elo: elo_of(rate, n),
        elo_interval: (elo_of(lo, n), elo_of(hi, n)),
    }
}

/// The summary as a text table.
pub fn format_summary(names: [&str; 2], s: &Summary) -> String {
    let w = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let mut out = format!(
        "{:w$}  {:>5}  {:>5}  {:>6}  {:>10}\n",
        "engine", "wins", "draws", "losses", "mean score"
    );
    for (e, name) in names.iter().enumerate() {
        out.push_str(&format!(
            "{:w$}  {:>5}  {:>5}  {:>6}  {:>10.2}\n",
            name,
            s.wins[e],
            s.draws,
            s.wins[1 - e],
            s.mean_score[e]
        ));
    }
    // A rate of 0% or 100% has no finite Elo bound.
    let bound = |rate: f64, elo: f64| {
        if rate >= 1.0 - 1e-9 {
            "+inf".to_string()
        } else if rate <= 1e-9 {
            "-inf".to_string()
        } else {
            format!("{elo:+.0}")
        }
    };
    out.push_str(&format!(
        "{} games. {} scores {:.1}% (95% interval {:.1}% to {:.1}%), Elo difference {:+.0} ({} to {})\n",
        s.games,
        names[0],
        100.0 * s.win_rate,
        100.0 * s.win_rate_interval.0,
        100.0 * s.win_rate_interval.1,
        s.elo,
        bound(s.win_rate_interval.0, s.elo_interval.0),
        bound(s.win_rate_interval.1, s.elo_interval.1)
    ));
    out
}

/// Every game as one `.blksgf` collection, with the engines as player names and the
/// result.
pub fn games_to_blksgf(names: [&str; 2], games: &[GameRecord]) -> String {
    let trees: Vec<_> = games
        .iter()
        .map(|g| {
            let rules = g.game.rules();
            let mut props = Vec::new();
            let mut comments = Vec::new();
            if rules.v().players == 2 {
                props.push(Property::new("PB", names[g.engine_of_player[0]]));
                props.push(Property::new("PW", names[g.engine_of_player[1]]));
            } else {
                comments.extend(
                    g.engine_of_player
                        .iter()
                        .enumerate()
                        .map(|(p, &e)| format!("player {}: {}", p + 1, names[e])),
                );
            }
            let position_result = || blokus_core::record::result_text(rules, g.game.position());
            let result = match &g.lost_by {
                Some((e, why)) => {
                    comments.push(format!("{} {why}", names[*e]));
                    if rules.v().players == 2 {
                        // SGF's convention: the winner, then R (resignation) or F (forfeit:
                        // an illegal move or a broken engine).
                        let loser = g.engine_of_player.iter().position(|x| x == e);
                        let winner = if loser == Some(0) { "W" } else { "B" };
                        let how = if why == "resigned" { "R" } else { "F" };
                        format!("{winner}+{how}")
                    } else {
                        position_result()
                    }
                }
                None => position_result(),
            };
            if !comments.is_empty() {
                props.push(Property::new("C", comments.join("; ")));
            }
            props.push(Property::new("GN", format!("game {}", g.index + 1)));
            props.push(Property::new("RE", result));
            blksgf::to_tree(&g.game, &props)
        })
        .collect();
    sgf::write(&trees)
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
    }

    #[test]
    fn elo_is_symmetric_and_finite() {
        assert!(elo_of(0.5, 10).abs() < 1e-9);
        assert!((elo_of(0.76, 10) + elo_of(0.24, 10)).abs() < 1e-9);
        assert!(elo_of(1.0, 10).is_finite());
    }

    #[test]
    fn builtin_match_plays_every_game_with_rotating_seats() {
        let config = MatchConfig {
            rules: Rules::by_name("duo").unwrap(),
            engines: [EngineSpec::parse("greedy"), EngineSpec::parse("random")],
            games: 4,
            parallel: 2,
            seed: 1,
        };
        let count = AtomicUsize::new(0);
        let games = run_match(&config, &|_| {
            count.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
        assert_eq!(games.len(), 4);
        assert_eq!(count.load(Ordering::SeqCst), 4);
        assert_eq!(games[0].engine_of_player, vec![0, 1]);
        assert_eq!(games[1].engine_of_player, vec![1, 0]);
        for g in &games {
            assert!(g.game.is_over());
            assert!((g.points[0] + g.points[1] - 1.0).abs() < 1e-9);
        }
        let s = summarize(&games);
        assert_eq!(s.wins[0] + s.wins[1] + s.draws, 4);
        // Greedy beats random.
        assert!(s.wins[0] >= 3, "{s:?}");
        let text = games_to_blksgf(["greedy", "random"], &games);
        assert_eq!(sgf::parse(&text).unwrap().len(), 4);
    }

    #[test]
    fn a_resignation_is_recorded_as_the_winner_plus_r() {
        let rules = Rules::by_name("duo").unwrap();
        let record = |engine_of_player: Vec<usize>, lost_by: usize| GameRecord {
            index: 0,
            game: Game::new(rules.clone()),
            engine_of_player,
            lost_by: Some((lost_by, "resigned".to_string())),
            points: [0.0, 1.0],
            score: [0.0, 0.0],
        };
        // Engine 0 plays Blue (B) and resigns: White wins; seated the other way, Black.
        let games = [record(vec![0, 1], 0), record(vec![1, 0], 0)];
        let text = games_to_blksgf(["a", "b"], &games);
        let trees = sgf::parse(&text).unwrap();
        let re = |i: usize| trees[i].nodes[0].get("RE").map(str::to_string);
        assert_eq!(re(0).as_deref(), Some("W+R"), "{text}");
        assert_eq!(re(1).as_deref(), Some("B+R"), "{text}");
        assert!(text.contains("C[a resigned]"), "{text}");
    }

    #[test]
    fn bad_specs_and_zero_games_are_refused() {
        let mut config = MatchConfig {
            rules: Rules::by_name("duo").unwrap(),
            engines: [
                EngineSpec::parse("mcts:levle=3"),
                EngineSpec::parse("random"),
            ],
            games: 1,
            parallel: 1,
            seed: 1,
        };
        let e = run_match(&config, &|_| {}).err().unwrap();
        assert!(e.to_string().contains("levle"), "{e}");
        config.engines[0] = EngineSpec::parse("greedy");
        config.games = 0;
        assert!(run_match(&config, &|_| {}).is_err());
    }
}
