//! Blokus server (under construction).
