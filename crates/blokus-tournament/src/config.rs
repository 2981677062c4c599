//! An event's settings: variant, rounds, pairing system, short tables, points, tiebreaks.

use std::fmt;
use std::str::FromStr;

use blokus_core::VariantId;
use serde::{Deserialize, Serialize};

use crate::points::Points;

/// How tables are formed each round (docs/tournaments.md describes each exactly).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingSystem {
    /// The circle of drawn numbers, walked forward from where the last round ended (SPEC 8).
    #[default]
    ItaloSvizzero,
    /// Score groups in standings order, fewest repeat meetings, then the closest scores.
    Swiss,
    /// Everyone meets everyone (Berger tables; 2-player tables only).
    RoundRobin,
}

impl PairingSystem {
    /// Every system, with its name.
    pub const ALL: [(PairingSystem, &'static str); 3] = [
        (PairingSystem::ItaloSvizzero, "italo_svizzero"),
        (PairingSystem::Swiss, "swiss"),
        (PairingSystem::RoundRobin, "round_robin"),
    ];

    /// The system's name (`italo_svizzero`, `swiss`, `round_robin`).
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
            .unwrap_or_default()
    }
}

impl fmt::Display for PairingSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown pairing system name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown pairing system '{0}' (known: italo_svizzero, swiss, round_robin)")]
pub struct UnknownPairingSystem(pub String);

impl FromStr for PairingSystem {
    type Err = UnknownPairingSystem;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().replace('-', "_").to_ascii_lowercase();
        Self::ALL
            .iter()
            .find(|(_, n)| *n == t)
            .map(|(sys, _)| *sys)
            .ok_or_else(|| UnknownPairingSystem(s.to_string()))
    }
}

/// What happens to the entrants left over when they do not fill the last table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShortTables {
    /// Byes for the players left over.
    #[default]
    Byes,
    /// Smaller tables (a Classic table of 3 plays `classic_3`), as even in size as
    /// possible; a table of one is a bye.
    Smaller,
}

/// What a bye is worth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "points")]
pub enum ByeScore {
    /// The mean of the full table's place points (½ with 1 / 0, 1.75 with 4 / 2 / 1 / 0).
    #[default]
    Average,
    /// The points of first place.
    Win,
    /// A fixed number of points.
    Fixed(Points),
}

/// The tiebreaks, applied in the event's order after match points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// The sum of the player's game scores (SPEC 6 points).
    GameScore,
    /// The sum of every opponent's match points, once per game played against them.
    Buchholz,
    /// Buchholz without the highest and the lowest entry (with at least three entries).
    MedianBuchholz,
    /// Games finished alone in first place.
    Wins,
    /// Among the players still tied: one point per tied player finished above at the same
    /// table, half a point per tied player finished level.
    HeadToHead,
}

impl Tiebreak {
    /// Every tiebreak with its name, in the default order.
    pub const ALL: [(Tiebreak, &'static str); 5] = [
        (Tiebreak::GameScore, "game_score"),
        (Tiebreak::Buchholz, "buchholz"),
        (Tiebreak::MedianBuchholz, "median_buchholz"),
        (Tiebreak::Wins, "wins"),
        (Tiebreak::HeadToHead, "head_to_head"),
    ];

    /// The default order: game score, Buchholz, median Buchholz, wins, head-to-head.
    pub fn default_order() -> Vec<Tiebreak> {
        Self::ALL.iter().map(|(t, _)| *t).collect()
    }

    /// The tiebreak's name (`game_score`, ...).
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(t, _)| *t == self)
            .map(|(_, n)| *n)
            .unwrap_or_default()
    }

    /// A short column heading.
    pub fn heading(self) -> &'static str {
        match self {
            Tiebreak::GameScore => "Score",
            Tiebreak::Buchholz => "Buch",
            Tiebreak::MedianBuchholz => "MBuch",
            Tiebreak::Wins => "Wins",
            Tiebreak::HeadToHead => "H2H",
        }
    }
}

/// An unknown tiebreak name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown tiebreak '{0}' (known: game_score, buchholz, median_buchholz, wins, head_to_head)"
)]
pub struct UnknownTiebreak(pub String);

impl FromStr for Tiebreak {
    type Err = UnknownTiebreak;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().replace('-', "_").to_ascii_lowercase();
        Self::ALL
            .iter()
            .find(|(_, n)| *n == t)
            .map(|(tb, _)| *tb)
            .ok_or_else(|| UnknownTiebreak(s.to_string()))
    }
}

/// Match points by finishing place at a full table, best place first.
///
/// A smaller table of `s` seats uses the first `s - 1` values and the last one (4 / 2 / 1 / 0
/// gives 4 / 2 / 0 at a table of 3 and 4 / 0 at a table of 2), so finishing last is
/// worth the same everywhere. Players sharing places share those places' points equally.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlacePoints(Vec<Points>);

impl PlacePoints {
    /// The defaults: 1 / 0 for 2 seats, 2 / 1 / 0 for 3, 4 / 2 / 1 / 0 for 4.
    pub fn default_for(seats: usize) -> PlacePoints {
        let v: &[i64] = match seats {
            2 => &[1, 0],
            3 => &[2, 1, 0],
            _ => &[4, 2, 1, 0],
        };
        PlacePoints(v.iter().map(|&p| Points::whole(p)).collect())
    }

    /// Points by place, best first.
    ///
    /// # Errors
    /// A message if the list is empty or a place is worth more than a better one.
    pub fn new(points: Vec<Points>) -> Result<PlacePoints, String> {
        if points.is_empty() {
            return Err("match points need one value per place".into());
        }
        if points.windows(2).any(|w| w[0] < w[1]) {
            return Err(format!(
                "match points must not increase from one place to the next: {}",
                points
                    .iter()
                    .map(Points::to_string)
                    .collect::<Vec<_>>()
                    .join(" / ")
            ));
        }
        Ok(PlacePoints(points))
    }

    /// The values, best place first.
    pub fn values(&self) -> &[Points] {
        &self.0
    }

    /// The points of each place (0-based) at a table of `seats` seats.
    pub fn for_table(&self, seats: usize) -> Vec<Points> {
        let full = &self.0;
        if seats >= full.len() {
            return full.clone();
        }
        let mut v: Vec<Points> = full[..seats.saturating_sub(1)].to_vec();
        v.push(*full.last().expect("non-empty"));
        v
    }

    /// The points of a player who finished at 0-based `place` together with `shared - 1`
    /// others, at a table of `seats`: the mean of the places they cover.
    pub fn for_place(&self, seats: usize, place: usize, shared: usize) -> Points {
        let table = self.for_table(seats);
        let end = (place + shared.max(1)).min(table.len());
        Points::mean(&table[place.min(end)..end])
    }

    /// First place's points.
    pub fn first(&self) -> Points {
        self.0[0]
    }

    /// The mean over the full table's places.
    pub fn average(&self) -> Points {
        Points::mean(&self.0)
    }
}

/// Everything that defines an event apart from its entrants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventConfig {
    /// The event's name.
    pub name: String,
    /// The variant id of every full table (SPEC 5); its number of players is the table size.
    pub variant: VariantId,
    /// The number of rounds.
    pub rounds: u32,
    /// How tables are formed.
    pub pairing: PairingSystem,
    /// Byes or smaller tables when the entrants do not fill the tables.
    pub short_tables: ShortTables,
    /// Match points by place at a full table.
    pub place_points: PlacePoints,
    /// What a bye is worth.
    pub bye: ByeScore,
    /// The tiebreaks after match points, in order.
    pub tiebreaks: Vec<Tiebreak>,
    /// Seed of the draw of pairing numbers.
    pub seed: u64,
    /// Seat the last round by standings (best players at table 1), as 4-seat events at
    /// mind-sports festivals do.
    pub last_round_by_standings: bool,
}

impl EventConfig {
    /// An event of `variant` with the defaults: 4 rounds, italo-svizzero, byes, the default
    /// match points for the variant's table size, the average as a bye, the default
    /// tiebreak order, seed 0.
    pub fn new(name: &str, variant: VariantId) -> EventConfig {
        EventConfig {
            name: name.to_string(),
            variant,
            rounds: 4,
            pairing: PairingSystem::default(),
            short_tables: ShortTables::default(),
            place_points: PlacePoints::default_for(variant.variant().players),
            bye: ByeScore::default(),
            tiebreaks: Tiebreak::default_order(),
            seed: 0,
            last_round_by_standings: false,
        }
    }

    /// The points a bye is worth in this event.
    pub fn bye_points(&self) -> Points {
        match self.bye {
            ByeScore::Average => self.place_points.average(),
            ByeScore::Win => self.place_points.first(),
            ByeScore::Fixed(p) => p,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_tables_keep_the_top_places_and_last() {
        let p = PlacePoints::default_for(4);
        let w = |v: &[i64]| v.iter().map(|&x| Points::whole(x)).collect::<Vec<_>>();
        assert_eq!(p.for_table(4), w(&[4, 2, 1, 0]));
        assert_eq!(p.for_table(3), w(&[4, 2, 0]));
        assert_eq!(p.for_table(2), w(&[4, 0]));
        // Two players sharing second place at a full table: (2 + 1) / 2.
        assert_eq!(p.for_place(4, 1, 2), Points::fraction(3, 2));
        // A draw at two seats: ½ each.
        assert_eq!(
            PlacePoints::default_for(2).for_place(2, 0, 2),
            Points::fraction(1, 2)
        );
        assert_eq!(p.average(), Points::fraction(7, 4));
    }

    #[test]
    fn names_round_trip() {
        for (s, n) in PairingSystem::ALL {
            assert_eq!(n.parse::<PairingSystem>(), Ok(s));
            assert_eq!(s.name(), n);
        }
        assert_eq!("italo-svizzero".parse(), Ok(PairingSystem::ItaloSvizzero));
        for (t, n) in Tiebreak::ALL {
            assert_eq!(n.parse::<Tiebreak>(), Ok(t));
        }
        assert!("elo".parse::<Tiebreak>().is_err());
        assert!(PlacePoints::new(vec![Points::whole(1), Points::whole(2)]).is_err());
    }
}
