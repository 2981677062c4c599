//! Subcommand under construction.

use super::CmdResult;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> CmdResult {
    Err("this subcommand is not built yet".into())
}
