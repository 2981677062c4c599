//! Tournaments in the database: one row per event, its JSON rewritten by each action in
//! the same transaction that read it, so an action is applied whole or not at all (a
//! `kill -9` between two actions loses neither). Online events also keep their players'
//! device tokens and the game of each table; a round's games are created in the
//! transaction that pairs it, and a game's result is entered in the transaction of its
//! last move.

use blokus_tournament::{EntrantId, Event, TableResult};
use rusqlite::{params, Connection, OptionalExtension, Transaction};

use super::{insert_game, now, NewGame, Store};
use crate::clock::TimeControl;
use crate::error::AppError;
use crate::seats::GameStatus;

fn corrupt(id: &str, e: serde_json::Error) -> AppError {
    AppError::Internal(format!("stored tournament {id}: {e}"))
}

/// A tournament as stored.
#[derive(Clone, Debug)]
pub struct StoredTournament {
    /// The event.
    pub event: Event,
    /// The organiser's secret token.
    pub organiser_token: String,
    /// Whether its games are played in the web app.
    pub online: bool,
    /// Online: whether the next round is paired when the last game of a round ends.
    pub auto_pair: bool,
    /// Online: the time control of every table's game (`None`: untimed).
    pub clock: Option<TimeControl>,
}

/// What an action writes besides the event itself, in the same transaction.
#[derive(Default)]
pub struct TournamentChanges {
    /// Games to create, one per table.
    pub games: Vec<TableGame>,
    /// Device tokens to store, for these entrants.
    pub players: Vec<(String, EntrantId)>,
}

/// The game of one table.
pub struct TableGame {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The game.
    pub game: NewGame,
}

/// The table a game is played at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableLink {
    /// The tournament.
    pub tournament: String,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
}

/// One table's game as listed with its tournament.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TableGameRow {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The game id.
    pub game: String,
    /// Where the game stands.
    pub status: GameStatus,
    /// Events played so far.
    pub plies: i64,
}

/// Reads a tournament.
fn read(c: &Connection, id: &str) -> Result<StoredTournament, AppError> {
    let (json, organiser_token, online, auto_pair, clock): (
        String,
        String,
        bool,
        bool,
        Option<String>,
    ) = c
        .query_row(
            "SELECT event, organiser_token, online, auto_pair, clock FROM tournaments
             WHERE id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?
        .ok_or_else(|| {
            AppError::NotFound(format!(
                "no tournament '{}'",
                id.chars().take(40).collect::<String>()
            ))
        })?;
    let event = serde_json::from_str(&json).map_err(|e| corrupt(id, e))?;
    let clock = clock
        .map(|j| serde_json::from_str(&j))
        .transpose()
        .map_err(|e| corrupt(id, e))?;
    Ok(StoredTournament {
        event,
        organiser_token,
        online,
        auto_pair,
        clock,
    })
}

fn write_event(tx: &Transaction<'_>, id: &str, event: &Event) -> Result<(), AppError> {
    let json = serde_json::to_string(event).map_err(|e| corrupt(id, e))?;
    tx.execute(
        "UPDATE tournaments SET event = ?2, updated = ?3 WHERE id = ?1",
        params![id, json, now()],
    )?;
    Ok(())
}

fn write_changes(tx: &Transaction<'_>, id: &str, ch: TournamentChanges) -> Result<(), AppError> {
    for (token, entrant) in ch.players {
        tx.execute(
            "INSERT INTO tournament_players(token, tournament_id, entrant) VALUES (?1, ?2, ?3)",
            params![token, id, entrant.0],
        )?;
    }
    for g in ch.games {
        tx.execute(
            "INSERT INTO tournament_games(game_id, tournament_id, round, table_no)
             VALUES (?1, ?2, ?3, ?4)",
            params![g.game.id, id, g.round, g.table],
        )?;
        insert_game(tx, &g.game)?;
    }
    Ok(())
}

/// The table a game is played at, if any.
pub(super) fn link_of_game(c: &Connection, game: &str) -> Result<Option<TableLink>, AppError> {
    Ok(c.query_row(
        "SELECT tournament_id, round, table_no FROM tournament_games WHERE game_id = ?1",
        params![game],
        |r| {
            Ok(TableLink {
                tournament: r.get(0)?,
                round: r.get(1)?,
                table: r.get(2)?,
            })
        },
    )
    .optional()?)
}

/// Enters a finished game's result at its table, if the table still waits for one in the
/// current round (a result the organiser entered by hand stands). Returns whether it did.
pub(super) fn enter_game_result(
    tx: &Transaction<'_>,
    link: &TableLink,
    result: TableResult,
) -> Result<bool, AppError> {
    let mut t = read(tx, &link.tournament)?;
    let pending = t.event.current_round().is_some_and(|r| {
        r.number == link.round
            && r.tables
                .iter()
                .any(|tb| tb.number == link.table && tb.result.is_none())
    });
    if !pending
        || t.event
            .record_result(link.round, link.table, result)
            .is_err()
    {
        return Ok(false);
    }
    write_event(tx, &link.tournament, &t.event)?;
    Ok(true)
}

impl Store {
    /// Stores a new tournament with its first players' device tokens.
    pub async fn create_tournament(
        &self,
        id: String,
        t: StoredTournament,
        players: Vec<(String, EntrantId)>,
    ) -> Result<(), AppError> {
        let json = serde_json::to_string(&t.event).map_err(|e| corrupt(&id, e))?;
        let clock = t
            .clock
            .map(|c| serde_json::to_string(&c).expect("a time control serialises"));
        self.with(move |c| {
            let tx = c.transaction()?;
            tx.execute(
                "INSERT INTO tournaments(id, organiser_token, event, created, updated, online,
                                         auto_pair, clock)
                 VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7)",
                params![
                    id,
                    t.organiser_token,
                    json,
                    now(),
                    t.online,
                    t.auto_pair,
                    clock
                ],
            )?;
            write_changes(
                &tx,
                &id,
                TournamentChanges {
                    players,
                    ..TournamentChanges::default()
                },
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// A tournament.
    pub async fn load_tournament(&self, id: String) -> Result<StoredTournament, AppError> {
        self.with(move |c| read(c, &id)).await
    }

    /// Applies `action` to a tournament and stores the event with the action's changes
    /// (new games, device tokens) in one transaction; when `action` fails nothing is
    /// written.
    pub async fn update_tournament<T: Send + 'static>(
        &self,
        id: String,
        action: impl FnOnce(&mut StoredTournament, &mut TournamentChanges) -> Result<T, AppError>
            + Send
            + 'static,
    ) -> Result<(T, StoredTournament), AppError> {
        self.with(move |c| {
            let tx = c.transaction()?;
            let mut t = read(&tx, &id)?;
            let mut changes = TournamentChanges::default();
            let out = action(&mut t, &mut changes)?;
            write_event(&tx, &id, &t.event)?;
            write_changes(&tx, &id, changes)?;
            tx.commit()?;
            Ok((out, t))
        })
        .await
    }

    /// The games of a tournament's tables, by round and table.
    pub async fn tournament_games(&self, id: String) -> Result<Vec<TableGameRow>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT t.round, t.table_no, t.game_id, g.status, g.plies
                 FROM tournament_games t JOIN games g ON g.id = t.game_id
                 WHERE t.tournament_id = ?1 ORDER BY t.round, t.table_no",
            )?;
            let rows = st
                .query_map(params![id], |r| {
                    Ok(TableGameRow {
                        round: r.get(0)?,
                        table: r.get(1)?,
                        game: r.get(2)?,
                        status: r.get(3)?,
                        plies: r.get(4)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// The entrant a device token belongs to in a tournament.
    pub async fn tournament_player(
        &self,
        id: String,
        token: String,
    ) -> Result<Option<EntrantId>, AppError> {
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT entrant FROM tournament_players WHERE token = ?1 AND tournament_id = ?2",
                params![token, id],
                |r| r.get::<_, u32>(0),
            )
            .optional()?
            .map(EntrantId))
        })
        .await
    }

    /// The device tokens of a tournament's entrants: (entrant, token).
    pub async fn tournament_player_tokens(
        &self,
        id: String,
    ) -> Result<Vec<(EntrantId, String)>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT entrant, token FROM tournament_players WHERE tournament_id = ?1
                 ORDER BY entrant",
            )?;
            let rows = st
                .query_map(params![id], |r| {
                    Ok((EntrantId(r.get::<_, u32>(0)?), r.get::<_, String>(1)?))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// The seat token of a seat of a game.
    pub async fn seat_token(&self, game: String, seat: usize) -> Result<Option<String>, AppError> {
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT token FROM tokens WHERE game_id = ?1 AND seat = ?2",
                params![game, seat as i64],
                |r| r.get(0),
            )
            .optional()?)
        })
        .await
    }

    /// The ids of the online tournaments (to resume their pairing after a restart).
    pub async fn online_tournaments(&self) -> Result<Vec<String>, AppError> {
        self.with(|c| {
            let mut st = c.prepare("SELECT id FROM tournaments WHERE online = 1")?;
            let ids = st
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
        .await
    }
}
