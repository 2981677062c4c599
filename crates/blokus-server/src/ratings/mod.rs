//! Ratings of account holders: per variant family, Glicko-2 for two players and
//! Weng-Lin for more players and teams ([`update`]), computer seats at fixed calibrated
//! ratings ([`ai`]). A game is rated if its creator asked for it; when it ends, its
//! players' ratings change exactly once ([`crate::store::Store::settle_game`]), also
//! after a crash (the start-up sweep, [`settle_pending`]). Games in which some side
//! placed fewer than two pieces are aborted and not rated.

pub mod ai;
pub mod pool;
pub mod routes;
pub mod update;

use blokus_core::cube::CubeGame;
use blokus_core::{Game, GameEvent, PlayerId};
use serde::Serialize;

use crate::accounts::AccountId;
use crate::error::AppError;
use crate::seats::AiLevel;
use crate::store::{GameSummary, Store};
use pool::{Pool, RatingSystem};
use update::Rating;

/// Rated games in a pool before a rating is established; until then it is shown as
/// provisional (with a `?`) and the deviation is still large.
pub const PROVISIONAL_GAMES: i64 = 10;

/// Fewer placements than this by any side make a finished game aborted (not rated).
pub const MIN_PLACEMENTS_PER_SIDE: usize = 2;

/// Whether a rating after `games` rated games is provisional.
pub fn is_provisional(games: i64) -> bool {
    games < PROVISIONAL_GAMES
}

/// A rating as people see it: rounded, with its games and whether it is provisional.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ShownRating {
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Rated games in the pool.
    pub games: i64,
    /// Fewer than [`PROVISIONAL_GAMES`] games.
    pub provisional: bool,
}

impl ShownRating {
    /// A stored rating after `games` rated games, as shown.
    pub fn of(value: Rating, games: i64) -> ShownRating {
        ShownRating {
            rating: value.rating.round() as i64,
            deviation: value.deviation.round() as i64,
            games,
            provisional: is_provisional(games),
        }
    }
}

/// Who plays a seat of a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Participant {
    /// An account, with its rating before the game.
    Account(AccountId, Rating),
    /// The computer at a level (fixed rating).
    Ai(AiLevel),
    /// Nobody's account: the game cannot be rated.
    Guest,
}

impl Participant {
    fn rating(self) -> Rating {
        match self {
            Participant::Account(_, r) => r,
            Participant::Ai(level) => Rating::fixed(ai::ai_rating(level), ai::AI_DEVIATION),
            Participant::Guest => update::START,
        }
    }
}

/// What settling a game did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Settlement {
    /// Not a rated game.
    NotRated,
    /// Settled before: nothing changed.
    AlreadySettled,
    /// Not over yet.
    NotOver,
    /// Over too early (a side with fewer than two placements), or with a seat nobody's
    /// account plays: marked settled without rating changes.
    Aborted,
    /// The ratings of this many accounts changed.
    Rated(usize),
}

/// What rating needs of a finished game, whatever its board: its pool, the side each
/// player plays for, how many pieces each side placed and each side's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The pool the game counts for.
    pub pool: Pool,
    /// The side (0-based) of each player.
    pub side_of_player: Vec<usize>,
    /// Pieces placed by each side.
    pub placements: Vec<usize>,
    /// Each side's 1-based place (equal places are ties).
    pub places: Vec<usize>,
}

impl Outcome {
    /// The outcome of a flat game.
    pub fn of_flat(game: &Game) -> Outcome {
        let v = game.rules().v();
        let side_of_player: Vec<usize> = (0..v.players)
            .map(|p| v.side_of_player(PlayerId::new(p)).index())
            .collect();
        let mut placements = vec![0usize; v.num_sides()];
        for (n, e) in game.events().iter().enumerate() {
            if matches!(e, GameEvent::Place { .. }) {
                placements[side_of_player[crate::view::event_player(game, n)]] += 1;
            }
        }
        let mut places = vec![0usize; v.num_sides()];
        for r in game.results() {
            places[r.side.index()] = r.place;
        }
        Outcome {
            pool: Pool::of(v),
            side_of_player,
            placements,
            places,
        }
    }

    /// The outcome of a Blokus 3D game: each player is a side (with two colours in
    /// `rumis_2x4`, its placements are those of both).
    pub fn of_cube(game: &CubeGame) -> Outcome {
        let seating = game.rules().seating();
        let players = seating.players();
        let mut placements = vec![0usize; players];
        for (colour, _) in game.moves() {
            placements[seating.player_of(*colour).index()] += 1;
        }
        let mut places = vec![0usize; players];
        for r in game.results() {
            places[r.player.index()] = r.place;
        }
        Outcome {
            pool: Pool::cube(players),
            side_of_player: (0..players).collect(),
            placements,
            places,
        }
    }

    /// The outcome of a game of either board.
    pub fn of(game: &crate::room_game::RoomGame) -> Outcome {
        match game {
            crate::room_game::RoomGame::Flat(g) => Outcome::of_flat(g),
            crate::room_game::RoomGame::Cube(g) => Outcome::of_cube(g),
        }
    }
}

/// The new ratings of the accounts of a finished game, seat by seat as `participants`;
/// `None` when the game is not to be rated (aborted, or a guest at the table).
pub fn compute(game: &Outcome, participants: &[Participant]) -> Option<Vec<(AccountId, Rating)>> {
    let players = game.side_of_player.len();
    if participants.len() != players || participants.contains(&Participant::Guest) {
        return None;
    }
    let side_of = |p: usize| game.side_of_player[p];
    if game.placements.iter().any(|&n| n < MIN_PLACEMENTS_PER_SIDE) {
        return None;
    }
    let places = &game.places;
    let new: Vec<Rating> = match game.pool.system {
        RatingSystem::Glicko2 => {
            let (a, b) = (participants[0], participants[1]);
            let score = match places[side_of(0)].cmp(&places[side_of(1)]) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            let (ra, rb) = update::two_players(a.rating(), b.rating(), score);
            vec![ra, rb]
        }
        RatingSystem::WengLin => {
            let mut members: Vec<Vec<usize>> = vec![Vec::new(); places.len()];
            for p in 0..players {
                members[side_of(p)].push(p);
            }
            let sides: Vec<Vec<Rating>> = members
                .iter()
                .map(|m| m.iter().map(|&p| participants[p].rating()).collect())
                .collect();
            let after = update::multi(&sides, places);
            let mut new = vec![update::START; players];
            for (m, ratings) in members.iter().zip(after) {
                for (&p, r) in m.iter().zip(ratings) {
                    new[p] = r;
                }
            }
            new
        }
    };
    Some(
        participants
            .iter()
            .zip(new)
            .filter_map(|(p, r)| match p {
                Participant::Account(a, _) => Some((*a, r)),
                _ => None,
            })
            .collect(),
    )
}

/// Settles a game whose end was just stored. A failure is reported on stderr and left
/// to the start-up sweep.
pub async fn settle(store: Store, game_id: String) {
    if let Err(e) = store.settle_game(game_id.clone()).await {
        eprintln!("blokus: rating game {game_id} failed (retried at the next start): {e}");
    }
}

/// Settles every finished rated game that is not settled yet (after a crash between a
/// game's last move and its rating).
pub async fn settle_pending(store: Store) {
    let Ok(ids) = store.unsettled_games().await else {
        return;
    };
    for id in ids {
        settle(store.clone(), id).await;
    }
}

/// The rating of a seat played from an account, as shown next to its name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatRating {
    /// The seat.
    pub seat: usize,
    /// The account's rating in the game's pool, rounded (1500 before its first game).
    pub rating: i64,
    /// Whether it is provisional (shown with a `?`).
    pub provisional: bool,
}

/// Puts next to each seat played from an account its rating in the game's pool, in
/// every game of `lists` (the lobby's lists), with one database query.
///
/// # Errors
/// If the database fails.
pub async fn annotate(store: &Store, lists: &mut [&mut Vec<GameSummary>]) -> Result<(), AppError> {
    let ids: Vec<String> = lists
        .iter()
        .flat_map(|l| l.iter().map(|g| g.id.clone()))
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    let rows = store.seat_ratings(ids).await?;
    for game in lists.iter_mut().flat_map(|l| l.iter_mut()) {
        let Some(pool) = Pool::of_variant(&game.variant).map(Pool::id) else {
            continue;
        };
        let mut seats: Vec<SeatRating> = Vec::new();
        for row in rows.iter().filter(|r| r.game == game.id) {
            let here = row.pool.as_deref() == Some(pool.as_str());
            match seats.iter_mut().find(|s| s.seat == row.seat) {
                // Another pool's rating was seen first: this one is the game's.
                Some(s) if here => {
                    s.rating = row.rating.round() as i64;
                    s.provisional = is_provisional(row.games);
                }
                Some(_) => {}
                None => seats.push(SeatRating {
                    seat: row.seat,
                    rating: if here {
                        row.rating
                    } else {
                        update::START.rating
                    }
                    .round() as i64,
                    provisional: !here || is_provisional(row.games),
                }),
            }
        }
        seats.sort_by_key(|s| s.seat);
        game.ratings = seats;
    }
    Ok(())
}
