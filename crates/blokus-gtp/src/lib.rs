//! The text engine protocol (GTP, in the dialect of the `.blksgf` programs): an engine
//! front-end over any player, and a client plus match runner that drive engines.
#![deny(missing_docs)]

pub mod client;
pub mod engine;
pub mod match_runner;
