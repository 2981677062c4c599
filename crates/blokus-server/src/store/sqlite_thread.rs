//! The thread that owns the SQLite connection and commits in groups.
//!
//! Every database call becomes a job on one queue. The thread takes whatever jobs are
//! waiting (up to [`MAX_BATCH`]) and runs them inside one transaction, then commits once
//! and only then answers them. Under load this turns thousands of small commits a
//! second (one per move, each writing the same pages to the log again) into a few
//! dozen, and no thread ever waits on a lock for the connection: at 1,000 games played
//! flat out, one commit per move made saving a move take up to 45 ms at the 99th
//! percentile. A job that needs its writes to be all-or-nothing opens a savepoint (see
//! [`rusqlite::Connection::savepoint`]), which inside the batch nests like a
//! transaction. Nothing is answered before it is committed: a move announced is a move
//! on disk, as with one commit per call.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;

use rusqlite::Connection;

use crate::error::AppError;

/// Most jobs in one transaction: keeps a batch (and the wait of its first job) short.
const MAX_BATCH: usize = 256;

/// What a job does once its batch is committed: answers its caller, with the commit's
/// error if the batch could not be committed.
pub(super) type Answer = Box<dyn FnOnce(Result<(), AppError>) + Send>;

/// A database call: runs with the connection inside the batch's transaction.
pub(super) type Job = Box<dyn FnOnce(&mut Connection) -> Answer + Send>;

/// Starts the thread; it ends when every sender of the queue is gone.
///
/// # Errors
/// If the thread cannot be started.
pub(super) fn start(conn: Connection) -> Result<mpsc::Sender<Job>, AppError> {
    let (jobs, queue) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("blokus-sqlite".into())
        .spawn(move || run(conn, &queue))
        .map_err(|e| AppError::Internal(format!("cannot start the database thread: {e}")))?;
    Ok(jobs)
}

fn run(mut conn: Connection, queue: &mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        run_batch(&mut conn, batch);
    }
}

/// How a batch's transaction begins: IMMEDIATE takes the write lock at once (see
/// [`run_batch`]).
const BEGIN: &str = "BEGIN IMMEDIATE";

/// Runs the jobs in one transaction and answers them after the commit.
fn run_batch(conn: &mut Connection, batch: Vec<Job>) {
    let mut done: Vec<Answer> = Vec::with_capacity(batch.len());
    // IMMEDIATE takes the write lock now, waiting (busy timeout) for another connection
    // to the file to finish: a deferred transaction that reads first fails at once when
    // it comes to write after that connection committed (a server starting while the one
    // before it is still going down). Without a transaction (BEGIN failed) each job
    // commits by itself, as it would alone.
    let _ = conn.execute_batch(BEGIN);
    for job in batch {
        let in_transaction = !conn.is_autocommit();
        // A panicking job drops its answer (its caller hears the failure); the others go
        // on, and its open savepoint rolled back as it unwound.
        let Ok(answer) = catch_unwind(AssertUnwindSafe(|| job(conn))) else {
            continue;
        };
        done.push(answer);
        if in_transaction && conn.is_autocommit() {
            // SQLite rolled the whole transaction back (disk full, I/O error): the
            // writes of every job so far are gone, whatever they answered.
            fail(&mut done, "the database rolled back a transaction");
            let _ = conn.execute_batch(BEGIN);
        }
    }
    if !conn.is_autocommit() {
        if let Err(e) = conn.execute_batch("COMMIT") {
            let _ = conn.execute_batch("ROLLBACK");
            fail(&mut done, &format!("the database could not commit: {e}"));
        }
    }
    for answer in done {
        answer(Ok(()));
    }
}

fn fail(done: &mut Vec<Answer>, why: &str) {
    for answer in done.drain(..) {
        answer(Err(AppError::Internal(why.to_string())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn table() -> Connection {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch("CREATE TABLE t(x INTEGER PRIMARY KEY)")
            .unwrap();
        c
    }

    type Heard = Arc<Mutex<Vec<(i64, Result<(), AppError>)>>>;

    /// A job doing `work` that records under `x` what it was answered.
    fn recorded(
        x: i64,
        heard: &Heard,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<()> + Send + 'static,
    ) -> Job {
        let heard = heard.clone();
        Box::new(move |c: &mut Connection| -> Answer {
            let r = work(c);
            Box::new(move |committed| {
                let r = r.map_err(AppError::from).and(committed);
                heard.lock().unwrap().push((x, r));
            })
        })
    }

    /// A job inserting `x` that records what it was answered.
    fn insert(x: i64, heard: &Heard) -> Job {
        recorded(x, heard, move |c| {
            c.execute("INSERT INTO t(x) VALUES (?1)", [x]).map(|_| ())
        })
    }

    fn rows(c: &Connection) -> Vec<i64> {
        let mut st = c.prepare("SELECT x FROM t ORDER BY x").unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn a_batch_commits_once_and_answers_every_job_after_the_commit() {
        let mut c = table();
        let heard = Heard::default();
        let seen_inside = Arc::new(Mutex::new(None));
        let seen = seen_inside.clone();
        let peek: Job = Box::new(move |c: &mut Connection| -> Answer {
            // Inside the batch: not yet committed.
            *seen.lock().unwrap() = Some(c.is_autocommit());
            Box::new(|_| {})
        });
        run_batch(&mut c, vec![insert(1, &heard), peek, insert(2, &heard)]);
        assert_eq!(*seen_inside.lock().unwrap(), Some(false));
        assert!(c.is_autocommit());
        assert_eq!(rows(&c), vec![1, 2]);
        let heard = heard.lock().unwrap();
        assert_eq!(heard.len(), 2);
        assert!(heard.iter().all(|(_, r)| r.is_ok()), "{heard:?}");
    }

    #[test]
    fn a_failing_job_rolls_back_only_its_own_savepoint() {
        let mut c = table();
        let heard = Heard::default();
        let half_done = recorded(10, &heard, |c| {
            let sp = c.savepoint()?;
            sp.execute("INSERT INTO t(x) VALUES (10)", [])?;
            sp.execute("INSERT INTO t(x) VALUES (1)", [])?; // already there
            sp.commit()
        });
        run_batch(
            &mut c,
            vec![insert(1, &heard), half_done, insert(2, &heard)],
        );
        assert_eq!(
            rows(&c),
            vec![1, 2],
            "10 was rolled back with its savepoint"
        );
        let heard = heard.lock().unwrap();
        let failed: Vec<i64> = heard
            .iter()
            .filter(|(_, r)| r.is_err())
            .map(|h| h.0)
            .collect();
        assert_eq!(failed, vec![10]);
    }

    #[test]
    fn a_failed_commit_is_every_jobs_failure() {
        let mut c = table();
        // A deferred foreign key breaks only at COMMIT.
        c.execute_batch(
            "PRAGMA foreign_keys = ON;
             CREATE TABLE child(p INTEGER REFERENCES t(x) DEFERRABLE INITIALLY DEFERRED)",
        )
        .unwrap();
        let heard = Heard::default();
        let orphan: Job = Box::new(|c: &mut Connection| -> Answer {
            c.execute("INSERT INTO child(p) VALUES (99)", []).unwrap();
            Box::new(|_| {})
        });
        run_batch(&mut c, vec![insert(1, &heard), orphan, insert(2, &heard)]);
        assert!(rows(&c).is_empty(), "nothing of the batch stays");
        let heard = heard.lock().unwrap();
        assert_eq!(heard.len(), 2);
        assert!(heard.iter().all(|(_, r)| r.is_err()), "{heard:?}");
    }

    #[test]
    fn a_panicking_job_leaves_the_others_committed() {
        let mut c = table();
        let heard = Heard::default();
        let boom: Job = Box::new(|_: &mut Connection| -> Answer { panic!("a bug in a job") });
        run_batch(&mut c, vec![insert(1, &heard), boom, insert(2, &heard)]);
        assert_eq!(rows(&c), vec![1, 2]);
        assert!(heard.lock().unwrap().iter().all(|(_, r)| r.is_ok()));
    }

    /// A job that reads, then writes while another connection to the same file writes
    /// in between, still commits: the batch holds the write lock from its start.
    #[test]
    fn a_job_that_reads_then_writes_survives_another_connection_writing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db");
        let open = || {
            let c = Connection::open(&path).unwrap();
            c.pragma_update(None, "journal_mode", "WAL").unwrap();
            c.pragma_update(None, "busy_timeout", 5000).unwrap();
            c
        };
        let mut c = open();
        c.execute_batch("CREATE TABLE t(x INTEGER PRIMARY KEY)")
            .unwrap();
        let heard = Heard::default();
        let other = Arc::new(Mutex::new(None));
        let other_thread = other.clone();
        let path_other = path.clone();
        let job = recorded(1, &heard, move |c| {
            let _: i64 = c.query_row("SELECT count(*) FROM t", [], |r| r.get(0))?;
            // Another connection writes now (it waits for the batch if it must).
            let t = std::thread::spawn(move || {
                let o = Connection::open(&path_other).unwrap();
                o.pragma_update(None, "busy_timeout", 5000).unwrap();
                o.execute("INSERT INTO t(x) VALUES (2)", []).map(|_| ())
            });
            std::thread::sleep(std::time::Duration::from_millis(200));
            *other_thread.lock().unwrap() = Some(t);
            c.execute("INSERT INTO t(x) VALUES (1)", []).map(|_| ())
        });
        run_batch(&mut c, vec![job]);
        let t = other.lock().unwrap().take().unwrap();
        t.join().unwrap().unwrap();
        let heard = heard.lock().unwrap();
        assert!(heard.iter().all(|(_, r)| r.is_ok()), "{heard:?}");
        assert_eq!(rows(&c), vec![1, 2]);
    }
}
