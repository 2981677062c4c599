//! Game variants as data: one table row per variant of SPEC 5.

use std::sync::Arc;

use crate::geometry::{BoardShape, Cell, Geometry};
use crate::movetable::MoveTable;
use crate::piece::PieceSetId;

/// How first pieces are placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartRule {
    /// Each colour's first piece covers its own starting cell.
    PerColour(Vec<Cell>),
    /// Colourless starting points, listed in cyclic order around the board; a first piece
    /// covers any one of them.
    Shared(Vec<Cell>),
    /// No starting points: the opening pieces go anywhere (the Polyomino pie rule).
    Anywhere,
}

/// How a game is won (SPEC 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scoring {
    /// -1 per cell left, +15 for placing all, +5 more if the monomino was last.
    Standard,
    /// Most pieces placed; ties broken by fewer cells left.
    Junior,
    /// Most cells placed.
    Polyomino,
}

/// Who plays a colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Always this player (0-based).
    Player(usize),
    /// Played in turn by these players, one placement each (the shared Green of
    /// `classic_3`).
    Rotating(Vec<usize>),
}

/// Options a game can switch on or off (SPEC 2.1, 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct RuleOptions {
    /// The Trigon alternate contact rule (ignored on square boards).
    pub alternate_contact: bool,
    /// Turn off the point-reflection opening of `trigon_2`/`trigon_teams` (for games with
    /// programs that lack it).
    pub no_mirror_opening: bool,
    /// Turn off the alternating starting points of `trigon_3`.
    pub no_start_alternation: bool,
}

/// One row of the variant table, with everything the rules need.
pub struct VariantData {
    /// Id such as `duo` or `trigon_3`.
    pub id: &'static str,
    /// The `.blksgf` `GM` game name.
    pub game_name: &'static str,
    /// One-line description for people.
    pub description: &'static str,
    /// The board.
    pub board: BoardShape,
    /// The piece set of each colour.
    pub piece_set: PieceSetId,
    /// Colour names in turn order.
    pub colours: Vec<&'static str>,
    /// Number of players.
    pub players: usize,
    /// Who plays each colour.
    pub seats: Vec<Seat>,
    /// The team (side) of each player; `None` when every player is their own side.
    pub teams: Option<Vec<usize>>,
    /// Whether each colour's score counts.
    pub scored: Vec<bool>,
    /// Starting points.
    pub start: StartRule,
    /// Result rule.
    pub scoring: Scoring,
    /// One piece pool shared by all colours (Hexa).
    pub shared_pool: bool,
    /// (leader, follower): the follower's first piece is the point reflection of the
    /// leader's, and nobody else may cover that reflection first.
    pub mirror_pairs: Vec<(usize, usize)>,
    /// Used starting points must alternate around the cycle (`trigon_3`).
    pub alternate_starts: bool,
    /// The Polyomino pie opening.
    pub pie: bool,
    /// All placements of the piece set on the board.
    pub table: Arc<MoveTable>,
}

impl VariantData {
    /// The board geometry.
    pub fn geometry(&self) -> &Geometry {
        self.table.geometry()
    }

    /// Number of colours.
    pub fn num_colours(&self) -> usize {
        self.colours.len()
    }

    /// Number of sides (teams, or players when there are no teams).
    pub fn num_sides(&self) -> usize {
        self.teams
            .as_ref()
            .map_or(self.players, |t| t.iter().max().map_or(0, |m| m + 1))
    }

    /// The side of a player.
    pub fn side_of_player(&self, player: usize) -> usize {
        self.teams.as_ref().map_or(player, |t| t[player])
    }

    /// Whether the alternate contact rule can apply (Trigon boards).
    pub fn has_alternate_contact(&self) -> bool {
        matches!(self.board, BoardShape::Trigon { .. })
    }

    /// A short description of the players, e.g. `4 colours, 2 players`.
    pub fn describe_players(&self) -> String {
        let mut s = format!("{} colours, {} players", self.colours.len(), self.players);
        if self.teams.is_some() {
            s.push_str(&format!(" in {} teams", self.num_sides()));
        }
        s
    }
}

/// A variant: shared, cheap to clone.
pub type Variant = Arc<VariantData>;

/// Every variant id of SPEC 5, in the spec's order.
pub const VARIANT_IDS: [&str; 14] = [
    "classic",
    "classic_2",
    "classic_3",
    "classic_teams",
    "duo",
    "junior",
    "trigon",
    "trigon_2",
    "trigon_3",
    "trigon_teams",
    "polyomino_mini",
    "polyomino_small",
    "polyomino_penta",
    "polyomino_hexa",
];

/// An unknown variant id or game name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl std::fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown variant '{}' (known: {})",
            self.0,
            VARIANT_IDS.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

/// Looks a variant up by id (`duo`) or `.blksgf` game name (`Blokus Duo`).
///
/// # Errors
/// [`UnknownVariant`] if neither matches.
pub fn variant(name: &str) -> Result<Variant, UnknownVariant> {
    // Each variant (and its move table) is built on first use only.
    static ALL: [std::sync::OnceLock<Variant>; VARIANT_IDS.len()] =
        [const { std::sync::OnceLock::new() }; VARIANT_IDS.len()];
    let name = name.trim();
    let i = VARIANT_IDS
        .iter()
        .position(|id| id.eq_ignore_ascii_case(name) || header(id).0 == name)
        .ok_or_else(|| UnknownVariant(name.to_string()))?;
    Ok(ALL[i]
        .get_or_init(|| Arc::new(build(VARIANT_IDS[i])))
        .clone())
}

/// Every variant, in the spec's order.
pub fn all_variants() -> Vec<Variant> {
    VARIANT_IDS
        .iter()
        .map(|id| variant(id).expect("built-in variant"))
        .collect()
}

const CLASSIC_COLOURS: [&str; 4] = ["blue", "yellow", "red", "green"];

/// Game name, description, board and piece set of a built-in variant id.
fn header(id: &str) -> (&'static str, &'static str, BoardShape, PieceSetId) {
    let sq = |n: u8| BoardShape::Square {
        width: n,
        height: n,
    };
    match id {
        "classic" => (
            "Blokus",
            "Classic Blokus for four players on a 20x20 board",
            sq(20),
            PieceSetId::Classic,
        ),
        "classic_2" => (
            "Blokus Two-Player",
            "Classic board, two players with two colours each",
            sq(20),
            PieceSetId::Classic,
        ),
        "classic_3" => (
            "Blokus Three-Player",
            "Classic board, three players sharing Green in turn",
            sq(20),
            PieceSetId::Classic,
        ),
        "classic_teams" => (
            "Blokus Teams",
            "Classic board, two teams of two (Blue+Red vs Yellow+Green)",
            sq(20),
            PieceSetId::Classic,
        ),
        "duo" => (
            "Blokus Duo",
            "Two players on a 14x14 board",
            sq(14),
            PieceSetId::Classic,
        ),
        "junior" => (
            "Blokus Junior",
            "Two players, 14x14 board, the Junior set (most pieces wins)",
            sq(14),
            PieceSetId::Junior,
        ),
        "trigon" => (
            "Blokus Trigon",
            "Four players on the hexagonal triangle board",
            BoardShape::Trigon { edge: 9 },
            PieceSetId::Trigon,
        ),
        "trigon_2" => (
            "Blokus Trigon Two-Player",
            "Trigon board, two players with two colours each, mirrored openings",
            BoardShape::Trigon { edge: 9 },
            PieceSetId::Trigon,
        ),
        "trigon_3" => (
            "Blokus Trigon Three-Player",
            "Trigon, three players on the inner board, alternating starting points",
            BoardShape::Trigon { edge: 8 },
            PieceSetId::Trigon,
        ),
        "trigon_teams" => (
            "Blokus Trigon Teams",
            "Trigon board, two teams of two, mirrored openings",
            BoardShape::Trigon { edge: 9 },
            PieceSetId::Trigon,
        ),
        "polyomino_mini" => (
            "Polyomino Mini",
            "Two players, 8x8 board, small pieces, pie-rule opening",
            sq(8),
            PieceSetId::Mini,
        ),
        "polyomino_small" => (
            "Polyomino Small",
            "Two players, 12x12 board, two Mini sets, pie-rule opening",
            sq(12),
            PieceSetId::Small,
        ),
        "polyomino_penta" => (
            "Polyomino Penta",
            "Two players, 14x14 board, the Classic set, pie-rule opening",
            sq(14),
            PieceSetId::Classic,
        ),
        "polyomino_hexa" => (
            "Polyomino Hexa",
            "Two players, 20x20 board, one shared set with the 35 hexominoes, pie-rule opening",
            sq(20),
            PieceSetId::Hexa,
        ),
        _ => unreachable!("unknown built-in variant {id}"),
    }
}

fn build(id: &'static str) -> VariantData {
    let sq = |n: u8| BoardShape::Square {
        width: n,
        height: n,
    };
    let (game_name, description, board, piece_set) = header(id);
    let table = MoveTable::get(board, piece_set);
    let g = table.geometry();
    let cells = |names: &[&str]| {
        names
            .iter()
            .map(|n| g.parse_cell(n).unwrap_or_else(|e| panic!("{id}: {e}")))
            .collect::<Vec<Cell>>()
    };
    let four = CLASSIC_COLOURS.to_vec();
    let solo = |n: usize| (0..n).map(Seat::Player).collect::<Vec<_>>();
    let mut v = VariantData {
        id,
        game_name,
        description,
        board,
        piece_set,
        colours: four.clone(),
        players: 4,
        seats: solo(4),
        teams: None,
        scored: vec![true; 4],
        start: StartRule::Anywhere,
        scoring: Scoring::Standard,
        shared_pool: false,
        mirror_pairs: Vec::new(),
        alternate_starts: false,
        pie: false,
        table: table.clone(),
    };
    let two_players_four_colours = vec![
        Seat::Player(0),
        Seat::Player(1),
        Seat::Player(0),
        Seat::Player(1),
    ];
    let trigon_starts = || StartRule::Shared(cells(&["r15", "z12", "z7", "r4", "j7", "j12"]));
    if board == sq(20) && piece_set == PieceSetId::Classic {
        v.start = StartRule::PerColour(cells(&["a20", "t20", "t1", "a1"]));
    }
    match id {
        "classic" => {}
        "classic_2" => {
            v.players = 2;
            v.seats = two_players_four_colours;
        }
        "classic_3" => {
            v.players = 3;
            v.seats = vec![
                Seat::Player(0),
                Seat::Player(1),
                Seat::Player(2),
                Seat::Rotating(vec![0, 1, 2]),
            ];
            v.scored = vec![true, true, true, false];
        }
        "classic_teams" => v.teams = Some(vec![0, 1, 0, 1]),
        "duo" | "junior" => {
            v.colours = if id == "duo" {
                vec!["purple", "orange"]
            } else {
                vec!["green", "orange"]
            };
            v.players = 2;
            v.seats = solo(2);
            v.scored = vec![true; 2];
            v.start = StartRule::PerColour(cells(&["e10", "j5"]));
            if id == "junior" {
                v.scoring = Scoring::Junior;
            }
        }
        "trigon" => v.start = trigon_starts(),
        "trigon_2" | "trigon_teams" => {
            v.start = trigon_starts();
            v.mirror_pairs = vec![(0, 2), (1, 3)];
            if id == "trigon_2" {
                v.players = 2;
                v.seats = two_players_four_colours;
            } else {
                v.teams = Some(vec![0, 1, 0, 1]);
            }
        }
        "trigon_3" => {
            v.colours = vec!["blue", "yellow", "red"];
            v.players = 3;
            v.seats = solo(3);
            v.scored = vec![true; 3];
            v.start = StartRule::Shared(cells(&["p14", "x11", "x6", "p3", "h6", "h11"]));
            v.alternate_starts = true;
        }
        _ => {
            // The Polyomino family.
            v.colours = vec!["blue", "orange"];
            v.players = 2;
            v.seats = solo(2);
            v.scored = vec![true; 2];
            v.start = StartRule::Anywhere;
            v.scoring = Scoring::Polyomino;
            v.pie = true;
            v.shared_pool = id == "polyomino_hexa";
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_builds_and_resolves_by_both_names() {
        for v in all_variants() {
            assert_eq!(variant(v.game_name).unwrap().id, v.id);
            assert_eq!(v.seats.len(), v.colours.len());
            assert_eq!(v.scored.len(), v.colours.len());
        }
        assert!(variant("chess").is_err());
    }

    #[test]
    fn trigon_start_points_are_symmetric() {
        let v = variant("trigon_2").unwrap();
        let StartRule::Shared(points) = &v.start else {
            panic!()
        };
        for &p in points {
            assert!(points.contains(&v.geometry().reflect(p).unwrap()));
        }
    }
}
