//! The rules of one Blokus 3D game: who plays which colour, on which site.

use std::sync::{Arc, Mutex, OnceLock};

use super::site::Site;
use super::table::CubeTable;
use crate::{Colour, PlayerId};

/// Colour names in turn order (SPEC 5).
pub const CUBE_COLOURS: [&str; 4] = ["blue", "yellow", "red", "green"];

/// How many players, and how they share the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seating {
    /// Two players, one colour each.
    Two,
    /// Three players, one colour each.
    Three,
    /// Four players, one colour each.
    Four,
    /// Two players with two colours each (Blue + Red against Yellow + Green), played
    /// under the four-player height; a player's best colour decides.
    TwoWithFourColours,
}

impl Seating {
    /// Every seating.
    pub const ALL: [Seating; 4] = [
        Seating::Two,
        Seating::Three,
        Seating::Four,
        Seating::TwoWithFourColours,
    ];

    /// Number of players.
    pub fn players(self) -> usize {
        match self {
            Seating::Two | Seating::TwoWithFourColours => 2,
            Seating::Three => 3,
            Seating::Four => 4,
        }
    }

    /// Number of colours.
    pub fn colours(self) -> usize {
        match self {
            Seating::Two => 2,
            Seating::Three => 3,
            Seating::Four | Seating::TwoWithFourColours => 4,
        }
    }

    /// The player count whose height limit the game uses.
    pub fn height_players(self) -> usize {
        self.colours()
    }

    /// The player (0-based) who plays a colour.
    pub fn player_of(self, colour: Colour) -> PlayerId {
        PlayerId::new(colour.index() % self.players())
    }
}

/// The rules of one game: seating and site with its placement table.
#[derive(Clone)]
pub struct CubeRules {
    seating: Seating,
    table: Arc<CubeTable>,
}

impl CubeRules {
    /// Rules for `seating` on `site`. Tables are built once per (site, height) and
    /// shared.
    pub fn new(seating: Seating, site: Arc<Site>) -> CubeRules {
        let height = site.height(seating.height_players());
        CubeRules {
            seating,
            table: shared_table(site, height),
        }
    }

    /// The seating.
    #[inline]
    pub fn seating(&self) -> Seating {
        self.seating
    }

    /// The placement table (site and height).
    #[inline]
    pub fn table(&self) -> &CubeTable {
        &self.table
    }

    /// The site.
    pub fn site(&self) -> &Arc<Site> {
        self.table.site()
    }

    /// Number of colours.
    #[inline]
    pub fn num_colours(&self) -> usize {
        self.seating.colours()
    }

    /// A colour's name.
    pub fn colour_name(&self, colour: Colour) -> &'static str {
        CUBE_COLOURS[colour.index()]
    }

    /// A colour by name (`blue`), initial or 1-based number.
    pub fn parse_colour(&self, text: &str) -> Option<Colour> {
        let t = text.trim().to_ascii_lowercase();
        let n = self.num_colours();
        if let Ok(k) = t.parse::<usize>() {
            return (1..=n).contains(&k).then(|| Colour::new(k - 1));
        }
        CUBE_COLOURS[..n]
            .iter()
            .position(|c| *c == t || (t.len() == 1 && c.starts_with(&t)))
            .map(Colour::new)
    }
}

/// The table of `site` at `height`, built on first use.
fn shared_table(site: Arc<Site>, height: usize) -> Arc<CubeTable> {
    static TABLES: OnceLock<Mutex<Vec<Arc<CubeTable>>>> = OnceLock::new();
    let tables = TABLES.get_or_init(Mutex::default);
    let mut tables = tables.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = tables
        .iter()
        .find(|t| t.height() == height && **t.site() == *site)
    {
        return t.clone();
    }
    let t = Arc::new(CubeTable::new(site, height));
    tables.push(t.clone());
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seatings() {
        let site = Site::builtin("plaza").unwrap();
        let heights: Vec<usize> = Seating::ALL
            .iter()
            .map(|&s| CubeRules::new(s, site.clone()).table().height())
            .collect();
        assert_eq!(heights, [4, 6, 8, 8]);
        let s = Seating::TwoWithFourColours;
        assert_eq!(
            Colour::all(4)
                .map(|c| s.player_of(c).index())
                .collect::<Vec<_>>(),
            [0, 1, 0, 1]
        );
        let rules = CubeRules::new(Seating::Three, site);
        assert_eq!(rules.parse_colour("Red"), Some(Colour(2)));
        assert_eq!(rules.parse_colour("y"), Some(Colour(1)));
        assert_eq!(rules.parse_colour("4"), None);
        assert_eq!(rules.parse_colour("green"), None);
    }

    #[test]
    fn tables_are_shared() {
        let a = CubeRules::new(Seating::Four, Site::builtin("ring").unwrap());
        let b = CubeRules::new(Seating::TwoWithFourColours, Site::builtin("ring").unwrap());
        assert!(std::ptr::eq(a.table(), b.table()));
    }
}
