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
}

/// Serves until Ctrl-C.
pub fn run(args: Args) -> CmdResult {
    blokus_server::run(blokus_server::Config {
        host: args.host,
        port: args.port,
        data: args.data,
        limits: blokus_server::Limits::default(),
    })
}
