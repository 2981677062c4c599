//! Leases on games, for several servers sharing one PostgreSQL database: each live game
//! is owned by one server, which renews its leases with a heartbeat; a lease that was
//! not renewed in time may be taken over. Times are the database's clock (milliseconds),
//! so the servers' clocks need not agree. Writes to a game lock its lease row and check
//! the owner, so a server that lost a game can no longer change it.
//!
//! With SQLite there is one server: it owns every game and these are no-ops.

use std::time::Duration;

use super::{on_backend, Backend, Postgres, Sqlite, Store};
use crate::error::AppError;

/// How long a lease lasts without renewal.
pub const LEASE: Duration = Duration::from_secs(6);
/// How often a server renews its leases (several times per lease, so one slow round
/// loses nothing).
pub const HEARTBEAT: Duration = Duration::from_secs(2);

/// The database's clock in milliseconds.
pub(super) const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

pub(super) fn lease_ms() -> i64 {
    LEASE.as_millis() as i64
}

impl Store {
    /// Whether several servers may share this database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Takes (or keeps) the lease of a game for this server; `false` when another server
    /// holds a live lease on it.
    pub async fn acquire(&self, game: &str) -> Result<bool, AppError> {
        on_backend!(self, acquire(game))
    }

    /// The address of the other server that holds a live lease on a game, if any.
    pub async fn owner_elsewhere(&self, game: &str) -> Result<Option<String>, AppError> {
        on_backend!(self, owner_elsewhere(game))
    }

    /// Gives up the lease of a game (its room left memory).
    pub async fn release(&self, game: &str) -> Result<(), AppError> {
        on_backend!(self, release(game))
    }

    /// Leaves the servers of the database, releasing every lease (a clean stop).
    pub async fn leave(&self) -> Result<(), AppError> {
        on_backend!(self, leave())
    }
}

impl Sqlite {
    async fn acquire(&self, _game: &str) -> Result<bool, AppError> {
        Ok(true)
    }

    async fn owner_elsewhere(&self, _game: &str) -> Result<Option<String>, AppError> {
        Ok(None)
    }

    async fn release(&self, _game: &str) -> Result<(), AppError> {
        Ok(())
    }

    async fn leave(&self) -> Result<(), AppError> {
        Ok(())
    }
}

impl Postgres {
    async fn acquire(&self, game: &str) -> Result<bool, AppError> {
        let sql = format!(
            "INSERT INTO game_leases(game_id, owner, expires) VALUES ($1, $2, {NOW_MS} + $3)
             ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner,
                                                 expires = EXCLUDED.expires
             WHERE game_leases.owner = EXCLUDED.owner OR game_leases.expires < {NOW_MS}
             RETURNING owner"
        );
        let row = self
            .client()
            .await?
            .query_opt(&sql, &[&game, &self.server_id(), &lease_ms()])
            .await?;
        Ok(row.is_some())
    }

    async fn owner_elsewhere(&self, game: &str) -> Result<Option<String>, AppError> {
        let sql = format!(
            "SELECT s.address FROM game_leases l JOIN servers s ON s.id = l.owner
             WHERE l.game_id = $1 AND l.owner <> $2 AND l.expires >= {NOW_MS}"
        );
        let row = self
            .client()
            .await?
            .query_opt(&sql, &[&game, &self.server_id()])
            .await?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn release(&self, game: &str) -> Result<(), AppError> {
        self.client()
            .await?
            .execute(
                "DELETE FROM game_leases WHERE game_id = $1 AND owner = $2",
                &[&game, &self.server_id()],
            )
            .await?;
        Ok(())
    }

    /// Registers this server under `address` (its id from now on: each server of a
    /// database needs its own) and answers the secret the servers of this database share
    /// (created by the first one).
    pub async fn register(&self, address: &str) -> Result<String, AppError> {
        self.set_server_id(address);
        let c = self.client().await?;
        c.execute(
            "INSERT INTO cluster(name, value) VALUES ('peer_secret', $1)
             ON CONFLICT (name) DO NOTHING",
            &[&crate::seats::new_token()],
        )
        .await?;
        let secret = c
            .query_one("SELECT value FROM cluster WHERE name = 'peer_secret'", &[])
            .await?
            .get(0);
        c.execute(
            &format!(
                "INSERT INTO servers(id, address, heartbeat) VALUES ($1, $2, {NOW_MS})
                 ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address,
                                                heartbeat = EXCLUDED.heartbeat"
            ),
            &[&self.server_id(), &address],
        )
        .await?;
        Ok(secret)
    }

    /// The heartbeat: renews every lease of this server, marks which of its games
    /// without a move somebody has open (`watched`, for every server's lobby), and
    /// answers the games it still owns (a game missing from the answer was taken over:
    /// its room must end). Servers silent for a minute are forgotten.
    pub async fn renew(&self, watched: &[String]) -> Result<Vec<String>, AppError> {
        let c = self.client().await?;
        c.execute(
            &format!("UPDATE servers SET heartbeat = {NOW_MS} WHERE id = $1"),
            &[&self.server_id()],
        )
        .await?;
        c.execute(
            &format!("DELETE FROM servers WHERE heartbeat < {NOW_MS} - 60000"),
            &[],
        )
        .await?;
        let rows = c
            .query(
                &format!(
                    "UPDATE game_leases SET expires = {NOW_MS} + $2, watched = game_id = ANY($3)
                     WHERE owner = $1
                     RETURNING game_id"
                ),
                &[&self.server_id(), &lease_ms(), &watched],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Games where an AI is to move that no server holds a live lease on (their server
    /// died or stopped): oldest change first, at most `limit`.
    pub async fn orphaned_ai_games(&self, limit: usize) -> Result<Vec<String>, AppError> {
        let sql = format!(
            "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id
             WHERE g.ai_to_move AND (l.game_id IS NULL OR l.expires < {NOW_MS})
             ORDER BY g.updated LIMIT $1"
        );
        let rows = self.client().await?.query(&sql, &[&(limit as i64)]).await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Leaves the group of servers: gives up every lease at once, so other servers can
    /// take the games over without waiting for them to expire.
    async fn leave(&self) -> Result<(), AppError> {
        let c = self.client().await?;
        c.execute(
            "DELETE FROM game_leases WHERE owner = $1",
            &[&self.server_id()],
        )
        .await?;
        c.execute("DELETE FROM servers WHERE id = $1", &[&self.server_id()])
            .await?;
        Ok(())
    }
}

/// Locks the lease row of a game inside a write transaction and checks that this server
/// owns it, so a server that lost the game cannot change it (the taker waits for the
/// lock and then loads what was committed).
pub(super) async fn check_owner(
    tx: &tokio_postgres::Transaction<'_>,
    game: &str,
    server: &str,
) -> Result<(), AppError> {
    let row = tx
        .query_opt(
            "SELECT 1 FROM game_leases WHERE game_id = $1 AND owner = $2 FOR UPDATE",
            &[&game, &server],
        )
        .await?;
    match row {
        Some(_) => Ok(()),
        None => Err(AppError::Busy(
            "another server has taken this game over; reconnect".into(),
        )),
    }
}

/// Creates the lease of a new game for its creator, inside the creating transaction.
pub(super) async fn create_lease(
    tx: &tokio_postgres::Transaction<'_>,
    game: &str,
    server: &str,
) -> Result<(), AppError> {
    tx.execute(
        &format!("INSERT INTO game_leases(game_id, owner, expires) VALUES ($1, $2, {NOW_MS} + $3)"),
        &[&game, &server, &lease_ms()],
    )
    .await?;
    Ok(())
}
