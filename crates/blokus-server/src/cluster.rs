//! Several servers on one PostgreSQL database.
//!
//! Each live game is owned by one server at a time through a lease in the database
//! ([`crate::store`]); a request for a game that another server owns is forwarded to it
//! ([`crate::proxy`]), so every connection of a game meets in one room wherever the
//! reverse proxy in front sent it. A heartbeat renews this server's leases (marking the
//! games without a move somebody has open, which every lobby lists), ends the
//! rooms of games it lost, and takes over the games where an AI is to move that nobody
//! owns any more (their server died), so they go on by themselves.

use std::net::SocketAddr;
use std::sync::Arc;

use crate::error::AppError;
use crate::hub::Hub;
use crate::store::{Backend, HEARTBEAT};

/// Games without an owner taken over per heartbeat, at most.
const TAKEOVER_BATCH: usize = 200;

/// This server's place among the servers of one database.
pub struct Cluster {
    /// Where peers reach this server (`http://host:port`).
    pub address: String,
    /// The secret of the database's servers: forwarded requests carry it.
    pub secret: String,
}

/// The address peers use to reach a server listening on `local`: `advertise` when given,
/// else the listening address itself (which must then be a concrete one).
///
/// # Errors
/// When listening on every interface without `advertise`.
pub fn peer_address(local: SocketAddr, advertise: Option<&str>) -> Result<String, AppError> {
    if let Some(a) = advertise {
        let a = a.trim_end_matches('/');
        if !a.starts_with("http://") {
            return Err(AppError::BadRequest(format!(
                "--advertise must be an http:// address (got '{a}')"
            )));
        }
        return Ok(a.to_string());
    }
    if local.ip().is_unspecified() {
        return Err(AppError::BadRequest(format!(
            "listening on {local} with a shared database: give --advertise \
             http://THIS-HOST:{} so the other servers can reach this one",
            local.port()
        )));
    }
    Ok(format!("http://{local}"))
}

/// Joins the servers of the hub's database (PostgreSQL only: `None` for SQLite) and
/// starts the heartbeat.
///
/// # Errors
/// If the database cannot register the server.
pub async fn join(hub: &Hub, address: String) -> Result<Option<Arc<Cluster>>, AppError> {
    let Backend::Postgres(pg) = hub.store.backend() else {
        return Ok(None);
    };
    let secret = pg.register(&address).await?;
    let cluster = Arc::new(Cluster { address, secret });
    tokio::spawn(heartbeat(hub.clone()));
    Ok(Some(cluster))
}

/// Renews the leases every [`HEARTBEAT`], ends the rooms of lost games, and takes over
/// orphaned AI games. A failing round is retried at the next beat (leases last several).
async fn heartbeat(hub: Hub) {
    let Backend::Postgres(pg) = hub.store.backend().clone() else {
        return;
    };
    let mut tick = tokio::time::interval(HEARTBEAT);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if hub.is_stopping() {
            return;
        }
        let asked = std::time::Instant::now();
        match pg.renew(&hub.presence.ids()).await {
            Ok(owned) => hub.keep_only(&owned, asked).await,
            Err(_) => continue,
        }
        let Ok(orphans) = pg.orphaned_ai_games(TAKEOVER_BATCH).await else {
            continue;
        };
        for id in orphans {
            // Loading the room takes the lease and starts the AI; a game another server
            // took first is simply skipped.
            let _ = hub.room(&id).await;
        }
    }
}
