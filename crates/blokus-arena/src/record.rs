//! Games of a table or match as `.blksgf` records naming who played each seat.

use blokus_core::record::blksgf;
use blokus_core::record::sgf::{self, Property};

use crate::matches::MatchGame;
use crate::table::{LossKind, TableResult};

/// One game as a `.blksgf` game tree: `PB`/`PW` (two players) or a comment naming each
/// seat's player, the `extra` root properties (such as `GN`, `EV`, `RO`), and `RE`: the
/// final score, or after a resignation or forfeit in a two-player game SGF's
/// `B+R`/`W+R`/`B+F`/`W+F` (the winner, then how), with the reason in a comment.
pub fn to_tree(result: &TableResult, seat_names: &[&str], extra: Vec<Property>) -> sgf::GameTree {
    let game = &result.game;
    let rules = game.rules();
    let two_players = rules.v().players == 2;
    let mut props = Vec::new();
    let mut comments = Vec::new();
    if two_players {
        props.push(Property::new("PB", seat_names[0]));
        props.push(Property::new("PW", seat_names[1]));
    } else {
        comments.extend(
            seat_names
                .iter()
                .enumerate()
                .map(|(p, name)| format!("player {}: {name}", p + 1)),
        );
    }
    let result_text = match &result.lost_by {
        Some(loss) => {
            comments.push(format!("{} {}", seat_names[loss.seat.index()], loss.kind));
            if two_players {
                let winner = if loss.seat.index() == 0 { "W" } else { "B" };
                let how = match loss.kind {
                    LossKind::Resigned => "R",
                    LossKind::Forfeited(_) => "F",
                };
                format!("{winner}+{how}")
            } else {
                blokus_core::record::result_text(rules, game.position())
            }
        }
        None => blokus_core::record::result_text(rules, game.position()),
    };
    if !comments.is_empty() {
        props.push(Property::new("C", comments.join("; ")));
    }
    props.extend(extra);
    props.push(Property::new("RE", result_text));
    blksgf::to_tree(game, &props)
}

/// Every game of a match as one `.blksgf` collection in game order, with the engines
/// (`engine_names`) as player names and `game N` as game name.
pub fn match_to_blksgf(engine_names: &[&str], games: &[MatchGame]) -> String {
    let trees: Vec<_> = games
        .iter()
        .map(|g| {
            let seats: Vec<&str> = g.engine_of_seat.iter().map(|&e| engine_names[e]).collect();
            let name = Property::new("GN", format!("game {}", g.index + 1));
            to_tree(&g.result, &seats, vec![name])
        })
        .collect();
    sgf::write(&trees)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Loss, SeatResult};
    use blokus_core::{Game, PlayerId, Rules, Side};

    #[test]
    fn a_resignation_is_recorded_as_the_winner_plus_r() {
        let rules = Rules::by_name("duo").unwrap();
        let result = |seat: u8| TableResult {
            game: Game::new(rules.clone()),
            seats: vec![
                SeatResult {
                    side: Side(0),
                    score: 0,
                    place: 1,
                    points: 1.0
                };
                2
            ],
            lost_by: Some(Loss {
                seat: PlayerId(seat),
                kind: LossKind::Resigned,
            }),
        };
        // Engine a plays Blue (B) and resigns: White wins; seated the other way, Black.
        let games = [
            MatchGame {
                index: 0,
                engine_of_seat: vec![0, 1],
                result: result(0),
            },
            MatchGame {
                index: 1,
                engine_of_seat: vec![1, 0],
                result: result(1),
            },
        ];
        let text = match_to_blksgf(&["a", "b"], &games);
        let trees = sgf::parse(&text).unwrap();
        let re = |i: usize| trees[i].nodes[0].get("RE").map(str::to_string);
        assert_eq!(re(0).as_deref(), Some("W+R"), "{text}");
        assert_eq!(re(1).as_deref(), Some("B+R"), "{text}");
        assert!(text.contains("C[a resigned]"), "{text}");
        assert!(
            text.contains("PB[b]PW[a]") || text.contains("PW[a]"),
            "{text}"
        );
    }
}
