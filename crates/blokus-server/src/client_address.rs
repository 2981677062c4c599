//! The client's address behind trusted reverse proxies (`--trusted-proxy`).
//!
//! Behind a reverse proxy every connection comes from the proxy, so the per-address
//! limits (game creations, wrong tokens, logins, WebSockets) would treat all users as
//! one. A proxy the operator trusts says who the client is in `Forwarded` (RFC 7239) or
//! `X-Forwarded-For`; for a connection from a trusted proxy, and only then, the client
//! is the last address of that list that is not itself a trusted proxy (the addresses
//! before it were written by the client or by proxies nobody vouches for). Requests from
//! any other peer keep the peer's address whatever they say.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;

/// The reverse proxies whose forwarding headers are believed.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Arc<Vec<IpAddr>>);

impl TrustedProxies {
    /// These addresses (IPv4-mapped IPv6 addresses count as their IPv4 address).
    pub fn new(addresses: Vec<IpAddr>) -> TrustedProxies {
        TrustedProxies(Arc::new(addresses.into_iter().map(canonical).collect()))
    }

    /// Whether `ip` is one of them.
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.contains(&canonical(ip))
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The client of a request that reached this server from `peer`.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.contains(peer) {
            return peer;
        }
        let chain = forwarded_for(headers);
        chain
            .iter()
            .rev()
            .copied()
            .find(|ip| !self.contains(*ip))
            // Every hop is a trusted proxy (or none was named): the first one is it.
            .or_else(|| chain.first().copied())
            .unwrap_or(peer)
    }
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The client addresses a request's forwarding headers name, nearest proxy last:
/// `Forwarded`'s `for=` if present, else `X-Forwarded-For`. Obfuscated names
/// (`for=_hidden`, `unknown`) and malformed entries end the list there: nothing before
/// them can be placed.
fn forwarded_for(headers: &HeaderMap) -> Vec<IpAddr> {
    let forwarded: Vec<&str> = headers
        .get_all("forwarded")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    let entries: Vec<Option<IpAddr>> = if forwarded.is_empty() {
        headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|e| parse_node(e.trim()))
            .collect()
    } else {
        forwarded.iter().map(|e| for_of(e)).collect()
    };
    // Only the trailing run of readable addresses is usable.
    let start = entries
        .iter()
        .rposition(Option::is_none)
        .map_or(0, |i| i + 1);
    entries[start..].iter().flatten().copied().collect()
}

/// The `for=` address of one `Forwarded` element (`for=192.0.2.60;proto=http`).
fn for_of(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (k, v) = pair.trim().split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("for")
            .then(|| parse_node(v.trim().trim_matches('"')))?
    })
}

/// An address as proxies write it: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:4711`.
fn parse_node(node: &str) -> Option<IpAddr> {
    if let Ok(ip) = node.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(sa) = node.parse::<SocketAddr>() {
        return Some(sa.ip());
    }
    node.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

/// The middleware: for a request from a trusted proxy, the connection's address becomes
/// the client's, for every handler and limit after it.
pub async fn from_proxy(
    State(trusted): State<TrustedProxies>,
    mut req: Request,
    next: Next,
) -> Response {
    if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>().copied() {
        let client = trusted.client(peer.ip(), req.headers());
        if client != peer.ip() {
            req.extensions_mut()
                .insert(ConnectInfo(SocketAddr::new(client, peer.port())));
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn only_a_trusted_peer_is_believed() {
        let t = TrustedProxies::new(vec![ip("10.0.0.1")]);
        let h = headers(&[("x-forwarded-for", "203.0.113.7")]);
        assert_eq!(t.client(ip("10.0.0.1"), &h), ip("203.0.113.7"));
        assert_eq!(t.client(ip("10.0.0.9"), &h), ip("10.0.0.9"));
        assert_eq!(t.client(ip("10.0.0.1"), &HeaderMap::new()), ip("10.0.0.1"));
    }

    #[test]
    fn the_client_is_the_last_address_no_trusted_proxy_wrote() {
        let t = TrustedProxies::new(vec![ip("10.0.0.1"), ip("10.0.0.2")]);
        // The client claims 1.2.3.4; the outer proxy saw 203.0.113.7, then 10.0.0.2.
        let h = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.7, 10.0.0.2")]);
        assert_eq!(t.client(ip("10.0.0.1"), &h), ip("203.0.113.7"));
        let h = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("x-forwarded-for", "203.0.113.7"),
        ]);
        assert_eq!(t.client(ip("10.0.0.1"), &h), ip("203.0.113.7"));
    }

    #[test]
    fn forwarded_is_read_in_its_forms_and_preferred() {
        let t = TrustedProxies::new(vec![ip("127.0.0.1")]);
        let cases = [
            ("for=192.0.2.60;proto=http;by=203.0.113.43", "192.0.2.60"),
            ("For=\"[2001:db8:cafe::17]:4711\"", "2001:db8:cafe::17"),
            ("for=192.0.2.43, for=198.51.100.17", "198.51.100.17"),
            ("for=\"192.0.2.43:80\"", "192.0.2.43"),
        ];
        for (value, want) in cases {
            let mut h = HeaderMap::new();
            h.insert("forwarded", HeaderValue::from_str(value).unwrap());
            h.insert("x-forwarded-for", HeaderValue::from_static("9.9.9.9"));
            assert_eq!(t.client(ip("127.0.0.1"), &h), ip(want), "{value}");
        }
    }

    #[test]
    fn unreadable_entries_hide_what_is_before_them() {
        let t = TrustedProxies::new(vec![ip("10.0.0.1")]);
        let h = headers(&[("forwarded", "for=1.2.3.4, for=_hidden")]);
        assert_eq!(t.client(ip("10.0.0.1"), &h), ip("10.0.0.1"));
        let h = headers(&[("x-forwarded-for", "1.2.3.4, garbage, 203.0.113.7")]);
        assert_eq!(t.client(ip("10.0.0.1"), &h), ip("203.0.113.7"));
    }

    #[test]
    fn mapped_addresses_are_their_ipv4_address() {
        let t = TrustedProxies::new(vec![ip("127.0.0.1")]);
        let h = headers(&[("x-forwarded-for", "203.0.113.7")]);
        assert_eq!(t.client(ip("::ffff:127.0.0.1"), &h), ip("203.0.113.7"));
    }
}
