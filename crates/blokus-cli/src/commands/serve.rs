//! `blokus serve`: the web app and its HTTP + WebSocket API (see `docs/api.md`).

use std::path::PathBuf;

use super::CmdResult;

/// Arguments of `blokus serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on (0 = any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Interface to listen on (0.0.0.0 to accept other machines).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Directory of the game database (created on first start).
    #[arg(long, default_value = "./blokus-data")]
    pub data: PathBuf,
    /// Minutes after which a running game without a move that nobody has open leaves
    /// the lobby's list (it stays playable by its link).
    #[arg(long, default_value_t = 15.0, value_name = "MINUTES")]
    pub abandoned_after: f64,
    /// Keep the games in PostgreSQL instead of the data directory, e.g.
    /// postgres://user:pass@127.0.0.1/blokus (several servers may share it; see
    /// docs/deploy.md).
    #[arg(long, value_name = "URL", value_parser = postgres_url)]
    pub database: Option<String>,
    /// With --database: the address the other servers reach this one at, e.g.
    /// http://10.0.0.5:8080 (default: the listening address; required with 0.0.0.0).
    #[arg(long, value_name = "URL", requires = "database")]
    pub advertise: Option<String>,
    /// The address of a reverse proxy in front (repeat for several): for its requests,
    /// the client named in Forwarded / X-Forwarded-For gets the per-address limits, and
    /// its own connections are not capped. Headers from other peers are ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    pub trusted_proxy: Vec<std::net::IpAddr>,
}

/// Accepts only `postgres://` and `postgresql://` URLs.
fn postgres_url(arg: &str) -> Result<String, String> {
    if arg.starts_with("postgres://") || arg.starts_with("postgresql://") {
        Ok(arg.to_string())
    } else {
        Err("expected a PostgreSQL URL: postgres://user:password@host[:port]/database".into())
    }
}

/// Serves until Ctrl-C.
pub fn run(args: Args) -> CmdResult {
    let minutes = args.abandoned_after;
    if !(minutes.is_finite() && (0.0..=1e6).contains(&minutes)) {
        return Err(format!(
            "--abandoned-after must be a number of minutes from 0 to 1000000, not {minutes}"
        )
        .into());
    }
    blokus_server::run(blokus_server::Config {
        host: args.host,
        port: args.port,
        database: match args.database {
            Some(url) => blokus_server::Database::Postgres(url),
            None => blokus_server::Database::Sqlite(args.data),
        },
        advertise: args.advertise,
        trusted_proxies: args.trusted_proxy,
        limits: blokus_server::Limits {
            abandoned_after: std::time::Duration::from_secs_f64(minutes * 60.0),
            ..blokus_server::Limits::default()
        },
    })
}
