//! Persistence: games, their event lists and seat tokens, tournaments.
//!
//! Two backends keep the same tables (see [`crate::migrations`]): SQLite in a data
//! folder (the default, embedded) and PostgreSQL (several servers on one database). The
//! rest of the server only sees [`Store`]; each operation is written once per backend
//! (`sqlite.rs`, `postgres.rs`) and dispatched here. Every change is one transaction,
//! so a crash (even `kill -9`) leaves each game at its last completed move.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::accounts::{AccountId, Player};
use crate::chat::ChatLine;
use crate::clock::Clock;
use crate::error::AppError;
use crate::rematch::Rematch;
use crate::seats::{GameStatus, Seat};

pub mod accounts;
mod analyses;
mod leases;
mod postgres;
pub mod ratings;
mod sqlite;
mod sqlite_thread;
mod tournaments;

pub use accounts::SeatAccount;
pub use analyses::{AnalysisPlace, StoredAnalysis};
pub use leases::{HEARTBEAT, LEASE};
pub use postgres::Postgres;
pub use sqlite::Sqlite;
pub use tournaments::{
    AccountEvent, EntrantAccount, StoredTournament, TableGame, TableGameRow, TableLink,
    TournamentChanges,
};

/// A game as stored.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Rule options as JSON.
    pub options: String,
    /// Seats, one per player.
    pub seats: Vec<Seat>,
    /// Events in order (see [`crate::room`] for their text form).
    pub events: Vec<String>,
    /// (token, seat) pairs.
    pub tokens: Vec<(String, usize)>,
    /// Creation time (unix seconds).
    pub created: i64,
    /// The clocks of a timed game.
    pub clock: Option<Clock>,
    /// The last [`crate::chat::HISTORY`] chat lines of each channel, in order.
    pub chat: Vec<ChatLine>,
    /// Number of chat lines stored (the next line's number).
    pub chat_count: u64,
    /// The rematch, once one was asked for.
    pub rematch: Option<Rematch>,
    /// The tournament table the game is played at, if any.
    pub tournament: Option<TableLink>,
    /// Whether the game is rated.
    pub rated: bool,
    /// The accounts playing seats, by seat.
    pub accounts: Vec<SeatAccount>,
}

/// A game to store.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Rule options as JSON.
    pub options: String,
    /// Seats, one per player.
    pub seats: Vec<Seat>,
    /// Its status.
    pub status: GameStatus,
    /// Whether an AI is to move.
    pub ai_to_move: bool,
    /// (token, seat) pairs of the seats people hold.
    pub tokens: Vec<(String, usize)>,
    /// The clocks of a timed game.
    pub clock: Option<Clock>,
}

/// A seat a person claims: its index, its new token and the person's account (if
/// logged in).
#[derive(Clone, Debug)]
pub struct SeatClaim {
    /// The seat.
    pub seat: usize,
    /// Its new token.
    pub token: String,
    /// The account playing it.
    pub account: Option<Player>,
}

/// The accounts of a new game and whether it is rated.
#[derive(Clone, Debug, Default)]
pub struct NewGameAccounts {
    /// Whether the game is rated.
    pub rated: bool,
    /// (seat, account) of the seats accounts play.
    pub accounts: Vec<(usize, AccountId)>,
}

/// An event to append to a stored game, with the game's state after it.
#[derive(Clone, Debug)]
pub struct NewEvent {
    /// Its number (0-based).
    pub ply: usize,
    /// Its text (see [`crate::codec`]).
    pub event: String,
    /// The game's status after it.
    pub status: GameStatus,
    /// Whether an AI is to move after it.
    pub ai_to_move: bool,
    /// The clocks after it (timed games).
    pub clock: Option<Clock>,
    /// The result of a tournament table, with the event that ends its game.
    pub result: Option<(TableLink, blokus_tournament::TableResult)>,
}

/// One line of the game list.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The status.
    pub status: GameStatus,
    /// The seats.
    pub seats: Vec<Seat>,
    /// Events played so far.
    pub plies: i64,
    /// Last change (unix seconds).
    pub updated: i64,
    /// The time control's short name (`5+3`, `3 days/move`) of a timed game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// For `mine` lists: the seats the given tokens hold.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub my_seats: Vec<usize>,
    /// In the lobby's lists: the rating of each seat played from an account, in the
    /// game's pool (see [`crate::ratings::annotate`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<crate::ratings::SeatRating>,
}

/// Where the games live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// SQLite in this data folder (created if missing).
    Sqlite(PathBuf),
    /// PostgreSQL at this `postgres://` URL.
    Postgres(String),
}

impl Database {
    /// A description for the start-up line, without the password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(dir) => format!("data in {}", dir.display()),
            Database::Postgres(url) => {
                format!("data in PostgreSQL {}", postgres::without_password(url))
            }
        }
    }
}

/// The database, shared by every room.
#[derive(Clone)]
pub struct Store {
    backend: Backend,
}

/// The backend behind a [`Store`].
#[derive(Clone)]
pub enum Backend {
    /// SQLite.
    Sqlite(Sqlite),
    /// PostgreSQL.
    Postgres(Postgres),
}

/// Calls the same operation on whichever backend the store has.
macro_rules! on_backend {
    ($store:expr, $op:ident($($arg:expr),*)) => {
        match &$store.backend {
            Backend::Sqlite(db) => db.$op($($arg),*).await,
            Backend::Postgres(db) => db.$op($($arg),*).await,
        }
    };
}
use on_backend;

/// The database file inside the data folder.
pub const DB_FILE: &str = "blokus.sqlite3";

/// A clock as stored: its JSON and when it runs out.
fn clock_columns(clock: Option<&Clock>) -> (Option<String>, Option<i64>) {
    match clock {
        Some(c) => (
            Some(serde_json::to_string(c).expect("clocks serialise")),
            c.flag_at(),
        ),
        None => (None, None),
    }
}

/// The time now, unix seconds.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (creating if needed) the SQLite database `blokus.sqlite3` in `dir`.
    ///
    /// # Errors
    /// If the directory cannot be created or the database cannot be opened.
    pub fn open(dir: &Path) -> Result<Store, AppError> {
        Ok(Store {
            backend: Backend::Sqlite(Sqlite::open(dir)?),
        })
    }

    /// Opens either backend, bringing its schema up to date.
    ///
    /// # Errors
    /// If the database cannot be reached, opened or upgraded.
    pub async fn connect(database: &Database) -> Result<Store, AppError> {
        match database {
            Database::Sqlite(dir) => Store::open(dir),
            Database::Postgres(url) => Ok(Store {
                backend: Backend::Postgres(Postgres::connect(url).await?),
            }),
        }
    }

    /// The backend (for what only one of them has, such as leases or backups).
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// Stores a new game with its tokens.
    pub async fn create_game(&self, game: NewGame) -> Result<(), AppError> {
        self.create_game_with(game, NewGameAccounts::default())
            .await
    }

    /// Stores a new game with its tokens, the accounts playing it and whether it is
    /// rated, in one transaction.
    pub async fn create_game_with(
        &self,
        game: NewGame,
        players: NewGameAccounts,
    ) -> Result<(), AppError> {
        on_backend!(self, create_game(game, players))
    }

    /// Stores the rematch of game `id` and the new game it created, atomically.
    pub async fn create_rematch(
        &self,
        id: String,
        rematch: Rematch,
        game: NewGame,
        players: NewGameAccounts,
    ) -> Result<(), AppError> {
        let json = serde_json::to_string(&rematch).expect("rematch serialises");
        on_backend!(self, create_rematch(id, json, game, players))
    }

    /// Rewrites the rematch of game `id` (who accepted).
    pub async fn set_rematch(&self, id: String, rematch: Rematch) -> Result<(), AppError> {
        let json = serde_json::to_string(&rematch).expect("rematch serialises");
        on_backend!(self, set_rematch(id, json))
    }

    /// Stores a chat line of game `id` (its number `line.n` must be the next one).
    pub async fn add_chat(&self, id: String, line: ChatLine) -> Result<(), AppError> {
        on_backend!(self, add_chat(id, line))
    }

    /// Marks game `id` as changed now (its last connection left a game without moves:
    /// the lobby counts its abandonment from here).
    pub async fn touch(&self, id: String) -> Result<(), AppError> {
        on_backend!(self, touch(id))
    }

    /// Loads a game with its events and tokens.
    pub async fn load_game(&self, id: String) -> Result<Option<StoredGame>, AppError> {
        on_backend!(self, load_game(id))
    }

    /// Keeps the SQLite database thread busy until `release` sends (or is dropped), so
    /// a test can hold calls in its queue. Returns once the thread has been released.
    #[cfg(test)]
    pub async fn hold_database(&self, release: std::sync::mpsc::Receiver<()>) {
        let Backend::Sqlite(db) = &self.backend else {
            panic!("only the SQLite database thread can be held");
        };
        db.with(move |_| {
            let _ = release.recv();
            Ok(())
        })
        .await
        .expect("the held job runs");
    }

    /// Appends the event number `ply` (0-based) and sets the game's status, whether
    /// an AI is to move and its clocks, atomically. The last move of a tournament game
    /// carries the table's result, entered in the same transaction; answers whether it
    /// was entered.
    pub async fn append_event(&self, id: String, new: NewEvent) -> Result<bool, AppError> {
        on_backend!(self, append_event(id, new))
    }

    /// Removes the events from `ply` on (undo) and sets the status, whether an AI is
    /// to move and the clocks, atomically.
    pub async fn truncate_events(
        &self,
        id: String,
        ply: usize,
        status: GameStatus,
        ai_to_move: bool,
        clock: Option<Clock>,
    ) -> Result<(), AppError> {
        on_backend!(self, truncate_events(id, ply, status, ai_to_move, clock))
    }

    /// Gives a seat to a person, names seats or takes a reserved seat: stores the new
    /// token and the account playing the seat (if any), the updated seats, the game's
    /// status, whether an AI is to move and the clocks (which start once every seat is
    /// taken), atomically.
    pub async fn update_seats(
        &self,
        id: String,
        claim: Option<SeatClaim>,
        seats: Vec<Seat>,
        status: GameStatus,
        ai_to_move: bool,
        clock: Option<Clock>,
    ) -> Result<(), AppError> {
        on_backend!(
            self,
            update_seats(id, claim, seats, status, ai_to_move, clock)
        )
    }

    /// Games whose running clock reaches zero by `at` (unix ms), soonest first: their
    /// rooms are loaded so the time out is recorded even when nobody watches.
    pub async fn clocks_due(&self, at: i64) -> Result<Vec<String>, AppError> {
        on_backend!(self, clocks_due(at))
    }

    /// Records that the server runs at `now` (unix ms).
    pub async fn alive(&self, now: i64) -> Result<(), AppError> {
        on_backend!(self, alive(now))
    }

    /// At start: moves every running clock on by the time since the server (with
    /// several on one database: any of them) was last known to run, so time while it
    /// was down is not charged; returns that time (ms).
    pub async fn resume_clocks(&self, now: i64) -> Result<i64, AppError> {
        on_backend!(self, resume_clocks(now))
    }

    /// Every game where an AI is to move, oldest change first (to resume them after a
    /// restart).
    pub async fn ai_to_move(&self) -> Result<Vec<String>, AppError> {
        on_backend!(self, ai_to_move())
    }

    /// Removes a game with its events and tokens (a creation that could not start).
    pub async fn delete_game(&self, id: String) -> Result<(), AppError> {
        on_backend!(self, delete_game(id))
    }

    /// The most recently changed games of a status.
    pub async fn list(
        &self,
        status: GameStatus,
        limit: usize,
    ) -> Result<Vec<GameSummary>, AppError> {
        on_backend!(self, list(status, limit))
    }

    /// The most recently changed running games, without those that look abandoned: no
    /// move yet, no change since `cutoff` (unix seconds), and not in `present` (the
    /// games somebody is connected to now).
    pub async fn list_running(
        &self,
        limit: usize,
        cutoff: i64,
        present: Vec<String>,
    ) -> Result<Vec<GameSummary>, AppError> {
        on_backend!(self, list_running(limit, cutoff, present))
    }

    /// Games holding any of `tokens`, most recent first, with the seats they hold.
    pub async fn mine(
        &self,
        tokens: Vec<String>,
        limit: usize,
    ) -> Result<Vec<GameSummary>, AppError> {
        on_backend!(self, mine(tokens, limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seats::GameStatus::Running;
    use crate::seats::SeatKind;
    use rusqlite::Connection;

    /// The schema exactly as the release before schema versions created it (no
    /// `user_version`), with a game of two moves.
    const UNVERSIONED_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games(
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  options TEXT NOT NULL,
  seats TEXT NOT NULL,
  status TEXT NOT NULL,
  plies INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status, updated);
CREATE TABLE IF NOT EXISTS events(
  game_id TEXT NOT NULL,
  ply INTEGER NOT NULL,
  event TEXT NOT NULL,
  PRIMARY KEY(game_id, ply)
);
CREATE TABLE IF NOT EXISTS tokens(
  token TEXT PRIMARY KEY,
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tokens_by_game ON tokens(game_id);
INSERT INTO games VALUES('00112233445566aa', 'duo', '{}',
  '[{\"kind\":\"me\",\"claimed\":true},{\"kind\":\"ai\",\"level\":3,\"claimed\":false}]',
  'running', 2, 1700000000, 1700000100);
INSERT INTO events VALUES('00112233445566aa', 0, 'place 0 d9,c10,d10,e10,d11');
INSERT INTO events VALUES('00112233445566aa', 1, 'place 1 i4,h5,i5,j5,i6');
INSERT INTO tokens VALUES('0123456789abcdef0123456789abcdef', '00112233445566aa', 0);
";

    #[tokio::test]
    async fn a_data_folder_from_before_schema_versions_upgrades_with_its_games() {
        let dir = tempfile::tempdir().unwrap();
        {
            let conn = Connection::open(dir.path().join(DB_FILE)).unwrap();
            conn.execute_batch(UNVERSIONED_SCHEMA).unwrap();
            assert_eq!(crate::migrations::version(&conn).unwrap(), 0);
        }
        let store = Store::open(dir.path()).unwrap();
        {
            let Backend::Sqlite(db) = store.backend() else {
                unreachable!()
            };
            let version = db
                .with(|c| Ok(crate::migrations::version(c).unwrap()))
                .await
                .unwrap();
            assert_eq!(version, crate::migrations::latest());
        }
        let g = store
            .load_game("00112233445566aa".into())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(g.variant, "duo");
        assert_eq!(g.events.len(), 2);
        assert_eq!(g.seats[1].kind, SeatKind::Ai);
        assert_eq!(
            g.tokens,
            vec![("0123456789abcdef0123456789abcdef".into(), 0)]
        );
        let running = store.list(Running, 10).await.unwrap();
        assert_eq!(running.len(), 1);
        assert_eq!(running[0].plies, 2);
        // Migration 2 marks running games with an AI seat for resumption.
        assert_eq!(store.ai_to_move().await.unwrap(), vec!["00112233445566aa"]);
        // Opening it again is a no-op.
        drop(store);
        Store::open(dir.path()).unwrap();
    }
}
