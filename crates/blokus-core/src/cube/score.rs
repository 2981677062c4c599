//! Scores and results of Blokus 3D (SPEC 5.1): +1 per base square whose topmost cube is
//! the colour's, -1 per stone not placed.

use super::position::CubePosition;
use super::rules::{CubeRules, Seating};
use crate::{Colour, PlayerId};

/// The score breakdown of one colour.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CubeColourScore {
    /// The colour (serialized as its index).
    pub colour: Colour,
    /// Base squares whose topmost cube is this colour's.
    pub visible: usize,
    /// Stones not placed.
    pub stones_left: usize,
    /// `visible - stones_left`.
    pub points: i32,
}

/// A player's result.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CubePlayerResult {
    /// The player (serialized as its index).
    pub player: PlayerId,
    /// The player's score: its colour's points, or with two colours the better one.
    pub score: i32,
    /// 1-based finishing place; equal scores share a place.
    pub place: usize,
}

/// The breakdown of every colour.
pub fn colour_scores(rules: &CubeRules, pos: &CubePosition) -> Vec<CubeColourScore> {
    let view = pos.top_view(rules.table());
    Colour::all(rules.num_colours())
        .map(|colour| {
            let visible = view.iter().filter(|&&top| top == Some(colour)).count();
            let stones_left = pos.stones_left(colour).count();
            CubeColourScore {
                colour,
                visible,
                stones_left,
                points: visible as i32 - stones_left as i32,
            }
        })
        .collect()
}

/// Every player's result.
pub fn results(rules: &CubeRules, pos: &CubePosition) -> Vec<CubePlayerResult> {
    let colours = colour_scores(rules, pos);
    let seating = rules.seating();
    let scores: Vec<i32> = PlayerId::all(seating.players())
        .map(|player| {
            colours
                .iter()
                .filter(|c| seating.player_of(c.colour) == player)
                .map(|c| c.points)
                .max()
                .unwrap_or(0)
        })
        .collect();
    scores
        .iter()
        .enumerate()
        .map(|(player, &score)| CubePlayerResult {
            player: PlayerId::new(player),
            score,
            place: 1 + scores.iter().filter(|&&s| s > score).count(),
        })
        .collect()
}

/// The players' scores for a search: each player's score minus the best other player's
/// (positive for the leader), as `f64` per player.
pub fn margins(rules: &CubeRules, pos: &CubePosition) -> Vec<f64> {
    let r = results(rules, pos);
    r.iter()
        .map(|a| {
            let best_other = r
                .iter()
                .filter(|b| b.player != a.player)
                .map(|b| b.score)
                .max()
                .unwrap_or(0);
            f64::from(a.score - best_other)
        })
        .collect()
}

impl Seating {
    /// Whether a player's best colour decides (two colours per player).
    pub fn best_colour_decides(self) -> bool {
        self == Seating::TwoWithFourColours
    }
}

#[cfg(test)]
mod tests {
    use super::super::site::Site;
    use super::super::table::CubeMove;
    use super::*;
    use std::sync::Arc;

    fn play(rules: &CubeRules, moves: &[&[(usize, usize, usize)]]) -> CubePosition {
        let t = rules.table();
        let mut pos = CubePosition::new(rules);
        for cubes in moves {
            let v: Vec<_> = cubes
                .iter()
                .map(|&(x, y, z)| t.voxel(x, y, z).unwrap())
                .collect();
            let m: CubeMove = t.find(&v).unwrap();
            pos.play(rules, m).unwrap();
        }
        pos
    }

    #[test]
    fn the_top_view_counts_and_unplaced_stones_cost_one_each() {
        let site =
            Site::parse("name = t\nheights = 2:3 3:3 4:3\nfootprint =\noooo\noooo\n").unwrap();
        let rules = CubeRules::new(Seating::Two, Arc::new(site));
        // Blue: domino a1-b1; Yellow: a bent tricube on b1 and upright on c1.
        let pos = play(
            &rules,
            &[&[(0, 0, 0), (1, 0, 0)], &[(1, 0, 1), (2, 0, 1), (2, 0, 0)]],
        );
        let s = colour_scores(&rules, &pos);
        assert_eq!((s[0].visible, s[0].stones_left, s[0].points), (1, 10, -9));
        assert_eq!((s[1].visible, s[1].stones_left, s[1].points), (2, 10, -8));
        let r = results(&rules, &pos);
        assert_eq!((r[0].place, r[1].place), (2, 1));
        assert_eq!(margins(&rules, &pos), [-1.0, 1.0]);
    }

    #[test]
    fn equal_scores_share_a_place_and_best_colour_decides() {
        let site =
            Site::parse("name = t\nheights = 2:3 3:3 4:3\nfootprint =\noooo\noooo\n").unwrap();
        let rules = CubeRules::new(Seating::TwoWithFourColours, Arc::new(site));
        let pos = play(&rules, &[&[(0, 0, 0), (1, 0, 0)], &[(2, 0, 0), (3, 0, 0)]]);
        let r = results(&rules, &pos);
        // Blue 2 - 10 and Red -11: player 0 has -8; Yellow -8 and Green -11: player 1 -8.
        assert_eq!((r[0].score, r[1].score), (-8, -8));
        assert_eq!((r[0].place, r[1].place), (1, 1));
        assert!(Seating::TwoWithFourColours.best_colour_decides());
    }
}
