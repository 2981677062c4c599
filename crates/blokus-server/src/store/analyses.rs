//! Game analyses in the database: one row per game, its evaluated positions rewritten
//! after each new one (a game has at most a few hundred), so a restart loses at most the
//! position being searched.

use rusqlite::{params, OptionalExtension};

use super::{now, on_backend, Backend, Postgres, Sqlite, Store};
use crate::error::AppError;

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

    /// Stores the positions evaluated so far (`done` of them, as a JSON array).
    pub async fn save_analysis(
        &self,
        id: String,
        done: usize,
        evals: String,
    ) -> Result<(), AppError> {
        on_backend!(self, save_analysis(id, done, evals))
    }

    /// Forgets a game's analysis (the game changed under it).
    pub async fn delete_analysis(&self, id: String) -> Result<(), AppError> {
        on_backend!(self, delete_analysis(id))
    }

    /// Games whose analysis is unfinished, oldest request first.
    pub async fn unfinished_analyses(&self) -> Result<Vec<String>, AppError> {
        on_backend!(self, unfinished_analyses())
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
                "INSERT OR IGNORE INTO analyses(game_id, simulations, positions, requested, updated)
                 VALUES (?1, ?2, ?3, ?4, ?4)",
                params![id, simulations as i64, positions as i64, t],
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

    async fn save_analysis(&self, id: String, done: usize, evals: String) -> Result<(), AppError> {
        self.with(move |c| {
            c.execute(
                "UPDATE analyses SET done = ?2, evals = ?3, updated = ?4 WHERE game_id = ?1",
                params![id, done as i64, evals, now()],
            )?;
            Ok(())
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

    async fn unfinished_analyses(&self) -> Result<Vec<String>, AppError> {
        self.with(|c| {
            let mut st = c.prepare(
                "SELECT game_id FROM analyses WHERE done < positions ORDER BY requested, game_id",
            )?;
            let ids = st
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
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
            .client()
            .await?
            .execute(
                "INSERT INTO analyses(game_id, simulations, positions, requested, updated)
                 VALUES ($1, $2, $3, $4, $4) ON CONFLICT (game_id) DO NOTHING",
                &[&id, &(simulations as i64), &(positions as i64), &now()],
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

    async fn save_analysis(&self, id: String, done: usize, evals: String) -> Result<(), AppError> {
        self.client()
            .await?
            .execute(
                "UPDATE analyses SET done = $2, evals = $3, updated = $4 WHERE game_id = $1",
                &[&id, &(done as i64), &evals, &now()],
            )
            .await?;
        Ok(())
    }

    async fn delete_analysis(&self, id: String) -> Result<(), AppError> {
        self.client()
            .await?
            .execute("DELETE FROM analyses WHERE game_id = $1", &[&id])
            .await?;
        Ok(())
    }

    async fn unfinished_analyses(&self) -> Result<Vec<String>, AppError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT game_id FROM analyses WHERE done < positions ORDER BY requested, game_id",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}
