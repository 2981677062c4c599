//! User names: what a valid one looks like, and the key that makes them unique whatever
//! their case.

use std::fmt;

/// Shortest user name, in characters.
pub const MIN_LEN: usize = 3;
/// Longest user name, in characters.
pub const MAX_LEN: usize = 20;

/// Names nobody may take: they would pass for the site or the computer players.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "ai",
    "blokus",
    "computer",
    "guest",
    "moderator",
    "root",
    "system",
];

/// A valid user name, as its owner spelled it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserName(String);

impl UserName {
    /// Checks a name: 3 to 20 characters, ASCII letters, digits, `_` and `-`, starting
    /// with a letter, not a reserved name. ASCII only, so no two names look alike.
    ///
    /// # Errors
    /// A message for people naming what is wrong.
    pub fn parse(text: &str) -> Result<UserName, String> {
        let n = text.chars().count();
        if !(MIN_LEN..=MAX_LEN).contains(&n) {
            return Err(format!(
                "a user name has {MIN_LEN} to {MAX_LEN} characters (this one has {n})"
            ));
        }
        if let Some(c) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        {
            return Err(format!(
                "a user name may contain only letters a-z, digits, '_' and '-' (not {c:?})"
            ));
        }
        if !text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err("a user name starts with a letter".into());
        }
        let name = UserName(text.to_string());
        if RESERVED.contains(&name.key().as_str()) {
            return Err(format!("the user name '{text}' is reserved"));
        }
        Ok(name)
    }

    /// The name as spelled.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The unique key: the name in lowercase (`Alice` and `alice` are one account).
    pub fn key(&self) -> String {
        key_of(&self.0)
    }
}

/// The key of any text, valid name or not (to look up and rate-limit login attempts
/// without telling which names exist).
pub fn key_of(text: &str) -> String {
    text.trim().to_ascii_lowercase()
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_keyed_without_case() {
        assert_eq!(UserName::parse("Alice_9").unwrap().key(), "alice_9");
        assert!(UserName::parse("al").unwrap_err().contains("3 to 20"));
        assert!(UserName::parse(&"a".repeat(21)).is_err());
        assert!(UserName::parse("9lives")
            .unwrap_err()
            .contains("starts with a letter"));
        assert!(UserName::parse("bob smith").unwrap_err().contains("' '"));
        assert!(UserName::parse("bøb").is_err());
        assert!(UserName::parse("<script>").is_err());
        assert!(UserName::parse("Admin").unwrap_err().contains("reserved"));
        assert_eq!(key_of(" BoB "), "bob");
    }
}
