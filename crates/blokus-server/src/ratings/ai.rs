//! The fixed ratings of the computer's levels, so that games against the AI can be
//! rated. They come from the level ladder of `docs/ai.md` (each level against the one
//! below, Duo and Classic two-player, 100 games per pair; level 9 against 8 again when
//! level 9 grew to 40,000 simulations, 100 Duo and 40 Classic games): the Elo difference
//! of each step's score rate, averaged over the two variants, with level 5 put at 1500
//! (the rating every account starts from). The step from level 1 to 2 scored 99% in both
//! variants, which the Elo formula turns into about +800 with an interval reaching to
//! infinity; it is counted as +400, the most a measured step gives elsewhere in the
//! project's tables. `docs/accounts.md` shows the derivation.

use crate::seats::AiLevel;

/// The rating of each level, 1 to 9.
const LEVEL_RATINGS: [f64; 9] = [
    641.0,  // 1: level 2 - 400 (capped, see above)
    1041.0, // 2: level 3 - 151 (Duo 71%, Classic 70%)
    1192.0, // 3: level 4 - 151 (Duo 71%, Classic 70%)
    1344.0, // 4: level 5 - 156 (Duo 68%, Classic 74%)
    1500.0, // 5: the anchor
    1631.0, // 6: level 5 + 131 (Duo 65.5%, Classic 70.5%)
    1802.0, // 7: level 6 + 171 (Duo 75%, Classic 70.5%)
    1904.0, // 8: level 7 + 102 (Duo 62.5%, Classic 66%)
    2100.0, // 9: level 8 + 196 (Duo 73.5%, Classic 77.5%)
];

/// The deviation given to the computer's ratings: what the calibration's intervals
/// leave uncertain. A game against the AI moves a player's rating as one against a
/// well-known opponent.
pub const AI_DEVIATION: f64 = 60.0;

/// The fixed rating of an AI level.
pub fn ai_rating(level: AiLevel) -> f64 {
    LEVEL_RATINGS[usize::from(level.get()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Elo difference of a score rate.
    fn elo(score: f64) -> f64 {
        -400.0 * (1.0 / score - 1.0).log10()
    }

    #[test]
    fn every_level_has_a_rating_and_each_step_is_the_measured_one() {
        for l in AiLevel::RANGE {
            ai_rating(AiLevel::try_from(l).unwrap());
        }
        // (level, Duo score rate, Classic score rate against the level below)
        let steps = [
            (3, 0.71, 0.70),
            (4, 0.71, 0.70),
            (5, 0.68, 0.74),
            (6, 0.655, 0.705),
            (7, 0.75, 0.705),
            (8, 0.625, 0.66),
            (9, 0.735, 0.775),
        ];
        for (l, duo, classic) in steps {
            let step = (elo(duo) + elo(classic)) / 2.0;
            let have = LEVEL_RATINGS[l - 1] - LEVEL_RATINGS[l - 2];
            assert!((have - step).abs() < 1.0, "level {l}: {have} vs {step}");
        }
        assert_eq!(LEVEL_RATINGS[4], 1500.0);
        assert_eq!(LEVEL_RATINGS[1] - LEVEL_RATINGS[0], 400.0);
    }
}
