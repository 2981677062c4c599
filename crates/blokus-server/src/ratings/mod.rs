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

use blokus_core::{Game, GameEvent, PlayerId};
use serde::Serialize;

use crate::accounts::AccountId;
use crate::seats::AiLevel;
use crate::store::Store;
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

/// The new ratings of the accounts of a finished game, seat by seat as `participants`;
/// `None` when the game is not to be rated (aborted, or a guest at the table).
pub fn compute(game: &Game, participants: &[Participant]) -> Option<Vec<(AccountId, Rating)>> {
    let v = game.rules().v();
    if participants.len() != v.players || participants.contains(&Participant::Guest) {
        return None;
    }
    let side_of = |p: usize| v.side_of_player(PlayerId::new(p)).index();
    let mut placements = vec![0usize; v.num_sides()];
    for (n, e) in game.events().iter().enumerate() {
        if matches!(e, GameEvent::Place { .. }) {
            placements[side_of(crate::view::event_player(game, n))] += 1;
        }
    }
    if placements.iter().any(|&n| n < MIN_PLACEMENTS_PER_SIDE) {
        return None;
    }
    let mut places = vec![0usize; v.num_sides()];
    for r in game.results() {
        places[r.side.index()] = r.place;
    }
    let new: Vec<Rating> = match Pool::of(v).system {
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
            let mut members: Vec<Vec<usize>> = vec![Vec::new(); v.num_sides()];
            for p in 0..v.players {
                members[side_of(p)].push(p);
            }
            let sides: Vec<Vec<Rating>> = members
                .iter()
                .map(|m| m.iter().map(|&p| participants[p].rating()).collect())
                .collect();
            let after = update::multi(&sides, &places);
            let mut new = vec![update::START; v.players];
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
