//! Rating pools: one rating per variant family and kind of game (two players, or three
//! and four players and teams), because skill at Duo says little about Trigon.

use blokus_core::variant::{VariantData, VariantId};
use serde::{Deserialize, Serialize};

/// The families ratings are kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RatingFamily {
    /// The 20x20 board with the Classic set.
    Classic,
    /// Duo, 14x14, two players.
    Duo,
    /// The Trigon boards.
    Trigon,
    /// Junior, two players.
    Junior,
    /// The Polyomino variants.
    Polyomino,
    /// Blokus 3D.
    #[serde(rename = "3d")]
    Blokus3d,
}

impl RatingFamily {
    /// Every family, in display order.
    pub const ALL: [RatingFamily; 6] = [
        RatingFamily::Classic,
        RatingFamily::Duo,
        RatingFamily::Trigon,
        RatingFamily::Junior,
        RatingFamily::Polyomino,
        RatingFamily::Blokus3d,
    ];

    /// The family of a flat variant.
    pub fn of(id: VariantId) -> RatingFamily {
        use VariantId::*;
        match id {
            Classic | Classic2 | Classic3 | ClassicTeams => RatingFamily::Classic,
            Duo => RatingFamily::Duo,
            Junior => RatingFamily::Junior,
            Trigon | Trigon2 | Trigon3 | TrigonTeams => RatingFamily::Trigon,
            PolyominoMini | PolyominoSmall | PolyominoPenta | PolyominoHexa => {
                RatingFamily::Polyomino
            }
        }
    }

    /// The spelling in pool ids.
    pub fn as_str(self) -> &'static str {
        match self {
            RatingFamily::Classic => "classic",
            RatingFamily::Duo => "duo",
            RatingFamily::Trigon => "trigon",
            RatingFamily::Junior => "junior",
            RatingFamily::Polyomino => "polyomino",
            RatingFamily::Blokus3d => "3d",
        }
    }

    /// The name for people.
    pub fn name(self) -> &'static str {
        match self {
            RatingFamily::Classic => "Classic",
            RatingFamily::Duo => "Duo",
            RatingFamily::Trigon => "Trigon",
            RatingFamily::Junior => "Junior",
            RatingFamily::Polyomino => "Polyomino",
            RatingFamily::Blokus3d => "Blokus 3D",
        }
    }
}

/// How a pool's ratings change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingSystem {
    /// Glicko-2, for games of two players.
    Glicko2,
    /// Weng-Lin (OpenSkill), for games of three and four players and team games.
    WengLin,
}

/// A rating pool: a family and a system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pool {
    /// The variant family.
    pub family: RatingFamily,
    /// Two players (Glicko-2) or more (Weng-Lin).
    pub system: RatingSystem,
}

impl Pool {
    /// The pool of a variant's games: Glicko-2 when two players play each for
    /// themselves, Weng-Lin otherwise (three or four players, or teams).
    pub fn of(v: &VariantData) -> Pool {
        let system = if v.players == 2 && v.teams.is_none() {
            RatingSystem::Glicko2
        } else {
            RatingSystem::WengLin
        };
        Pool {
            family: RatingFamily::of(v.id),
            system,
        }
    }

    /// The pool of a Blokus 3D game of this many players: Glicko-2 for two (also
    /// `rumis_2x4`, two players with two colours each), Weng-Lin for three and four.
    pub fn cube(players: usize) -> Pool {
        Pool {
            family: RatingFamily::Blokus3d,
            system: if players == 2 {
                RatingSystem::Glicko2
            } else {
                RatingSystem::WengLin
            },
        }
    }

    /// The pool of a variant id of either board (`None` for an unknown one).
    pub fn of_variant(id: &str) -> Option<Pool> {
        if let Some(cube) = blokus_core::cube::CubeVariantId::parse(id) {
            return Some(Pool::cube(cube.seating().players()));
        }
        blokus_core::variant(id).ok().map(|v| Pool::of(&v))
    }

    /// Every pool, in display order.
    pub fn all() -> Vec<Pool> {
        RatingFamily::ALL
            .into_iter()
            .flat_map(|family| {
                [RatingSystem::Glicko2, RatingSystem::WengLin]
                    .into_iter()
                    .map(move |system| Pool { family, system })
            })
            .collect()
    }

    /// The id: the family (`duo`), with `-multi` for the Weng-Lin pool (`classic-multi`).
    pub fn id(self) -> String {
        match self.system {
            RatingSystem::Glicko2 => self.family.as_str().to_string(),
            RatingSystem::WengLin => format!("{}-multi", self.family.as_str()),
        }
    }

    /// The pool with this id.
    pub fn parse(id: &str) -> Option<Pool> {
        Pool::all().into_iter().find(|p| p.id() == id)
    }

    /// The name for people.
    pub fn name(self) -> String {
        match self.system {
            RatingSystem::Glicko2 => format!("{} (two players)", self.family.name()),
            RatingSystem::WengLin => {
                format!("{} (three or four players, teams)", self.family.name())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_fall_into_their_pools_and_ids_round_trip() {
        let pool = |id: &str| Pool::of(&blokus_core::variant(id).unwrap()).id();
        assert_eq!(pool("duo"), "duo");
        assert_eq!(pool("classic_2"), "classic");
        assert_eq!(pool("classic"), "classic-multi");
        assert_eq!(pool("classic_teams"), "classic-multi");
        assert_eq!(pool("trigon_3"), "trigon-multi");
        assert_eq!(pool("junior"), "junior");
        assert_eq!(pool("polyomino_mini"), "polyomino");
        for p in Pool::all() {
            assert_eq!(Pool::parse(&p.id()), Some(p));
        }
        assert_eq!(Pool::parse("chess"), None);
        let of = |id: &str| Pool::of_variant(id).map(Pool::id);
        assert_eq!(of("rumis_2").as_deref(), Some("3d"));
        assert_eq!(of("rumis_2x4").as_deref(), Some("3d"));
        assert_eq!(of("rumis_4").as_deref(), Some("3d-multi"));
        assert_eq!(of("trigon").as_deref(), Some("trigon-multi"));
        assert_eq!(of("chess"), None);
    }
}
