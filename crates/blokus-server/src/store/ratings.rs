//! Ratings in the database: settling a finished rated game (exactly once, in one
//! transaction), current ratings, history and the leaderboard.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use tokio_postgres::GenericClient;

use super::{now, on_backend, Backend, Postgres, Sqlite, Store};
use crate::accounts::AccountId;
use crate::error::AppError;
use crate::ratings::update::{Rating, START};
use crate::ratings::{compute, Outcome, Participant, Settlement};
use crate::seats::Seat;

/// A row of `ratings`: an account's rating in a pool.
#[derive(Clone, Debug)]
pub struct PoolRating {
    /// The pool id.
    pub pool: String,
    /// The rating, its deviation and volatility.
    pub value: Rating,
    /// Rated games played in the pool.
    pub games: i64,
}

/// The columns every query of `ratings` (aliased `r`) reads, in the order
/// [`pool_rating`] and [`pool_rating_pg`] map them.
const RATING_COLUMNS: &str = "r.pool, r.rating, r.deviation, r.volatility, r.games";

/// A [`PoolRating`] from a row starting with [`RATING_COLUMNS`].
fn pool_rating(r: &rusqlite::Row<'_>) -> rusqlite::Result<PoolRating> {
    Ok(PoolRating {
        pool: r.get(0)?,
        value: Rating {
            rating: r.get(1)?,
            deviation: r.get(2)?,
            volatility: r.get(3)?,
        },
        games: r.get(4)?,
    })
}

/// A [`PoolRating`] from a PostgreSQL row starting with [`RATING_COLUMNS`].
fn pool_rating_pg(r: &tokio_postgres::Row) -> PoolRating {
    PoolRating {
        pool: r.get(0),
        value: Rating {
            rating: r.get(1),
            deviation: r.get(2),
            volatility: r.get(3),
        },
        games: r.get(4),
    }
}

/// One rating change.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryRow {
    /// The pool id.
    pub pool: String,
    /// The game.
    pub game: String,
    /// The rating before the game.
    pub before: f64,
    /// The rating after.
    pub rating: f64,
    /// The deviation after.
    pub deviation: f64,
    /// When (unix seconds).
    pub at: i64,
}

/// A line of the leaderboard.
#[derive(Clone, Debug)]
pub struct LeaderRow {
    /// The account's name.
    pub name: String,
    /// Its rating in the pool.
    pub rating: PoolRating,
}

/// A seat played from an account with one of the account's ratings (`pool` `None`: the
/// account has none yet).
#[derive(Clone, Debug)]
pub struct SeatPoolRating {
    /// The game.
    pub game: String,
    /// The seat.
    pub seat: usize,
    /// The pool of this rating.
    pub pool: Option<String>,
    /// The rating (the start rating without a pool).
    pub rating: f64,
    /// Rated games in the pool.
    pub games: i64,
}

fn read_rating(c: &Connection, account: AccountId, pool: &str) -> rusqlite::Result<(Rating, i64)> {
    Ok(c.query_row(
        &format!("SELECT {RATING_COLUMNS} FROM ratings r WHERE r.account_id = ?1 AND r.pool = ?2"),
        params![account.0, pool],
        pool_rating,
    )
    .optional()?
    .map_or((START, 0), |p| (p.value, p.games)))
}

fn mark(tx: &Connection, game_id: &str, outcome: &str) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE rated_games SET settled = ?2, outcome = ?3 WHERE game_id = ?1",
        params![game_id, now(), outcome],
    )?;
    Ok(())
}

/// Settles one game inside a transaction: nothing if it is not rated, already settled or
/// not over; otherwise the ratings, their history and the settled mark change together.
fn settle_in(tx: &Connection, game_id: &str) -> Result<Settlement, AppError> {
    let pending: Option<Option<i64>> = tx
        .query_row(
            "SELECT settled FROM rated_games WHERE game_id = ?1",
            params![game_id],
            |r| r.get(0),
        )
        .optional()?;
    match pending {
        None => return Ok(Settlement::NotRated),
        Some(Some(_)) => return Ok(Settlement::AlreadySettled),
        Some(None) => {}
    }
    let (variant, options, seats): (String, String, String) = tx.query_row(
        "SELECT variant, options, seats FROM games WHERE id = ?1",
        params![game_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let seats: Vec<Seat> = serde_json::from_str(&seats)
        .map_err(|e| AppError::Internal(format!("stored seats of {game_id}: {e}")))?;
    let mut st = tx.prepare("SELECT event FROM events WHERE game_id = ?1 ORDER BY ply")?;
    let events = st
        .query_map(params![game_id], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    let game = crate::room_game::RoomGame::rebuild(&variant, &options, &events)
        .map_err(|e| AppError::Internal(format!("game {game_id}: {e}")))?;
    if !game.is_over() {
        return Ok(Settlement::NotOver);
    }
    let result = Outcome::of(&game);
    let pool = result.pool.id();
    let mut accounts = vec![None; seats.len()];
    let mut st = tx.prepare("SELECT seat, account_id FROM seat_accounts WHERE game_id = ?1")?;
    for row in st.query_map(params![game_id], |r| {
        Ok((r.get::<_, i64>(0)? as usize, AccountId(r.get(1)?)))
    })? {
        let (seat, account) = row?;
        if let Some(a) = accounts.get_mut(seat) {
            *a = Some(account);
        }
    }
    let mut participants = Vec::new();
    for (seat, account) in seats.iter().zip(&accounts) {
        participants.push(match (account, seat.level) {
            (Some(a), _) => {
                let (rating, _) = read_rating(tx, *a, &pool)?;
                Participant::Account(*a, rating)
            }
            (None, Some(level)) => Participant::Ai(level),
            (None, None) => Participant::Guest,
        });
    }
    let Some(changes) = compute(&result, &participants) else {
        mark(tx, game_id, "aborted")?;
        return Ok(Settlement::Aborted);
    };
    let t = now();
    for (account, new) in &changes {
        let (old, games) = read_rating(tx, *account, &pool)?;
        tx.execute(
            "INSERT INTO ratings(account_id, pool, rating, deviation, volatility, games, updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT(account_id, pool) DO UPDATE SET rating = ?3, deviation = ?4,
                 volatility = ?5, games = ?6, updated = ?7",
            params![
                account.0,
                pool,
                new.rating,
                new.deviation,
                new.volatility,
                games + 1,
                t
            ],
        )?;
        tx.execute(
            "INSERT INTO rating_history(account_id, game_id, pool, before, rating, deviation, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                account.0,
                game_id,
                pool,
                old.rating,
                new.rating,
                new.deviation,
                t
            ],
        )?;
    }
    mark(tx, game_id, "rated")?;
    Ok(Settlement::Rated(changes.len()))
}

/// Marks a stored game as rated (at creation, in the transaction that stores it).
pub(super) fn mark_rated(tx: &Connection, game_id: &str) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO rated_games(game_id) VALUES (?1)",
        params![game_id],
    )?;
    Ok(())
}

impl Store {
    /// Settles a finished rated game: its players' ratings change exactly once, however
    /// often this is called (the room at the game's end, the start-up sweep after a
    /// crash), because the check and the change are one transaction.
    pub async fn settle_game(&self, game_id: String) -> Result<Settlement, AppError> {
        on_backend!(self, settle_game(game_id))
    }

    /// Rated games not settled yet whose game is finished.
    pub async fn unsettled_games(&self) -> Result<Vec<String>, AppError> {
        on_backend!(self, unsettled_games())
    }

    /// Whether a game is rated.
    pub async fn is_rated(&self, game_id: String) -> Result<bool, AppError> {
        on_backend!(self, is_rated(game_id))
    }

    /// An account's ratings in every pool it played.
    pub async fn ratings_of(&self, account: AccountId) -> Result<Vec<PoolRating>, AppError> {
        on_backend!(self, ratings_of(account))
    }

    /// An account's rating changes, oldest first (the last `limit`).
    pub async fn rating_history(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<HistoryRow>, AppError> {
        on_backend!(self, rating_history(account, limit))
    }

    /// The best ratings of a pool.
    pub async fn leaderboard(
        &self,
        pool: String,
        limit: usize,
    ) -> Result<Vec<LeaderRow>, AppError> {
        on_backend!(self, leaderboard(pool, limit))
    }

    /// Every rating of the accounts playing seats of these games, seat by seat (one row
    /// per seat and pool; a seat whose account has no rating yet has one row without a
    /// pool).
    pub async fn seat_ratings(&self, games: Vec<String>) -> Result<Vec<SeatPoolRating>, AppError> {
        on_backend!(self, seat_ratings(games))
    }

    /// The current rating of an account in a pool (the start rating if it has none).
    pub async fn rating_in(
        &self,
        account: AccountId,
        pool: String,
    ) -> Result<(Rating, i64), AppError> {
        on_backend!(self, rating_in(account, pool))
    }
}

impl Sqlite {
    /// Settles a finished rated game: its players' ratings change exactly once, however
    /// often this is called (the room at the game's end, the start-up sweep after a
    /// crash), because the check and the change are one transaction.
    async fn settle_game(&self, game_id: String) -> Result<Settlement, AppError> {
        self.with(move |c| {
            let tx = c.savepoint()?;
            let s = settle_in(&tx, &game_id)?;
            tx.commit()?;
            Ok(s)
        })
        .await
    }

    /// Rated games not settled yet whose game is finished.
    async fn unsettled_games(&self) -> Result<Vec<String>, AppError> {
        self.with(|c| {
            let mut st = c.prepare(
                "SELECT r.game_id FROM rated_games r JOIN games g ON g.id = r.game_id
                 WHERE r.settled IS NULL AND g.status = 'finished'",
            )?;
            let ids = st
                .query_map([], |r| r.get(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
        .await
    }

    /// Whether a game is rated.
    async fn is_rated(&self, game_id: String) -> Result<bool, AppError> {
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT 1 FROM rated_games WHERE game_id = ?1",
                params![game_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
        })
        .await
    }

    /// An account's ratings in every pool it played.
    async fn ratings_of(&self, account: AccountId) -> Result<Vec<PoolRating>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings r WHERE r.account_id = ?1"
            ))?;
            let rows = st
                .query_map(params![account.0], pool_rating)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// An account's rating changes, oldest first (the last `limit`).
    async fn rating_history(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<HistoryRow>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT pool, game_id, before, rating, deviation, at FROM rating_history
                 WHERE account_id = ?1 ORDER BY at DESC, rowid DESC LIMIT ?2",
            )?;
            let mut rows = st
                .query_map(params![account.0, limit as i64], |r| {
                    Ok(HistoryRow {
                        pool: r.get(0)?,
                        game: r.get(1)?,
                        before: r.get(2)?,
                        rating: r.get(3)?,
                        deviation: r.get(4)?,
                        at: r.get(5)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows.reverse();
            Ok(rows)
        })
        .await
    }

    /// The best ratings of a pool.
    async fn leaderboard(&self, pool: String, limit: usize) -> Result<Vec<LeaderRow>, AppError> {
        self.with(move |c| {
            let mut st = c.prepare(&format!(
                "SELECT {RATING_COLUMNS}, a.name FROM ratings r
                 JOIN accounts a ON a.id = r.account_id
                 WHERE r.pool = ?1 ORDER BY r.rating DESC, a.name_key LIMIT ?2"
            ))?;
            let rows = st
                .query_map(params![pool, limit as i64], |r| {
                    Ok(LeaderRow {
                        rating: pool_rating(r)?,
                        name: r.get(5)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// The current rating of an account in a pool (the start rating if it has none).
    async fn rating_in(&self, account: AccountId, pool: String) -> Result<(Rating, i64), AppError> {
        self.with(move |c| Ok(read_rating(c, account, &pool)?))
            .await
    }

    async fn seat_ratings(&self, games: Vec<String>) -> Result<Vec<SeatPoolRating>, AppError> {
        let ids = serde_json::to_string(&games).expect("ids serialise");
        self.with(move |c| {
            let mut st = c.prepare(
                "SELECT sa.game_id, sa.seat, r.pool, r.rating, r.games FROM seat_accounts sa
                 LEFT JOIN ratings r ON r.account_id = sa.account_id
                 WHERE sa.game_id IN (SELECT value FROM json_each(?1))",
            )?;
            let rows = st
                .query_map(params![ids], |r| {
                    Ok(SeatPoolRating {
                        game: r.get(0)?,
                        seat: r.get::<_, i64>(1)? as usize,
                        pool: r.get(2)?,
                        rating: r.get::<_, Option<f64>>(3)?.unwrap_or(START.rating),
                        games: r.get::<_, Option<i64>>(4)?.unwrap_or(0),
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }
}

async fn read_rating_pg(
    c: &impl GenericClient,
    account: AccountId,
    pool: &str,
) -> Result<(Rating, i64), AppError> {
    let row = c
        .query_opt(
            &format!(
                "SELECT {RATING_COLUMNS} FROM ratings r WHERE r.account_id = $1 AND r.pool = $2"
            ),
            &[&account.0, &pool],
        )
        .await?;
    Ok(row.map_or((START, 0), |r| {
        let p = pool_rating_pg(&r);
        (p.value, p.games)
    }))
}

async fn mark_pg(
    tx: &tokio_postgres::Transaction<'_>,
    game_id: &str,
    outcome: &str,
) -> Result<(), AppError> {
    tx.execute(
        "UPDATE rated_games SET settled = $2, outcome = $3 WHERE game_id = $1",
        &[&game_id, &now(), &outcome],
    )
    .await?;
    Ok(())
}

/// Marks a stored game as rated (PostgreSQL, inside the transaction that stores it).
pub(super) async fn mark_rated_pg(
    tx: &tokio_postgres::Transaction<'_>,
    game_id: &str,
) -> Result<(), AppError> {
    tx.execute("INSERT INTO rated_games(game_id) VALUES ($1)", &[&game_id])
        .await?;
    Ok(())
}

/// [`settle_in`] on PostgreSQL: the game's `rated_games` row is locked first, so two
/// servers settling the same game at once settle it once.
async fn settle_in_pg(
    tx: &tokio_postgres::Transaction<'_>,
    game_id: &str,
) -> Result<Settlement, AppError> {
    let pending = tx
        .query_opt(
            "SELECT settled FROM rated_games WHERE game_id = $1 FOR UPDATE",
            &[&game_id],
        )
        .await?
        .map(|r| r.get::<_, Option<i64>>(0));
    match pending {
        None => return Ok(Settlement::NotRated),
        Some(Some(_)) => return Ok(Settlement::AlreadySettled),
        Some(None) => {}
    }
    let row = tx
        .query_one(
            "SELECT variant, options, seats FROM games WHERE id = $1",
            &[&game_id],
        )
        .await?;
    let (variant, options, seats): (String, String, String) = (row.get(0), row.get(1), row.get(2));
    let seats: Vec<Seat> = serde_json::from_str(&seats)
        .map_err(|e| AppError::Internal(format!("stored seats of {game_id}: {e}")))?;
    let events: Vec<String> = tx
        .query(
            "SELECT event FROM events WHERE game_id = $1 ORDER BY ply",
            &[&game_id],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let game = crate::room_game::RoomGame::rebuild(&variant, &options, &events)
        .map_err(|e| AppError::Internal(format!("game {game_id}: {e}")))?;
    if !game.is_over() {
        return Ok(Settlement::NotOver);
    }
    let result = Outcome::of(&game);
    let pool = result.pool.id();
    let mut accounts = vec![None; seats.len()];
    for r in tx
        .query(
            "SELECT seat, account_id FROM seat_accounts WHERE game_id = $1",
            &[&game_id],
        )
        .await?
    {
        if let Some(a) = accounts.get_mut(r.get::<_, i64>(0) as usize) {
            *a = Some(AccountId(r.get(1)));
        }
    }
    let mut participants = Vec::new();
    for (seat, account) in seats.iter().zip(&accounts) {
        participants.push(match (account, seat.level) {
            (Some(a), _) => {
                let (rating, _) = read_rating_pg(tx, *a, &pool).await?;
                Participant::Account(*a, rating)
            }
            (None, Some(level)) => Participant::Ai(level),
            (None, None) => Participant::Guest,
        });
    }
    let Some(changes) = compute(&result, &participants) else {
        mark_pg(tx, game_id, "aborted").await?;
        return Ok(Settlement::Aborted);
    };
    let t = now();
    for (account, new) in &changes {
        let (old, games) = read_rating_pg(tx, *account, &pool).await?;
        tx.execute(
            "INSERT INTO ratings(account_id, pool, rating, deviation, volatility, games, updated)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (account_id, pool) DO UPDATE SET rating = $3, deviation = $4,
                 volatility = $5, games = $6, updated = $7",
            &[
                &account.0,
                &pool,
                &new.rating,
                &new.deviation,
                &new.volatility,
                &(games + 1),
                &t,
            ],
        )
        .await?;
        tx.execute(
            "INSERT INTO rating_history(account_id, game_id, pool, before, rating, deviation, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[
                &account.0,
                &game_id,
                &pool,
                &old.rating,
                &new.rating,
                &new.deviation,
                &t,
            ],
        )
        .await?;
    }
    mark_pg(tx, game_id, "rated").await?;
    Ok(Settlement::Rated(changes.len()))
}

impl Postgres {
    async fn settle_game(&self, game_id: String) -> Result<Settlement, AppError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        let s = settle_in_pg(&tx, &game_id).await?;
        tx.commit().await?;
        Ok(s)
    }

    async fn unsettled_games(&self) -> Result<Vec<String>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT r.game_id FROM rated_games r JOIN games g ON g.id = r.game_id
                 WHERE r.settled IS NULL AND g.status = 'finished'",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn is_rated(&self, game_id: String) -> Result<bool, AppError> {
        Ok(self
            .client()
            .await?
            .query_opt("SELECT 1 FROM rated_games WHERE game_id = $1", &[&game_id])
            .await?
            .is_some())
    }

    async fn ratings_of(&self, account: AccountId) -> Result<Vec<PoolRating>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                &format!("SELECT {RATING_COLUMNS} FROM ratings r WHERE r.account_id = $1"),
                &[&account.0],
            )
            .await?;
        Ok(rows.iter().map(pool_rating_pg).collect())
    }

    async fn rating_history(
        &self,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<HistoryRow>, AppError> {
        // Rows are only ever added, so their physical order (ctid) is the order they
        // were written in, which breaks ties within a second as SQLite's rowid does.
        let rows = self
            .client()
            .await?
            .query(
                "SELECT pool, game_id, before, rating, deviation, at FROM rating_history
                 WHERE account_id = $1 ORDER BY at DESC, ctid DESC LIMIT $2",
                &[&account.0, &(limit as i64)],
            )
            .await?;
        let mut rows: Vec<HistoryRow> = rows
            .iter()
            .map(|r| HistoryRow {
                pool: r.get(0),
                game: r.get(1),
                before: r.get(2),
                rating: r.get(3),
                deviation: r.get(4),
                at: r.get(5),
            })
            .collect();
        rows.reverse();
        Ok(rows)
    }

    async fn leaderboard(&self, pool: String, limit: usize) -> Result<Vec<LeaderRow>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT {RATING_COLUMNS}, a.name FROM ratings r
                     JOIN accounts a ON a.id = r.account_id
                     WHERE r.pool = $1 ORDER BY r.rating DESC, a.name_key LIMIT $2"
                ),
                &[&pool, &(limit as i64)],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| LeaderRow {
                rating: pool_rating_pg(r),
                name: r.get(5),
            })
            .collect())
    }

    async fn rating_in(&self, account: AccountId, pool: String) -> Result<(Rating, i64), AppError> {
        read_rating_pg(&**self.client().await?, account, &pool).await
    }

    async fn seat_ratings(&self, games: Vec<String>) -> Result<Vec<SeatPoolRating>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT sa.game_id, sa.seat, r.pool, r.rating, r.games FROM seat_accounts sa
                 LEFT JOIN ratings r ON r.account_id = sa.account_id
                 WHERE sa.game_id = ANY($1)",
                &[&games],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| SeatPoolRating {
                game: r.get(0),
                seat: r.get::<_, i64>(1) as usize,
                pool: r.get(2),
                rating: r.get::<_, Option<f64>>(3).unwrap_or(START.rating),
                games: r.get::<_, Option<i64>>(4).unwrap_or(0),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seats::{GameStatus, SeatKind};
    use crate::store::accounts::NewSession;
    use crate::store::{NewGame, NewGameAccounts};
    use blokus_core::{Game, RuleOptions, Rules};

    async fn account(store: &Store, name: &str) -> AccountId {
        store
            .create_account(
                name.into(),
                name.into(),
                "not a real hash".into(),
                NewSession {
                    id_hash: format!("{name}-session"),
                    csrf: "csrf".into(),
                    expires: now() + 60,
                },
                vec![],
            )
            .await
            .unwrap()
            .0
    }

    /// A Duo game between two accounts, stored move by move as a room stores it, and
    /// left unsettled (as after a crash right after its last move).
    async fn stored_game(store: &Store, id: &str, moves: Option<usize>) -> Vec<AccountId> {
        let a = account(store, &format!("{id}a")).await;
        let b = account(store, &format!("{id}b")).await;
        let me = Seat::new(SeatKind::Me, None);
        store
            .create_game_with(
                NewGame {
                    id: id.into(),
                    variant: "duo".into(),
                    options: "{}".into(),
                    seats: vec![me.clone(), me],
                    status: GameStatus::Running,
                    ai_to_move: false,
                    tokens: vec![],
                    clock: None,
                },
                NewGameAccounts {
                    rated: true,
                    accounts: vec![(0, a), (1, b)],
                },
            )
            .await
            .unwrap();
        let mut game = Game::new(Rules::new(
            blokus_core::variant("duo").unwrap(),
            RuleOptions::default(),
        ));
        let mut n = 0;
        while !game.is_over() && moves.is_none_or(|m| n < m) {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
            let e = game.events()[n];
            let status = if game.is_over() {
                GameStatus::Finished
            } else {
                GameStatus::Running
            };
            store
                .append_event(
                    id.into(),
                    crate::store::NewEvent {
                        ply: n,
                        event: crate::codec::encode(&game, &e),
                        status,
                        ai_to_move: false,
                        clock: None,
                        result: None,
                    },
                )
                .await
                .unwrap();
            n += 1;
        }
        vec![a, b]
    }

    #[tokio::test]
    async fn the_start_up_sweep_settles_a_finished_game_exactly_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let players = stored_game(&store, "00000000000000aa", None).await;
        let running = stored_game(&store, "00000000000000bb", Some(5)).await;
        assert_eq!(
            store.unsettled_games().await.unwrap(),
            vec!["00000000000000aa"]
        );
        crate::ratings::settle_pending(store.clone()).await;
        crate::ratings::settle_pending(store.clone()).await;
        for a in &players {
            let r = store.ratings_of(*a).await.unwrap();
            assert_eq!(r.len(), 1);
            assert_eq!(r[0].games, 1, "rated once");
            assert_ne!(r[0].value.rating, 1500.0);
            assert_eq!(store.rating_history(*a, 10).await.unwrap().len(), 1);
        }
        assert_eq!(
            store.settle_game("00000000000000aa".into()).await.unwrap(),
            Settlement::AlreadySettled
        );
        // A game still running is left alone; an unrated one is not rated.
        assert_eq!(
            store.settle_game("00000000000000bb".into()).await.unwrap(),
            Settlement::NotOver
        );
        assert!(store.ratings_of(running[0]).await.unwrap().is_empty());
        assert_eq!(
            store.settle_game("0000000000000000".into()).await.unwrap(),
            Settlement::NotRated
        );
    }

    #[test]
    fn a_side_with_fewer_than_two_placements_makes_the_game_aborted() {
        use crate::ratings::{compute, update::START, Participant};
        let mut game = Game::new(Rules::new(
            blokus_core::variant("duo").unwrap(),
            RuleOptions::default(),
        ));
        let people = [
            Participant::Account(AccountId(1), START),
            Participant::Account(AccountId(2), START),
        ];
        for _ in 0..3 {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
        }
        let outcome = |g: &Game| crate::ratings::Outcome::of_flat(g);
        assert_eq!(
            compute(&outcome(&game), &people),
            None,
            "Orange placed only once"
        );
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
        assert_eq!(compute(&outcome(&game), &people).map(|c| c.len()), Some(2));
        let guest = [people[0], Participant::Guest];
        assert_eq!(compute(&outcome(&game), &guest), None);
    }
}
