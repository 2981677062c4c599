//! One game at one table: a variant and a player at each seat, played to the end, with
//! each seat's result.

use blokus_ai::Decision;
use blokus_core::{score, Game, PlayerId, Rules, Side};

use crate::engine::{Contestant, EngineSpec};
use crate::ArenaError;

/// A table: the rules of the game and who sits at each seat. Seat *i* plays player *i*
/// of the variant (its colours, in `classic_2` two of them).
#[derive(Clone)]
pub struct Table {
    rules: Rules,
    seats: Vec<EngineSpec>,
}

impl Table {
    /// A table of `rules` with one player per seat.
    ///
    /// # Errors
    /// [`ArenaError::Config`] if the number of seats is not the variant's number of
    /// players; [`ArenaError::Spec`] for an invalid built-in spec.
    pub fn new(rules: Rules, seats: Vec<EngineSpec>) -> Result<Table, ArenaError> {
        let players = rules.v().players;
        if seats.len() != players {
            return Err(ArenaError::Config(format!(
                "{} has {players} players, but {} seats were given",
                rules.v().id,
                seats.len()
            )));
        }
        for s in &seats {
            s.validate()?;
        }
        Ok(Table { rules, seats })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The player at each seat.
    pub fn seats(&self) -> &[EngineSpec] {
        &self.seats
    }
}

/// How a seat ended a game early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LossKind {
    /// It resigned (two-player games only).
    Resigned,
    /// It broke the rules: an illegal move, a pie choice when a move was due, or a
    /// resignation in a game of more than two players. The reason is the rules' text.
    Forfeited(String),
}

/// A seat that lost the game by resigning or forfeiting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// The seat.
    pub seat: PlayerId,
    /// How.
    pub kind: LossKind,
}

impl std::fmt::Display for LossKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LossKind::Resigned => f.write_str("resigned"),
            LossKind::Forfeited(why) => write!(f, "forfeited: {why}"),
        }
    }
}

/// One seat's result. Teammates (`classic_teams`) get their side's result each.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    /// The seat's side (its team, or itself when there are no teams).
    pub side: Side,
    /// The side's score by the variant's scoring (the position's score, also after a
    /// resignation or forfeit).
    pub score: i32,
    /// The side's place, 1 = first; tied sides share a place. After a loss the losing
    /// side is last and the others are placed by score among themselves.
    pub place: usize,
    /// The side's share of the win in [0, 1]: sides sharing first place split it.
    pub points: f64,
}

/// A finished game: the record and every seat's result.
#[derive(Clone)]
pub struct TableResult {
    /// The game as played (a `.blksgf` record with [`blokus_core::record::blksgf`]).
    pub game: Game,
    /// Each seat's result, by seat.
    pub seats: Vec<SeatResult>,
    /// The seat that resigned or forfeited, if the game did not end normally.
    pub lost_by: Option<Loss>,
}

impl TableResult {
    /// The result of one seat.
    pub fn seat(&self, seat: PlayerId) -> &SeatResult {
        &self.seats[seat.index()]
    }
}

/// Plays one game at `table`: starts a player for each seat (with a seed derived from
/// `seed` and its seat: a built-in player unless its spec sets one, an external engine
/// if it knows `set_random_seed`; an engine is told the game and stopped at the end),
/// plays to the end and scores.
///
/// # Errors
/// A player that cannot be started or an engine that stops answering (a rule
/// violation is not an error: it ends the game with [`TableResult::lost_by`]).
pub fn play_game(table: &Table, seed: u64) -> Result<TableResult, ArenaError> {
    let mut players = Vec::with_capacity(table.seats.len());
    for (i, spec) in table.seats.iter().enumerate() {
        players.push(Contestant::start(
            spec,
            blokus_core::seed::mix(seed, i as u64 + 1),
        )?);
    }
    let engine_of_seat: Vec<usize> = (0..players.len()).collect();
    let result = play_seated(&table.rules, &mut players, &engine_of_seat);
    for p in players {
        p.finish();
    }
    result
}

/// Plays one game with started players: seat *i* is played by
/// `players[engine_of_seat[i]]` (one player may hold several seats).
pub(crate) fn play_seated(
    rules: &Rules,
    players: &mut [Contestant],
    engine_of_seat: &[usize],
) -> Result<TableResult, ArenaError> {
    for p in players.iter_mut() {
        p.new_game(rules)?;
    }
    let mut game = Game::new(rules.clone());
    let mut lost_by = None;
    while !game.is_over() {
        let seat = game.position().player_to_move(rules);
        let decision = players[engine_of_seat[seat.index()]].decide(&game)?;
        let result = match decision {
            Decision::Place(m) => game.play(m).map_err(|err| err.to_string()),
            Decision::Pie(c) if game.position().awaiting_pie_choice() => {
                game.choose_pie(c).map_err(|err| err.to_string())
            }
            Decision::Pie(_) => Err("a pie choice when a move was due".to_string()),
            Decision::Resign if rules.v().players == 2 => {
                lost_by = Some(Loss {
                    seat,
                    kind: LossKind::Resigned,
                });
                break;
            }
            Decision::Resign => Err("resigned in a game of more than two players".into()),
        };
        if let Err(why) = result {
            lost_by = Some(Loss {
                seat,
                kind: LossKind::Forfeited(why),
            });
            break;
        }
    }
    let seats = seat_results(rules, &game, lost_by.as_ref());
    Ok(TableResult {
        game,
        seats,
        lost_by,
    })
}

/// Every seat's result: the position's places and win shares, except that a losing
/// side is last with nothing and the others are ranked among themselves.
fn seat_results(rules: &Rules, game: &Game, lost_by: Option<&Loss>) -> Vec<SeatResult> {
    let v = rules.v();
    let mut sides = score::side_results(rules, game.position());
    if let Some(loss) = lost_by {
        let loser = v.side_of_player(loss.seat);
        let key = |s: &score::SideResult| (s.score, -s.tiebreak);
        let others: Vec<_> = sides.iter().filter(|s| s.side != loser).map(key).collect();
        let n = sides.len();
        for s in &mut sides {
            s.place = if s.side == loser {
                n
            } else {
                1 + others.iter().filter(|&&o| o > key(s)).count()
            };
        }
    }
    let winners = sides.iter().filter(|s| s.place == 1).count().max(1) as f64;
    PlayerId::all(v.players)
        .map(|p| {
            let s = &sides[v.side_of_player(p).index()];
            SeatResult {
                side: s.side,
                score: s.score,
                place: s.place,
                points: if s.place == 1 { 1.0 / winners } else { 0.0 },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GTP engine that accepts everything and always answers `genmove` with `a1`,
    /// an illegal move after the opening.
    const STUBBORN: &str = r#"sh -c 'while read l; do case "$l" in genmove*) printf "= a1\n\n";; quit*) printf "=\n\n"; exit;; *) printf "=\n\n";; esac; done'"#;

    fn table(variant: &str, seats: &[&str]) -> Table {
        let rules = Rules::by_name(variant).unwrap();
        Table::new(rules, seats.iter().map(|s| EngineSpec::parse(s)).collect()).unwrap()
    }

    #[test]
    fn three_seats_play_to_the_end_with_consistent_places() {
        for variant in ["classic_3", "trigon_3"] {
            let t = table(variant, &["greedy", "random", "greedy"]);
            let r = play_game(&t, 5).unwrap();
            assert!(r.game.is_over() && r.lost_by.is_none(), "{variant}");
            assert_eq!(r.seats.len(), 3);
            let best = r.seats.iter().map(|s| s.score).max().unwrap();
            for s in &r.seats {
                assert_eq!(s.place == 1, s.score == best, "{variant}: {:?}", r.seats);
                assert_eq!(
                    s.place,
                    1 + r.seats.iter().filter(|o| o.score > s.score).count()
                );
            }
            let total: f64 = r.seats.iter().map(|s| s.points).sum();
            assert!((total - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn teammates_share_their_side_result() {
        let t = table("classic_teams", &["greedy", "random", "greedy", "random"]);
        let r = play_game(&t, 2).unwrap();
        assert_eq!(r.seats[0], r.seats[2]);
        assert_eq!(r.seats[1], r.seats[3]);
        assert_ne!(r.seats[0].side, r.seats[1].side);
    }

    #[test]
    fn an_illegal_move_forfeits_and_the_others_are_ranked_among_themselves() {
        let t = table("classic", &["greedy", "greedy", STUBBORN, "random"]);
        let r = play_game(&t, 1).unwrap();
        let loss = r.lost_by.clone().expect("the stub plays a1 too late");
        assert_eq!(loss.seat, PlayerId(2));
        assert!(
            matches!(&loss.kind, LossKind::Forfeited(why) if !why.is_empty()),
            "{loss:?}"
        );
        assert_eq!(r.seat(PlayerId(2)).place, 4);
        assert_eq!(r.seat(PlayerId(2)).points, 0.0);
        let mut places: Vec<usize> = r.seats.iter().map(|s| s.place).collect();
        places.sort();
        assert_eq!(places[0], 1);
        assert!(places[..3].iter().all(|&p| p <= 3));
        let total: f64 = r.seats.iter().map(|s| s.points).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }

    #[test]
    fn wrong_seat_counts_and_bad_specs_are_refused() {
        let rules = Rules::by_name("classic").unwrap();
        let e = Table::new(rules.clone(), vec![EngineSpec::parse("greedy"); 2])
            .err()
            .unwrap();
        assert!(e.to_string().contains("4 players, but 2 seats"), "{e}");
        let mut seats = vec![EngineSpec::parse("greedy"); 4];
        seats[3] = EngineSpec::parse("mcts:levle=2");
        let e = Table::new(rules, seats).err().unwrap();
        assert!(e.to_string().contains("levle"), "{e}");
    }

    #[test]
    fn an_engine_that_cannot_start_is_an_error() {
        let t = table("duo", &["greedy", "/nonexistent/engine"]);
        let e = play_game(&t, 1).err().unwrap();
        assert!(e.to_string().contains("cannot start engine"), "{e}");
    }
}
