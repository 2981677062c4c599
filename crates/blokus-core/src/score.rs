//! Scores and results (SPEC 6).

use crate::ids::{Colour, PlayerId, Side};
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::Scoring;

/// Bonus for placing every piece.
pub const ALL_PLACED_BONUS: i32 = 15;
/// Extra bonus when the last piece placed was the one-cell piece.
pub const MONOMINO_LAST_BONUS: i32 = 5;

/// The score breakdown of one colour.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ColourScore {
    /// The colour.
    pub colour: Colour,
    /// Pieces placed.
    pub pieces_placed: usize,
    /// Cells placed.
    pub cells_placed: usize,
    /// Cells of the pieces not placed.
    pub cells_remaining: usize,
    /// +15 for placing all pieces.
    pub all_placed_bonus: i32,
    /// +5 if the monomino was placed last (with all pieces placed).
    pub monomino_bonus: i32,
    /// The rules' points: -cells left + bonuses (Standard scoring).
    pub points: i32,
    /// `.blksgf` convention points: cells placed + bonuses.
    pub blksgf_points: i32,
    /// Whether this colour's score counts (Green in `classic_3` does not).
    pub counted: bool,
}

/// A side's (player's or team's) result.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SideResult {
    /// The side (player, or team where there are teams).
    pub side: Side,
    /// The side's score under the variant's result rule: points (Standard), pieces
    /// placed (Junior) or cells placed (Polyomino).
    pub score: i32,
    /// Junior tie-break: cells remaining (fewer is better); 0 elsewhere.
    pub tiebreak: i32,
    /// 1-based finishing place; equal results share a place.
    pub place: usize,
}

/// The breakdown of every colour of a position.
pub fn colour_scores(rules: &Rules, pos: &Position) -> Vec<ColourScore> {
    let one = rules.table().pieces().find("1");
    Colour::all(rules.num_colours())
        .map(|c| {
            let remaining = pos.cells_remaining(rules, c);
            let all = pos.all_placed(rules, c) && !rules.v().shared_pool;
            let all_bonus = if all { ALL_PLACED_BONUS } else { 0 };
            let mono = if all && pos.last_piece(c).is_some() && pos.last_piece(c) == one {
                MONOMINO_LAST_BONUS
            } else {
                0
            };
            ColourScore {
                colour: c,
                pieces_placed: pos.pieces_placed(c),
                cells_placed: pos.cells_placed(c),
                cells_remaining: remaining,
                all_placed_bonus: all_bonus,
                monomino_bonus: mono,
                points: -(remaining as i32) + all_bonus + mono,
                blksgf_points: pos.cells_placed(c) as i32 + all_bonus + mono,
                counted: rules.v().scored[c.index()],
            }
        })
        .collect()
}

/// The side a colour's score counts for (`None` for an uncounted colour).
pub fn side_of_colour(rules: &Rules, pos: &Position, colour: Colour) -> Option<Side> {
    rules.v().scored[colour.index()].then(|| rules.v().side_of_player(pos.player_of(rules, colour)))
}

/// Each side's result, with places.
pub fn side_results(rules: &Rules, pos: &Position) -> Vec<SideResult> {
    let v = rules.v();
    let n = v.num_sides();
    let mut score = vec![0i32; n];
    let mut tiebreak = vec![0i32; n];
    for cs in colour_scores(rules, pos) {
        let Some(side) = side_of_colour(rules, pos, cs.colour).map(Side::index) else {
            continue;
        };
        match v.scoring {
            Scoring::Standard => score[side] += cs.points,
            Scoring::Junior => {
                score[side] += cs.pieces_placed as i32;
                tiebreak[side] += cs.cells_remaining as i32;
            }
            Scoring::Polyomino => score[side] += cs.cells_placed as i32,
        }
    }
    // With two players, running out of time loses whatever the score.
    let lost_on_time = |s: usize| {
        v.players == 2
            && PlayerId::all(v.players)
                .any(|p| pos.has_timed_out(p) && v.side_of_player(p).index() == s)
    };
    let key = |s: usize| (!lost_on_time(s), score[s], -tiebreak[s]);
    (0..n)
        .map(|s| SideResult {
            side: Side::new(s),
            score: score[s],
            tiebreak: tiebreak[s],
            place: 1 + (0..n).filter(|&o| key(o) > key(s)).count(),
        })
        .collect()
}

/// Each side's share of the win in [0, 1]: sides sharing first place split it equally.
pub fn win_shares(rules: &Rules, pos: &Position) -> Vec<f64> {
    let r = side_results(rules, pos);
    let winners = r.iter().filter(|s| s.place == 1).count() as f64;
    r.iter()
        .map(|s| if s.place == 1 { 1.0 / winners } else { 0.0 })
        .collect()
}

/// The side name for people: the player's colours or the team's.
pub fn side_name(rules: &Rules, side: Side) -> String {
    let v = rules.v();
    let colours: Vec<&str> = (0..v.colours.len())
        .filter(|&c| match &v.seats[c] {
            crate::variant::Seat::Player(p) => v.side_of_player(*p) == side,
            crate::variant::Seat::Rotating(_) => false,
        })
        .map(|c| v.colours[c])
        .collect();
    if v.pie {
        format!("player {}", side.index() + 1)
    } else {
        colours.join("+")
    }
}
