//! Versions of the database schema.
//!
//! Each migration is a folder `migrations/NN-name/up.sql` in this crate, applied in
//! order and recorded in SQLite's `user_version`; adding a schema change is adding one
//! such folder. Every start brings the data folder up to the newest version, in one
//! transaction per step.

use include_dir::{include_dir, Dir};
use rusqlite::Connection;
use rusqlite_migration::{Migrations, SchemaVersion};
use std::sync::LazyLock;

use crate::error::AppError;

static DIR: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations");

static MIGRATIONS: LazyLock<Migrations<'static>> = LazyLock::new(|| {
    Migrations::from_directory(&DIR).expect("the migrations folder is well formed")
});

/// The schema version this build writes (the number of migrations).
pub fn latest() -> usize {
    DIR.dirs().count()
}

/// The schema version of an open database (0 for one written before versions existed,
/// or an empty one).
///
/// # Errors
/// If the version cannot be read.
pub fn version(conn: &Connection) -> Result<usize, AppError> {
    Ok(match MIGRATIONS.current_version(conn).map_err(error)? {
        SchemaVersion::NoneSet => 0,
        SchemaVersion::Inside(v) | SchemaVersion::Outside(v) => v.get(),
    })
}

/// Brings a database up to [`latest`].
///
/// # Errors
/// If a step fails, or the database was written by a newer build (its version is
/// beyond the migrations this build knows).
pub fn upgrade(conn: &mut Connection) -> Result<(), AppError> {
    let v = version(conn)?;
    if v > latest() {
        return Err(AppError::Internal(format!(
            "the database has schema version {v}, newer than this program's {}: \
             run a newer blokus on it",
            latest()
        )));
    }
    MIGRATIONS.to_latest(conn).map_err(error)
}

fn error(e: rusqlite_migration::Error) -> AppError {
    AppError::Internal(format!("database schema upgrade: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_apply_to_an_empty_database() {
        assert!(MIGRATIONS.validate().is_ok());
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(version(&conn).unwrap(), 0);
        upgrade(&mut conn).unwrap();
        assert_eq!(version(&conn).unwrap(), latest());
        // A second start changes nothing.
        upgrade(&mut conn).unwrap();
        assert_eq!(version(&conn).unwrap(), latest());
    }

    #[test]
    fn a_database_from_a_newer_build_is_refused_by_name() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", latest() + 1)
            .unwrap();
        let e = upgrade(&mut conn).unwrap_err();
        assert!(e.message().contains("newer than this program"), "{e}");
    }
}
