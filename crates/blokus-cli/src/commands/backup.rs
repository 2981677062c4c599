//! `blokus backup DATA OUT` and `blokus restore BACKUP DATA`: online copies of a server's
//! data folder through SQLite's backup API (see `docs/api.md`, "Backup and restore").

use std::path::PathBuf;

use super::CmdResult;

/// Arguments of `blokus backup`.
#[derive(clap::Args)]
pub struct BackupArgs {
    /// The data folder of `blokus serve` (may be in use by a running server).
    pub data: PathBuf,
    /// The backup file to write (must not exist).
    pub out: PathBuf,
}

/// Arguments of `blokus restore`.
#[derive(clap::Args)]
pub struct RestoreArgs {
    /// A file written by `blokus backup`.
    pub backup: PathBuf,
    /// The data folder to write it into (its server must be stopped).
    pub data: PathBuf,
}

/// Copies the database while the server may run.
pub fn backup(args: BackupArgs) -> CmdResult {
    blokus_server::backup::backup(&args.data, &args.out)?;
    println!(
        "blokus: backed up {} to {}",
        args.data.display(),
        args.out.display()
    );
    Ok(())
}

/// Writes a backup into a data folder.
pub fn restore(args: RestoreArgs) -> CmdResult {
    blokus_server::backup::restore(&args.backup, &args.data)?;
    println!(
        "blokus: restored {} into {}",
        args.backup.display(),
        args.data.display()
    );
    Ok(())
}
