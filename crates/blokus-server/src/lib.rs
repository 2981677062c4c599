//! The Blokus server: the web app and its HTTP + WebSocket API from one process.
//!
//! Each game is a room (one tokio task owning the game, see [`room`]); every action is
//! validated by `blokus-core`, stored in SQLite or PostgreSQL ([`store`]) and then
//! broadcast. AI seats
//! think on blocking threads. The protocol is documented in `docs/api.md`.
#![deny(missing_docs)]

pub mod accounts;
pub mod analysis;
pub mod assets;
pub mod backup;
pub mod chat;
pub mod client_address;
pub mod clock;
pub mod cluster;
pub mod codec;
pub mod cpu;
pub mod cube_view;
pub mod error;
pub mod game_hint;
pub mod hints;
pub mod http;
pub mod hub;
pub mod listen;
pub mod middleware;
pub mod migrations;
pub mod names;
pub mod presence;
pub mod protocol;
pub mod proxy;
pub mod puzzles;
pub mod ratings;
pub mod record;
pub mod rematch;
pub mod room;
pub mod room_game;
pub mod seats;
pub mod store;
pub mod tournaments;
pub mod variants;
pub mod view;
pub mod ws;

pub use error::AppError;
pub use hub::{Hub, Limits};
use std::io::Write;
use std::net::SocketAddr;
pub use store::Database;

/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// Interface to listen on.
    pub host: String,
    /// Port (0 = any free port).
    pub port: u16,
    /// Where the games live: SQLite in a data folder, or PostgreSQL.
    pub database: Database,
    /// With a shared database: the `http://host:port` address other servers reach this
    /// one at (default: the address it listens on).
    pub advertise: Option<String>,
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` name the client (see
    /// [`client_address`]); their own connections are not capped per address.
    pub trusted_proxies: Vec<std::net::IpAddr>,
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
    let store = store::Store::connect(&config.database).await?;
    // Time while the server was down is not charged to running clocks (with several
    // servers on one database: while all of them were down).
    store.resume_clocks(clock::now_ms()).await?;
    let limits = config.limits;
    let mut hub = Hub::new(store, limits);
    hub.trusted_proxies = client_address::TrustedProxies::new(config.trusted_proxies.clone());
    let local = listener
        .local_addr()
        .map_err(|e| AppError::Internal(format!("listening address: {e}")))?;
    if hub.store.is_shared() {
        let address = cluster::peer_address(local, config.advertise.as_deref())?;
        // The heartbeat takes over the games where an AI is to move that no server owns.
        if let Some(c) = cluster::join(&hub, address).await? {
            hub.forwarder = Some(proxy::Forwarder::new(c));
        }
    } else {
        tokio::spawn(resume_ai_games(hub.clone()));
    }
    tokio::spawn(analysis::worker(hub.clone()));
    // Rated games that ended just before a crash get their rating now.
    tokio::spawn(ratings::settle_pending(hub.store.clone()));
    let accept = listen::Accept {
        per_address: limits.http_per_address,
        header_timeout: limits.header_timeout,
        uncapped: hub.trusted_proxies.clone(),
    };
    listen::serve(
        listener,
        http::router(hub.clone()),
        accept,
        stop,
        SHUTDOWN_DRAIN,
    )
    .await;
    hub.shutdown().await;
    Ok(())
}

/// How long a stopping server lets requests in progress finish.
const SHUTDOWN_DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// After a restart, reloads every game where an AI is to move, so it goes on without
/// waiting for a visitor. At the room limit it waits for rooms to free up.
async fn resume_ai_games(hub: Hub) {
    let Ok(ids) = hub.store.ai_to_move().await else {
        return;
    };
    for id in ids {
        // Bounded: a game that cannot be loaded within ten minutes waits for a visitor.
        for _ in 0..600 {
            match hub.room(&id).await {
                Err(AppError::Busy(_)) => {
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
                _ => break,
            }
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
    let served = rt.block_on(async move {
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
        // Open the store before announcing, so a bad database fails fast.
        store::Store::connect(&config.database).await?;
        println!(
            "blokus: serving on http://{local}/ ({})",
            config.database.describe()
        );
        serve_until(listener, config, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
        // Whoever started the server may have stopped listening: a closed stdout is
        // no reason to fail a clean stop.
        let _ = writeln!(std::io::stdout(), "blokus: stopped");
        Ok::<(), Box<dyn std::error::Error>>(())
    });
    // An AI search still running is abandoned (its room has ended, so nothing is
    // written); waiting for it could take seconds.
    rt.shutdown_timeout(std::time::Duration::from_millis(500));
    served
}
