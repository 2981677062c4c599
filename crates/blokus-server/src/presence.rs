//! Which games without a move somebody is connected to right now, for the lobby: a game
//! nobody has moved in is left out of "Running" once it has been abandoned (see
//! [`crate::store::Store::list_running`]), but never while somebody has it open.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The set of watched games without a move, shared by the rooms and the lobby.
#[derive(Clone, Default)]
pub struct Presence {
    ids: Arc<Mutex<HashSet<String>>>,
}

impl Presence {
    /// Records whether game `id` has no move yet and somebody connected to it.
    pub fn set(&self, id: &str, watched_without_moves: bool) {
        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        if watched_without_moves {
            if !ids.contains(id) {
                ids.insert(id.to_string());
            }
        } else {
            ids.remove(id);
        }
    }

    /// The games without a move somebody is connected to.
    pub fn ids(&self) -> Vec<String> {
        let ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        ids.iter().cloned().collect()
    }
}
