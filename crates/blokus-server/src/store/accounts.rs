//! Accounts, sessions and the seats accounts play, in the database.

use rusqlite::{params, Connection, OptionalExtension};
use tokio_postgres::GenericClient;

use super::leases::{check_owner, NOW_MS};
use super::sqlite::summary_row;
use super::{now, on_backend, Backend, GameSummary, Postgres, Sqlite, Store};
use crate::accounts::AccountId;
use crate::error::AppError;
use crate::names::DisplayName;
use crate::seats::{Seat, SeatKind};

/// A session to store: the hash of its secret, its CSRF token and its end.
#[derive(Clone, Debug)]
pub struct NewSession {
    /// SHA-256 of the cookie's secret.
    pub id_hash: String,
    /// The token pages send back in `X-CSRF-Token`.
    pub csrf: String,
    /// End of validity (unix seconds).
    pub expires: i64,
}

/// A live session as found by its hash.
#[derive(Clone, Debug)]
pub struct SessionRow {
    /// Its account.
    pub account: AccountId,
    /// The account's name.
    pub name: String,
    /// The CSRF token.
    pub csrf: String,
}

/// An account as needed to log in.
#[derive(Clone)]
pub struct Credentials {
    /// Its id.
    pub account: AccountId,
    /// Its name as spelled.
    pub name: String,
    /// The Argon2id PHC string.
    pub password_hash: String,
}

/// An account's public facts.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AccountInfo {
    /// Its id.
    #[serde(skip)]
    pub account: AccountId,
    /// Its name as spelled.
    pub name: String,
    /// When it was made (unix seconds).
    pub created: i64,
}

/// A game an account plays, for its history.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AccountGame {
    /// The game's lobby line (`my_seats`: the account's seats).
    #[serde(flatten)]
    pub summary: GameSummary,
    /// Whether the game is rated.
    pub rated: bool,
}

fn insert_session(c: &Connection, account: AccountId, s: &NewSession) -> rusqlite::Result<()> {
    c.execute(
        "INSERT INTO sessions(id_hash, account_id, csrf, created, expires)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![s.id_hash, account.0, s.csrf, now(), s.expires],
    )?;
    Ok(())
}

/// An account playing a seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatAccount {
    /// The seat.
    pub seat: usize,
    /// The account.
    pub account: AccountId,
    /// The account's user name: the name shown for the seat.
    pub name: String,
}

/// The accounts playing seats of game `id`, by seat.
pub(crate) fn load_seat_accounts(c: &Connection, id: &str) -> rusqlite::Result<Vec<SeatAccount>> {
    let mut st = c.prepare(
        "SELECT sa.seat, sa.account_id, a.name FROM seat_accounts sa
         JOIN accounts a ON a.id = sa.account_id
         WHERE sa.game_id = ?1 ORDER BY sa.seat",
    )?;
    let rows = st.query_map(params![id], |r| {
        Ok(SeatAccount {
            seat: r.get::<_, i64>(0)? as usize,
            account: AccountId(r.get(1)?),
            name: r.get(2)?,
        })
    })?;
    rows.collect()
}

/// The seats of an account created with guest tokens: those attached at once, and those
/// of games another server holds (attached through that server, which has their room).
#[derive(Clone, Debug, Default)]
pub struct GuestSeats {
    /// (game, seat) pairs attached to the account.
    pub attached: Vec<(String, usize)>,
    /// (game, seat) pairs of games another server owns: not attached yet.
    pub elsewhere: Vec<(String, usize)>,
}

/// Attaches to an account the seats its guest tokens hold that no account plays yet, and
/// gives those seats the account's user name (the name a seat played from an account
/// shows). Returns the (game, seat) pairs attached.
fn attach_tokens(
    c: &Connection,
    account: AccountId,
    name: &str,
    tokens: &[String],
) -> Result<Vec<(String, usize)>, AppError> {
    let mut attached = Vec::new();
    for t in tokens {
        let Some((game, seat)) = c
            .query_row(
                "SELECT game_id, seat FROM tokens WHERE token = ?1",
                params![t],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as usize)),
            )
            .optional()?
        else {
            continue;
        };
        if attach_seat(c, account, name, &game, seat)? {
            attached.push((game, seat));
        }
    }
    Ok(attached)
}

/// Attaches one seat of a game to an account unless it is a hot-seat companion's or
/// already has an account; answers whether it did.
pub(super) fn attach_seat(
    c: &Connection,
    account: AccountId,
    name: &str,
    game: &str,
    seat: usize,
) -> Result<bool, AppError> {
    let Some(seats) = c
        .query_row(
            "SELECT seats FROM games WHERE id = ?1",
            params![game],
            |r| r.get::<_, String>(0),
        )
        .optional()?
    else {
        return Ok(false);
    };
    let mut seats: Vec<Seat> = serde_json::from_str(&seats)
        .map_err(|e| AppError::Internal(format!("stored seats of {game}: {e}")))?;
    // Hot-seat seats are other people at the same device, not the account's.
    let Some(s) = seats.get_mut(seat).filter(|s| s.kind != SeatKind::Hotseat) else {
        return Ok(false);
    };
    let added = c.execute(
        "INSERT OR IGNORE INTO seat_accounts(game_id, seat, account_id) VALUES (?1, ?2, ?3)",
        params![game, seat as i64, account.0],
    )?;
    if added == 0 {
        return Ok(false);
    }
    s.name = DisplayName::try_from(name.to_string()).ok();
    c.execute(
        "UPDATE games SET seats = ?2 WHERE id = ?1",
        params![
            game,
            serde_json::to_string(&seats).expect("seats serialise")
        ],
    )?;
    Ok(true)
}

impl Store {
    /// Creates an account with its first session, and attaches the seats of the guest
    /// tokens given (the games this device played before signing up). Returns the
    /// account and its seats: attached, or in games another server owns (the room
    /// there attaches them, see [`Store::attach_seat`]).
    ///
    /// # Errors
    /// [`AppError::Conflict`] when the name is taken (in any case).
    pub async fn create_account(
        &self,
        name: String,
        name_key: String,
        password_hash: String,
        session: NewSession,
        tokens: Vec<String>,
    ) -> Result<(AccountId, GuestSeats), AppError> {
        on_backend!(
            self,
            create_account(name, name_key, password_hash, session, tokens)
        )
    }

    /// Attaches a seat of a game this server owns to an account (a guest's seat, at
    /// sign-up on another server) and gives it the account's name; answers whether it
    /// did (not for a hot-seat companion's seat or one that has an account already).
    ///
    /// # Errors
    /// [`AppError::Busy`] when another server has taken the game over.
    pub async fn attach_seat(
        &self,
        game: String,
        seat: usize,
        account: AccountId,
        name: String,
    ) -> Result<bool, AppError> {
        on_backend!(self, attach_seat(game, seat, account, name))
    }

    /// The credentials of the account with this name key, if any.
    pub async fn credentials(&self, name_key: String) -> Result<Option<Credentials>, AppError> {
        on_backend!(self, credentials(name_key))
    }

    /// Starts a session for an account, ending the one the browser had (`old`, a hash):
    /// each login gets a fresh secret.
    pub async fn start_session(
        &self,
        account: AccountId,
        session: NewSession,
        old: Option<String>,
    ) -> Result<(), AppError> {
        on_backend!(self, start_session(account, session, old))
    }

    /// The live session with this hash.
    pub async fn session(&self, id_hash: String) -> Result<Option<SessionRow>, AppError> {
        on_backend!(self, session(id_hash))
    }

    /// Ends a session.
    pub async fn end_session(&self, id_hash: String) -> Result<(), AppError> {
        on_backend!(self, end_session(id_hash))
    }

    /// Sets a new password hash, ends every session of the account (other devices are
    /// logged out) and starts a new one for this browser.
    pub async fn change_password(
        &self,
        account: AccountId,
        password_hash: String,
        session: NewSession,
    ) -> Result<(), AppError> {
        on_backend!(self, change_password(account, password_hash, session))
    }

    /// The public facts of the account with this name (any case).
    pub async fn account(&self, name_key: String) -> Result<Option<AccountInfo>, AppError> {
        on_backend!(self, account(name_key))
    }

    /// The games an account plays or played, most recently changed first.
    pub async fn account_games(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<AccountGame>, AppError> {
        on_backend!(self, account_games(account, limit))
    }

    /// The seat tokens of an account's games that are not finished (so a logged-in
    /// device can go on playing them): (game id, seat, token).
    pub async fn account_tokens(
        &self,
        account: AccountId,
    ) -> Result<Vec<(String, usize, String)>, AppError> {
        on_backend!(self, account_tokens(account))
    }

    /// The accounts playing seats of a game (guests and the AI have none).
    pub async fn seat_accounts(&self, game_id: String) -> Result<Vec<SeatAccount>, AppError> {
        on_backend!(self, seat_accounts(game_id))
    }
}

impl Sqlite {
    /// Creates an account with its first session, and attaches the seats of the guest
    /// tokens given (the games this device played before signing up). Returns the
    /// account and the (game, seat) pairs attached.
    ///
    /// # Errors
    /// [`AppError::Conflict`] when the name is taken (in any case).
    async fn create_account(
        &self,
        name: String,
        name_key: String,
        password_hash: String,
        session: NewSession,
        tokens: Vec<String>,
    ) -> Result<(AccountId, GuestSeats), AppError> {
        self.with(move |c| {
            let tx = c.savepoint()?;
            let taken: bool = tx
                .query_row(
                    "SELECT 1 FROM accounts WHERE name_key = ?1",
                    params![name_key],
                    |_| Ok(true),
                )
                .optional()?
                .unwrap_or(false);
            if taken {
                return Err(AppError::Conflict(format!(
                    "the user name '{name}' is taken; choose another"
                )));
            }
            tx.execute(
                "INSERT INTO accounts(name, name_key, password_hash, created)
                 VALUES (?1, ?2, ?3, ?4)",
                params![name, name_key, password_hash, now()],
            )?;
            let account = AccountId(tx.last_insert_rowid());
            insert_session(&tx, account, &session)?;
            let mut attached = attach_tokens(&tx, account, &name, &tokens)?;
            attached.extend(super::tournaments::attach_entries(
                &tx, account, &name, &tokens,
            )?);
            tx.commit()?;
            Ok((
                account,
                GuestSeats {
                    attached,
                    elsewhere: Vec::new(),
                },
            ))
        })
        .await
    }

    async fn attach_seat(
        &self,
        game: String,
        seat: usize,
        account: AccountId,
        name: String,
    ) -> Result<bool, AppError> {
        self.with(move |c| attach_seat(c, account, &name, &game, seat))
            .await
    }

    /// The credentials of the account with this name key, if any.
    async fn credentials(&self, name_key: String) -> Result<Option<Credentials>, AppError> {
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT id, name, password_hash FROM accounts WHERE name_key = ?1",
                params![name_key],
                |r| {
                    Ok(Credentials {
                        account: AccountId(r.get(0)?),
                        name: r.get(1)?,
                        password_hash: r.get(2)?,
                    })
                },
            )
            .optional()?)
        })
        .await
    }

    /// Starts a session for an account, ending the one the browser had (`old`, a hash):
    /// each login gets a fresh secret.
    async fn start_session(
        &self,
        account: AccountId,
        session: NewSession,
        old: Option<String>,
    ) -> Result<(), AppError> {
        self.with(move |c| {
            let tx = c.savepoint()?;
            if let Some(old) = old {
                tx.execute("DELETE FROM sessions WHERE id_hash = ?1", params![old])?;
            }
            // Expired sessions go as new ones come.
            tx.execute("DELETE FROM sessions WHERE expires <= ?1", params![now()])?;
            insert_session(&tx, account, &session)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// The live session with this hash.
    async fn session(&self, id_hash: String) -> Result<Option<SessionRow>, AppError> {
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT s.account_id, a.name, s.csrf FROM sessions s
                 JOIN accounts a ON a.id = s.account_id
                 WHERE s.id_hash = ?1 AND s.expires > ?2",
                params![id_hash, now()],
                |r| {
                    Ok(SessionRow {
                        account: AccountId(r.get(0)?),
                        name: r.get(1)?,
                        csrf: r.get(2)?,
                    })
                },
            )
            .optional()?)
        })
        .await
    }

    /// Ends a session.
    async fn end_session(&self, id_hash: String) -> Result<(), AppError> {
        self.with(move |c| {
            c.execute("DELETE FROM sessions WHERE id_hash = ?1", params![id_hash])?;
            Ok(())
        })
        .await
    }

    /// Sets a new password hash, ends every session of the account (other devices are
    /// logged out) and starts a new one for this browser.
    async fn change_password(
        &self,
        account: AccountId,
        password_hash: String,
        session: NewSession,
    ) -> Result<(), AppError> {
        self.with(move |c| {
            let tx = c.savepoint()?;
            tx.execute(
                "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
                params![account.0, password_hash],
            )?;
            tx.execute(
                "DELETE FROM sessions WHERE account_id = ?1",
                params![account.0],
            )?;
            insert_session(&tx, account, &session)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// The public facts of the account with this name (any case).
    async fn account(&self, name_key: String) -> Result<Option<AccountInfo>, AppError> {
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT id, name, created FROM accounts WHERE name_key = ?1",
                params![name_key],
                |r| {
                    Ok(AccountInfo {
                        account: AccountId(r.get(0)?),
                        name: r.get(1)?,
                        created: r.get(2)?,
                    })
                },
            )
            .optional()?)
        })
        .await
    }

    /// The games an account plays or played, most recently changed first.
    async fn account_games(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<AccountGame>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT g.id, g.variant, g.status, g.seats, g.plies, g.updated, g.clock,
                        group_concat(sa.seat), r.game_id IS NOT NULL
                 FROM seat_accounts sa
                 JOIN games g ON g.id = sa.game_id
                 LEFT JOIN rated_games r ON r.game_id = g.id
                 WHERE sa.account_id = ?1
                 GROUP BY g.id ORDER BY g.updated DESC LIMIT ?2",
            )?;
            let rows = st
                .query_map(params![account.0, limit as i64], |r| {
                    let mut summary = summary_row(r)?;
                    let seats: String = r.get(7)?;
                    summary.my_seats = seats.split(',').filter_map(|s| s.parse().ok()).collect();
                    Ok(AccountGame {
                        summary,
                        rated: r.get(8)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// The seat tokens of an account's games that are not finished (so a logged-in
    /// device can go on playing them): (game id, seat, token).
    async fn account_tokens(
        &self,
        account: AccountId,
    ) -> Result<Vec<(String, usize, String)>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT t.game_id, t.seat, t.token FROM seat_accounts sa
                 JOIN tokens t ON t.game_id = sa.game_id AND t.seat = sa.seat
                 JOIN games g ON g.id = sa.game_id
                 WHERE sa.account_id = ?1 AND g.status <> 'finished'
                 ORDER BY g.updated DESC LIMIT 200",
            )?;
            let rows = st
                .query_map(params![account.0], |r| {
                    Ok((r.get(0)?, r.get::<_, i64>(1)? as usize, r.get(2)?))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// The accounts playing seats of a game (guests and the AI have none).
    async fn seat_accounts(&self, game_id: String) -> Result<Vec<SeatAccount>, AppError> {
        self.with(move |c| Ok(load_seat_accounts(c, &game_id)?))
            .await
    }
}

/// The accounts playing seats of game `id`, by seat (PostgreSQL).
pub(super) async fn load_seat_accounts_pg(
    c: &impl GenericClient,
    id: &str,
) -> Result<Vec<SeatAccount>, AppError> {
    let rows = c
        .query(
            "SELECT sa.seat, sa.account_id, a.name FROM seat_accounts sa
             JOIN accounts a ON a.id = sa.account_id
             WHERE sa.game_id = $1 ORDER BY sa.seat",
            &[&id],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| SeatAccount {
            seat: r.get::<_, i64>(0) as usize,
            account: AccountId(r.get(1)),
            name: r.get(2),
        })
        .collect())
}

/// [`attach_tokens`] on PostgreSQL, for a server among several: a seat of a game another
/// server holds a live lease on is left to that server (its room has the seats in
/// memory and would write them back without the account's name), in `elsewhere`. A
/// lease that has run out is removed, so its old owner can no longer write the game.
async fn attach_tokens_pg(
    tx: &tokio_postgres::Transaction<'_>,
    server: &str,
    account: AccountId,
    name: &str,
    tokens: &[String],
) -> Result<GuestSeats, AppError> {
    let mut seats = GuestSeats::default();
    for t in tokens {
        let Some(row) = tx
            .query_opt("SELECT game_id, seat FROM tokens WHERE token = $1", &[t])
            .await?
        else {
            continue;
        };
        let (game, seat): (String, usize) = (row.get(0), row.get::<_, i64>(1) as usize);
        if owned_elsewhere(tx, server, &game).await? {
            seats.elsewhere.push((game, seat));
        } else if attach_seat_pg(tx, account, name, &game, seat).await? {
            seats.attached.push((game, seat));
        }
    }
    Ok(seats)
}

/// Whether another server holds a live lease on a game (its seats are then attached
/// through that server); a lease that has run out is removed, so its old owner can no
/// longer write the game.
pub(super) async fn owned_elsewhere(
    tx: &tokio_postgres::Transaction<'_>,
    server: &str,
    game: &str,
) -> Result<bool, AppError> {
    let lease = tx
        .query_opt(
            &format!(
                "SELECT owner, expires >= {NOW_MS} FROM game_leases
                 WHERE game_id = $1 AND owner <> $2 FOR UPDATE"
            ),
            &[&game, &server],
        )
        .await?;
    match lease {
        Some(l) if l.get::<_, bool>(1) => Ok(true),
        Some(_) => {
            tx.execute("DELETE FROM game_leases WHERE game_id = $1", &[&game])
                .await?;
            Ok(false)
        }
        None => Ok(false),
    }
}

/// [`attach_seat`] on PostgreSQL.
pub(super) async fn attach_seat_pg(
    tx: &tokio_postgres::Transaction<'_>,
    account: AccountId,
    name: &str,
    game: &str,
    seat: usize,
) -> Result<bool, AppError> {
    let Some(row) = tx
        .query_opt("SELECT seats FROM games WHERE id = $1", &[&game])
        .await?
    else {
        return Ok(false);
    };
    let seats: String = row.get(0);
    let mut seats: Vec<Seat> = serde_json::from_str(&seats)
        .map_err(|e| AppError::Internal(format!("stored seats of {game}: {e}")))?;
    // Hot-seat seats are other people at the same device, not the account's.
    let Some(s) = seats.get_mut(seat).filter(|s| s.kind != SeatKind::Hotseat) else {
        return Ok(false);
    };
    let added = tx
        .execute(
            "INSERT INTO seat_accounts(game_id, seat, account_id) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
            &[&game, &(seat as i64), &account.0],
        )
        .await?;
    if added == 0 {
        return Ok(false);
    }
    s.name = DisplayName::try_from(name.to_string()).ok();
    tx.execute(
        "UPDATE games SET seats = $2 WHERE id = $1",
        &[
            &game,
            &serde_json::to_string(&seats).expect("seats serialise"),
        ],
    )
    .await?;
    Ok(true)
}

async fn insert_session_pg(
    tx: &tokio_postgres::Transaction<'_>,
    account: AccountId,
    s: &NewSession,
) -> Result<(), AppError> {
    tx.execute(
        "INSERT INTO sessions(id_hash, account_id, csrf, created, expires)
         VALUES ($1, $2, $3, $4, $5)",
        &[&s.id_hash, &account.0, &s.csrf, &now(), &s.expires],
    )
    .await?;
    Ok(())
}

impl Postgres {
    async fn create_account(
        &self,
        name: String,
        name_key: String,
        password_hash: String,
        session: NewSession,
        tokens: Vec<String>,
    ) -> Result<(AccountId, GuestSeats), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        // Two servers creating the same name at once: the unique key decides, and the
        // loser gets the same answer as when the name was taken before.
        let row = tx
            .query_opt(
                "INSERT INTO accounts(name, name_key, password_hash, created)
                 VALUES ($1, $2, $3, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                &[&name, &name_key, &password_hash, &now()],
            )
            .await?;
        let Some(row) = row else {
            return Err(AppError::Conflict(format!(
                "the user name '{name}' is taken; choose another"
            )));
        };
        let account = AccountId(row.get(0));
        insert_session_pg(&tx, account, &session).await?;
        let mut seats = attach_tokens_pg(&tx, self.server_id(), account, &name, &tokens).await?;
        let entries =
            super::tournaments::attach_entries_pg(&tx, self.server_id(), account, &name, &tokens)
                .await?;
        seats.attached.extend(entries.attached);
        seats.elsewhere.extend(entries.elsewhere);
        tx.commit().await?;
        Ok((account, seats))
    }

    async fn attach_seat(
        &self,
        game: String,
        seat: usize,
        account: AccountId,
        name: String,
    ) -> Result<bool, AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        check_owner(&tx, &game, self.server_id()).await?;
        let added = attach_seat_pg(&tx, account, &name, &game, seat).await?;
        tx.commit().await?;
        Ok(added)
    }

    async fn credentials(&self, name_key: String) -> Result<Option<Credentials>, AppError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT id, name, password_hash FROM accounts WHERE name_key = $1",
                &[&name_key],
            )
            .await?;
        Ok(row.map(|r| Credentials {
            account: AccountId(r.get(0)),
            name: r.get(1),
            password_hash: r.get(2),
        }))
    }

    async fn start_session(
        &self,
        account: AccountId,
        session: NewSession,
        old: Option<String>,
    ) -> Result<(), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        if let Some(old) = old {
            tx.execute("DELETE FROM sessions WHERE id_hash = $1", &[&old])
                .await?;
        }
        tx.execute("DELETE FROM sessions WHERE expires <= $1", &[&now()])
            .await?;
        insert_session_pg(&tx, account, &session).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn session(&self, id_hash: String) -> Result<Option<SessionRow>, AppError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT s.account_id, a.name, s.csrf FROM sessions s
                 JOIN accounts a ON a.id = s.account_id
                 WHERE s.id_hash = $1 AND s.expires > $2",
                &[&id_hash, &now()],
            )
            .await?;
        Ok(row.map(|r| SessionRow {
            account: AccountId(r.get(0)),
            name: r.get(1),
            csrf: r.get(2),
        }))
    }

    async fn end_session(&self, id_hash: String) -> Result<(), AppError> {
        self.client()
            .await?
            .execute("DELETE FROM sessions WHERE id_hash = $1", &[&id_hash])
            .await?;
        Ok(())
    }

    async fn change_password(
        &self,
        account: AccountId,
        password_hash: String,
        session: NewSession,
    ) -> Result<(), AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        tx.execute(
            "UPDATE accounts SET password_hash = $2 WHERE id = $1",
            &[&account.0, &password_hash],
        )
        .await?;
        tx.execute("DELETE FROM sessions WHERE account_id = $1", &[&account.0])
            .await?;
        insert_session_pg(&tx, account, &session).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn account(&self, name_key: String) -> Result<Option<AccountInfo>, AppError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT id, name, created FROM accounts WHERE name_key = $1",
                &[&name_key],
            )
            .await?;
        Ok(row.map(|r| AccountInfo {
            account: AccountId(r.get(0)),
            name: r.get(1),
            created: r.get(2),
        }))
    }

    async fn account_games(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<AccountGame>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT g.id, g.variant, g.status, g.seats, g.plies, g.updated, g.clock,
                        string_agg(sa.seat::text, ',' ORDER BY sa.seat),
                        bool_or(r.game_id IS NOT NULL)
                 FROM seat_accounts sa
                 JOIN games g ON g.id = sa.game_id
                 LEFT JOIN rated_games r ON r.game_id = g.id
                 WHERE sa.account_id = $1
                 GROUP BY g.id ORDER BY g.updated DESC LIMIT $2",
                &[&account.0, &(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let mut summary = super::postgres::summary(r)?;
                let seats: String = r.get(7);
                summary.my_seats = seats.split(',').filter_map(|s| s.parse().ok()).collect();
                Ok(AccountGame {
                    summary,
                    rated: r.get(8),
                })
            })
            .collect()
    }

    async fn account_tokens(
        &self,
        account: AccountId,
    ) -> Result<Vec<(String, usize, String)>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT t.game_id, t.seat, t.token FROM seat_accounts sa
                 JOIN tokens t ON t.game_id = sa.game_id AND t.seat = sa.seat
                 JOIN games g ON g.id = sa.game_id
                 WHERE sa.account_id = $1 AND g.status <> 'finished'
                 ORDER BY g.updated DESC LIMIT 200",
                &[&account.0],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get::<_, i64>(1) as usize, r.get(2)))
            .collect())
    }

    async fn seat_accounts(&self, game_id: String) -> Result<Vec<SeatAccount>, AppError> {
        load_seat_accounts_pg(&**self.client().await?, &game_id).await
    }
}
