//! One module per subcommand; each exposes `Args` (clap) and `run`.

pub mod analyze;
pub mod backup;
pub mod bench;
pub mod gtp;
pub mod load;
pub mod match_cmd;
pub mod serve;
pub mod show;
pub mod site_arg;
pub mod solve;
pub mod tournament;
pub mod variants;

/// The error type of every subcommand: a message for the user.
pub type CmdResult = Result<(), Box<dyn std::error::Error>>;
