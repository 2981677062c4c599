//! The Blokus 3D variants: one row per seating, played on any site (a game option,
//! `plaza` by default), and [`AnyVariant`], the lookup across every board family.

use std::fmt;
use std::sync::Arc;

use super::rules::{CubeRules, Seating};
use super::site::{Site, BUILTIN_SITES};
use crate::variant::{Family, VariantId};

/// The site a game uses when none is chosen.
pub const DEFAULT_SITE: &str = "plaza";

/// A Blokus 3D variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CubeVariantId {
    /// `rumis_4`: four players, one colour each.
    Rumis4,
    /// `rumis_3`: three players, one colour each.
    Rumis3,
    /// `rumis_2`: two players, one colour each.
    Rumis2,
    /// `rumis_2x4`: two players with two colours each.
    Rumis2x4,
}

impl CubeVariantId {
    /// Every 3D variant, in display order.
    pub const ALL: [CubeVariantId; 4] = [
        CubeVariantId::Rumis4,
        CubeVariantId::Rumis3,
        CubeVariantId::Rumis2,
        CubeVariantId::Rumis2x4,
    ];

    /// (id, `.blksgf` game name, description).
    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            CubeVariantId::Rumis4 => (
                "rumis_4",
                "Blokus 3D",
                "Blokus 3D (Rumis): four players build with polycubes on a site",
            ),
            CubeVariantId::Rumis3 => (
                "rumis_3",
                "Blokus 3D Three-Player",
                "Blokus 3D, three players, the site's three-player height",
            ),
            CubeVariantId::Rumis2 => (
                "rumis_2",
                "Blokus 3D Duo",
                "Blokus 3D, two players with one colour each, the two-player height",
            ),
            CubeVariantId::Rumis2x4 => (
                "rumis_2x4",
                "Blokus 3D Two-Player",
                "Blokus 3D, two players with two colours each, the four-player height; \
                 a player's best colour decides",
            ),
        }
    }

    /// The id, such as `rumis_4`.
    pub fn as_str(self) -> &'static str {
        self.names().0
    }

    /// The `.blksgf` `GM` game name.
    pub fn game_name(self) -> &'static str {
        self.names().1
    }

    /// One-line description for people.
    pub fn description(self) -> &'static str {
        self.names().2
    }

    /// Who plays which colour.
    pub fn seating(self) -> Seating {
        match self {
            CubeVariantId::Rumis4 => Seating::Four,
            CubeVariantId::Rumis3 => Seating::Three,
            CubeVariantId::Rumis2 => Seating::Two,
            CubeVariantId::Rumis2x4 => Seating::TwoWithFourColours,
        }
    }

    /// The variant of a seating.
    pub fn of_seating(seating: Seating) -> CubeVariantId {
        CubeVariantId::ALL
            .into_iter()
            .find(|v| v.seating() == seating)
            .expect("every seating has a variant")
    }

    /// The rules of this variant on `site`.
    pub fn rules(self, site: Arc<Site>) -> CubeRules {
        CubeRules::new(self.seating(), site)
    }

    /// The rules of this variant on a built-in site by name.
    ///
    /// # Errors
    /// [`UnknownSite`] naming the site and the known ones.
    pub fn rules_on(self, site: &str) -> Result<CubeRules, UnknownSite> {
        let site = Site::builtin(site).ok_or_else(|| UnknownSite(site.to_string()))?;
        Ok(self.rules(site))
    }

    /// Looks a 3D variant up by id (any case) or game name.
    pub fn parse(name: &str) -> Option<CubeVariantId> {
        let name = name.trim();
        CubeVariantId::ALL
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(name) || v.game_name() == name)
    }
}

impl fmt::Display for CubeVariantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A site name that is not built in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSite(pub String);

impl fmt::Display for UnknownSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown site '{}' (built in: {}; or load a site file)",
            self.0,
            BUILTIN_SITES.join(", ")
        )
    }
}

impl std::error::Error for UnknownSite {}

/// A name that is no variant of any family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAnyVariant(pub String);

impl fmt::Display for UnknownAnyVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = AnyVariant::all().map(AnyVariant::as_str).collect();
        write!(
            f,
            "unknown variant '{}' (known: {})",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownAnyVariant {}

/// A variant of any board family: the one lookup for entry points that accept every
/// variant id or game name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyVariant {
    /// A square or Trigon variant.
    Flat(VariantId),
    /// A Blokus 3D variant.
    Cube(CubeVariantId),
}

impl AnyVariant {
    /// Every variant: the flat ones in the spec's order, then Blokus 3D's.
    pub fn all() -> impl Iterator<Item = AnyVariant> {
        VariantId::ALL
            .into_iter()
            .map(AnyVariant::Flat)
            .chain(CubeVariantId::ALL.into_iter().map(AnyVariant::Cube))
    }

    /// Looks a variant up by id, game name or alias in every family.
    ///
    /// # Errors
    /// [`UnknownAnyVariant`] if none matches; its message lists every id.
    pub fn parse(name: &str) -> Result<AnyVariant, UnknownAnyVariant> {
        match VariantId::parse(name) {
            Ok(v) => Ok(AnyVariant::Flat(v)),
            Err(_) => CubeVariantId::parse(name)
                .map(AnyVariant::Cube)
                .ok_or_else(|| UnknownAnyVariant(name.trim().to_string())),
        }
    }

    /// The id.
    pub fn as_str(self) -> &'static str {
        match self {
            AnyVariant::Flat(v) => v.as_str(),
            AnyVariant::Cube(v) => v.as_str(),
        }
    }

    /// The `.blksgf` game name.
    pub fn game_name(self) -> &'static str {
        match self {
            AnyVariant::Flat(v) => v.game_name(),
            AnyVariant::Cube(v) => v.game_name(),
        }
    }

    /// The board family.
    pub fn family(self) -> Family {
        match self {
            AnyVariant::Flat(v) => v.family(),
            AnyVariant::Cube(_) => Family::Cube,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_are_unique_across_families() {
        let all: Vec<AnyVariant> = AnyVariant::all().collect();
        assert_eq!(all.len(), VariantId::ALL.len() + 4);
        for (i, a) in all.iter().enumerate() {
            assert_eq!(AnyVariant::parse(a.as_str()), Ok(*a));
            assert_eq!(AnyVariant::parse(a.game_name()), Ok(*a));
            for b in &all[i + 1..] {
                assert!(a.as_str() != b.as_str() && a.game_name() != b.game_name());
            }
        }
        assert_eq!(
            AnyVariant::parse("RUMIS_2x4"),
            Ok(AnyVariant::Cube(CubeVariantId::Rumis2x4))
        );
        assert_eq!(AnyVariant::parse("rumis_4").unwrap().family(), Family::Cube);
        let err = AnyVariant::parse("rumis_5").unwrap_err().to_string();
        assert!(
            err.starts_with("unknown variant 'rumis_5' (known: classic,")
                && err.ends_with("rumis_2, rumis_2x4)")
        );
    }

    #[test]
    fn variants_set_the_seating_and_sites_are_named() {
        for v in CubeVariantId::ALL {
            assert_eq!(CubeVariantId::of_seating(v.seating()), v);
            let rules = v.rules_on(DEFAULT_SITE).unwrap();
            assert_eq!(rules.num_colours(), v.seating().colours());
        }
        let Err(err) = CubeVariantId::Rumis2.rules_on("moon") else {
            panic!("moon is no site");
        };
        assert_eq!(err.to_string(), "unknown site 'moon' (built in: plaza, cross, ring, diamond, tower; or load a site file)");
    }
}
