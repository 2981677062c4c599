//! Versions of the database schema, one list for both backends.
//!
//! Each migration is a folder `migrations/NN-name/` in this crate holding the step twice:
//! `up.sql` for SQLite and `postgres.sql` for PostgreSQL, defining the same tables,
//! columns and indexes (a test compares them). Adding a schema change is adding one such
//! folder with both files. SQLite records its version in `user_version` and upgrades in
//! one transaction per step; PostgreSQL records it in the table `blokus_schema` and
//! upgrades in one transaction under a lock, so several servers may start at once.

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

/// The PostgreSQL form of each step, in order: (folder name, SQL).
///
/// # Panics
/// If a migration folder has no `postgres.sql` (a test checks that none lacks it).
pub fn postgres_steps() -> Vec<(&'static str, &'static str)> {
    let mut dirs: Vec<&Dir<'static>> = DIR.dirs().collect();
    dirs.sort_by_key(|d| d.path());
    dirs.iter()
        .map(|d| {
            let name = d.path().to_str().unwrap_or("?");
            let sql = d
                .get_file(d.path().join("postgres.sql"))
                .and_then(|f| f.contents_utf8())
                .unwrap_or_else(|| panic!("migration {name} has no postgres.sql"));
            (name, sql)
        })
        .collect()
}

/// Brings a PostgreSQL database up to [`latest`] inside `tx` (the caller commits).
/// A transaction-scoped advisory lock makes concurrent starts wait for each other.
///
/// # Errors
/// If a step fails, or the database was written by a newer build.
pub async fn upgrade_postgres(tx: &tokio_postgres::Transaction<'_>) -> Result<(), AppError> {
    // Any fixed number: it names this lock among the database's advisory locks.
    const LOCK: i64 = 0x626c_6f6b_7573;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS blokus_schema(version INTEGER NOT NULL)")
        .await?;
    let v = tx
        .query_opt("SELECT version FROM blokus_schema", &[])
        .await?
        .map_or(0, |r| r.get::<_, i32>(0)) as usize;
    if v > latest() {
        return Err(AppError::Internal(format!(
            "the database has schema version {v}, newer than this program's {}: \
             run a newer blokus on it",
            latest()
        )));
    }
    for (name, sql) in postgres_steps().into_iter().skip(v) {
        tx.batch_execute(sql).await.map_err(|e| {
            AppError::Internal(format!("database schema upgrade, step {name}: {e}"))
        })?;
    }
    tx.execute("DELETE FROM blokus_schema", &[]).await?;
    tx.execute(
        "INSERT INTO blokus_schema(version) VALUES ($1)",
        &[&(latest() as i32)],
    )
    .await?;
    Ok(())
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
    fn every_migration_has_its_postgres_form() {
        let steps = postgres_steps();
        assert_eq!(steps.len(), latest());
        assert!(steps.windows(2).all(|w| w[0].0 < w[1].0), "in folder order");
        assert!(steps.iter().all(|(_, sql)| !sql.trim().is_empty()));
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
