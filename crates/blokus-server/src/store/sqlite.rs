//! The SQLite backend: one connection, owned by the database thread
//! ([`super::sqlite_thread`]), never used on the async workers.

use std::path::Path;
use std::sync::mpsc;

use rusqlite::{params, Connection, OptionalExtension};

use super::sqlite_thread::{self, Answer, Job};
use super::tournaments::{enter_game_result, link_of_game};
use super::{
    clock_columns, now, GameSummary, NewEvent, NewGame, NewGameAccounts, SeatClaim, StoredGame,
    DB_FILE,
};
use crate::chat::{ChatChannel, ChatLine, HISTORY};
use crate::clock::Clock;
use crate::error::AppError;
use crate::rematch::Rematch;
use crate::seats::{GameStatus, Seat};

/// The SQLite database of one data folder.
#[derive(Clone)]
pub struct Sqlite {
    jobs: mpsc::Sender<Job>,
}

impl Sqlite {
    /// Opens (creating if needed) the database `blokus.sqlite3` in `dir`.
    ///
    /// # Errors
    /// If the directory cannot be created or the database cannot be opened.
    pub fn open(dir: &Path) -> Result<Sqlite, AppError> {
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
        Ok(Sqlite {
            jobs: sqlite_thread::start(conn)?,
        })
    }

    /// Runs `f` with the connection on the database thread, inside a transaction shared
    /// with other calls, and answers once that is committed. `f` makes writes that must
    /// be all-or-nothing in a savepoint (`c.savepoint()`), never a transaction.
    pub(crate) async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, AppError> + Send + 'static,
    ) -> Result<T, AppError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |c: &mut Connection| -> Answer {
            let result = f(c);
            Box::new(move |committed| {
                let _ = tx.send(result.and_then(|v| committed.map(|()| v)));
            })
        });
        let gone = || AppError::Internal("the database thread stopped".into());
        self.jobs.send(job).map_err(|_| gone())?;
        rx.await
            .map_err(|_| AppError::Internal("a database call failed (it panicked)".into()))?
    }

    /// Stores a new game with its tokens.
    pub async fn create_game(
        &self,
        game: NewGame,
        players: NewGameAccounts,
    ) -> Result<(), AppError> {
        self.with(move |c| {
            let tx = c.savepoint()?;
            insert_game(&tx, &game)?;
            insert_accounts(&tx, &game.id, &players)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Stores the rematch (JSON) of game `id` and the new game it created, atomically.
    pub async fn create_rematch(
        &self,
        id: String,
        rematch: String,
        game: NewGame,
        players: NewGameAccounts,
    ) -> Result<(), AppError> {
        self.with(move |c| {
            let tx = c.savepoint()?;
            insert_game(&tx, &game)?;
            insert_accounts(&tx, &game.id, &players)?;
            tx.execute(
                "UPDATE games SET rematch = ?2 WHERE id = ?1",
                params![id, rematch],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Rewrites the rematch (JSON) of game `id`.
    pub async fn set_rematch(&self, id: String, rematch: String) -> Result<(), AppError> {
        self.with(move |c| {
            c.execute(
                "UPDATE games SET rematch = ?2 WHERE id = ?1",
                params![id, rematch],
            )?;
            Ok(())
        })
        .await
    }

    /// Stores a chat line of game `id`.
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

    /// Marks game `id` as changed now.
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
            let tournament = link_of_game(c, &id)?;
            let accounts = super::accounts::load_seat_accounts(c, &id)?;
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

    /// Appends an event, entering a tournament table's result with it; answers whether
    /// the result was entered.
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
            let tx = c.savepoint()?;
            // Cached statements: this runs at every move of every game.
            tx.prepare_cached("INSERT INTO events(game_id, ply, event) VALUES (?1, ?2, ?3)")?
                .execute(params![id, ply as i64, event])?;
            tx.prepare_cached(
                "UPDATE games SET status = ?2, plies = ?3, updated = ?4, ai_to_move = ?5,
                                  clock = ?6, flag_at = ?7
                 WHERE id = ?1",
            )?
            .execute(params![
                id,
                status,
                ply as i64 + 1,
                now(),
                ai_to_move,
                clock,
                flag_at
            ])?;
            let entered = match result {
                Some((link, result)) => enter_game_result(&tx, &link, result)?,
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
            let tx = c.savepoint()?;
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

    /// Stores a seat change: the new token (if any), the seats, the status, whether an
    /// AI is to move and the clocks, atomically.
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
            let tx = c.savepoint()?;
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
            let tx = c.savepoint()?;
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
            let tx = c.savepoint()?;
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

    /// The most recently changed running games, without those that look abandoned.
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
pub(super) fn insert_game(tx: &Connection, game: &NewGame) -> Result<(), AppError> {
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
pub(super) fn insert_accounts(
    tx: &Connection,
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
        super::ratings::mark_rated(tx, id)?;
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

/// A lobby line from a row whose first columns are, in this order: id, variant, status,
/// seats, plies, updated, clock.
pub(super) fn summary_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameSummary> {
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
        ratings: Vec::new(),
    })
}
