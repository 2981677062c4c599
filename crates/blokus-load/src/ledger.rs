//! What the harness was told about each game: every announced move and the last state.
//! The fault mode checks the server's games against it after a restart.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use crate::stats::GameKind;
use crate::wire::move_key;

/// What was announced about one game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// Game id.
    pub id: String,
    /// People-only or against the AI.
    pub kind: GameKind,
    /// A seat token of the game (for `GET /api/games?mine=`).
    pub token: String,
    /// Announced placements by ply: colour and cells (sorted, see [`move_key`]).
    pub announced: BTreeMap<usize, (usize, String)>,
    /// Ply of the latest state seen, and whether the AI was to move in it.
    pub last_state: Option<LastState>,
}

/// The latest state a client saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastState {
    /// Events so far.
    pub ply: usize,
    /// An AI seat is to move.
    pub ai_to_move: bool,
    /// The game is over.
    pub over: bool,
}

/// Every game of a run.
#[derive(Default)]
pub struct Ledger {
    games: Mutex<HashMap<String, GameRecord>>,
}

impl Ledger {
    /// Adds a new game.
    pub fn register(&self, id: &str, kind: GameKind, token: &str) {
        self.lock().insert(
            id.to_string(),
            GameRecord {
                id: id.to_string(),
                kind,
                token: token.to_string(),
                announced: BTreeMap::new(),
                last_state: None,
            },
        );
    }

    /// Notes an announced placement; true the first time this game's ply is announced.
    pub fn announce<S: AsRef<str>>(
        &self,
        id: &str,
        ply: usize,
        colour: usize,
        cells: &[S],
    ) -> bool {
        let mut games = self.lock();
        let Some(g) = games.get_mut(id) else {
            return false;
        };
        let fresh = !g.announced.contains_key(&ply);
        g.announced.insert(ply, (colour, move_key(cells)));
        fresh
    }

    /// Notes a state; an older one (a late message) does not replace a newer one.
    pub fn saw_state(&self, id: &str, s: LastState) {
        if let Some(g) = self.lock().get_mut(id) {
            if g.last_state.is_none_or(|l| l.ply <= s.ply) {
                g.last_state = Some(s);
            }
        }
    }

    /// A copy of every record.
    pub fn snapshot(&self) -> Vec<GameRecord> {
        self.lock().values().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, GameRecord>> {
        // A panicking game task must not stop the checks: the data stays consistent
        // because every update is a single insert.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_announcements_and_the_newest_state() {
        let l = Ledger::default();
        l.register("g", GameKind::Ai, "t");
        assert!(l.announce("g", 0, 0, &["b1", "a1"]));
        assert!(!l.announce("g", 0, 0, &["a1", "b1"]));
        assert!(!l.announce::<&str>("unknown", 0, 0, &[]));
        let state = |ply| LastState {
            ply,
            ai_to_move: true,
            over: false,
        };
        l.saw_state("g", state(3));
        l.saw_state("g", state(2));
        let g = &l.snapshot()[0];
        assert_eq!(g.announced[&0], (0, "a1,b1".to_string()));
        assert_eq!(
            g.last_state,
            Some(LastState {
                ply: 3,
                ai_to_move: true,
                over: false
            })
        );
    }
}
