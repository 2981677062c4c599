//! Game analyses in the database: one row per game, its evaluated positions rewritten
//! after each new one (a game has at most a few hundred), so a restart loses at most the
//! position being searched.
//!
//! The table is also the queue: each server's worker claims the oldest unfinished
//! analysis nobody computes, for [`super::LEASE`], and renews the claim as it goes; a claim that
//! runs out (its server died) is taken by the next worker that looks, so several servers
//! on one database share the work and none is lost.

use rusqlite::{params, OptionalExtension};

use super::leases::{lease_ms, NOW_MS};
use super::{now, on_backend, Backend, Postgres, Sqlite, Store};
use crate::error::AppError;

/// The worker name of the one server of an SQLite database.
const LOCAL: &str = "local";

/// Where an unfinished analysis is in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisPlace {
    /// A server is computing it.
    Running,
    /// Waiting, with this many unfinished analyses requested before it.
    Queued(usize),
}

/// An analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// Simulations per position.
    pub simulations: u64,
    /// Positions to evaluate (the game's events plus one).
    pub positions: usize,
    /// The evaluated positions so far, as a JSON array.
    pub evals: String,
}

impl Store {
    /// Records a request for a game's analysis; `false` if one exists already.
    pub async fn request_analysis(
        &self,
        id: String,
        simulations: u64,
        positions: usize,
    ) -> Result<bool, AppError> {
        on_backend!(self, request_analysis(id, simulations, positions))
    }

    /// A game's analysis, finished or not.
    pub async fn load_analysis(&self, id: String) -> Result<Option<StoredAnalysis>, AppError> {
        on_backend!(self, load_analysis(id))
    }

    /// Stores the positions evaluated so far (`done` of them, as a JSON array) and
    /// renews this server's claim; `false` (nothing stored) if another server has taken
    /// the analysis over.
    pub async fn save_analysis(
        &self,
        id: String,
        done: usize,
        evals: String,
    ) -> Result<bool, AppError> {
        on_backend!(self, save_analysis(id, done, evals))
    }

    /// Claims the oldest unfinished analysis that no live claim holds (or that this
    /// server held before a restart) for [`super::LEASE`]; its game id.
    pub async fn claim_analysis(&self) -> Result<Option<String>, AppError> {
        on_backend!(self, claim_analysis())
    }

    /// Renews this server's claim on an analysis; `false` if it is no longer this
    /// server's.
    pub async fn renew_analysis(&self, id: String) -> Result<bool, AppError> {
        on_backend!(self, renew_analysis(id))
    }

    /// Gives up this server's claim on an analysis; `requeue` also sends it to the back
    /// of the queue (it failed, so the others go first).
    pub async fn release_analysis(&self, id: String, requeue: bool) -> Result<(), AppError> {
        on_backend!(self, release_analysis(id, requeue))
    }

    /// Where a game's analysis is in the queue; `None` if it is finished or was never
    /// requested.
    pub async fn analysis_place(&self, id: String) -> Result<Option<AnalysisPlace>, AppError> {
        on_backend!(self, analysis_place(id))
    }

    /// How many analyses are unfinished (waiting or running), on every server.
    pub async fn unfinished_analyses(&self) -> Result<usize, AppError> {
        on_backend!(self, unfinished_analyses())
    }

    /// Forgets a game's analysis (the game changed under it).
    pub async fn delete_analysis(&self, id: String) -> Result<(), AppError> {
        on_backend!(self, delete_analysis(id))
    }
}

/// When a claim made now on SQLite runs out (the server's clock, milliseconds).
fn claim_end() -> i64 {
    crate::clock::now_ms() + lease_ms()
}

/// The place from a row: whether a live claim holds it, and the unfinished ones before it.
fn place(claimed: bool, ahead: i64) -> AnalysisPlace {
    if claimed {
        AnalysisPlace::Running
    } else {
        AnalysisPlace::Queued(ahead as usize)
    }
}

impl Sqlite {
    async fn request_analysis(
        &self,
        id: String,
        simulations: u64,
        positions: usize,
    ) -> Result<bool, AppError> {
        self.with(move |c| {
            let t = now();
            let n = c.execute(
                "INSERT OR IGNORE INTO analyses(game_id, simulations, positions, requested, updated,
                                                queued)
                 VALUES (?1, ?2, ?3, ?4, ?4,
                         (SELECT MAX(COALESCE(MAX(queued), 0) + 1, ?5) FROM analyses))",
                params![id, simulations as i64, positions as i64, t, crate::clock::now_ms()],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn load_analysis(&self, id: String) -> Result<Option<StoredAnalysis>, AppError> {
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT simulations, positions, evals FROM analyses WHERE game_id = ?1",
                params![id],
                |r| {
                    Ok(StoredAnalysis {
                        simulations: r.get::<_, i64>(0)? as u64,
                        positions: r.get::<_, i64>(1)? as usize,
                        evals: r.get(2)?,
                    })
                },
            )
            .optional()?)
        })
        .await
    }

    async fn save_analysis(
        &self,
        id: String,
        done: usize,
        evals: String,
    ) -> Result<bool, AppError> {
        self.with(move |c| {
            let n = c.execute(
                "UPDATE analyses SET done = ?2, evals = ?3, updated = ?4, claimed_until = ?5
                 WHERE game_id = ?1 AND worker = ?6",
                params![id, done as i64, evals, now(), claim_end(), LOCAL],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn claim_analysis(&self) -> Result<Option<String>, AppError> {
        self.with(|c| {
            Ok(c.query_row(
                "UPDATE analyses SET worker = ?1, claimed_until = ?3
                 WHERE game_id = (
                     SELECT game_id FROM analyses
                     WHERE done < positions
                       AND (worker IS NULL OR worker = ?1 OR claimed_until < ?2)
                     ORDER BY queued, game_id LIMIT 1)
                 RETURNING game_id",
                params![LOCAL, crate::clock::now_ms(), claim_end()],
                |r| r.get(0),
            )
            .optional()?)
        })
        .await
    }

    async fn renew_analysis(&self, id: String) -> Result<bool, AppError> {
        self.with(move |c| {
            let n = c.execute(
                "UPDATE analyses SET claimed_until = ?2 WHERE game_id = ?1 AND worker = ?3",
                params![id, claim_end(), LOCAL],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn release_analysis(&self, id: String, requeue: bool) -> Result<(), AppError> {
        self.with(move |c| {
            c.execute(
                "UPDATE analyses SET worker = NULL, claimed_until = NULL,
                        queued = CASE WHEN ?3
                                 THEN (SELECT MAX(MAX(queued) + 1, ?4) FROM analyses)
                                 ELSE queued END
                 WHERE game_id = ?1 AND worker = ?2",
                params![id, LOCAL, requeue, crate::clock::now_ms()],
            )?;
            Ok(())
        })
        .await
    }

    async fn analysis_place(&self, id: String) -> Result<Option<AnalysisPlace>, AppError> {
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT a.worker IS NOT NULL AND a.claimed_until >= ?2,
                        (SELECT COUNT(*) FROM analyses b WHERE b.done < b.positions
                           AND (b.queued, b.game_id) < (a.queued, a.game_id))
                 FROM analyses a WHERE a.game_id = ?1 AND a.done < a.positions",
                params![id, crate::clock::now_ms()],
                |r| Ok(place(r.get(0)?, r.get(1)?)),
            )
            .optional()?)
        })
        .await
    }

    async fn delete_analysis(&self, id: String) -> Result<(), AppError> {
        self.with(move |c| {
            c.execute("DELETE FROM analyses WHERE game_id = ?1", params![id])?;
            Ok(())
        })
        .await
    }

    async fn unfinished_analyses(&self) -> Result<usize, AppError> {
        self.with(|c| {
            let n: i64 = c.query_row(
                "SELECT COUNT(*) FROM analyses WHERE done < positions",
                [],
                |r| r.get(0),
            )?;
            Ok(n as usize)
        })
        .await
    }
}

impl Postgres {
    async fn request_analysis(
        &self,
        id: String,
        simulations: u64,
        positions: usize,
    ) -> Result<bool, AppError> {
        let n = self
            .execute(
                "INSERT INTO analyses(game_id, simulations, positions, requested, updated, queued)
                 VALUES ($1, $2, $3, $4, $4,
                         (SELECT GREATEST(COALESCE(MAX(queued), 0) + 1, $5) FROM analyses))
                 ON CONFLICT (game_id) DO NOTHING",
                &[
                    &id,
                    &(simulations as i64),
                    &(positions as i64),
                    &now(),
                    &crate::clock::now_ms(),
                ],
            )
            .await?;
        Ok(n == 1)
    }

    async fn load_analysis(&self, id: String) -> Result<Option<StoredAnalysis>, AppError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT simulations, positions, evals FROM analyses WHERE game_id = $1",
                &[&id],
            )
            .await?;
        Ok(row.map(|r| StoredAnalysis {
            simulations: r.get::<_, i64>(0) as u64,
            positions: r.get::<_, i64>(1) as usize,
            evals: r.get(2),
        }))
    }

    async fn save_analysis(
        &self,
        id: String,
        done: usize,
        evals: String,
    ) -> Result<bool, AppError> {
        let n = self
            .execute(
                &format!(
                    "UPDATE analyses SET done = $2, evals = $3, updated = $4,
                            claimed_until = {NOW_MS} + $5
                     WHERE game_id = $1 AND worker = $6"
                ),
                &[
                    &id,
                    &(done as i64),
                    &evals,
                    &now(),
                    &lease_ms(),
                    &self.server_id(),
                ],
            )
            .await?;
        Ok(n == 1)
    }

    async fn claim_analysis(&self) -> Result<Option<String>, AppError> {
        // SKIP LOCKED: two servers claiming at once take different analyses.
        let row = self
            .client()
            .await?
            .query_opt(
                &format!(
                    "UPDATE analyses SET worker = $1, claimed_until = {NOW_MS} + $2
                     WHERE game_id = (
                         SELECT game_id FROM analyses
                         WHERE done < positions
                           AND (worker IS NULL OR worker = $1 OR claimed_until < {NOW_MS})
                         ORDER BY queued, game_id LIMIT 1
                         FOR UPDATE SKIP LOCKED)
                     RETURNING game_id"
                ),
                &[&self.server_id(), &lease_ms()],
            )
            .await?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn renew_analysis(&self, id: String) -> Result<bool, AppError> {
        let n = self
            .execute(
                &format!(
                    "UPDATE analyses SET claimed_until = {NOW_MS} + $2
                     WHERE game_id = $1 AND worker = $3"
                ),
                &[&id, &lease_ms(), &self.server_id()],
            )
            .await?;
        Ok(n == 1)
    }

    async fn release_analysis(&self, id: String, requeue: bool) -> Result<(), AppError> {
        self.execute(
            "UPDATE analyses SET worker = NULL, claimed_until = NULL,
                        queued = CASE WHEN $3
                                 THEN (SELECT GREATEST(MAX(queued) + 1, $4) FROM analyses)
                                 ELSE queued END
                 WHERE game_id = $1 AND worker = $2",
            &[&id, &self.server_id(), &requeue, &crate::clock::now_ms()],
        )
        .await?;
        Ok(())
    }

    async fn analysis_place(&self, id: String) -> Result<Option<AnalysisPlace>, AppError> {
        let row = self
            .client()
            .await?
            .query_opt(
                &format!(
                    "SELECT a.worker IS NOT NULL AND a.claimed_until >= {NOW_MS},
                            (SELECT COUNT(*) FROM analyses b WHERE b.done < b.positions
                               AND (b.queued, b.game_id) < (a.queued, a.game_id))
                     FROM analyses a WHERE a.game_id = $1 AND a.done < a.positions"
                ),
                &[&id],
            )
            .await?;
        Ok(row.map(|r| place(r.get(0), r.get(1))))
    }

    async fn delete_analysis(&self, id: String) -> Result<(), AppError> {
        self.execute("DELETE FROM analyses WHERE game_id = $1", &[&id])
            .await?;
        Ok(())
    }

    async fn unfinished_analyses(&self) -> Result<usize, AppError> {
        let row = self
            .client()
            .await?
            .query_one("SELECT COUNT(*) FROM analyses WHERE done < positions", &[])
            .await?;
        Ok(row.get::<_, i64>(0) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seats::{GameStatus, Seat, SeatKind};
    use crate::store::NewGame;

    #[tokio::test]
    async fn the_queue_hands_out_the_oldest_request_and_sends_failures_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (a, b) = (
            "aaaaaaaaaaaaaaaa".to_string(),
            "0000000000000000".to_string(),
        );
        for id in [&a, &b] {
            let me = Seat::new(SeatKind::Me, None);
            let game = NewGame {
                id: id.clone(),
                variant: "duo".into(),
                options: "{}".into(),
                seats: vec![me.clone(), me],
                status: GameStatus::Finished,
                ai_to_move: false,
                tokens: vec![],
                clock: None,
            };
            store.create_game(game).await.unwrap();
        }
        // Requested in this order within the same millisecond (b's id sorts first: the
        // order is the requests').
        assert!(store.request_analysis(a.clone(), 10, 3).await.unwrap());
        assert!(store.request_analysis(b.clone(), 10, 3).await.unwrap());
        assert!(!store.request_analysis(b.clone(), 10, 3).await.unwrap());
        assert_eq!(store.unfinished_analyses().await.unwrap(), 2);
        assert_eq!(
            store.analysis_place(b.clone()).await.unwrap(),
            Some(AnalysisPlace::Queued(1))
        );

        assert_eq!(store.claim_analysis().await.unwrap(), Some(a.clone()));
        assert_eq!(
            store.analysis_place(a.clone()).await.unwrap(),
            Some(AnalysisPlace::Running)
        );
        assert!(store
            .save_analysis(a.clone(), 1, "[1]".into())
            .await
            .unwrap());
        assert!(store.renew_analysis(a.clone()).await.unwrap());
        // It failed: it goes behind b.
        store.release_analysis(a.clone(), true).await.unwrap();
        assert_eq!(
            store.analysis_place(a.clone()).await.unwrap(),
            Some(AnalysisPlace::Queued(1))
        );
        assert_eq!(store.claim_analysis().await.unwrap(), Some(b.clone()));
        assert!(store
            .save_analysis(b.clone(), 3, "[1,2,3]".into())
            .await
            .unwrap());
        assert_eq!(store.analysis_place(b.clone()).await.unwrap(), None, "done");
        store.release_analysis(b, false).await.unwrap();
        assert_eq!(store.claim_analysis().await.unwrap(), Some(a.clone()));
        assert_eq!(store.unfinished_analyses().await.unwrap(), 1);
        assert_eq!(store.load_analysis(a).await.unwrap().unwrap().evals, "[1]");
    }
}
