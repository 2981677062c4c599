//! Display names people choose for their seats (and spectators for their chat lines).

use serde::{Deserialize, Serialize};

/// Most characters in a display name.
pub const MAX_NAME_CHARS: usize = 24;

/// A display name: trimmed, inner runs of spaces shortened to one, 1 to
/// [`MAX_NAME_CHARS`] characters, each a letter or digit (any script), a space or one of
/// `- _ . '`. Anything else (markup, control characters, emoji) is refused with a
/// message that names the problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DisplayName(String);

impl DisplayName {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether a character may appear in a name.
fn allowed(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | '\'')
}

impl TryFrom<String> for DisplayName {
    type Error = String;

    fn try_from(text: String) -> Result<DisplayName, String> {
        let name = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() {
            return Err("a name needs at least one letter or digit".into());
        }
        let n = name.chars().count();
        if n > MAX_NAME_CHARS {
            return Err(format!(
                "a name has at most {MAX_NAME_CHARS} characters (this one has {n})"
            ));
        }
        if let Some(bad) = name.chars().find(|&c| !allowed(c)) {
            return Err(format!(
                "a name may hold letters, digits, spaces and - _ . ' only, not {bad:?}"
            ));
        }
        if !name.chars().any(char::is_alphanumeric) {
            return Err("a name needs at least one letter or digit".into());
        }
        Ok(DisplayName(name))
    }
}

impl From<DisplayName> for String {
    fn from(name: DisplayName) -> String {
        name.0
    }
}

impl std::fmt::Display for DisplayName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Result<String, String> {
        DisplayName::try_from(s.to_string()).map(String::from)
    }

    #[test]
    fn names_are_trimmed_and_their_spaces_shortened() {
        assert_eq!(name("  Ada   Lovelace ").unwrap(), "Ada Lovelace");
        assert_eq!(name("Zoë O'Neill-Ruiz").unwrap(), "Zoë O'Neill-Ruiz");
        assert_eq!(name("山田 太郎").unwrap(), "山田 太郎");
        assert_eq!(name(&"x".repeat(24)).unwrap().len(), 24);
    }

    #[test]
    fn bad_names_are_refused_with_the_reason() {
        assert!(name("   ").unwrap_err().contains("at least one"));
        assert!(name("...").unwrap_err().contains("at least one"));
        assert!(name(&"x".repeat(25))
            .unwrap_err()
            .contains("at most 24 characters (this one has 25)"));
        assert!(name("<b>Ada</b>").unwrap_err().contains("'<'"));
        assert!(name("Ada\u{7}").unwrap_err().contains("not"));
        assert!(serde_json::from_str::<DisplayName>("\"<img>\"").is_err());
        assert_eq!(
            serde_json::to_string(&DisplayName::try_from("Ada".to_string()).unwrap()).unwrap(),
            "\"Ada\""
        );
    }
}
