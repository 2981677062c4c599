//! Online events: each table's game is created when its round is paired (people hold
//! their seats' tokens, bots are AI seats), a finished game's result is entered at its
//! table with the game's last move, and an event that pairs by itself pairs its next
//! round as soon as the last result of a round is in, here and after a restart.

use blokus_core::{Game, RuleOptions, Rules};
use blokus_tournament::{EntrantKind, Round, TableResult};
use tokio::sync::mpsc;

use crate::clock::{now_ms, Clock};
use crate::error::AppError;
use crate::hub::Hub;
use crate::names::DisplayName;
use crate::room_game::RoomGame;
use crate::seats::{new_game_id, new_token, AiLevel, GameStatus, Seat, SeatKind};
use crate::store::{NewGame, NewGameAccounts, StoredTournament, TableGame, TournamentChanges};

/// The spec under which a bot of the web app is stored (the built-in search player).
pub fn bot_spec(level: AiLevel) -> String {
    format!("mcts:level={level}")
}

/// The AI level of a bot entrant, `None` for people and for specs the server cannot play.
pub fn bot_level(kind: &EntrantKind) -> Option<AiLevel> {
    match kind {
        EntrantKind::Bot { spec } => spec
            .strip_prefix("mcts:level=")
            .and_then(|l| l.parse::<u8>().ok())
            .and_then(|l| AiLevel::try_from(l).ok()),
        _ => None,
    }
}

/// A tournament's tables told to the pairing task when a result is in.
#[derive(Clone)]
pub struct TablesDone(mpsc::UnboundedSender<String>);

impl TablesDone {
    /// The sender and the receiver the pairing task ([`drive`]) reads.
    pub fn channel() -> (TablesDone, mpsc::UnboundedReceiver<String>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (TablesDone(tx), rx)
    }

    /// Tells the pairing task that a result of tournament `id` is in.
    pub fn send(&self, id: &str) {
        let _ = self.0.send(id.to_string());
    }
}

/// The pairing task of online events: first every online event (a restart may have come
/// between a round's last result and the next pairing), then each event whose result
/// came in.
pub async fn drive(hub: Hub, mut results_in: mpsc::UnboundedReceiver<String>) {
    if let Ok(ids) = hub.store.online_tournaments().await {
        for id in ids {
            let _ = advance(&hub, &id).await;
        }
    }
    while let Some(id) = results_in.recv().await {
        let _ = advance(&hub, &id).await;
    }
}

/// Whether an online event that pairs by itself has its next round due.
fn due(t: &StoredTournament) -> bool {
    t.online
        && t.auto_pair
        && !t.event.is_finished()
        && t.event.current_round().is_some_and(Round::is_complete)
}

/// Pairs the next round of an event that pairs by itself, if it is due, and starts its
/// games.
///
/// # Errors
/// When the event cannot be read or the round cannot be paired (it then waits for the
/// organiser).
pub async fn advance(hub: &Hub, id: &str) -> Result<(), AppError> {
    if !due(&hub.store.load_tournament(id.to_string()).await?) {
        return Ok(());
    }
    let (started, _) = hub
        .store
        .update_tournament(id.to_string(), |t, changes| {
            if !due(t) {
                return Ok(Vec::new());
            }
            pair_round(t, changes)
        })
        .await?;
    start_games(hub, &started).await;
    Ok(())
}

/// Pairs the next round; in an online event also creates each table's game. Answers the
/// games where an AI moves first (their rooms are to be started).
///
/// # Errors
/// The event's refusal.
pub fn pair_round(
    t: &mut StoredTournament,
    changes: &mut TournamentChanges,
) -> Result<Vec<String>, AppError> {
    let round = t.event.pair_next_round().map_err(super::refused)?.clone();
    if !t.online {
        return Ok(Vec::new());
    }
    let mut ai_first = Vec::new();
    for table in &round.tables {
        let (game, players) = table_game(t, &round, table.number)?;
        if game.ai_to_move {
            ai_first.push(game.id.clone());
        }
        changes.games.push(TableGame {
            round: round.number,
            table: table.number,
            game,
            players,
        });
    }
    Ok(ai_first)
}

/// The game of a table: a person's seat is claimed by a fresh seat token (the player's
/// device fetches it with the player's token, an account's devices find it in the
/// account), a bot's is an AI seat of its level; entrants who play from an account play
/// their seat from it, and every game of a rated event is rated. In a timed event the
/// first player's clock runs from the pairing: a player who does not come loses on time,
/// so the round still ends.
fn table_game(
    t: &StoredTournament,
    round: &Round,
    number: u32,
) -> Result<(NewGame, NewGameAccounts), AppError> {
    let (event, clock) = (&t.event, t.clock);
    let table = round
        .tables
        .iter()
        .find(|t| t.number == number)
        .ok_or_else(|| {
            AppError::Internal(format!("round {} has no table {number}", round.number))
        })?;
    let mut seats = Vec::new();
    let mut tokens = Vec::new();
    let mut players = NewGameAccounts {
        rated: t.rated,
        accounts: Vec::new(),
    };
    for (i, id) in table.seats.iter().enumerate() {
        let entrant = event.entrant(*id).map_err(super::refused)?;
        if let Some(account) = t.account_of(*id) {
            players.accounts.push((i, account));
        }
        match (&entrant.kind, bot_level(&entrant.kind)) {
            (EntrantKind::Person, _) => {
                tokens.push((new_token(), i));
                seats.push(Seat {
                    claimed: true,
                    name: seat_name(&entrant.name),
                    ..Seat::new(SeatKind::Human, None)
                });
            }
            (EntrantKind::Bot { .. }, Some(level)) => seats.push(Seat {
                name: seat_name(&entrant.name),
                ..Seat::new(SeatKind::Ai, Some(level))
            }),
            _ => {
                return Err(AppError::Conflict(format!(
                    "{} cannot play in the web app (only people and bots by AI level)",
                    entrant.name
                )))
            }
        }
    }
    let rules = Rules::new(table.variant.variant(), RuleOptions::default());
    let game = RoomGame::Flat(Game::new(rules));
    let ai_to_move = crate::room::ai_to_move(&game, &seats);
    let clock = clock.map(|control| {
        let mut c = Clock::new(control, seats.len());
        c.start(game.player_to_move().unwrap_or(0), now_ms());
        c
    });
    let game = NewGame {
        id: new_game_id(),
        variant: table.variant.to_string(),
        options: serde_json::to_string(&RuleOptions::default()).expect("options serialise"),
        status: GameStatus::of(false, &seats),
        seats,
        ai_to_move,
        tokens,
        clock,
    };
    Ok((game, players))
}

/// The name shown at a table for an entrant: the entrant's own name (online events take
/// only names that are display names, see [`super::check_online_name`]).
fn seat_name(name: &str) -> Option<DisplayName> {
    DisplayName::try_from(name.to_string()).ok()
}

/// Starts the rooms of new games where an AI moves first (the others wait for their
/// players). A game that cannot start now is resumed by the next restart or visit.
pub async fn start_games(hub: &Hub, ids: &[String]) {
    for id in ids {
        let _ = hub.room(id).await;
    }
}

/// The result of a finished game, seat by seat: each player's side's score, and places
/// ranking the seats (teammates share their side's place, the next place skips them).
pub fn game_result(game: &Game) -> TableResult {
    let rules = game.rules();
    let v = rules.v();
    let sides = game.results();
    let of = |p: usize| &sides[v.side_of_player(blokus_core::PlayerId::new(p)).index()];
    let seats = v.players;
    let scores: Vec<i32> = (0..seats).map(|p| of(p).score).collect();
    let places: Vec<u32> = (0..seats)
        .map(|p| 1 + (0..seats).filter(|&o| of(o).place < of(p).place).count() as u32)
        .collect();
    TableResult::with_places(scores, places).expect("places of a finished game rank the seats")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_are_stored_by_level_and_read_back() {
        let level = AiLevel::try_from(2).unwrap();
        let kind = EntrantKind::Bot {
            spec: bot_spec(level),
        };
        assert_eq!(bot_level(&kind), Some(level));
        assert_eq!(bot_level(&EntrantKind::Person), None);
        let odd = EntrantKind::Bot {
            spec: "greedy".into(),
        };
        assert_eq!(bot_level(&odd), None);
    }

    #[test]
    fn a_finished_game_ranks_its_seats() {
        let mut game = Game::new(Rules::by_name("duo").unwrap());
        while !game.is_over() {
            let mv = game.legal_moves()[0];
            let c = game.to_move();
            game.play_as(c, mv).unwrap();
        }
        let TableResult::Played { scores, places } = game_result(&game) else {
            panic!("a played game");
        };
        assert_eq!(scores.len(), 2);
        let best = if scores[0] >= scores[1] { 0 } else { 1 };
        assert_eq!(places[best], 1);
    }
}
