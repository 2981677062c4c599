//! Layers over every response: security headers, and the documented JSON error body for
//! errors produced outside the handlers (body limit, bad query strings, unknown paths,
//! wrong methods, unreadable JSON bodies, timeouts).

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::error::ErrorBody;
use crate::protocol::ErrorCode;

/// The content security policy of every page: only this origin's scripts, styles,
/// images and connections (WebSocket included); no inline code, no framing.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Answers 408 when a request (body included) takes longer than `limit`.
pub async fn deadline(
    axum::extract::State(limit): axum::extract::State<std::time::Duration>,
    req: Request,
    next: Next,
) -> Response {
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(res) => res,
        Err(_) => (StatusCode::REQUEST_TIMEOUT, "the request took too long").into_response(),
    }
}

/// Adds the security headers.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    res
}

/// The code and status of an error response made outside the handlers. Unreadable
/// bodies (415, 422) become 400 like every other malformed request.
fn code_of(status: StatusCode) -> (ErrorCode, StatusCode) {
    let code = match status.as_u16() {
        401 => ErrorCode::Unauthorized,
        403 => ErrorCode::Forbidden,
        404 => ErrorCode::NotFound,
        405 => ErrorCode::MethodNotAllowed,
        408 => ErrorCode::Timeout,
        413 | 414 | 431 => ErrorCode::TooLarge,
        429 => ErrorCode::RateLimited,
        503 => ErrorCode::Busy,
        500..=599 => ErrorCode::Internal,
        _ => ErrorCode::BadRequest,
    };
    let status = match status.as_u16() {
        415 | 422 => StatusCode::BAD_REQUEST,
        _ => status,
    };
    (code, status)
}

/// Turns error responses that are not JSON into `{"error": CODE, "message": TEXT}`,
/// keeping their text (axum's rejections say what is wrong).
pub async fn json_errors(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let status = res.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        // The rest of an oversize body is never read, so this connection cannot carry
        // another request: saying so keeps clients from sending their next request into
        // a socket that is closing.
        res.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text
    };
    let (error, status) = code_of(status);
    let mut out = (
        status,
        Json(ErrorBody {
            error,
            message: &message,
        }),
    )
        .into_response();
    // Keep headers such as `Allow` of a 405.
    for (k, v) in &parts.headers {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            out.headers_mut().insert(k.clone(), v.clone());
        }
    }
    out
}
