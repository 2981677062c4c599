//! Match results summed up per engine, with the score rate, its interval and the Elo
//! difference when two engines meet.

use crate::matches::MatchGame;

/// One engine's figures over a match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSummary {
    /// Games it won alone (the most points of the game).
    pub wins: usize,
    /// Games whose top points it shared with another engine.
    pub draws: usize,
    /// The other games.
    pub losses: usize,
    /// Its win shares added up over all games.
    pub points: f64,
    /// Mean score per game (the mean of its sides' scores, the rules' convention).
    pub mean_score: f64,
}

/// The two-engine figures, from the first engine's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadToHead {
    /// Engine 1's score rate: its points / games.
    pub win_rate: f64,
    /// 95% interval of the score rate (Wilson score interval).
    pub win_rate_interval: (f64, f64),
    /// Elo difference of engine 1 over engine 2 (a rate of 0% or 100% is clamped to
    /// half a game from it, to stay finite).
    pub elo: f64,
    /// 95% interval of the Elo difference.
    pub elo_interval: (f64, f64),
}

/// Aggregate figures of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Each engine's figures.
    pub engines: Vec<EngineSummary>,
    /// Score rate and Elo difference, when exactly two engines played.
    pub head_to_head: Option<HeadToHead>,
}

/// The Elo difference for a score rate (clamped so 0% and 100% stay finite).
pub fn elo_of(rate: f64, games: usize) -> f64 {
    let eps = 0.5 / games.max(1) as f64;
    let p = rate.clamp(eps, 1.0 - eps);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The 95% Wilson score interval of a rate over `n` games: sensible even at 0% or 100%.
pub fn wilson_interval(rate: f64, n: usize) -> (f64, f64) {
    let nf = n.max(1) as f64;
    let z = 1.96;
    let centre = (rate + z * z / (2.0 * nf)) / (1.0 + z * z / nf);
    let half = z / (1.0 + z * z / nf) * (rate * (1.0 - rate) / nf + z * z / (4.0 * nf * nf)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Sums up a match of `engines` engines.
pub fn summarize(engines: usize, games: &[MatchGame]) -> Summary {
    summarize_points(
        engines,
        games
            .iter()
            .map(|g| (g.engine_points(engines), g.engine_scores(engines))),
    )
}

/// Sums up a match of `engines` engines from each game's (win shares, mean scores) per
/// engine: the one summary of every board family.
pub fn summarize_points(
    engines: usize,
    games: impl Iterator<Item = (Vec<f64>, Vec<f64>)>,
) -> Summary {
    let mut n = 0;
    let mut out = vec![
        EngineSummary {
            wins: 0,
            draws: 0,
            losses: 0,
            points: 0.0,
            mean_score: 0.0,
        };
        engines
    ];
    for (points, scores) in games {
        n += 1;
        let top = points.iter().copied().fold(f64::MIN, f64::max);
        let at_top = points.iter().filter(|&&p| p >= top - 1e-9).count();
        for (e, s) in out.iter_mut().enumerate() {
            s.points += points[e];
            s.mean_score += scores[e];
            if points[e] < top - 1e-9 {
                s.losses += 1;
            } else if at_top == 1 {
                s.wins += 1;
            } else {
                s.draws += 1;
            }
        }
    }
    let nf = n.max(1) as f64;
    for s in &mut out {
        s.mean_score /= nf;
    }
    let head_to_head = (engines == 2).then(|| {
        let rate = out[0].points / nf;
        let (lo, hi) = wilson_interval(rate, n);
        HeadToHead {
            win_rate: rate,
            win_rate_interval: (lo, hi),
            elo: elo_of(rate, n),
            elo_interval: (elo_of(lo, n), elo_of(hi, n)),
        }
    });
    Summary {
        games: n,
        engines: out,
        head_to_head,
    }
}

/// The summary as a text table, one row per engine, then a line with the games and
/// (for two engines) the score rate and Elo difference.
pub fn format_summary(names: &[&str], s: &Summary) -> String {
    let w = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let mut out = format!(
        "{:w$}  {:>5}  {:>5}  {:>6}  {:>7}  {:>10}\n",
        "engine", "wins", "draws", "losses", "points", "mean score"
    );
    for (name, e) in names.iter().zip(&s.engines) {
        out.push_str(&format!(
            "{:w$}  {:>5}  {:>5}  {:>6}  {:>7.1}  {:>10.2}\n",
            name, e.wins, e.draws, e.losses, e.points, e.mean_score
        ));
    }
    let Some(h) = &s.head_to_head else {
        out.push_str(&format!("{} games.\n", s.games));
        return out;
    };
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
        100.0 * h.win_rate,
        100.0 * h.win_rate_interval.0,
        100.0 * h.win_rate_interval.1,
        h.elo,
        bound(h.win_rate_interval.0, h.elo_interval.0),
        bound(h.win_rate_interval.1, h.elo_interval.1)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_symmetric_and_finite() {
        assert!(elo_of(0.5, 10).abs() < 1e-9);
        assert!((elo_of(0.76, 10) + elo_of(0.24, 10)).abs() < 1e-9);
        assert!(elo_of(1.0, 10).is_finite());
    }

    #[test]
    fn the_wilson_interval_contains_the_rate_and_stays_in_range() {
        for (rate, n) in [(0.0, 10), (1.0, 10), (0.5, 100), (0.7, 3)] {
            let (lo, hi) = wilson_interval(rate, n);
            assert!((0.0..=rate).contains(&lo) && (rate..=1.0).contains(&hi));
        }
    }
}
