//! Sessions and request checks: the session cookie, where a state-changing request may
//! come from (CSRF), and the CSRF token a logged-in page sends with such requests.
//!
//! A session is a random 128-bit secret in an `HttpOnly`, `SameSite=Lax` cookie
//! (`Secure` when the request came over HTTPS through a proxy); the database keeps only
//! its SHA-256 hash. Every login makes a new one (no fixation). Requests that change
//! something must come from this site: a `Sec-Fetch-Site` other than `same-origin` or
//! `none`, or an `Origin` whose host is not the request's `Host`, is refused; and a
//! request that acts for an account must carry the session's CSRF token in the
//! `X-CSRF-Token` header (a page of another site can neither read it nor set it).

use axum::http::{header, HeaderMap, HeaderValue};
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::seats::{is_token, new_token};

/// The name of the session cookie.
pub const COOKIE: &str = "blokus_session";
/// The header carrying the CSRF token.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// How long a session lasts (seconds): 30 days.
pub const LIFETIME: i64 = 30 * 24 * 3600;

/// A new session secret (the cookie value).
pub fn new_secret() -> String {
    new_token()
}

/// What the database keeps of a secret.
pub fn hash_secret(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The session secret of a request's cookie, if it carries a well-formed one.
pub fn secret_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, v)| *k == COOKIE && is_token(v))
        .map(|(_, v)| v.to_string())
}

/// Whether the request came over HTTPS (as told by a reverse proxy in front).
fn is_https(headers: &HeaderMap) -> bool {
    let forwarded_proto = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    let forwarded = headers
        .get(header::FORWARDED)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().contains("proto=https"));
    forwarded_proto || forwarded
}

/// The `Set-Cookie` value that stores a session secret in the browser.
pub fn set_cookie(secret: &str, headers: &HeaderMap) -> HeaderValue {
    let secure = if is_https(headers) { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age={LIFETIME}{secure}"
    ))
    .expect("hex and ASCII attributes make a valid header")
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie(headers: &HeaderMap) -> HeaderValue {
    let secure = if is_https(headers) { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"
    ))
    .expect("a valid header")
}

/// Refuses a state-changing request that another site's page made: by the browser's
/// `Sec-Fetch-Site`, or by an `Origin` whose host is not the `Host` asked for. Clients
/// that are not browsers send neither and pass (they carry no ambient cookies of a
/// victim).
///
/// # Errors
/// [`AppError::Forbidden`] naming the reason.
pub fn check_same_origin(headers: &HeaderMap) -> Result<(), AppError> {
    let refuse = || {
        AppError::Forbidden(
            "cross-site request refused: this action must come from the site's own pages".into(),
        )
    };
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = site.to_str().map_err(|_| refuse())?;
        if !matches!(site, "same-origin" | "none") {
            return Err(refuse());
        }
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().map_err(|_| refuse())?;
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .ok_or_else(refuse)?;
        let origin_host = origin
            .split_once("://")
            .map(|(_, rest)| rest.trim_end_matches('/'))
            .ok_or_else(refuse)?;
        if !origin_host.eq_ignore_ascii_case(host) {
            return Err(refuse());
        }
    }
    Ok(())
}

/// Whether the request's CSRF header equals the session's token (compared in constant
/// time).
pub fn csrf_matches(headers: &HeaderMap, expected: &str) -> bool {
    let Some(given) = headers.get(CSRF_HEADER).map(HeaderValue::as_bytes) else {
        return false;
    };
    let expected = expected.as_bytes();
    given.len() == expected.len()
        && given
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn the_cookie_is_found_among_others_and_must_be_a_token() {
        let s = new_secret();
        let h = headers(&[("cookie", &format!("a=b; {COOKIE}={s}; c=d"))]);
        assert_eq!(secret_of(&h), Some(s));
        let h = headers(&[("cookie", &format!("{COOKIE}=../etc"))]);
        assert_eq!(secret_of(&h), None);
        assert_eq!(hash_secret("x").len(), 64);
    }

    #[test]
    fn cookies_are_http_only_lax_and_secure_behind_https() {
        let plain = set_cookie("ab", &HeaderMap::new());
        let plain = plain.to_str().unwrap();
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax"));
        assert!(!plain.contains("Secure"));
        let tls = set_cookie("ab", &headers(&[("x-forwarded-proto", "https")]));
        assert!(tls.to_str().unwrap().ends_with("; Secure"));
    }

    #[test]
    fn other_sites_are_refused() {
        assert!(check_same_origin(&HeaderMap::new()).is_ok());
        let same = headers(&[
            ("host", "blokus.example:8080"),
            ("origin", "https://blokus.example:8080"),
            ("sec-fetch-site", "same-origin"),
        ]);
        assert!(check_same_origin(&same).is_ok());
        let other = headers(&[
            ("host", "blokus.example"),
            ("origin", "https://evil.example"),
        ]);
        assert!(check_same_origin(&other).is_err());
        let null = headers(&[("host", "blokus.example"), ("origin", "null")]);
        assert!(check_same_origin(&null).is_err());
        let cross = headers(&[("sec-fetch-site", "cross-site")]);
        assert!(check_same_origin(&cross).is_err());
        let sibling = headers(&[("sec-fetch-site", "same-site")]);
        assert!(check_same_origin(&sibling).is_err());
    }

    #[test]
    fn the_csrf_token_must_match_exactly() {
        let h = headers(&[(CSRF_HEADER, "abc")]);
        assert!(csrf_matches(&h, "abc"));
        assert!(!csrf_matches(&h, "abd"));
        assert!(!csrf_matches(&h, "abcd"));
        assert!(!csrf_matches(&HeaderMap::new(), "abc"));
    }
}
