//! Blokus solver (under construction).
