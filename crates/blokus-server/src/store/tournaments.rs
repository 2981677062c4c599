//! Tournaments in the database: one row per event, its JSON rewritten by each action in
//! the same transaction that read it, so an action is applied whole or not at all (a
//! `kill -9` between two actions loses neither).

use blokus_tournament::Event;
use rusqlite::{params, Connection, OptionalExtension};

use super::{now, Store};
use crate::error::AppError;

fn corrupt(id: &str, e: serde_json::Error) -> AppError {
    AppError::Internal(format!("stored tournament {id}: {e}"))
}

/// Reads a tournament and its organiser's token.
fn read(c: &Connection, id: &str) -> Result<(Event, String), AppError> {
    let (json, token): (String, String) = c
        .query_row(
            "SELECT event, organiser_token FROM tournaments WHERE id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?
        .ok_or_else(|| AppError::NotFound(format!("no tournament '{id}'")))?;
    let event = serde_json::from_str(&json).map_err(|e| corrupt(id, e))?;
    Ok((event, token))
}

impl Store {
    /// Stores a new tournament.
    pub async fn create_tournament(
        &self,
        id: String,
        organiser_token: String,
        event: &Event,
    ) -> Result<(), AppError> {
        let json = serde_json::to_string(event).map_err(|e| corrupt(&id, e))?;
        self.with(move |c| {
            let t = now();
            c.execute(
                "INSERT INTO tournaments(id, organiser_token, event, created, updated)
                 VALUES (?1, ?2, ?3, ?4, ?4)",
                params![id, organiser_token, json, t],
            )?;
            Ok(())
        })
        .await
    }

    /// A tournament and its organiser's token.
    pub async fn load_tournament(&self, id: String) -> Result<(Event, String), AppError> {
        self.with(move |c| read(c, &id)).await
    }

    /// Applies `action` to a tournament, given its organiser's token, and stores the result
    /// in one transaction; when `action` fails nothing is written.
    pub async fn update_tournament<T: Send + 'static>(
        &self,
        id: String,
        action: impl FnOnce(&mut Event, &str) -> Result<T, AppError> + Send + 'static,
    ) -> Result<(T, Event), AppError> {
        self.with(move |c| {
            let tx = c.transaction()?;
            let (mut event, token) = read(&tx, &id)?;
            let out = action(&mut event, &token)?;
            let json = serde_json::to_string(&event).map_err(|e| corrupt(&id, e))?;
            tx.execute(
                "UPDATE tournaments SET event = ?2, updated = ?3 WHERE id = ?1",
                params![id, json, now()],
            )?;
            tx.commit()?;
            Ok((out, event))
        })
        .await
    }
}
