//! The registry of live rooms and the shared server state: loads rooms from the store on
//! demand, bounds their number, and counts connections.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::{Mutex, Semaphore};

use crate::error::AppError;
use crate::room::{self, RoomHandle};
use crate::seats::is_game_id;
use crate::store::Store;

/// Limits of one server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Rooms kept in memory at once.
    pub max_rooms: usize,
    /// Open WebSocket connections at once.
    pub max_connections: usize,
    /// Largest WebSocket message, bytes.
    pub max_message: usize,
    /// Largest HTTP request body, bytes.
    pub max_body: usize,
    /// Messages a connection may send per second on average.
    pub msgs_per_second: f64,
    /// Messages a connection may send in a burst.
    pub msg_burst: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rooms: 2000,
            max_connections: 4000,
            max_message: 4096,
            max_body: 16 * 1024,
            msgs_per_second: 5.0,
            msg_burst: 20.0,
        }
    }
}

/// State shared by every request handler.
#[derive(Clone)]
pub struct Hub {
    /// The database.
    pub store: Store,
    /// The limits.
    pub limits: Limits,
    rooms: Arc<Mutex<HashMap<String, RoomHandle>>>,
    /// Permits for WebSocket connections.
    pub connections: Arc<Semaphore>,
    next_conn: Arc<AtomicU64>,
}

impl Hub {
    /// A hub over a store.
    pub fn new(store: Store, limits: Limits) -> Hub {
        Hub {
            store,
            limits,
            rooms: Arc::new(Mutex::new(HashMap::new())),
            connections: Arc::new(Semaphore::new(limits.max_connections)),
            next_conn: Arc::new(AtomicU64::new(1)),
        }
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The room of a game, loading it from the store if it is not live.
    ///
    /// # Errors
    /// [`AppError::NotFound`] for an unknown id, [`AppError::Busy`] at the room limit.
    pub async fn room(&self, id: &str) -> Result<RoomHandle, AppError> {
        if !is_game_id(id) {
            return Err(AppError::NotFound(format!(
                "no game '{}'",
                id.chars().take(40).collect::<String>()
            )));
        }
        let mut rooms = self.rooms.lock().await;
        if let Some(h) = rooms.get(id) {
            if !h.is_closed() {
                return Ok(h.clone());
            }
        }
        if rooms.len() >= self.limits.max_rooms {
            rooms.retain(|_, h| !h.is_closed());
            if rooms.len() >= self.limits.max_rooms {
                return Err(AppError::Busy(
                    "too many games are live; try again later".into(),
                ));
            }
        }
        let stored = self
            .store
            .load_game(id.to_string())
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no game '{id}'")))?;
        let h = room::spawn(stored, self.store.clone())?;
        rooms.insert(id.to_string(), h.clone());
        Ok(h)
    }

    /// Number of live rooms (for tests and monitoring).
    pub async fn live_rooms(&self) -> usize {
        self.rooms
            .lock()
            .await
            .values()
            .filter(|h| !h.is_closed())
            .count()
    }
}
