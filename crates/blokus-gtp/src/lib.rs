//! The text engine protocol (GTP, in the dialect of the `.blksgf` programs): an engine
//! front-end over any player, and a client that drives engines (matches between engines
//! are in `blokus-arena`).
#![deny(missing_docs)]

pub mod client;
pub mod cube;
pub mod engine;
