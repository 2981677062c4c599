//! Tournaments in the database: one row per event, its JSON rewritten by each action in
//! the same transaction that read it, so an action is applied whole or not at all (a
//! `kill -9` between two actions loses neither). Online events also keep their players'
//! device tokens and the game of each table; a round's games are created in the
//! transaction that pairs it, and a game's result is entered in the transaction of its
//! last move. On PostgreSQL, where several servers may act at once, each action locks
//! its tournament's row.

use blokus_tournament::{EntrantId, Event, TableResult};
use rusqlite::{params, Connection, OptionalExtension};
use tokio_postgres::GenericClient;

use super::{now, on_backend, Backend, NewGame, NewGameAccounts, Postgres, Sqlite, Store};
use crate::accounts::AccountId;
use crate::clock::TimeControl;
use crate::error::AppError;
use crate::seats::GameStatus;

fn corrupt(id: &str, e: serde_json::Error) -> AppError {
    AppError::Internal(format!("stored tournament {id}: {e}"))
}

fn missing(id: &str) -> AppError {
    AppError::NotFound(format!(
        "no tournament '{}'",
        id.chars().take(40).collect::<String>()
    ))
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
    /// Whether every table's game is rated (online events of account holders).
    pub rated: bool,
    /// The entrants who play from an account.
    pub accounts: Vec<EntrantAccount>,
}

impl StoredTournament {
    /// The account an entrant plays from, if any.
    pub fn account_of(&self, entrant: EntrantId) -> Option<AccountId> {
        self.accounts
            .iter()
            .find(|a| a.entrant == entrant)
            .map(|a| a.account)
    }

    /// The entrant an account entered as, if any.
    pub fn entrant_of(&self, account: AccountId) -> Option<EntrantId> {
        self.accounts
            .iter()
            .find(|a| a.account == account)
            .map(|a| a.entrant)
    }
}

/// An entrant who plays from an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntrantAccount {
    /// The entrant.
    pub entrant: EntrantId,
    /// The account.
    pub account: AccountId,
}

/// An event an account entered, for its profile.
#[derive(Clone, Debug)]
pub struct AccountEvent {
    /// The tournament id.
    pub id: String,
    /// The account's entrant.
    pub entrant: EntrantId,
    /// The event.
    pub event: Event,
    /// When it was created (unix seconds).
    pub created: i64,
    /// Whether its games are rated.
    pub rated: bool,
}

/// What an action writes besides the event itself, in the same transaction.
#[derive(Default)]
pub struct TournamentChanges {
    /// Games to create, one per table.
    pub games: Vec<TableGame>,
    /// Device tokens to store, for these entrants.
    pub players: Vec<(String, EntrantId)>,
    /// Entrants who entered from an account.
    pub accounts: Vec<EntrantAccount>,
}

/// The game of one table.
pub struct TableGame {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The game.
    pub game: NewGame,
    /// The accounts playing its seats and whether it is rated.
    pub players: NewGameAccounts,
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
pub(super) fn read(c: &Connection, id: &str) -> Result<StoredTournament, AppError> {
    let (json, organiser_token, online, auto_pair, clock, rated): (
        String,
        String,
        bool,
        bool,
        Option<String>,
        bool,
    ) = c
        .query_row(
            "SELECT event, organiser_token, online, auto_pair, clock, rated FROM tournaments
             WHERE id = ?1",
            params![id],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            },
        )
        .optional()?
        .ok_or_else(|| missing(id))?;
    let mut st = c.prepare(
        "SELECT entrant, account_id FROM entrant_accounts WHERE tournament_id = ?1
         ORDER BY entrant",
    )?;
    let accounts = st
        .query_map(params![id], |r| {
            Ok(EntrantAccount {
                entrant: EntrantId(r.get(0)?),
                account: AccountId(r.get(1)?),
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
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
        rated,
        accounts,
    })
}

pub(super) fn write_event(tx: &Connection, id: &str, event: &Event) -> Result<(), AppError> {
    let json = serde_json::to_string(event).map_err(|e| corrupt(id, e))?;
    tx.execute(
        "UPDATE tournaments SET event = ?2, updated = ?3 WHERE id = ?1",
        params![id, json, now()],
    )?;
    Ok(())
}

fn write_changes(tx: &Connection, id: &str, ch: TournamentChanges) -> Result<(), AppError> {
    for (token, entrant) in ch.players {
        tx.execute(
            "INSERT INTO tournament_players(token, tournament_id, entrant) VALUES (?1, ?2, ?3)",
            params![token, id, entrant.0],
        )?;
    }
    for a in ch.accounts {
        tx.execute(
            "INSERT INTO entrant_accounts(tournament_id, entrant, account_id)
             VALUES (?1, ?2, ?3)",
            params![id, a.entrant.0, a.account.0],
        )?;
    }
    for g in ch.games {
        tx.execute(
            "INSERT INTO tournament_games(game_id, tournament_id, round, table_no)
             VALUES (?1, ?2, ?3, ?4)",
            params![g.game.id, id, g.round, g.table],
        )?;
        super::sqlite::insert_game(tx, &g.game)?;
        super::sqlite::insert_accounts(tx, &g.game.id, &g.players)?;
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

/// Records a finished game's result at its table if the table still waits for one in the
/// current round (a result the organiser entered by hand stands): the one rule both
/// backends' [`enter_game_result`] follow. Returns whether it did.
fn record_pending_result(event: &mut Event, link: &TableLink, result: TableResult) -> bool {
    let pending = event.current_round().is_some_and(|r| {
        r.number == link.round
            && r.tables
                .iter()
                .any(|tb| tb.number == link.table && tb.result.is_none())
    });
    pending && event.record_result(link.round, link.table, result).is_ok()
}

/// Enters a finished game's result at its table, if the table still waits for one in the
/// current round (a result the organiser entered by hand stands). Returns whether it did.
pub(super) fn enter_game_result(
    tx: &Connection,
    link: &TableLink,
    result: TableResult,
) -> Result<bool, AppError> {
    let mut t = read(tx, &link.tournament)?;
    if !record_pending_result(&mut t.event, link, result) {
        return Ok(false);
    }
    write_event(tx, &link.tournament, &t.event)?;
    Ok(true)
}

/// The seats an entrant plays at the tables of an event whose games are `games`
/// ((round, table, game id) rows): (game id, seat).
fn seats_of(
    event: &Event,
    entrant: EntrantId,
    games: &[(u32, u32, String)],
) -> Vec<(String, usize)> {
    event
        .rounds()
        .iter()
        .filter_map(|round| {
            let table = round.table_of(entrant)?;
            let seat = table.seats.iter().position(|&e| e == entrant)?;
            let (_, _, game) = games
                .iter()
                .find(|(r, t, _)| *r == round.number && *t == table.number)?;
            Some((game.clone(), seat))
        })
        .collect()
}

/// Links to an account the event entries of a device's player tokens (a guest who
/// entered events signs up), unless the entry has an account already or the account
/// entered that event otherwise: the entrant takes the account's user name (kept when
/// another entrant has that name), and the seats of its tables' games are attached to
/// the account (see [`super::accounts::attach_seat`]). Returns the (game, seat) pairs
/// attached.
pub(super) fn attach_entries(
    c: &Connection,
    account: AccountId,
    name: &str,
    tokens: &[String],
) -> Result<Vec<(String, usize)>, AppError> {
    let mut attached = Vec::new();
    for token in tokens {
        let Some((id, entrant)) = c
            .query_row(
                "SELECT tournament_id, entrant FROM tournament_players WHERE token = ?1",
                params![token],
                |r| Ok((r.get::<_, String>(0)?, EntrantId(r.get(1)?))),
            )
            .optional()?
        else {
            continue;
        };
        let mut t = read(c, &id)?;
        if t.account_of(entrant).is_some() || t.entrant_of(account).is_some() {
            continue;
        }
        c.execute(
            "INSERT INTO entrant_accounts(tournament_id, entrant, account_id)
             VALUES (?1, ?2, ?3)",
            params![id, entrant.0, account.0],
        )?;
        if t.event.rename_entrant(entrant, name).is_ok() {
            write_event(c, &id, &t.event)?;
        }
        let mut st = c.prepare(
            "SELECT round, table_no, game_id FROM tournament_games WHERE tournament_id = ?1",
        )?;
        let games = st
            .query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        for (game, seat) in seats_of(&t.event, entrant, &games) {
            if super::accounts::attach_seat(c, account, name, &game, seat)? {
                attached.push((game, seat));
            }
        }
    }
    Ok(attached)
}

/// [`attach_entries`] on PostgreSQL (each tournament's row is locked), for a server among
/// several: a seat of a game another server holds is left to that server, in
/// `elsewhere` (see [`super::accounts::GuestSeats`]).
pub(super) async fn attach_entries_pg(
    tx: &tokio_postgres::Transaction<'_>,
    server: &str,
    account: AccountId,
    name: &str,
    tokens: &[String],
) -> Result<super::accounts::GuestSeats, AppError> {
    let mut seats = super::accounts::GuestSeats::default();
    for token in tokens {
        let Some(row) = tx
            .query_opt(
                "SELECT tournament_id, entrant FROM tournament_players WHERE token = $1",
                &[token],
            )
            .await?
        else {
            continue;
        };
        let id: String = row.get(0);
        let entrant = EntrantId(number(row.get(1))?);
        let mut t = read_pg(tx, &id, true).await?;
        if t.account_of(entrant).is_some() || t.entrant_of(account).is_some() {
            continue;
        }
        tx.execute(
            "INSERT INTO entrant_accounts(tournament_id, entrant, account_id)
             VALUES ($1, $2, $3)",
            &[&id, &i64::from(entrant.0), &account.0],
        )
        .await?;
        if t.event.rename_entrant(entrant, name).is_ok() {
            write_event_pg(tx, &id, &t.event).await?;
        }
        let games = tx
            .query(
                "SELECT round, table_no, game_id FROM tournament_games WHERE tournament_id = $1",
                &[&id],
            )
            .await?
            .iter()
            .map(|r| Ok((number(r.get(0))?, number(r.get(1))?, r.get(2))))
            .collect::<Result<Vec<_>, AppError>>()?;
        for (game, seat) in seats_of(&t.event, entrant, &games) {
            if super::accounts::owned_elsewhere(tx, server, &game).await? {
                seats.elsewhere.push((game, seat));
            } else if super::accounts::attach_seat_pg(tx, account, name, &game, seat).await? {
                seats.attached.push((game, seat));
            }
        }
    }
    Ok(seats)
}

/// An event an account entered, from its stored row.
fn account_event(
    id: String,
    entrant: EntrantId,
    json: &str,
    created: i64,
    rated: bool,
) -> Result<AccountEvent, AppError> {
    Ok(AccountEvent {
        entrant,
        event: serde_json::from_str(json).map_err(|e| corrupt(&id, e))?,
        id,
        created,
        rated,
    })
}

impl Store {
    /// Stores a new tournament with its first players' device tokens.
    pub async fn create_tournament(
        &self,
        id: String,
        t: StoredTournament,
        players: Vec<(String, EntrantId)>,
    ) -> Result<(), AppError> {
        on_backend!(self, create_tournament(id, t, players))
    }

    /// A tournament.
    pub async fn load_tournament(&self, id: String) -> Result<StoredTournament, AppError> {
        on_backend!(self, load_tournament(id))
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
        on_backend!(self, update_tournament(id, action))
    }

    /// The games of a tournament's tables, by round and table.
    pub async fn tournament_games(&self, id: String) -> Result<Vec<TableGameRow>, AppError> {
        on_backend!(self, tournament_games(id))
    }

    /// The entrant a device token belongs to in a tournament.
    pub async fn tournament_player(
        &self,
        id: String,
        token: String,
    ) -> Result<Option<EntrantId>, AppError> {
        on_backend!(self, tournament_player(id, token))
    }

    /// The device tokens of a tournament's entrants: (entrant, token).
    pub async fn tournament_player_tokens(
        &self,
        id: String,
    ) -> Result<Vec<(EntrantId, String)>, AppError> {
        on_backend!(self, tournament_player_tokens(id))
    }

    /// The seat token of a seat of a game.
    pub async fn seat_token(&self, game: String, seat: usize) -> Result<Option<String>, AppError> {
        on_backend!(self, seat_token(game, seat))
    }

    /// The ids of the online tournaments (to resume their pairing after a restart).
    pub async fn online_tournaments(&self) -> Result<Vec<String>, AppError> {
        on_backend!(self, online_tournaments())
    }

    /// The events an account entered, newest first (at most `limit`).
    pub async fn account_events(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, AppError> {
        on_backend!(self, account_events(account, limit))
    }
}

impl Sqlite {
    /// Stores a new tournament with its first players' device tokens.
    async fn create_tournament(
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
            let tx = c.savepoint()?;
            tx.execute(
                "INSERT INTO tournaments(id, organiser_token, event, created, updated, online,
                                         auto_pair, clock, rated)
                 VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7, ?8)",
                params![
                    id,
                    t.organiser_token,
                    json,
                    now(),
                    t.online,
                    t.auto_pair,
                    clock,
                    t.rated
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
    async fn load_tournament(&self, id: String) -> Result<StoredTournament, AppError> {
        self.with(move |c| read(c, &id)).await
    }

    /// Applies `action` to a tournament and stores the event with the action's changes
    /// (new games, device tokens) in one transaction; when `action` fails nothing is
    /// written.
    async fn update_tournament<T: Send + 'static>(
        &self,
        id: String,
        action: impl FnOnce(&mut StoredTournament, &mut TournamentChanges) -> Result<T, AppError>
            + Send
            + 'static,
    ) -> Result<(T, StoredTournament), AppError> {
        self.with(move |c| {
            let tx = c.savepoint()?;
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
    async fn tournament_games(&self, id: String) -> Result<Vec<TableGameRow>, AppError> {
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
    async fn tournament_player(
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
    async fn tournament_player_tokens(
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
    async fn seat_token(&self, game: String, seat: usize) -> Result<Option<String>, AppError> {
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

    /// The events an account entered, newest first (at most `limit`).
    async fn account_events(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT t.id, ea.entrant, t.event, t.created, t.rated
                 FROM entrant_accounts ea JOIN tournaments t ON t.id = ea.tournament_id
                 WHERE ea.account_id = ?1 ORDER BY t.created DESC, t.id LIMIT ?2",
            )?;
            let rows = st
                .query_map(params![account.0, limit as i64], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        EntrantId(r.get(1)?),
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, bool>(4)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(|(id, e, json, created, rated)| account_event(id, e, &json, created, rated))
                .collect()
        })
        .await
    }

    /// The ids of the online tournaments (to resume their pairing after a restart).
    async fn online_tournaments(&self) -> Result<Vec<String>, AppError> {
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

/// Reads a tournament on PostgreSQL, locking its row for the rest of the transaction
/// when `lock` is set.
pub(super) async fn read_pg(
    c: &impl GenericClient,
    id: &str,
    lock: bool,
) -> Result<StoredTournament, AppError> {
    let sql = if lock {
        "SELECT event, organiser_token, online, auto_pair, clock, rated FROM tournaments
         WHERE id = $1 FOR UPDATE"
    } else {
        "SELECT event, organiser_token, online, auto_pair, clock, rated FROM tournaments
         WHERE id = $1"
    };
    let row = c.query_opt(sql, &[&id]).await?.ok_or_else(|| missing(id))?;
    let json: String = row.get(0);
    let clock: Option<String> = row.get(4);
    let accounts = c
        .query(
            "SELECT entrant, account_id FROM entrant_accounts WHERE tournament_id = $1
             ORDER BY entrant",
            &[&id],
        )
        .await?
        .iter()
        .map(|r| {
            Ok(EntrantAccount {
                entrant: EntrantId(number(r.get(0))?),
                account: AccountId(r.get(1)),
            })
        })
        .collect::<Result<Vec<_>, AppError>>()?;
    Ok(StoredTournament {
        rated: row.get(5),
        accounts,
        event: serde_json::from_str(&json).map_err(|e| corrupt(id, e))?,
        organiser_token: row.get(1),
        online: row.get(2),
        auto_pair: row.get(3),
        clock: clock
            .map(|j| serde_json::from_str(&j))
            .transpose()
            .map_err(|e| corrupt(id, e))?,
    })
}

pub(super) async fn write_event_pg(
    tx: &tokio_postgres::Transaction<'_>,
    id: &str,
    event: &Event,
) -> Result<(), AppError> {
    let json = serde_json::to_string(event).map_err(|e| corrupt(id, e))?;
    tx.execute(
        "UPDATE tournaments SET event = $2, updated = $3 WHERE id = $1",
        &[&id, &json, &now()],
    )
    .await?;
    Ok(())
}

/// Writes an action's changes; the games it creates are served first by `server`.
async fn write_changes_pg(
    tx: &tokio_postgres::Transaction<'_>,
    id: &str,
    ch: TournamentChanges,
    server: &str,
) -> Result<(), AppError> {
    for (token, entrant) in ch.players {
        tx.execute(
            "INSERT INTO tournament_players(token, tournament_id, entrant) VALUES ($1, $2, $3)",
            &[&token, &id, &i64::from(entrant.0)],
        )
        .await?;
    }
    for a in ch.accounts {
        tx.execute(
            "INSERT INTO entrant_accounts(tournament_id, entrant, account_id)
             VALUES ($1, $2, $3)",
            &[&id, &i64::from(a.entrant.0), &a.account.0],
        )
        .await?;
    }
    for g in ch.games {
        tx.execute(
            "INSERT INTO tournament_games(game_id, tournament_id, round, table_no)
             VALUES ($1, $2, $3, $4)",
            &[&g.game.id, &id, &i64::from(g.round), &i64::from(g.table)],
        )
        .await?;
        super::postgres::insert_game(tx, &g.game, server).await?;
        super::postgres::insert_accounts(tx, &g.game.id, &g.players).await?;
    }
    Ok(())
}

/// A stored round, table or entrant number.
fn number(n: i64) -> Result<u32, AppError> {
    u32::try_from(n).map_err(|_| AppError::Internal(format!("stored number {n} is out of range")))
}

/// The table a game is played at, if any (PostgreSQL).
pub(super) async fn link_of_game_pg(
    c: &impl GenericClient,
    game: &str,
) -> Result<Option<TableLink>, AppError> {
    let row = c
        .query_opt(
            "SELECT tournament_id, round, table_no FROM tournament_games WHERE game_id = $1",
            &[&game],
        )
        .await?;
    row.map(|r| {
        Ok(TableLink {
            tournament: r.get(0),
            round: number(r.get(1))?,
            table: number(r.get(2))?,
        })
    })
    .transpose()
}

/// [`enter_game_result`] on PostgreSQL (the tournament's row is locked).
pub(super) async fn enter_game_result_pg(
    tx: &tokio_postgres::Transaction<'_>,
    link: &TableLink,
    result: TableResult,
) -> Result<bool, AppError> {
    let mut t = read_pg(tx, &link.tournament, true).await?;
    if !record_pending_result(&mut t.event, link, result) {
        return Ok(false);
    }
    write_event_pg(tx, &link.tournament, &t.event).await?;
    Ok(true)
}

impl Postgres {
    async fn create_tournament(
        &self,
        id: String,
        t: StoredTournament,
        players: Vec<(String, EntrantId)>,
    ) -> Result<(), AppError> {
        let json = serde_json::to_string(&t.event).map_err(|e| corrupt(&id, e))?;
        let clock = t
            .clock
            .map(|c| serde_json::to_string(&c).expect("a time control serialises"));
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        tx.execute(
            "INSERT INTO tournaments(id, organiser_token, event, created, updated, online,
                                     auto_pair, clock, rated)
             VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8)",
            &[
                &id,
                &t.organiser_token,
                &json,
                &now(),
                &t.online,
                &t.auto_pair,
                &clock,
                &t.rated,
            ],
        )
        .await?;
        let changes = TournamentChanges {
            players,
            ..TournamentChanges::default()
        };
        write_changes_pg(&tx, &id, changes, self.server_id()).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn load_tournament(&self, id: String) -> Result<StoredTournament, AppError> {
        read_pg(&**self.client().await?, &id, false).await
    }

    async fn update_tournament<T: Send + 'static>(
        &self,
        id: String,
        action: impl FnOnce(&mut StoredTournament, &mut TournamentChanges) -> Result<T, AppError>
            + Send
            + 'static,
    ) -> Result<(T, StoredTournament), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        let mut t = read_pg(&*tx, &id, true).await?;
        let mut changes = TournamentChanges::default();
        let out = action(&mut t, &mut changes)?;
        write_event_pg(&tx, &id, &t.event).await?;
        write_changes_pg(&tx, &id, changes, self.server_id()).await?;
        tx.commit().await?;
        Ok((out, t))
    }

    async fn tournament_games(&self, id: String) -> Result<Vec<TableGameRow>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT t.round, t.table_no, t.game_id, g.status, g.plies
                 FROM tournament_games t JOIN games g ON g.id = t.game_id
                 WHERE t.tournament_id = $1 ORDER BY t.round, t.table_no",
                &[&id],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(TableGameRow {
                    round: number(r.get(0))?,
                    table: number(r.get(1))?,
                    game: r.get(2),
                    status: super::postgres::status_of(r.get(3))?,
                    plies: r.get(4),
                })
            })
            .collect()
    }

    async fn tournament_player(
        &self,
        id: String,
        token: String,
    ) -> Result<Option<EntrantId>, AppError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT entrant FROM tournament_players WHERE token = $1 AND tournament_id = $2",
                &[&token, &id],
            )
            .await?;
        row.map(|r| Ok(EntrantId(number(r.get(0))?))).transpose()
    }

    async fn tournament_player_tokens(
        &self,
        id: String,
    ) -> Result<Vec<(EntrantId, String)>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT entrant, token FROM tournament_players WHERE tournament_id = $1
                 ORDER BY entrant",
                &[&id],
            )
            .await?;
        rows.iter()
            .map(|r| Ok((EntrantId(number(r.get(0))?), r.get(1))))
            .collect()
    }

    async fn seat_token(&self, game: String, seat: usize) -> Result<Option<String>, AppError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT token FROM tokens WHERE game_id = $1 AND seat = $2",
                &[&game, &(seat as i64)],
            )
            .await?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn account_events(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT t.id, ea.entrant, t.event, t.created, t.rated
                 FROM entrant_accounts ea JOIN tournaments t ON t.id = ea.tournament_id
                 WHERE ea.account_id = $1 ORDER BY t.created DESC, t.id LIMIT $2",
                &[&account.0, &(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let json: String = r.get(2);
                account_event(
                    r.get(0),
                    EntrantId(number(r.get(1))?),
                    &json,
                    r.get(3),
                    r.get(4),
                )
            })
            .collect()
    }

    async fn online_tournaments(&self) -> Result<Vec<String>, AppError> {
        let rows = self
            .client()
            .await?
            .query("SELECT id FROM tournaments WHERE online", &[])
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}
