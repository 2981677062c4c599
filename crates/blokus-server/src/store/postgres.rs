//! The PostgreSQL backend: the same tables as SQLite (`migrations/*/postgres.sql`)
//! through a pool of async connections, so several servers can share one database.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio_postgres::{NoTls, Row};

use super::leases::{check_owner, create_lease, lease_ms, NOW_MS};
use super::tournaments::{enter_game_result_pg, link_of_game_pg};
use super::{
    clock_columns, now, GameSummary, NewEvent, NewGame, NewGameAccounts, SeatClaim, StoredGame,
};
use crate::chat::{ChatChannel, ChatLine, HISTORY};
use crate::clock::Clock;
use crate::error::AppError;
use crate::rematch::Rematch;
use crate::seats::{GameStatus, Seat};

/// Connections kept open to the database by one server.
const POOL_SIZE: usize = 16;
/// How long a request waits for a connection, or for a new one to open.
const POOL_WAIT: Duration = Duration::from_secs(10);

/// A pool of connections to one PostgreSQL database.
#[derive(Clone)]
pub struct Postgres {
    pool: Pool,
    /// This server's id among the servers of the database: the address its peers reach
    /// it at (set when it registers), so a server restarted at the same address takes
    /// its games back at once instead of waiting for their leases to expire.
    server: Arc<OnceLock<String>>,
}

/// A `postgres://` URL with its password (if any) replaced by `***`, for messages.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((userinfo, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

pub(super) fn status_of(text: &str) -> Result<GameStatus, AppError> {
    GameStatus::ALL
        .into_iter()
        .find(|s| s.as_str() == text)
        .ok_or_else(|| AppError::Internal(format!("stored status '{text}' is unknown")))
}

/// A lobby line from a row whose first columns are, in this order: id, variant, status,
/// seats, plies, updated, clock.
pub(super) fn summary(r: &Row) -> Result<GameSummary, AppError> {
    let seats: String = r.get(3);
    Ok(GameSummary {
        id: r.get(0),
        variant: r.get(1),
        status: status_of(r.get(2))?,
        seats: serde_json::from_str(&seats).unwrap_or_default(),
        plies: r.get(4),
        updated: r.get(5),
        clock: r
            .get::<_, Option<String>>(6)
            .and_then(|c| serde_json::from_str::<Clock>(&c).ok())
            .map(|c| c.control.label()),
        my_seats: Vec::new(),
        ratings: Vec::new(),
    })
}

impl Postgres {
    /// Connects to the database at `url` and brings its schema up to date.
    ///
    /// # Errors
    /// If the URL is malformed, the server cannot be reached or the upgrade fails.
    pub async fn connect(url: &str) -> Result<Postgres, AppError> {
        let shown = without_password(url);
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| AppError::BadRequest(format!("bad PostgreSQL address {shown}: {e}")))?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(POOL_WAIT))
            .create_timeout(Some(POOL_WAIT))
            .build()
            .map_err(|e| AppError::Internal(format!("PostgreSQL pool: {e}")))?;
        let db = Postgres {
            pool,
            server: Arc::default(),
        };
        let mut c = db.client().await.map_err(|e| {
            AppError::Internal(format!("cannot connect to PostgreSQL {shown}: {e}"))
        })?;
        let tx = c.transaction().await?;
        crate::migrations::upgrade_postgres(&tx).await?;
        tx.commit().await?;
        Ok(db)
    }

    /// This server's id (the owner of its leases).
    pub fn server_id(&self) -> &str {
        self.server.get().map_or("", String::as_str)
    }

    /// Names this server (once, before it serves).
    pub(super) fn set_server_id(&self, address: &str) {
        let _ = self.server.set(address.to_string());
    }

    /// A connection from the pool.
    pub(super) async fn client(&self) -> Result<Object, AppError> {
        Ok(self.pool.get().await?)
    }

    /// Runs one statement on a pooled connection; the rows it changed.
    pub(super) async fn execute(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<u64, AppError> {
        Ok(self.client().await?.execute(sql, params).await?)
    }

    pub(super) async fn create_game(
        &self,
        game: NewGame,
        players: NewGameAccounts,
    ) -> Result<(), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        insert_game(&tx, &game, self.server_id()).await?;
        insert_accounts(&tx, &game.id, &players).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn create_rematch(
        &self,
        id: String,
        rematch: String,
        game: NewGame,
        players: NewGameAccounts,
    ) -> Result<(), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        check_owner(&tx, &id, self.server_id()).await?;
        insert_game(&tx, &game, self.server_id()).await?;
        insert_accounts(&tx, &game.id, &players).await?;
        tx.execute(
            "UPDATE games SET rematch = $2 WHERE id = $1",
            &[&id, &rematch],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn set_rematch(&self, id: String, rematch: String) -> Result<(), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        check_owner(&tx, &id, self.server_id()).await?;
        tx.execute(
            "UPDATE games SET rematch = $2 WHERE id = $1",
            &[&id, &rematch],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn add_chat(&self, id: String, line: ChatLine) -> Result<(), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        check_owner(&tx, &id, self.server_id()).await?;
        tx.execute(
            "INSERT INTO chat(game_id, n, channel, seat, name, text, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[
                &id,
                &(line.n as i64),
                &line.channel.as_str(),
                &line.seat.map(|s| s as i64),
                &line.name,
                &line.text,
                &line.at,
            ],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn touch(&self, id: String) -> Result<(), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        check_owner(&tx, &id, self.server_id()).await?;
        tx.execute(
            "UPDATE games SET updated = $2 WHERE id = $1",
            &[&id, &now()],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn load_game(&self, id: String) -> Result<Option<StoredGame>, AppError> {
        let c = self.client().await?;
        let Some(row) = c
            .query_opt(
                "SELECT variant, options, seats, created, clock, rematch FROM games WHERE id = $1",
                &[&id],
            )
            .await?
        else {
            return Ok(None);
        };
        let seats: String = row.get(2);
        let seats: Vec<Seat> = serde_json::from_str(&seats)
            .map_err(|e| AppError::Internal(format!("stored seats of {id}: {e}")))?;
        let clock: Option<Clock> = row
            .get::<_, Option<String>>(4)
            .map(|c| serde_json::from_str(&c))
            .transpose()
            .map_err(|e| AppError::Internal(format!("stored clock of {id}: {e}")))?;
        let events = c
            .query(
                "SELECT event FROM events WHERE game_id = $1 ORDER BY ply",
                &[&id],
            )
            .await?
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect();
        let tokens = c
            .query("SELECT token, seat FROM tokens WHERE game_id = $1", &[&id])
            .await?
            .iter()
            .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1) as usize))
            .collect();
        let (chat, chat_count) = load_chat(&c, &id).await?;
        let tournament = link_of_game_pg(&**c, &id).await?;
        let accounts = super::accounts::load_seat_accounts_pg(&**c, &id).await?;
        let rated = c
            .query_opt("SELECT 1 FROM rated_games WHERE game_id = $1", &[&id])
            .await?
            .is_some();
        let rematch = row
            .get::<_, Option<String>>(5)
            .map(|j| serde_json::from_str::<Rematch>(&j))
            .transpose()
            .map_err(|e| AppError::Internal(format!("stored rematch of {id}: {e}")))?;
        Ok(Some(StoredGame {
            variant: row.get(0),
            options: row.get(1),
            created: row.get(3),
            id,
            seats,
            events,
            tokens,
            clock,
            chat,
            chat_count,
            rematch,
            tournament,
            rated,
            accounts,
        }))
    }

    pub(super) async fn append_event(&self, id: String, new: NewEvent) -> Result<bool, AppError> {
        let NewEvent {
            ply,
            event,
            status,
            ai_to_move,
            clock,
            result,
        } = new;
        let (clock, flag_at) = clock_columns(clock.as_ref());
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        check_owner(&tx, &id, self.server_id()).await?;
        tx.execute(
            "INSERT INTO events(game_id, ply, event) VALUES ($1, $2, $3)",
            &[&id, &(ply as i64), &event],
        )
        .await?;
        tx.execute(
            "UPDATE games SET status = $2, plies = $3, updated = $4, ai_to_move = $5,
                              clock = $6, flag_at = $7
             WHERE id = $1",
            &[
                &id,
                &status.as_str(),
                &(ply as i64 + 1),
                &now(),
                &ai_to_move,
                &clock,
                &flag_at,
            ],
        )
        .await?;
        let entered = match result {
            Some((link, result)) => enter_game_result_pg(&tx, &link, result).await?,
            None => false,
        };
        tx.commit().await?;
        Ok(entered)
    }

    pub(super) async fn truncate_events(
        &self,
        id: String,
        ply: usize,
        status: GameStatus,
        ai_to_move: bool,
        clock: Option<Clock>,
    ) -> Result<(), AppError> {
        let (clock, flag_at) = clock_columns(clock.as_ref());
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        check_owner(&tx, &id, self.server_id()).await?;
        tx.execute(
            "DELETE FROM events WHERE game_id = $1 AND ply >= $2",
            &[&id, &(ply as i64)],
        )
        .await?;
        tx.execute(
            "UPDATE games SET status = $2, plies = $3, updated = $4, ai_to_move = $5,
                              clock = $6, flag_at = $7
             WHERE id = $1",
            &[
                &id,
                &status.as_str(),
                &(ply as i64),
                &now(),
                &ai_to_move,
                &clock,
                &flag_at,
            ],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn update_seats(
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
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        check_owner(&tx, &id, self.server_id()).await?;
        if let Some(claim) = claim {
            tx.execute(
                "INSERT INTO tokens(token, game_id, seat) VALUES ($1, $2, $3)",
                &[&claim.token, &id, &(claim.seat as i64)],
            )
            .await?;
            if let Some(account) = claim.account {
                tx.execute(
                    "INSERT INTO seat_accounts(game_id, seat, account_id) VALUES ($1, $2, $3)",
                    &[&id, &(claim.seat as i64), &account.account.0],
                )
                .await?;
            }
        }
        tx.execute(
            "UPDATE games SET seats = $2, status = $3, updated = $4, ai_to_move = $5,
                              clock = $6, flag_at = $7
             WHERE id = $1",
            &[
                &id,
                &seats_json,
                &status.as_str(),
                &now(),
                &ai_to_move,
                &clock,
                &flag_at,
            ],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn ai_to_move(&self) -> Result<Vec<String>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT id FROM games WHERE ai_to_move ORDER BY updated",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub(super) async fn clocks_due(&self, at: i64) -> Result<Vec<String>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT id FROM games WHERE flag_at IS NOT NULL AND flag_at <= $1
                 ORDER BY flag_at LIMIT 100",
                &[&at],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub(super) async fn alive(&self, now: i64) -> Result<(), AppError> {
        self.client()
            .await?
            .execute(
                "INSERT INTO server_alive(id, at) VALUES (1, $1)
                 ON CONFLICT(id) DO UPDATE SET at = GREATEST(server_alive.at, EXCLUDED.at)",
                &[&now],
            )
            .await?;
        Ok(())
    }

    pub(super) async fn resume_clocks(&self, now: i64) -> Result<i64, AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        // Locked: servers starting together shift the clocks once.
        let last: Option<i64> = tx
            .query_opt("SELECT at FROM server_alive WHERE id = 1 FOR UPDATE", &[])
            .await?
            .map(|r| r.get(0));
        // While another server runs (its heartbeat is fresh), the clocks were kept.
        let others_run = tx
            .query_opt(
                &format!("SELECT 1 FROM servers WHERE heartbeat >= {NOW_MS} - $1 LIMIT 1"),
                &[&lease_ms()],
            )
            .await?
            .is_some();
        let down = if others_run {
            0
        } else {
            last.map_or(0, |at| (now - at).max(0))
        };
        if down > 0 {
            let rows = tx
                .query("SELECT id, clock FROM games WHERE flag_at IS NOT NULL", &[])
                .await?;
            for r in rows {
                let id: String = r.get(0);
                let text: String = r.get(1);
                // A clock that cannot be read is left alone; loading the game says why.
                let Ok(mut clock) = serde_json::from_str::<Clock>(&text) else {
                    continue;
                };
                clock.shift(down);
                let (clock, flag_at) = clock_columns(Some(&clock));
                tx.execute(
                    "UPDATE games SET clock = $2, flag_at = $3 WHERE id = $1",
                    &[&id, &clock, &flag_at],
                )
                .await?;
            }
        }
        tx.execute(
            "INSERT INTO server_alive(id, at) VALUES (1, $1)
             ON CONFLICT(id) DO UPDATE SET at = EXCLUDED.at",
            &[&now],
        )
        .await?;
        tx.commit().await?;
        Ok(down)
    }

    pub(super) async fn delete_game(&self, id: String) -> Result<(), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        tx.execute("DELETE FROM events WHERE game_id = $1", &[&id])
            .await?;
        tx.execute("DELETE FROM tokens WHERE game_id = $1", &[&id])
            .await?;
        tx.execute("DELETE FROM chat WHERE game_id = $1", &[&id])
            .await?;
        tx.execute("DELETE FROM seat_accounts WHERE game_id = $1", &[&id])
            .await?;
        tx.execute("DELETE FROM rated_games WHERE game_id = $1", &[&id])
            .await?;
        tx.execute("DELETE FROM games WHERE id = $1", &[&id])
            .await?;
        tx.execute("DELETE FROM game_leases WHERE game_id = $1", &[&id])
            .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn list(
        &self,
        status: GameStatus,
        limit: usize,
    ) -> Result<Vec<GameSummary>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT id, variant, status, seats, plies, updated, clock FROM games
                 WHERE status = $1 ORDER BY updated DESC LIMIT $2",
                &[&status.as_str(), &(limit as i64)],
            )
            .await?;
        rows.iter().map(summary).collect()
    }

    pub(super) async fn list_running(
        &self,
        limit: usize,
        cutoff: i64,
        present: Vec<String>,
    ) -> Result<Vec<GameSummary>, AppError> {
        let c = self.client().await?;
        let running = GameStatus::Running.as_str();
        let mut rows = c
            .query(
                "SELECT id, variant, status, seats, plies, updated, clock FROM games
                 WHERE status = $1 AND (plies > 0 OR updated >= $3)
                 ORDER BY updated DESC LIMIT $2",
                &[&running, &(limit as i64), &cutoff],
            )
            .await?
            .iter()
            .map(summary)
            .collect::<Result<Vec<_>, _>>()?;
        // Games without a move that somebody has open on this server (known here), or
        // on another one (its heartbeat marks them in their leases).
        let open = c
            .query(
                &format!(
                    "SELECT id, variant, status, seats, plies, updated, clock FROM games g
                     WHERE status = $2 AND plies = 0 AND updated < $3
                       AND (id = ANY($1) OR EXISTS (
                            SELECT 1 FROM game_leases l WHERE l.game_id = g.id
                              AND l.owner <> $4 AND l.watched AND l.expires >= {NOW_MS}))"
                ),
                &[&present, &running, &cutoff, &self.server_id()],
            )
            .await?;
        for r in &open {
            rows.push(summary(r)?);
        }
        rows.sort_by_key(|g| std::cmp::Reverse(g.updated));
        rows.truncate(limit);
        Ok(rows)
    }

    pub(super) async fn mine(
        &self,
        tokens: Vec<String>,
        limit: usize,
    ) -> Result<Vec<GameSummary>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT g.id, g.variant, g.status, g.seats, g.plies, g.updated, g.clock, t.seat,
                        t.token
                 FROM tokens t JOIN games g ON g.id = t.game_id
                 WHERE t.token = ANY($1)",
                &[&tokens],
            )
            .await?;
        let mut out: Vec<GameSummary> = Vec::new();
        // Seats in the order of the tokens given, as the SQLite backend lists them.
        let mut hits: Vec<(usize, &Row)> = rows
            .iter()
            .map(|r| {
                let token: &str = r.get(8);
                (tokens.iter().position(|t| t == token).unwrap_or(0), r)
            })
            .collect();
        hits.sort_by_key(|(at, _)| *at);
        for (_, r) in hits {
            let seat = r.get::<_, i64>(7) as usize;
            let id: String = r.get(0);
            if let Some(s) = out.iter_mut().find(|s| s.id == id) {
                s.my_seats.push(seat);
                continue;
            }
            let mut s = summary(r)?;
            s.my_seats.push(seat);
            out.push(s);
        }
        out.sort_by_key(|s| std::cmp::Reverse(s.updated));
        out.truncate(limit);
        Ok(out)
    }
}

/// Inserts a game with its tokens and its lease for `server` (its creator serves it
/// first), inside the caller's transaction.
pub(super) async fn insert_game(
    tx: &tokio_postgres::Transaction<'_>,
    game: &NewGame,
    server: &str,
) -> Result<(), AppError> {
    let seats_json = serde_json::to_string(&game.seats).expect("seats serialise");
    let (clock, flag_at) = clock_columns(game.clock.as_ref());
    let t = now();
    tx.execute(
        "INSERT INTO games(id, variant, options, seats, status, plies, created, updated,
                           ai_to_move, clock, flag_at)
         VALUES ($1, $2, $3, $4, $5, 0, $6, $6, $7, $8, $9)",
        &[
            &game.id,
            &game.variant,
            &game.options,
            &seats_json,
            &game.status.as_str(),
            &t,
            &game.ai_to_move,
            &clock,
            &flag_at,
        ],
    )
    .await?;
    for (token, seat) in &game.tokens {
        tx.execute(
            "INSERT INTO tokens(token, game_id, seat) VALUES ($1, $2, $3)",
            &[token, &game.id, &(*seat as i64)],
        )
        .await?;
    }
    create_lease(tx, &game.id, server).await?;
    Ok(())
}

/// The last [`HISTORY`] lines of each chat channel of a game, in order, and the number
/// of lines stored.
async fn load_chat(c: &Object, id: &str) -> Result<(Vec<ChatLine>, u64), AppError> {
    let count: i64 = c
        .query_one(
            "SELECT COALESCE(MAX(n) + 1, 0) FROM chat WHERE game_id = $1",
            &[&id],
        )
        .await?
        .get(0);
    let mut lines = Vec::new();
    for channel in ChatChannel::ALL {
        let rows = c
            .query(
                "SELECT n, seat, name, text, at FROM chat
                 WHERE game_id = $1 AND channel = $2 ORDER BY n DESC LIMIT $3",
                &[&id, &channel.as_str(), &(HISTORY as i64)],
            )
            .await?;
        lines.extend(rows.iter().map(|r| ChatLine {
            n: r.get::<_, i64>(0) as u64,
            channel,
            seat: r.get::<_, Option<i64>>(1).map(|s| s as usize),
            name: r.get(2),
            text: r.get(3),
            at: r.get(4),
        }));
    }
    lines.sort_by_key(|l| l.n);
    Ok((lines, count as u64))
}

/// Stores which accounts play a new game's seats and whether it is rated (inside the
/// caller's transaction).
pub(super) async fn insert_accounts(
    tx: &tokio_postgres::Transaction<'_>,
    id: &str,
    players: &NewGameAccounts,
) -> Result<(), AppError> {
    for (seat, account) in &players.accounts {
        tx.execute(
            "INSERT INTO seat_accounts(game_id, seat, account_id) VALUES ($1, $2, $3)",
            &[&id, &(*seat as i64), &account.0],
        )
        .await?;
    }
    if players.rated {
        super::ratings::mark_rated_pg(tx, id).await?;
    }
    Ok(())
}
