//! The one application error type: every failure a client can cause or meet, each mapped
//! to an HTTP status and a machine-readable code.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::protocol::{ErrorCode, Refusal};

/// Something went wrong serving a request or a WebSocket message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppError {
    /// The request is malformed or names something invalid (HTTP 400).
    BadRequest(String),
    /// No such game (HTTP 404).
    NotFound(String),
    /// Not logged in, or a wrong user name or password (HTTP 401).
    Unauthorized(String),
    /// The action is not allowed for this client (HTTP 403), e.g. a wrong token.
    Forbidden(String),
    /// The action conflicts with the game's state (HTTP 409), e.g. a seat already taken.
    Conflict(String),
    /// A limit was reached (HTTP 503): too many rooms or connections.
    Busy(String),
    /// A client acts too fast (HTTP 429).
    RateLimited(String),
    /// A server-side failure (HTTP 500), e.g. the database.
    Internal(String),
}

impl AppError {
    /// The machine-readable code sent to clients.
    pub fn code(&self) -> ErrorCode {
        match self {
            AppError::BadRequest(_) => ErrorCode::BadRequest,
            AppError::NotFound(_) => ErrorCode::NotFound,
            AppError::Unauthorized(_) => ErrorCode::Unauthorized,
            AppError::Forbidden(_) => ErrorCode::Forbidden,
            AppError::Conflict(_) => ErrorCode::Conflict,
            AppError::Busy(_) => ErrorCode::Busy,
            AppError::RateLimited(_) => ErrorCode::RateLimited,
            AppError::Internal(_) => ErrorCode::Internal,
        }
    }

    /// The error as a refused WebSocket message.
    pub fn refusal(&self) -> Refusal {
        Refusal::new(self.code(), self.message())
    }

    /// The message for people.
    pub fn message(&self) -> &str {
        match self {
            AppError::BadRequest(m)
            | AppError::NotFound(m)
            | AppError::Unauthorized(m)
            | AppError::Forbidden(m)
            | AppError::Conflict(m)
            | AppError::Busy(m)
            | AppError::RateLimited(m)
            | AppError::Internal(m) => m,
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for AppError {}

impl From<rusqlite::Error> for AppError {
    fn from(e: rusqlite::Error) -> Self {
        AppError::Internal(format!("database: {e}"))
    }
}

impl From<tokio_postgres::Error> for AppError {
    fn from(e: tokio_postgres::Error) -> Self {
        // The server's own message says most (e.g. which constraint failed).
        match e.as_db_error() {
            Some(db) => AppError::Internal(format!("database: {}", db.message())),
            None => AppError::Internal(format!("database: {e}")),
        }
    }
}

impl From<deadpool_postgres::PoolError> for AppError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        AppError::Busy(format!("the database cannot be reached: {e}"))
    }
}

/// The body of every HTTP error.
#[derive(Serialize)]
pub struct ErrorBody<'a> {
    /// The code.
    pub error: ErrorCode,
    /// The explanation.
    pub message: &'a str,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.code(),
            message: self.message(),
        };
        (self.status(), Json(body)).into_response()
    }
}
