//! Quality-based rewards (Pepels et al., "Quality-based Rewards for Monte-Carlo Tree
//! Search Simulations", ECAI 2014): a playout's value is its win share plus bonuses for
//! how well it was won, each measured against the playouts of the same search.

use blokus_core::{Rules, VariantId};

use crate::context::{Values, MAX_SIDES};

/// Whether the search uses quality-based rewards in a game of these rules: in Duo, where
/// they scored within the noise of the plain values over 1,440 games against the
/// reference and made the values reported win shares (docs/ai.md); in Trigon two-player
/// they did not help.
pub fn used_in(rules: &Rules) -> bool {
    rules.v().id == VariantId::Duo
}

/// Weight of the score-margin bonus: a won game with a margin far above this search's
/// usual one is worth up to this much more than a narrow win (a lost one, less lost).
const SCORE_WEIGHT: f32 = 0.3;

/// Weight of the game-length bonus: a short win is worth up to this much more than a
/// long one, and a long loss this much more than a short one (half of it for each).
const LENGTH_WEIGHT: f32 = 0.12;

/// Mean and variance of a stream of numbers (Welford's update).
#[derive(Clone, Copy, Debug, Default)]
struct RunningStat {
    count: f64,
    mean: f64,
    /// Sum of squared deviations from the mean.
    m2: f64,
}

impl RunningStat {
    /// Adds `x` and returns its standard score among all numbers so far (0 while they do
    /// not vary).
    fn add(&mut self, x: f32) -> f32 {
        let x = f64::from(x);
        self.count += 1.0;
        let d = x - self.mean;
        self.mean += d / self.count;
        self.m2 += d * (x - self.mean);
        let var = self.m2 / self.count;
        if var > 0.0 {
            ((x - self.mean) / var.sqrt()) as f32
        } else {
            0.0
        }
    }
}

/// The running statistics of one search's playouts in a two-sided game.
#[derive(Clone, Copy, Debug, Default)]
pub struct QualityRewards {
    /// The first side's final score margin.
    margin: RunningStat,
    /// Placements in the finished game.
    length: RunningStat,
}

impl QualityRewards {
    /// The values of a finished playout for the two sides from the first side's win
    /// share (1, ½ or 0), its score margin and the game's length in placements. They
    /// add up to 1 and may lie a little outside [0, 1] (at most by the two weights).
    pub fn values(&mut self, share: f32, margin: f32, length: f32) -> Values {
        let z_margin = self.margin.add(margin);
        let z_length = self.length.add(length);
        let v = share + SCORE_WEIGHT * z_margin.tanh()
            - LENGTH_WEIGHT * (share - 0.5) * z_length.tanh();
        let mut out = [0.0; MAX_SIDES];
        out[0] = v;
        out[1] = 1.0 - v;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard score is that of the numbers so far, with the population variance.
    #[test]
    fn running_standard_scores() {
        let mut s = RunningStat::default();
        assert_eq!(s.add(3.0), 0.0, "one number does not vary");
        // 3, 5: mean 4, deviation 1.
        assert!((s.add(5.0) - 1.0).abs() < 1e-6);
        // 3, 5, 4: mean 4, variance 2/3.
        assert!(s.add(4.0).abs() < 1e-6);
        let z = s.add(10.0); // 3, 5, 4, 10: mean 5.5, variance 7.25
        assert!((z - 4.5 / 7.25f32.sqrt()).abs() < 1e-5, "{z}");
    }

    /// A clear win is worth more than a narrow one, a narrow loss more than a clear
    /// one, a short win more than a long one and a long loss more than a short one; the
    /// two sides' values add up to one and stay within the weights of [0, 1].
    #[test]
    fn better_wins_are_worth_more() {
        let mut q = QualityRewards::default();
        // A spread of ordinary playouts first.
        for i in 0..100 {
            let m = (i % 21) as f32 - 10.0;
            let share = if m > 0.0 {
                1.0
            } else if m < 0.0 {
                0.0
            } else {
                0.5
            };
            q.values(share, m, 30.0 + (i % 7) as f32);
        }
        let value = |q: QualityRewards, share: f32, margin: f32, length: f32| {
            let mut q = q;
            let v = q.values(share, margin, length);
            assert!((v[0] + v[1] - 1.0).abs() < 1e-6);
            assert!(
                v[0] >= -SCORE_WEIGHT - LENGTH_WEIGHT && v[0] <= 1.0 + SCORE_WEIGHT + LENGTH_WEIGHT
            );
            v[0]
        };
        assert!(value(q, 1.0, 20.0, 33.0) > value(q, 1.0, 1.0, 33.0));
        assert!(value(q, 0.0, -1.0, 33.0) > value(q, 0.0, -20.0, 33.0));
        assert!(value(q, 1.0, 5.0, 28.0) > value(q, 1.0, 5.0, 38.0));
        assert!(value(q, 0.0, -5.0, 38.0) > value(q, 0.0, -5.0, 28.0));
        // Any win is worth more than any loss.
        assert!(value(q, 1.0, 1.0, 40.0) > value(q, 0.0, -1.0, 40.0));
        assert!(value(q, 1.0, 1.0, 40.0) > 0.5 && value(q, 0.0, -1.0, 40.0) < 0.5);
    }
}
