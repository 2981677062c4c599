//! Online backup and restore of a data folder through SQLite's backup API: a backup is a
//! consistent copy of the database taken while the server runs (games go on meanwhile);
//! a restore checks the copy and writes it into a data folder whose server is stopped.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::error::AppError;
use crate::migrations;
use crate::store::DB_FILE;

/// Pages copied per step; between steps the server may write (it waits at most a step).
const PAGES_PER_STEP: std::ffi::c_int = 256;
/// Pause between steps, so a backup of a large database leaves the disk to the server.
const PAUSE: Duration = Duration::from_millis(5);

fn internal(what: &str, e: impl std::fmt::Display) -> AppError {
    AppError::Internal(format!("{what}: {e}"))
}

/// Copies the database of the data folder `data` to the file `out` (which must not
/// exist), while a server may be using it.
///
/// # Errors
/// If `data` holds no database, `out` exists, or copying fails.
pub fn backup(data: &Path, out: &Path) -> Result<(), AppError> {
    let db = data.join(DB_FILE);
    if !db.is_file() {
        return Err(AppError::NotFound(format!(
            "{} holds no blokus database ({DB_FILE})",
            data.display()
        )));
    }
    if out.exists() {
        return Err(AppError::Conflict(format!(
            "{} exists already; give a new file name",
            out.display()
        )));
    }
    let src = Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| internal("cannot open the database", e))?;
    src.busy_timeout(Duration::from_secs(5))
        .map_err(|e| internal("database", e))?;
    let mut dst = Connection::open(out).map_err(|e| internal("cannot create the backup", e))?;
    {
        let b = rusqlite::backup::Backup::new(&src, &mut dst).map_err(|e| internal("backup", e))?;
        b.run_to_completion(PAGES_PER_STEP, PAUSE, None)
            .map_err(|e| internal("backup", e))?;
    }
    // One self-contained file, not a WAL pair.
    dst.pragma_update(None, "journal_mode", "DELETE")
        .map_err(|e| internal("backup", e))?;
    Ok(())
}

/// Writes the backup `from` into the data folder `data` (created if missing), replacing
/// its database. The server of `data` must be stopped.
///
/// # Errors
/// If `from` is not a sound blokus database of a version this build reads, or writing
/// fails.
pub fn restore(from: &Path, data: &Path) -> Result<(), AppError> {
    let src = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| AppError::BadRequest(format!("cannot open {}: {e}", from.display())))?;
    check(&src, from)?;
    std::fs::create_dir_all(data)
        .map_err(|e| internal(&format!("cannot create data folder {}", data.display()), e))?;
    let mut dst = Connection::open(data.join(DB_FILE))
        .map_err(|e| internal("cannot open the data folder's database", e))?;
    dst.busy_timeout(Duration::from_secs(5))
        .map_err(|e| internal("database", e))?;
    {
        let b =
            rusqlite::backup::Backup::new(&src, &mut dst).map_err(|e| internal("restore", e))?;
        b.run_to_completion(PAGES_PER_STEP, Duration::ZERO, None)
            .map_err(|e| internal("restore", e))?;
    }
    dst.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| internal("restore", e))?;
    Ok(())
}

/// Checks that a file is a sound blokus database this build can open.
fn check(conn: &Connection, path: &Path) -> Result<(), AppError> {
    let bad = |why: String| AppError::BadRequest(format!("{} {why}", path.display()));
    let ok: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| bad(format!("is not an SQLite database ({e})")))?;
    if ok != "ok" {
        return Err(bad(format!("is damaged: {ok}")));
    }
    let has_games: bool = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
        .map_err(|e| bad(format!("cannot be read ({e})")))?;
    if !has_games {
        return Err(bad("is not a blokus backup (no games table)".into()));
    }
    let v = migrations::version(conn)?;
    if v > migrations::latest() {
        return Err(bad(format!(
            "has schema version {v}, newer than this program's {}",
            migrations::latest()
        )));
    }
    Ok(())
}
