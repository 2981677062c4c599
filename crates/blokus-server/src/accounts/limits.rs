//! Limits on login attempts: per client address (every attempt) and per user name
//! (every failed attempt, whether or not the name exists, so the limit tells nothing
//! about which names are taken).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::error::AppError;
use crate::hub::AddressBuckets;
use crate::ws::Bucket;

/// Token buckets keyed by text (user name keys).
#[derive(Clone)]
struct KeyBuckets {
    map: Arc<Mutex<HashMap<String, Bucket>>>,
    per_second: f64,
    burst: f64,
}

impl KeyBuckets {
    fn new(per_minute: f64, burst: f64) -> KeyBuckets {
        KeyBuckets {
            map: Arc::default(),
            per_second: per_minute / 60.0,
            burst,
        }
    }

    fn with<T>(&self, key: &str, f: impl FnOnce(&mut Bucket, Instant) -> T) -> T {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if map.len() > 10_000 {
            map.retain(|_, b| !b.is_full(now));
        }
        let b = map
            .entry(key.to_string())
            .or_insert_with(|| Bucket::new(self.per_second, self.burst));
        f(b, now)
    }
}

/// How many login attempts are allowed.
#[derive(Clone, Copy, Debug)]
pub struct LoginLimits {
    /// Attempts (logins, sign-ups, password changes) per address and minute.
    pub per_address_minute: f64,
    /// Attempts per address in a burst.
    pub address_burst: f64,
    /// Failed logins per user name and minute.
    pub per_name_minute: f64,
    /// Failed logins per user name in a burst.
    pub name_burst: f64,
}

impl Default for LoginLimits {
    fn default() -> Self {
        LoginLimits {
            per_address_minute: 10.0,
            address_burst: 20.0,
            per_name_minute: 1.0,
            name_burst: 5.0,
        }
    }
}

/// The login limiter of a server.
#[derive(Clone)]
pub struct LoginLimiter {
    addresses: AddressBuckets,
    names: KeyBuckets,
}

impl LoginLimiter {
    /// A limiter with these limits.
    pub fn new(l: LoginLimits) -> LoginLimiter {
        LoginLimiter {
            addresses: AddressBuckets::new(l.per_address_minute, l.address_burst),
            names: KeyBuckets::new(l.per_name_minute, l.name_burst),
        }
    }

    /// Takes an attempt of an address.
    ///
    /// # Errors
    /// [`AppError::RateLimited`] when the address tries too often.
    pub fn attempt_from(&self, ip: IpAddr) -> Result<(), AppError> {
        if self.addresses.take(ip) {
            Ok(())
        } else {
            Err(AppError::RateLimited(
                "too many login attempts from your address; wait a minute".into(),
            ))
        }
    }

    /// Checks that a user name has failed attempts left (taking none).
    ///
    /// # Errors
    /// [`AppError::RateLimited`] when the name failed too often lately.
    pub fn check_name(&self, key: &str) -> Result<(), AppError> {
        if self.names.with(key, |b, now| b.has(now)) {
            Ok(())
        } else {
            Err(AppError::RateLimited(
                "too many failed logins for this user name; wait a few minutes".into(),
            ))
        }
    }

    /// Counts a failed attempt against a user name.
    pub fn failed(&self, key: &str) {
        self.names.with(key, |b, now| b.spend(now, 1.0));
    }
}
