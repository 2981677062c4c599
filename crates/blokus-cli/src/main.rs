//! `blokus`: the command-line entry point. One module per subcommand.
#![deny(unsafe_code)]

mod commands;

/// mimalloc instead of the system allocator: the server allocates for every message
/// (JSON, frames, states), and glibc's malloc took about a sixth of its CPU time
/// under load (`perf`, 1,000 games flat out).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Blokus: every variant, a strong AI, a web app, puzzles.
#[derive(Parser)]
#[command(name = "blokus", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web app and its HTTP + WebSocket API.
    Serve(commands::serve::Args),
    /// Speak GTP (the text engine protocol) on stdin/stdout.
    Gtp(commands::gtp::Args),
    /// Play engines against each other (two or more, seats rotating).
    Match(commands::match_cmd::Args),
    /// Run an engine tournament (italo-svizzero, Swiss or round robin).
    Tournament(commands::tournament::Args),
    /// Solve a solitaire puzzle.
    Solve(commands::solve::Args),
    /// List every variant.
    Variants(commands::variants::Args),
    /// Analyse a game record with the AI: each move's value, loss and the preferred move.
    Analyze(commands::analyze::Args),
    /// Print a game record's position as a text board.
    Show(commands::show::Args),
    /// Measure move generation and playout speed.
    Bench(commands::bench::Args),
    /// Load-test the server over its WebSocket API; with --fault, kill and restart it.
    Load(commands::load::Args),
    /// Copy a server's data folder while it runs.
    Backup(commands::backup::BackupArgs),
    /// Write a backup into a data folder (its server stopped).
    Restore(commands::backup::RestoreArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(a) => commands::serve::run(a),
        Command::Gtp(a) => commands::gtp::run(a),
        Command::Match(a) => commands::match_cmd::run(a),
        Command::Tournament(a) => commands::tournament::run(a),
        Command::Solve(a) => commands::solve::run(a),
        Command::Variants(a) => commands::variants::run(a),
        Command::Analyze(a) => commands::analyze::run(a),
        Command::Show(a) => commands::show::run(a),
        Command::Bench(a) => commands::bench::run(a),
        Command::Load(a) => commands::load::run(a),
        Command::Backup(a) => commands::backup::backup(a),
        Command::Restore(a) => commands::backup::restore(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`blokus variants | head -1`) is not a failure.
        Err(e) if is_closed_pipe(&*e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("blokus: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether an error is a write to a closed pipe (the reader of standard output is gone).
fn is_closed_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
