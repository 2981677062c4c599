//! The PostgreSQL backend against a real PostgreSQL server (`BLOKUS_TEST_POSTGRES`, started
//! by `scripts/postgres-test-server.sh`; `scripts/test.sh` does it): the two sets of
//! migrations define the same schema. Without a server these tests say so and pass, except
//! on CI (`CI` set), where they fail.

mod common;

use std::collections::BTreeSet;

use common::*;

/// The test server's URL, or a message on stderr and `None` (a failure on CI).
fn server_or_skip(test: &str) -> Option<String> {
    let url = postgres_server();
    if url.is_none() {
        assert!(
            std::env::var("CI").map_or(true, |v| v.is_empty() || v == "false"),
            "{test}: BLOKUS_TEST_POSTGRES is not set: on CI the PostgreSQL tests must run \
             (scripts/test.sh starts scripts/postgres-test-server.sh)"
        );
        eprintln!("{test}: skipped, BLOKUS_TEST_POSTGRES is not set (no PostgreSQL server)");
    }
    url
}

/// (table, column) pairs and index names of a schema.
type Schema = (BTreeSet<(String, String)>, BTreeSet<String>);

fn sqlite_schema(dir: &std::path::Path) -> Schema {
    let conn = rusqlite::Connection::open(dir.join(blokus_server::store::DB_FILE)).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut columns = BTreeSet::new();
    for t in &tables {
        let mut st = conn
            .prepare(&format!("SELECT name FROM pragma_table_info('{t}')"))
            .unwrap();
        for c in st.query_map([], |r| r.get::<_, String>(0)).unwrap() {
            columns.insert((t.clone(), c.unwrap()));
        }
    }
    let indexes = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    (columns, indexes)
}

async fn postgres_schema(url: &str) -> Schema {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    let columns = client
        .query(
            "SELECT table_name::text, column_name::text FROM information_schema.columns
             WHERE table_schema = 'public' AND table_name <> 'blokus_schema'",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    // Primary keys and UNIQUE constraints have implicit indexes in both; compare the
    // named ones.
    let indexes = client
        .query(
            "SELECT indexname::text FROM pg_indexes
             WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey'
               AND indexname NOT LIKE '%_key'",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    (columns, indexes)
}

#[tokio::test]
async fn both_sets_of_migrations_define_the_same_tables_columns_and_indexes() {
    let Some(server) = server_or_skip("schema comparison") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    blokus_server::store::Store::open(dir.path()).unwrap();
    let url = create_database(&server, &format!("blokus_schema_{}", std::process::id()));
    let db = blokus_server::Database::Postgres(url.clone());
    blokus_server::store::Store::connect(&db).await.unwrap();
    // A second start (as a second server would) changes nothing.
    blokus_server::store::Store::connect(&db).await.unwrap();
    let (sqlite_columns, sqlite_indexes) = sqlite_schema(dir.path());
    let (pg_columns, pg_indexes) = postgres_schema(&url).await;
    assert!(!sqlite_columns.is_empty());
    assert_eq!(
        sqlite_columns, pg_columns,
        "columns differ between the backends"
    );
    assert_eq!(
        sqlite_indexes, pg_indexes,
        "indexes differ between the backends"
    );
}

#[tokio::test]
async fn a_bad_or_unreachable_database_is_named_in_the_error() {
    let e = blokus_server::store::Store::connect(&blokus_server::Database::Postgres(
        "postgres://nobody:secret@127.0.0.1:1/none".into(),
    ))
    .await
    .err()
    .expect("nothing listens on port 1");
    assert!(e.message().contains("cannot connect to PostgreSQL"), "{e}");
    assert!(
        !e.message().contains("secret"),
        "the password is not shown: {e}"
    );
    let e = blokus_server::store::Store::connect(&blokus_server::Database::Postgres(
        "postgres://127.0.0.1:notaport/x".into(),
    ))
    .await
    .err()
    .expect("a malformed URL");
    assert!(e.message().contains("bad PostgreSQL address"), "{e}");
}
