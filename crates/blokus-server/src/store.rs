//! Persistence in SQLite: games, their event lists and seat tokens.
//!
//! Every change is one transaction, so a crash (even `kill -9`) leaves each game at its
//! last completed move. The connection lives behind a mutex and is only used from
//! blocking threads (`spawn_blocking`), never on the async workers.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::accounts::{AccountId, Player};
use crate::chat::{ChatChannel, ChatLine, HISTORY};
use crate::clock::Clock;
use crate::error::AppError;
use crate::rematch::Rematch;
use crate::seats::{GameStatus, Seat};

pub mod accounts;
mod analyses;
pub mod ratings;
mod tournaments;

pub use accounts::SeatAccount;
pub use analyses::StoredAnalysis;
pub use tournaments::{StoredTournament, TableGame, TableGameRow, TableLink, TournamentChanges};

/// A game as stored.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Rule options as JSON.
    pub options: String,
    /// Seats, one per player.
    pub seats: Vec<Seat>,
    /// Events in order (see [`crate::room`] for their text form).
    pub events: Vec<String>,
    /// (token, seat) pairs.
    pub tokens: Vec<(String, usize)>,
    /// Creation time (unix seconds).
    pub created: i64,
    /// The clocks of a timed game.
    pub clock: Option<Clock>,
    /// The last [`HISTORY`] chat lines of each channel, in order.
    pub chat: Vec<ChatLine>,
    /// Number of chat lines stored (the next line's number).
    pub chat_count: u64,
    /// The rematch, once one was asked for.
    pub rematch: Option<Rematch>,
    /// The tournament table the game is played at, if any.
    pub tournament: Option<TableLink>,
    /// Whether the game is rated.
    pub rated: bool,
    /// The accounts playing seats, by seat.
    pub accounts: Vec<SeatAccount>,
}

/// A game to store.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Rule options as JSON.
    pub options: String,
    /// Seats, one per player.
    pub seats: Vec<Seat>,
    /// Its status.
    pub status: GameStatus,
    /// Whether an AI is to move.
    pub ai_to_move: bool,
    /// (token, seat) pairs of the seats people hold.
    pub tokens: Vec<(String, usize)>,
    /// The clocks of a timed game.
    pub clock: Option<Clock>,
}

/// An event to append to a stored game, with the game's state after it.
#[derive(Clone, Debug)]
pub struct NewEvent {
    /// Its number (0-based).
    pub ply: usize,
    /// Its text (see [`crate::codec`]).
    pub event: String,
    /// The game's status after it.
    pub status: GameStatus,
    /// Whether an AI is to move after it.
    pub ai_to_move: bool,
    /// The clocks after it (timed games).
    pub clock: Option<Clock>,
    /// The result of a tournament table, with the event that ends its game.
    pub result: Option<(TableLink, blokus_tournament::TableResult)>,
}

/// A seat a person claims: its index, its new token and the person's account (if
/// logged in).
#[derive(Clone, Debug)]
pub struct SeatClaim {
    /// The seat.
    pub seat: usize,
    /// Its new token.
    pub token: String,
    /// The account playing it.
    pub account: Option<Player>,
}

/// The accounts of a new game and whether it is rated.
#[derive(Clone, Debug, Default)]
pub struct NewGameAccounts {
    /// Whether the game is rated.
    pub rated: bool,
    /// (seat, account) of the seats accounts play.
    pub accounts: Vec<(usize, AccountId)>,
}

/// One line of the game list.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The status.
    pub status: GameStatus,
    /// The seats.
    pub seats: Vec<Seat>,
    /// Events played so far.
    pub plies: i64,
    /// Last change (unix seconds).
    pub updated: i64,
    /// The time control's short name (`5+3`, `3 days/move`) of a timed game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// For `mine` lists: the seats the given tokens hold.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub my_seats: Vec<usize>,
}

/// The database, shared by every room.
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
}

/// The database file inside the data folder.
pub const DB_FILE: &str = "blokus.sqlite3";

/// A clock as stored: its JSON and when it runs out.
fn clock_columns(clock: Option<&Clock>) -> (Option<String>, Option<i64>) {
    match clock {
        Some(c) => (
            Some(serde_json::to_string(c).expect("clocks serialise")),
            c.flag_at(),
        ),
        None => (None, None),
    }
}

/// The time now, unix seconds.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (creating if needed) the database `blokus.sqlite3` in `dir`.
    ///
    /// # Errors
    /// If the directory cannot be created or the database cannot be opened.
    pub fn open(dir: &Path) -> Result<Store, AppError> {
        std::fs::create_dir_all(dir).map_err(|e| {
            AppError::Internal(format!(
                "cannot create data directory {}: {e}",
                dir.display()
            ))
        })?;
        let mut conn = Connection::open(dir.join(DB_FILE))?;
        // WAL survives a process crash at every committed transaction; NORMAL sync only
        // risks the last transactions on power loss, which is fine for games.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "busy_timeout", 5000)?;
        crate::migrations::upgrade(&mut conn)?;
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs `f` with the connection on a blocking thread.
    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, AppError> + Send + 'static,
    ) -> Result<T, AppError> {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = conn
                .lock()
                .map_err(|_| AppError::Internal("database lock poisoned".into()))?;
            f(&mut guard)
        })
        .await
        .map_err(|e| AppError::Internal(format!("database task failed: {e}")))?
    }

    /// Stores a new game with its tokens.
    pub async fn create_game(&self, game: NewGame) -> Result<(), AppError> {
        self.create_game_with(game, NewGameAccounts::default())
            .await
    }

    /// Stores a new game with its tokens, the accounts playing it and whether it is
    /// rated, in one transaction.
    pub async fn create_game_with(
        &self,
        game: NewGame,
        players: NewGameAccounts,
    ) -> Result<(), AppError> {
        self.with(move |c| {
            let tx = c.transaction()?;
            insert_game(&tx, &game)?;
            insert_accounts(&tx, &game.id, &players)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Stores the rematch of game `id` and the new game it created, atomically.
    pub async fn create_rematch(
        &self,
        id: String,
        rematch: Rematch,
        game: NewGame,
        players: NewGameAccounts,
    ) -> Result<(), AppError> {
        let json = serde_json::to_string(&rematch).expect("rematch serialises");
        self.with(move |c| {
            let tx = c.transaction()?;
            insert_game(&tx, &game)?;
            insert_accounts(&tx, &game.id, &players)?;
            tx.execute(
                "UPDATE games SET rematch = ?2 WHERE id = ?1",
                params![id, json],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Rewrites the rematch of game `id` (who accepted).
    pub async fn set_rematch(&self, id: String, rematch: Rematch) -> Result<(), AppError> {
        let json = serde_json::to_string(&rematch).expect("rematch serialises");
        self.with(move |c| {
            c.execute(
                "UPDATE games SET rematch = ?2 WHERE id = ?1",
                params![id, json],
            )?;
            Ok(())
        })
        .await
    }

    /// Stores a chat line of game `id` (its number `line.n` must be the next one).
    pub async fn add_chat(&self, id: String, line: ChatLine) -> Result<(), AppError> {
        self.with(move |c| {
            c.execute(
                "INSERT INTO chat(game_id, n, channel, seat, name, text, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    id,
                    line.n as i64,
                    line.channel.as_str(),
                    line.seat.map(|s| s as i64),
                    line.name,
                    line.text,
                    line.at
                ],
            )?;
            Ok(())
        })
        .await
    }

    /// Marks game `id` as changed now (its last connection left a game without moves:
    /// the lobby counts its abandonment from here).
    pub async fn touch(&self, id: String) -> Result<(), AppError> {
        self.with(move |c| {
            c.execute(
                "UPDATE games SET updated = ?2 WHERE id = ?1",
                params![id, now()],
            )?;
            Ok(())
        })
        .await
    }

    /// Loads a game with its events and tokens.
    pub async fn load_game(&self, id: String) -> Result<Option<StoredGame>, AppError> {
        self.with(move |c| {
            let row = c
                .query_row(
                    "SELECT variant, options, seats, created, clock FROM games WHERE id = ?1",
                    params![id],
                    |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, i64>(3)?,
                            r.get::<_, Option<String>>(4)?,
                        ))
                    },
                )
                .optional()?;
            let Some((variant, options, seats, created, clock)) = row else {
                return Ok(None);
            };
            let seats: Vec<Seat> = serde_json::from_str(&seats)
                .map_err(|e| AppError::Internal(format!("stored seats of {id}: {e}")))?;
            let clock: Option<Clock> = clock
                .map(|c| serde_json::from_str(&c))
                .transpose()
                .map_err(|e| AppError::Internal(format!("stored clock of {id}: {e}")))?;
            let mut st = c.prepare("SELECT event FROM events WHERE game_id = ?1 ORDER BY ply")?;
            let events = st
                .query_map(params![id], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            let mut st = c.prepare("SELECT token, seat FROM tokens WHERE game_id = ?1")?;
            let tokens = st
                .query_map(params![id], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as usize))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            let (chat, chat_count) = load_chat(c, &id)?;
            let rematch: Option<String> = c.query_row(
                "SELECT rematch FROM games WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )?;
            let rematch = rematch
                .map(|j| serde_json::from_str::<Rematch>(&j))
                .transpose()
                .map_err(|e| AppError::Internal(format!("stored rematch of {id}: {e}")))?;
            let tournament = tournaments::link_of_game(c, &id)?;
            let accounts = accounts::load_seat_accounts(c, &id)?;
            let rated = c
                .query_row(
                    "SELECT 1 FROM rated_games WHERE game_id = ?1",
                    params![id],
                    |_| Ok(()),
                )
                .optional()?
                .is_some();
            Ok(Some(StoredGame {
                id,
                variant,
                options,
                seats,
                events,
                tokens,
                created,
                clock,
                chat,
                chat_count,
                rematch,
                tournament,
                rated,
                accounts,
            }))
        })
        .await
    }

    /// Appends the event number `ply` (0-based) and sets the game's status, whether
    /// an AI is to move and its clocks, atomically. The last move of a tournament game
    /// carries the table's result, entered in the same transaction; answers whether it
    /// was entered.
    pub async fn append_event(&self, id: String, new: NewEvent) -> Result<bool, AppError> {
        let NewEvent {
            ply,
            event,
            status,
            ai_to_move,
            clock,
            result,
        } = new;
        let (clock, flag_at) = clock_columns(clock.as_ref());
        self.with(move |c| {
            let tx = c.transaction()?;
            tx.execute(
                "INSERT INTO events(game_id, ply, event) VALUES (?1, ?2, ?3)",
                params![id, ply as i64, event],
            )?;
            tx.execute(
                "UPDATE games SET status = ?2, plies = ?3, updated = ?4, ai_to_move = ?5,
                                  clock = ?6, flag_at = ?7
                 WHERE id = ?1",
                params![
                    id,
                    status,
                    ply as i64 + 1,
                    now(),
                    ai_to_move,
                    clock,
                    flag_at
                ],
            )?;
            let entered = match result {
                Some((link, result)) => tournaments::enter_game_result(&tx, &link, result)?,
                None => false,
            };
            tx.commit()?;
            Ok(entered)
        })
        .await
    }

    /// Removes the events from `ply` on (undo) and sets the status, whether an AI is
    /// to move and the clocks, atomically.
    pub async fn truncate_events(
        &self,
        id: String,
        ply: usize,
        status: GameStatus,
        ai_to_move: bool,
        clock: Option<Clock>,
    ) -> Result<(), AppError> {
        let (clock, flag_at) = clock_columns(clock.as_ref());
        self.with(move |c| {
            let tx = c.transaction()?;
            tx.execute(
                "DELETE FROM events WHERE game_id = ?1 AND ply >= ?2",
                params![id, ply as i64],
            )?;
            tx.execute(
                "UPDATE games SET status = ?2, plies = ?3, updated = ?4, ai_to_move = ?5,
                                  clock = ?6, flag_at = ?7
                 WHERE id = ?1",
                params![id, status, ply as i64, now(), ai_to_move, clock, flag_at],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Gives a seat to a person, names seats or takes a reserved seat: stores the new
    /// token and the account playing the seat (if any), the updated seats, the game's
    /// status, whether an AI is to move and the clocks (which start once every seat is
    /// taken), atomically.
    pub async fn update_seats(
        &self,
        id: String,
        claim: Option<SeatClaim>,
        seats: Vec<Seat>,
        status: GameStatus,
        ai_to_move: bool,
        clock: Option<Clock>,
    ) -> Result<(), AppError> {
        let seats_json = serde_json::to_string(&seats).expect("seats serialise");
        let (clock, flag_at) = clock_columns(clock.as_ref());
        self.with(move |c| {
            let tx = c.transaction()?;
            if let Some(claim) = claim {
                tx.execute(
                    "INSERT INTO tokens(token, game_id, seat) VALUES (?1, ?2, ?3)",
                    params![claim.token, id, claim.seat as i64],
                )?;
                if let Some(account) = claim.account {
                    tx.execute(
                        "INSERT INTO seat_accounts(game_id, seat, account_id) VALUES (?1, ?2, ?3)",
                        params![id, claim.seat as i64, account.account.0],
                    )?;
                }
            }
            tx.execute(
                "UPDATE games SET seats = ?2, status = ?3, updated = ?4, ai_to_move = ?5,
                                  clock = ?6, flag_at = ?7
                 WHERE id = ?1",
                params![id, seats_json, status, now(), ai_to_move, clock, flag_at],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Every game where an AI is to move, oldest change first (to resume them after a
    /// restart).
    pub async fn ai_to_move(&self) -> Result<Vec<String>, AppError> {
        self.with(|c| {
            let mut st = c.prepare("SELECT id FROM games WHERE ai_to_move = 1 ORDER BY updated")?;
            let ids = st
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
        .await
    }

    /// Games whose running clock reaches zero by `at` (unix ms), soonest first: their
    /// rooms are loaded so the time out is recorded even when nobody watches.
    pub async fn clocks_due(&self, at: i64) -> Result<Vec<String>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT id FROM games WHERE flag_at IS NOT NULL AND flag_at <= ?1
                 ORDER BY flag_at LIMIT 100",
            )?;
            let ids = st
                .query_map(params![at], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
        .await
    }

    /// Records that the server runs at `now` (unix ms).
    pub async fn alive(&self, now: i64) -> Result<(), AppError> {
        self.with(move |c| {
            c.execute(
                "INSERT INTO server_alive(id, at) VALUES (1, ?1)
                 ON CONFLICT(id) DO UPDATE SET at = excluded.at",
                params![now],
            )?;
            Ok(())
        })
        .await
    }

    /// At start: moves every running clock on by the time since the server was last
    /// known to run, so time while it was down is not charged; returns that time (ms).
    pub async fn resume_clocks(&self, now: i64) -> Result<i64, AppError> {
        self.with(move |c| {
            let tx = c.transaction()?;
            let last: Option<i64> = tx
                .query_row("SELECT at FROM server_alive WHERE id = 1", [], |r| r.get(0))
                .optional()?;
            let down = last.map_or(0, |at| (now - at).max(0));
            if down > 0 {
                let rows = {
                    let mut st =
                        tx.prepare("SELECT id, clock FROM games WHERE flag_at IS NOT NULL")?;
                    let rows = st
                        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
                        .collect::<Result<Vec<_>, _>>()?;
                    rows
                };
                for (id, text) in rows {
                    // A clock that cannot be read is left alone; loading the game says why.
                    let Ok(mut clock) = serde_json::from_str::<Clock>(&text) else {
                        continue;
                    };
                    clock.shift(down);
                    let (clock, flag_at) = clock_columns(Some(&clock));
                    tx.execute(
                        "UPDATE games SET clock = ?2, flag_at = ?3 WHERE id = ?1",
                        params![id, clock, flag_at],
                    )?;
                }
            }
            tx.execute(
                "INSERT INTO server_alive(id, at) VALUES (1, ?1)
                 ON CONFLICT(id) DO UPDATE SET at = excluded.at",
                params![now],
            )?;
            tx.commit()?;
            Ok(down)
        })
        .await
    }

    /// Removes a game with its events and tokens (a creation that could not start).
    pub async fn delete_game(&self, id: String) -> Result<(), AppError> {
        self.with(move |c| {
            let tx = c.transaction()?;
            tx.execute("DELETE FROM events WHERE game_id = ?1", params![id])?;
            tx.execute("DELETE FROM tokens WHERE game_id = ?1", params![id])?;
            tx.execute("DELETE FROM chat WHERE game_id = ?1", params![id])?;
            tx.execute("DELETE FROM seat_accounts WHERE game_id = ?1", params![id])?;
            tx.execute("DELETE FROM rated_games WHERE game_id = ?1", params![id])?;
            tx.execute("DELETE FROM games WHERE id = ?1", params![id])?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// The most recently changed games of a status.
    pub async fn list(
        &self,
        status: GameStatus,
        limit: usize,
    ) -> Result<Vec<GameSummary>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT id, variant, status, seats, plies, updated, clock FROM games
                 WHERE status = ?1 ORDER BY updated DESC LIMIT ?2",
            )?;
            let rows = st
                .query_map(params![status, limit as i64], summary_row)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// The most recently changed running games, without those that look abandoned: no
    /// move yet, no change since `cutoff` (unix seconds), and not in `present` (the
    /// games somebody is connected to now).
    pub async fn list_running(
        &self,
        limit: usize,
        cutoff: i64,
        present: Vec<String>,
    ) -> Result<Vec<GameSummary>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT id, variant, status, seats, plies, updated, clock FROM games
                 WHERE status = ?1 AND (plies > 0 OR updated >= ?3)
                 ORDER BY updated DESC LIMIT ?2",
            )?;
            let mut rows = st
                .query_map(
                    params![GameStatus::Running, limit as i64, cutoff],
                    summary_row,
                )?
                .collect::<Result<Vec<_>, _>>()?;
            let mut one = c.prepare(
                "SELECT id, variant, status, seats, plies, updated, clock FROM games
                 WHERE id = ?1 AND status = ?2 AND plies = 0 AND updated < ?3",
            )?;
            for id in &present {
                if let Some(g) = one
                    .query_row(params![id, GameStatus::Running, cutoff], summary_row)
                    .optional()?
                {
                    rows.push(g);
                }
            }
            rows.sort_by_key(|g| std::cmp::Reverse(g.updated));
            rows.truncate(limit);
            Ok(rows)
        })
        .await
    }

    /// Games holding any of `tokens`, most recent first, with the seats they hold.
    pub async fn mine(
        &self,
        tokens: Vec<String>,
        limit: usize,
    ) -> Result<Vec<GameSummary>, AppError> {
        self.with(move |c| {
            let mut out: Vec<GameSummary> = Vec::new();
            let mut seat_st = c.prepare("SELECT game_id, seat FROM tokens WHERE token = ?1")?;
            let mut game_st = c.prepare(
                "SELECT id, variant, status, seats, plies, updated, clock FROM games WHERE id = ?1",
            )?;
            for t in &tokens {
                let hit = seat_st
                    .query_row(params![t], |r| {
                        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
                    })
                    .optional()?;
                let Some((gid, seat)) = hit else { continue };
                if let Some(s) = out.iter_mut().find(|s| s.id == gid) {
                    s.my_seats.push(seat as usize);
                    continue;
                }
                if let Some(mut s) = game_st.query_row(params![gid], summary_row).optional()? {
                    s.my_seats.push(seat as usize);
                    out.push(s);
                }
            }
            out.sort_by_key(|s| std::cmp::Reverse(s.updated));
            out.truncate(limit);
            Ok(out)
        })
        .await
    }
}

/// Inserts a game with its tokens (inside the caller's transaction).
fn insert_game(tx: &rusqlite::Transaction<'_>, game: &NewGame) -> Result<(), AppError> {
    let seats_json = serde_json::to_string(&game.seats).expect("seats serialise");
    let (clock, flag_at) = clock_columns(game.clock.as_ref());
    let t = now();
    tx.execute(
        "INSERT INTO games(id, variant, options, seats, status, plies, created, updated,
                           ai_to_move, clock, flag_at)
         VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?6, ?7, ?8, ?9)",
        params![
            game.id,
            game.variant,
            game.options,
            seats_json,
            game.status,
            t,
            game.ai_to_move,
            clock,
            flag_at
        ],
    )?;
    for (token, seat) in &game.tokens {
        tx.execute(
            "INSERT INTO tokens(token, game_id, seat) VALUES (?1, ?2, ?3)",
            params![token, game.id, *seat as i64],
        )?;
    }
    Ok(())
}

/// Stores which accounts play a new game's seats and whether it is rated (inside the
/// caller's transaction).
fn insert_accounts(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    players: &NewGameAccounts,
) -> Result<(), AppError> {
    for (seat, account) in &players.accounts {
        tx.execute(
            "INSERT INTO seat_accounts(game_id, seat, account_id) VALUES (?1, ?2, ?3)",
            params![id, *seat as i64, account.0],
        )?;
    }
    if players.rated {
        Store::mark_rated(tx, id)?;
    }
    Ok(())
}

/// The last [`HISTORY`] lines of each chat channel of a game, in order, and the number
/// of lines stored.
fn load_chat(c: &Connection, id: &str) -> Result<(Vec<ChatLine>, u64), AppError> {
    let count: i64 = c.query_row(
        "SELECT COALESCE(MAX(n) + 1, 0) FROM chat WHERE game_id = ?1",
        params![id],
        |r| r.get(0),
    )?;
    let mut st = c.prepare(
        "SELECT n, channel, seat, name, text, at FROM chat
         WHERE game_id = ?1 AND channel = ?2 ORDER BY n DESC LIMIT ?3",
    )?;
    let mut lines = Vec::new();
    for channel in ChatChannel::ALL {
        let rows = st.query_map(params![id, channel.as_str(), HISTORY as i64], |r| {
            Ok(ChatLine {
                n: r.get::<_, i64>(0)? as u64,
                channel,
                seat: r.get::<_, Option<i64>>(2)?.map(|s| s as usize),
                name: r.get(3)?,
                text: r.get(4)?,
                at: r.get(5)?,
            })
        })?;
        for row in rows {
            lines.push(row?);
        }
    }
    lines.sort_by_key(|l| l.n);
    Ok((lines, count as u64))
}

pub(crate) fn summary_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameSummary> {
    let seats: String = r.get(3)?;
    Ok(GameSummary {
        id: r.get(0)?,
        variant: r.get(1)?,
        status: r.get(2)?,
        seats: serde_json::from_str(&seats).unwrap_or_default(),
        plies: r.get(4)?,
        updated: r.get(5)?,
        clock: r
            .get::<_, Option<String>>(6)?
            .and_then(|c| serde_json::from_str::<Clock>(&c).ok())
            .map(|c| c.control.label()),
        my_seats: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seats::GameStatus::Running;
    use crate::seats::SeatKind;

    /// The schema exactly as the release before schema versions created it (no
    /// `user_version`), with a game of two moves.
    const UNVERSIONED_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games(
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  options TEXT NOT NULL,
  seats TEXT NOT NULL,
  status TEXT NOT NULL,
  plies INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status, updated);
CREATE TABLE IF NOT EXISTS events(
  game_id TEXT NOT NULL,
  ply INTEGER NOT NULL,
  event TEXT NOT NULL,
  PRIMARY KEY(game_id, ply)
);
CREATE TABLE IF NOT EXISTS tokens(
  token TEXT PRIMARY KEY,
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tokens_by_game ON tokens(game_id);
INSERT INTO games VALUES('00112233445566aa', 'duo', '{}',
  '[{\"kind\":\"me\",\"claimed\":true},{\"kind\":\"ai\",\"level\":3,\"claimed\":false}]',
  'running', 2, 1700000000, 1700000100);
INSERT INTO events VALUES('00112233445566aa', 0, 'place 0 d9,c10,d10,e10,d11');
INSERT INTO events VALUES('00112233445566aa', 1, 'place 1 i4,h5,i5,j5,i6');
INSERT INTO tokens VALUES('0123456789abcdef0123456789abcdef', '00112233445566aa', 0);
";

    #[tokio::test]
    async fn a_data_folder_from_before_schema_versions_upgrades_with_its_games() {
        let dir = tempfile::tempdir().unwrap();
        {
            let conn = Connection::open(dir.path().join(DB_FILE)).unwrap();
            conn.execute_batch(UNVERSIONED_SCHEMA).unwrap();
            assert_eq!(crate::migrations::version(&conn).unwrap(), 0);
        }
        let store = Store::open(dir.path()).unwrap();
        {
            let conn = store.conn.lock().unwrap();
            assert_eq!(
                crate::migrations::version(&conn).unwrap(),
                crate::migrations::latest()
            );
        }
        let g = store
            .load_game("00112233445566aa".into())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(g.variant, "duo");
        assert_eq!(g.events.len(), 2);
        assert_eq!(g.seats[1].kind, SeatKind::Ai);
        assert_eq!(
            g.tokens,
            vec![("0123456789abcdef0123456789abcdef".into(), 0)]
        );
        let running = store.list(Running, 10).await.unwrap();
        assert_eq!(running.len(), 1);
        assert_eq!(running[0].plies, 2);
        // Migration 2 marks running games with an AI seat for resumption.
        assert_eq!(store.ai_to_move().await.unwrap(), vec!["00112233445566aa"]);
        // Opening it again is a no-op.
        drop(store);
        Store::open(dir.path()).unwrap();
    }
}
