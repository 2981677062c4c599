//! The rating changes of one finished game, computed by the `skillratings` crate:
//! Glicko-2 between two players, Weng-Lin (OpenSkill's Bayesian approximation) for three
//! and four players and for teams. Computer players take part with their fixed ratings
//! and are never changed.

use serde::Serialize;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

/// Where every account starts: the Glicko-2 defaults (1500, deviation 350, volatility
/// 0.06); Weng-Lin pools use the same rating and deviation.
pub const START: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// Weng-Lin's defaults are μ = 25, σ = 25/3, β = 25/6; the system does not depend on
/// the scale, so multiplayer pools use it times 42 (σ = 350, β = 175) and their numbers
/// read like the Glicko-2 ones.
const WENG_LIN_SCALE: f64 = 42.0;

/// A rating as stored.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating (Glicko-2 r, or Weng-Lin μ).
    pub rating: f64,
    /// Its deviation (Glicko-2 RD, or Weng-Lin σ).
    pub deviation: f64,
    /// Glicko-2 volatility σ (kept unchanged in Weng-Lin pools).
    pub volatility: f64,
}

impl Rating {
    /// A fixed rating of a computer player.
    pub fn fixed(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: START.volatility,
        }
    }

    fn glicko2(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko2(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

/// The Glicko-2 system constant τ: Glickman suggests 0.3 to 1.2; 0.5 is the crate's
/// default and the paper's example.
fn glicko2_config() -> Glicko2Config {
    Glicko2Config {
        tau: 0.5,
        ..Glicko2Config::new()
    }
}

/// Two players after a game; `score` is the first player's: 1 win, 0.5 draw, 0 loss.
pub fn two_players(a: Rating, b: Rating, score: f64) -> (Rating, Rating) {
    let outcome = if score > 0.5 {
        Outcomes::WIN
    } else if score < 0.5 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (a2, b2) = glicko2(&a.glicko2(), &b.glicko2(), &outcome, &glicko2_config());
    (Rating::from_glicko2(a2), Rating::from_glicko2(b2))
}

/// Sides (players or teams) after a game of three or more sides, or of teams; `places`
/// are the 1-based finishing places (equal places are ties).
pub fn multi(sides: &[Vec<Rating>], places: &[usize]) -> Vec<Vec<Rating>> {
    let config = WengLinConfig {
        beta: 25.0 / 6.0,
        ..WengLinConfig::new()
    };
    let scaled: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|side| {
            side.iter()
                .map(|r| WengLinRating {
                    rating: r.rating / WENG_LIN_SCALE,
                    uncertainty: r.deviation / WENG_LIN_SCALE,
                })
                .collect()
        })
        .collect();
    let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = scaled
        .iter()
        .zip(places)
        .map(|(side, &place)| (side.as_slice(), MultiTeamOutcome::new(place)))
        .collect();
    weng_lin_multi_team(&teams, &config)
        .into_iter()
        .zip(sides)
        .map(|(new, old)| {
            new.into_iter()
                .zip(old)
                .map(|(n, o)| Rating {
                    rating: n.rating * WENG_LIN_SCALE,
                    deviation: n.uncertainty * WENG_LIN_SCALE,
                    volatility: o.volatility,
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman, "Example of the Glicko-2 system" (2013), section 3: a player rated 1500
    /// (RD 200, σ 0.06) plays opponents of 1400 (RD 30), 1550 (RD 100) and 1700 (RD 300),
    /// winning the first and losing the others; with τ = 0.5 the new rating is 1464.06,
    /// RD 151.52 and σ 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |r, d| Glicko2Rating {
            rating: r,
            deviation: d,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let new = glicko2_rating_period(&player, &results, &glicko2_config());
        assert!((new.rating - 1464.06).abs() < 0.01, "{}", new.rating);
        assert!((new.deviation - 151.52).abs() < 0.01, "{}", new.deviation);
        assert!(
            (new.volatility - 0.05999).abs() < 0.00001,
            "{}",
            new.volatility
        );
        // One game is a rating period of one game: the first game of the example.
        let (one, _) = two_players(
            Rating::from_glicko2(player),
            Rating::from_glicko2(opp(1400.0, 30.0)),
            1.0,
        );
        let period = glicko2_rating_period(&player, &results[..1], &glicko2_config());
        assert_eq!(one, Rating::from_glicko2(period));
    }

    #[test]
    fn winners_go_up_losers_down_and_draws_between_equals_change_no_rating() {
        let (w, l) = two_players(START, START, 1.0);
        assert!(w.rating > 1500.0 && l.rating < 1500.0);
        assert!((w.rating - 1500.0 + l.rating - 1500.0).abs() < 1e-6);
        assert!(w.deviation < 350.0);
        let (a, b) = two_players(START, START, 0.5);
        assert!((a.rating - 1500.0).abs() < 1e-6 && (b.rating - 1500.0).abs() < 1e-6);
        // Beating a much stronger opponent is worth more than beating an equal one.
        let strong = Rating::fixed(2000.0, 60.0);
        let (up, same) = two_players(START, strong, 1.0);
        assert!(up.rating > w.rating);
        assert!(same.rating < 2000.0);
    }

    #[test]
    fn multiplayer_places_order_the_new_ratings() {
        let sides = vec![vec![START], vec![START], vec![START], vec![START]];
        let new = multi(&sides, &[2, 1, 4, 3]);
        let r: Vec<f64> = new.iter().map(|s| s[0].rating).collect();
        assert!(r[1] > r[0] && r[0] > r[3] && r[3] > r[2], "{r:?}");
        assert!(new.iter().all(|s| s[0].deviation < 350.0));
        // Teams: both members of the winning team gain.
        let teams = vec![vec![START, START], vec![START, START]];
        let new = multi(&teams, &[2, 1]);
        assert!(new[1].iter().all(|r| r.rating > 1500.0));
        assert!(new[0].iter().all(|r| r.rating < 1500.0));
    }
}
