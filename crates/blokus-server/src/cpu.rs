//! The one limiter of CPU-heavy work: AI moves, hints and game analysis. Jobs run on
//! blocking threads, at most one per core at a time; further jobs wait their turn
//! instead of slowing every search (and the machine) down. Background jobs (analysis)
//! take a slot only when no other job is waiting for one, so they never delay a live
//! game's AI by more than the one short job already running. A stopping server stops the
//! limiter: waiting jobs are refused and running searches that watch the stop flag
//! (puzzle searches) give up at once.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::error::AppError;

/// The limiter, shared by the hub, the rooms and the puzzle routes.
#[derive(Clone)]
pub struct Cpu {
    slots: Arc<Semaphore>,
    stop: Arc<AtomicBool>,
    /// Jobs of [`Cpu::run`] waiting for a slot (background jobs yield to them).
    waiting: Arc<AtomicUsize>,
}

/// Counts a job as waiting while it lives (also when its future is dropped).
struct Waiting(Arc<AtomicUsize>);

impl Waiting {
    fn new(count: &Arc<AtomicUsize>) -> Waiting {
        count.fetch_add(1, Ordering::SeqCst);
        Waiting(count.clone())
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How often a background job looks for a free slot nobody else waits for.
const BACKGROUND_POLL: Duration = Duration::from_millis(10);

impl Cpu {
    /// A limiter running at most `jobs` jobs at once (at least one).
    pub fn new(jobs: usize) -> Cpu {
        Cpu {
            slots: Arc::new(Semaphore::new(jobs.max(1))),
            stop: Arc::new(AtomicBool::new(false)),
            waiting: Arc::default(),
        }
    }

    /// The cores of this machine (2 when unknown): one job each by default.
    pub fn cores() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get())
    }

    /// Runs `job` on a blocking thread once a slot is free. The job gets the stop flag
    /// to hand to searches that can give up early.
    ///
    /// # Errors
    /// [`AppError::Busy`] when the server is stopping, [`AppError::Internal`] when the
    /// job panics.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let stopping = || AppError::Busy("the server is stopping".into());
        let waiting = Waiting::new(&self.waiting);
        let _slot = self.slots.acquire().await.map_err(|_| stopping())?;
        drop(waiting);
        if self.is_stopped() {
            return Err(stopping());
        }
        let stop = self.stop.clone();
        tokio::task::spawn_blocking(move || job(stop))
            .await
            .map_err(|e| AppError::Internal(format!("a computation failed: {e}")))
    }

    /// Runs `job` like [`Cpu::run`], but at low priority: it takes a slot only when one
    /// is free and no [`Cpu::run`] job is waiting. Meant for short jobs (one analysed
    /// position), so that live work never waits long behind background work.
    ///
    /// # Errors
    /// As [`Cpu::run`].
    pub async fn run_background<T: Send + 'static>(
        &self,
        job: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let _slot = loop {
            if self.is_stopped() {
                return Err(AppError::Busy("the server is stopping".into()));
            }
            if self.waiting.load(Ordering::SeqCst) == 0 {
                if let Ok(slot) = self.slots.try_acquire() {
                    break slot;
                }
            }
            tokio::time::sleep(BACKGROUND_POLL).await;
        };
        let stop = self.stop.clone();
        tokio::task::spawn_blocking(move || job(stop))
            .await
            .map_err(|e| AppError::Internal(format!("a computation failed: {e}")))
    }

    /// Stops: jobs waiting for a slot are refused and running searches are told to give
    /// up.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.slots.close();
    }

    /// Whether [`Cpu::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn jobs_wait_for_a_slot_and_a_stop_refuses_the_waiting_and_tells_the_running() {
        let cpu = Cpu::new(1);
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let running = tokio::spawn({
            let cpu = cpu.clone();
            async move {
                cpu.run(move |stop| {
                    let _ = started_tx.send(());
                    // A search that watches the flag.
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    "gave up"
                })
                .await
            }
        });
        started_rx.await.unwrap();
        let waiting = tokio::spawn({
            let cpu = cpu.clone();
            async move { cpu.run(|_| "ran").await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "one slot: the second job waits");
        cpu.stop();
        assert_eq!(running.await.unwrap().unwrap(), "gave up");
        assert!(matches!(waiting.await.unwrap(), Err(AppError::Busy(_))));
        assert!(matches!(cpu.run(|_| ()).await, Err(AppError::Busy(_))));
    }

    #[tokio::test]
    async fn background_jobs_let_waiting_jobs_go_first() {
        let cpu = Cpu::new(1);
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let first = tokio::spawn({
            let cpu = cpu.clone();
            async move {
                cpu.run(move |_| {
                    let _ = started_tx.send(());
                    let _ = release_rx.recv();
                })
                .await
            }
        });
        started_rx.await.unwrap();
        let order = Arc::new(std::sync::Mutex::new(Vec::new()));
        let background = tokio::spawn({
            let (cpu, order) = (cpu.clone(), order.clone());
            async move {
                cpu.run_background(move |_| order.lock().unwrap().push("background"))
                    .await
            }
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        let live = tokio::spawn({
            let (cpu, order) = (cpu.clone(), order.clone());
            async move { cpu.run(move |_| order.lock().unwrap().push("live")).await }
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        release_tx.send(()).unwrap();
        first.await.unwrap().unwrap();
        live.await.unwrap().unwrap();
        background.await.unwrap().unwrap();
        assert_eq!(*order.lock().unwrap(), ["live", "background"]);
        cpu.stop();
        assert!(matches!(
            cpu.run_background(|_| ()).await,
            Err(AppError::Busy(_))
        ));
    }

    #[tokio::test]
    async fn a_panicking_job_is_an_error_not_a_crash() {
        let cpu = Cpu::new(1);
        let r: Result<(), _> = cpu.run(|_| panic!("bad search")).await;
        assert!(matches!(r, Err(AppError::Internal(_))));
        // The slot is free again.
        assert_eq!(cpu.run(|_| 7).await.unwrap(), 7);
    }
}
