//! Passwords: checked for length, hashed with Argon2id, never printed.

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;

/// Shortest password, in characters.
pub const MIN_LEN: usize = 8;
/// Longest password, in bytes (hashing is slow enough; there is no point in more).
pub const MAX_BYTES: usize = 256;

/// A password in a request. Its `Debug` form hides it, so it cannot reach a log.
#[derive(Clone, serde::Deserialize)]
#[serde(transparent)]
pub struct Password(String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(hidden)")
    }
}

impl Password {
    /// A password from text (tests and the command line).
    pub fn new(text: impl Into<String>) -> Password {
        Password(text.into())
    }

    /// Checks a new password: 8 characters at least, 256 bytes at most, not the user
    /// name.
    ///
    /// # Errors
    /// A message for people naming what is wrong.
    pub fn check_new(&self, name: &str) -> Result<(), String> {
        if self.0.chars().count() < MIN_LEN {
            return Err(format!("a password has at least {MIN_LEN} characters"));
        }
        if self.0.len() > MAX_BYTES {
            return Err(format!("a password has at most {MAX_BYTES} bytes"));
        }
        if self.0.eq_ignore_ascii_case(name) {
            return Err("the password must not be the user name".into());
        }
        Ok(())
    }

    /// Whether the text is too long to be any account's password (refused before any
    /// hashing, so long inputs cost nothing).
    pub fn is_oversized(&self) -> bool {
        self.0.len() > MAX_BYTES
    }

    /// The Argon2id hash (PHC string, with a fresh random salt and the crate's default
    /// parameters: 19 MiB, 2 passes, 1 lane, as OWASP recommends).
    ///
    /// # Errors
    /// If hashing fails (it does not with the default parameters).
    pub fn hash(&self) -> Result<String, String> {
        Argon2::default()
            .hash_password(self.0.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| format!("password hashing failed: {e}"))
    }

    /// Whether the password matches a stored hash. `None` (an unknown user) verifies
    /// against a fixed hash, so that the answer takes as long as for a real account.
    pub fn verify(&self, stored: Option<&str>) -> bool {
        let (phc, real) = match stored {
            Some(s) => (s, true),
            None => (DUMMY_HASH, false),
        };
        let Ok(parsed) = PasswordHash::new(phc) else {
            return false;
        };
        let ok = Argon2::default()
            .verify_password(self.0.as_bytes(), &parsed)
            .is_ok();
        ok && real
    }
}

/// The hash of a random password nobody knows, with the default parameters: what an
/// unknown user name is checked against.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$3b9mTQyRZ8ptmjmGb6VQKw$1ODJeU7TvDLRXojg8nrqf2ZBF1dxIyA1Ks7ItD3jsSg";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_hide_the_password() {
        let p = Password::new("correct horse");
        let h = p.hash().unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(!h.contains("correct horse"));
        assert!(p.verify(Some(&h)));
        assert!(!Password::new("wrong horse").verify(Some(&h)));
        assert!(!p.verify(None));
        assert!(!p.verify(Some("not a hash")));
        assert_eq!(format!("{p:?}"), "Password(hidden)");
        // Two hashes of one password differ (fresh salts).
        assert_ne!(h, p.hash().unwrap());
    }

    #[test]
    fn the_dummy_hash_has_the_default_parameters() {
        let parsed = PasswordHash::new(DUMMY_HASH).unwrap();
        let real = Password::new("x").hash().unwrap();
        let real = PasswordHash::new(&real).unwrap();
        assert_eq!(parsed.algorithm, real.algorithm);
        assert_eq!(parsed.params, real.params);
    }

    #[test]
    fn new_passwords_are_checked() {
        assert!(Password::new("short").check_new("bob").is_err());
        assert!(Password::new("alicealice").check_new("AliceAlice").is_err());
        assert!(Password::new("x".repeat(257)).check_new("bob").is_err());
        assert!(Password::new("x".repeat(257)).is_oversized());
        assert!(Password::new("long enough").check_new("bob").is_ok());
    }
}
