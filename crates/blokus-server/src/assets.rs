//! The web app's files, embedded in the binary so it runs from any directory.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The files of `web/` (in debug builds read from disk, so page edits need no rebuild).
#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
#[exclude = "node_modules/*"]
#[exclude = "*.json"]
struct Web;

/// The response for a file of `web/`, or 404.
pub fn file(path: &str) -> Response {
    match Web::get(path) {
        Some(f) => {
            let mime = f.metadata.mimetype().to_string();
            (
                [
                    (header::CONTENT_TYPE, mime),
                    (header::CACHE_CONTROL, "no-cache".to_string()),
                ],
                f.data.into_owned(),
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
