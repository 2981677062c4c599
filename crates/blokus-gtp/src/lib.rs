//! Blokus gtp (under construction).
