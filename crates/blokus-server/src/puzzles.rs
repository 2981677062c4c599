//! Puzzle routes. The puzzles helper fills this module; the main router merges
//! [`router`] so its routes are served next to the game API.

/// The puzzle routes (none yet).
pub fn router<S: Clone + Send + Sync + 'static>() -> axum::Router<S> {
    axum::Router::new()
}
