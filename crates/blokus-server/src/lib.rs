//! The Blokus server: the web app and its HTTP + WebSocket API from one process.
//!
//! Each game is a room (one tokio task owning the game, see [`room`]); every action is
//! validated by `blokus-core`, stored in SQLite ([`store`]) and then broadcast. AI seats
//! think on blocking threads. The protocol is documented in `docs/api.md`.
#![deny(missing_docs)]

pub mod assets;
pub mod codec;
pub mod cpu;
pub mod error;
pub mod game_hint;
pub mod hints;
pub mod http;
pub mod hub;
pub mod migrations;
pub mod protocol;
pub mod puzzles;
pub mod record;
pub mod room;
pub mod seats;
pub mod store;
pub mod tournaments;
pub mod variants;
pub mod view;
pub mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;

pub use error::AppError;
pub use hub::{Hub, Limits};

/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// Interface to listen on.
    pub host: String,
    /// Port (0 = any free port).
    pub port: u16,
    /// Directory of the database (created if missing).
    pub data: PathBuf,
    /// Size and rate limits.
    pub limits: Limits,
}

/// Serves on an already bound listener until the future is dropped.
///
/// # Errors
/// If the data directory or database cannot be opened, or serving fails.
pub async fn serve_listener(
    listener: tokio::net::TcpListener,
    config: Config,
) -> Result<(), AppError> {
    serve_until(listener, config, std::future::pending()).await
}

/// Serves on an already bound listener until `stop` completes, then stops the CPU-heavy
/// work (puzzle searches give up at once, queued AI moves are dropped) and returns.
///
/// # Errors
/// If the data directory or database cannot be opened, or serving fails.
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    config: Config,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), AppError> {
    let store = store::Store::open(&config.data)?;
    let hub = Hub::new(store, config.limits);
    tokio::spawn(resume_ai_games(hub.clone()));
    let app = http::router(hub.clone()).into_make_service_with_connect_info::<SocketAddr>();
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(stop)
        .await
        .map_err(|e| AppError::Internal(format!("server: {e}")));
    hub.cpu.stop();
    served
}

/// After a restart, reloads the running games with an AI seat, so an AI that was to move
/// (or an AI-only game being watched) goes on without waiting for a visitor.
async fn resume_ai_games(hub: Hub) {
    let Ok(running) = hub.store.list(seats::GameStatus::Running, 200).await else {
        return;
    };
    for g in running {
        if g.seats.iter().any(|s| s.kind == seats::SeatKind::Ai) {
            let _ = hub.room(&g.id).await;
        }
    }
}

/// Binds, prints the address, and serves until Ctrl-C (blocking: builds its own runtime).
///
/// # Errors
/// If the address cannot be bound or the database cannot be opened.
pub fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let addr: SocketAddr =
            format!("{}:{}", config.host, config.port)
                .parse()
                .or_else(|_| {
                    std::net::ToSocketAddrs::to_socket_addrs(&(config.host.as_str(), config.port))
                        .ok()
                        .and_then(|mut a| a.next())
                        .ok_or_else(|| format!("cannot resolve host '{}'", config.host))
                })?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr()?;
        // Open the store before announcing, so a bad data directory fails fast.
        store::Store::open(&config.data)?;
        println!(
            "blokus: serving on http://{local}/ (data in {})",
            config.data.display()
        );
        serve_until(listener, config, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
        println!("blokus: stopped");
        Ok(())
    })
}
