//! Game variants as data: one table row per variant of SPEC 5.

use std::sync::Arc;

use crate::geometry::{BoardShape, Cell, Geometry};
use crate::ids::{Colour, PlayerId, Side};
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
    /// Always this player.
    Player(PlayerId),
    /// Played in turn by these players, one placement each (the shared Green of
    /// `classic_3`).
    Rotating(Vec<PlayerId>),
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

impl RuleOptions {
    /// The name of every option, as written in records (`XRULES`) and on command lines.
    pub const NAMES: [&'static str; 3] = [
        "alternate_contact",
        "no_mirror_opening",
        "no_start_alternation",
    ];

    fn flag_mut(&mut self, name: &str) -> Option<&mut bool> {
        match name {
            "alternate_contact" => Some(&mut self.alternate_contact),
            "no_mirror_opening" => Some(&mut self.no_mirror_opening),
            "no_start_alternation" => Some(&mut self.no_start_alternation),
            _ => None,
        }
    }

    /// Switches on the option called `name`.
    ///
    /// # Errors
    /// [`UnknownRuleOption`] when no option has that name.
    pub fn enable(&mut self, name: &str) -> Result<(), UnknownRuleOption> {
        let flag = self
            .flag_mut(name)
            .ok_or_else(|| UnknownRuleOption(name.to_string()))?;
        *flag = true;
        Ok(())
    }

    /// The options switched on by a comma-separated list such as
    /// `no_mirror_opening,alternate_contact` (spaces around names and empty items are
    /// ignored; `none` or an empty list is no option).
    ///
    /// # Errors
    /// [`UnknownRuleOption`] naming the first unknown name.
    pub fn parse_list(list: &str) -> Result<RuleOptions, UnknownRuleOption> {
        let mut options = RuleOptions::default();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if name != "none" {
                options.enable(name)?;
            }
        }
        Ok(options)
    }

    /// The names of the options switched on, in [`RuleOptions::NAMES`] order.
    pub fn enabled(&self) -> Vec<&'static str> {
        let flags = [
            self.alternate_contact,
            self.no_mirror_opening,
            self.no_start_alternation,
        ];
        Self::NAMES
            .into_iter()
            .zip(flags)
            .filter_map(|(name, on)| on.then_some(name))
            .collect()
    }
}

/// A rule option name that does not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleOption(pub String);

impl std::fmt::Display for UnknownRuleOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown rule option '{}' (known: {})",
            self.0,
            RuleOptions::NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownRuleOption {}

/// One row of the variant table, with everything the rules need.
pub struct VariantData {
    /// Which variant this is (its id, such as `duo` or `trigon_3`, and its names).
    pub id: VariantId,
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
    pub teams: Option<Vec<Side>>,
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
    pub mirror_pairs: Vec<(Colour, Colour)>,
    /// Used starting points must alternate around the cycle (`trigon_3`).
    pub alternate_starts: bool,
    /// The Polyomino pie opening.
    pub pie: bool,
    /// All placements of the piece set on the board.
    pub table: Arc<MoveTable>,
}

impl VariantData {
    /// The board family.
    pub fn family(&self) -> Family {
        self.id.family()
    }

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
        self.teams.as_ref().map_or(self.players, |t| {
            t.iter().max().map_or(0, |m| m.index() + 1)
        })
    }

    /// The side of a player.
    pub fn side_of_player(&self, player: PlayerId) -> Side {
        self.teams
            .as_ref()
            .map_or(Side::new(player.index()), |t| t[player.index()])
    }

    /// Whether the alternate contact rule can apply (Trigon boards).
    pub fn has_alternate_contact(&self) -> bool {
        matches!(self.board, BoardShape::Trigon { .. })
    }
}

/// A variant: shared, cheap to clone.
pub type Variant = Arc<VariantData>;

/// The board family of a variant: the lattice its cells form, which decides the
/// geometry, the piece shapes and the neighbour rules. A new family (Blokus 3D's cubes)
/// is a new member here and a new arm wherever the compiler asks for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Square cells on a rectangle (polyominoes): Classic, Duo, Junior, Polyomino.
    Square,
    /// Triangular cells on a hexagon (polyiamonds): the Trigon variants.
    Trigon,
    /// Cubes stacked on a site (polycubes): Blokus 3D, whose variants are
    /// [`crate::cube::CubeVariantId`] (all of them: [`crate::cube::AnyVariant`]).
    Cube,
}

/// Every built-in variant of SPEC 5: the one list of ids, game names, aliases and
/// descriptions. Matching on it is exhaustive, so a new variant is a compile error in
/// every place that has to know about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VariantId {
    /// `classic`: four players, 20x20.
    Classic,
    /// `classic_2`: two players with two colours each.
    Classic2,
    /// `classic_3`: three players sharing Green in turn.
    Classic3,
    /// `classic_teams`: two teams of two.
    ClassicTeams,
    /// `duo`: two players, 14x14.
    Duo,
    /// `junior`: two players, the Junior set.
    Junior,
    /// `trigon`: four players on the Trigon board.
    Trigon,
    /// `trigon_2`: two players with two colours each, mirrored openings.
    Trigon2,
    /// `trigon_3`: three players on the inner board.
    Trigon3,
    /// `trigon_teams`: two teams of two, mirrored openings.
    TrigonTeams,
    /// `polyomino_mini`: 8x8, small pieces.
    PolyominoMini,
    /// `polyomino_small`: 12x12, two Mini sets.
    PolyominoSmall,
    /// `polyomino_penta`: 14x14, the Classic set.
    PolyominoPenta,
    /// `polyomino_hexa`: 20x20, one shared set with the hexominoes.
    PolyominoHexa,
}

/// The names of one variant (a row of the variant table).
struct Names {
    id: &'static str,
    game_name: &'static str,
    aliases: &'static [&'static str],
    description: &'static str,
}

impl VariantId {
    /// Every variant, in the spec's order.
    pub const ALL: [VariantId; 14] = [
        VariantId::Classic,
        VariantId::Classic2,
        VariantId::Classic3,
        VariantId::ClassicTeams,
        VariantId::Duo,
        VariantId::Junior,
        VariantId::Trigon,
        VariantId::Trigon2,
        VariantId::Trigon3,
        VariantId::TrigonTeams,
        VariantId::PolyominoMini,
        VariantId::PolyominoSmall,
        VariantId::PolyominoPenta,
        VariantId::PolyominoHexa,
    ];

    fn names(self) -> Names {
        use VariantId::*;
        let (id, game_name, aliases, description): (_, _, &'static [&'static str], _) = match self {
            Classic => (
                "classic",
                "Blokus",
                &["c"],
                "Classic Blokus for four players on a 20x20 board",
            ),
            Classic2 => (
                "classic_2",
                "Blokus Two-Player",
                &["c2"],
                "Classic board, two players with two colours each",
            ),
            Classic3 => (
                "classic_3",
                "Blokus Three-Player",
                &["c3"],
                "Classic board, three players sharing Green in turn",
            ),
            ClassicTeams => (
                "classic_teams",
                "Blokus Teams",
                &[],
                "Classic board, two teams of two (Blue+Red vs Yellow+Green)",
            ),
            Duo => ("duo", "Blokus Duo", &["d"], "Two players on a 14x14 board"),
            Junior => (
                "junior",
                "Blokus Junior",
                &["j"],
                "Two players, 14x14 board, the Junior set (most pieces wins)",
            ),
            Trigon => (
                "trigon",
                "Blokus Trigon",
                &["t"],
                "Four players on the hexagonal triangle board",
            ),
            Trigon2 => (
                "trigon_2",
                "Blokus Trigon Two-Player",
                &["t2"],
                "Trigon board, two players with two colours each, mirrored openings",
            ),
            Trigon3 => (
                "trigon_3",
                "Blokus Trigon Three-Player",
                &["t3"],
                "Trigon, three players on the inner board, alternating starting points",
            ),
            TrigonTeams => (
                "trigon_teams",
                "Blokus Trigon Teams",
                &[],
                "Trigon board, two teams of two, mirrored openings",
            ),
            PolyominoMini => (
                "polyomino_mini",
                "Polyomino Mini",
                &[],
                "Two players, 8x8 board, small pieces, pie-rule opening",
            ),
            PolyominoSmall => (
                "polyomino_small",
                "Polyomino Small",
                &[],
                "Two players, 12x12 board, two Mini sets, pie-rule opening",
            ),
            PolyominoPenta => (
                "polyomino_penta",
                "Polyomino Penta",
                &[],
                "Two players, 14x14 board, the Classic set, pie-rule opening",
            ),
            PolyominoHexa => (
                "polyomino_hexa",
                "Polyomino Hexa",
                &[],
                "Two players, 20x20 board, one shared set with the 35 hexominoes, \
                     pie-rule opening",
            ),
        };
        Names {
            id,
            game_name,
            aliases,
            description,
        }
    }

    /// The id, such as `duo` or `trigon_3`.
    pub fn as_str(self) -> &'static str {
        self.names().id
    }

    /// The `.blksgf` `GM` game name, such as `Blokus Duo`.
    pub fn game_name(self) -> &'static str {
        self.names().game_name
    }

    /// Short names also accepted (Pentobi's GTP abbreviations, such as `d` for Duo).
    pub fn aliases(self) -> &'static [&'static str] {
        self.names().aliases
    }

    /// One-line description for people.
    pub fn description(self) -> &'static str {
        self.names().description
    }

    /// The board family.
    pub fn family(self) -> Family {
        use VariantId::*;
        match self {
            Classic | Classic2 | Classic3 | ClassicTeams | Duo | Junior | PolyominoMini
            | PolyominoSmall | PolyominoPenta | PolyominoHexa => Family::Square,
            Trigon | Trigon2 | Trigon3 | TrigonTeams => Family::Trigon,
        }
    }

    /// Looks a variant up by id (any case), game name or alias.
    ///
    /// # Errors
    /// [`UnknownVariant`] if none matches.
    pub fn parse(name: &str) -> Result<VariantId, UnknownVariant> {
        let name = name.trim();
        VariantId::ALL
            .into_iter()
            .find(|v| {
                let n = v.names();
                n.id.eq_ignore_ascii_case(name) || n.game_name == name || n.aliases.contains(&name)
            })
            .ok_or_else(|| UnknownVariant(name.to_string()))
    }

    /// The variant's rules data, built (with its move table) on first use.
    pub fn variant(self) -> Variant {
        static ALL: [std::sync::OnceLock<Variant>; VariantId::ALL.len()] =
            [const { std::sync::OnceLock::new() }; VariantId::ALL.len()];
        ALL[self as usize]
            .get_or_init(|| Arc::new(build(self)))
            .clone()
    }
}

impl std::fmt::Display for VariantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for VariantId {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        VariantId::parse(s)
    }
}

impl serde::Serialize for VariantId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for VariantId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        VariantId::parse(&name).map_err(serde::de::Error::custom)
    }
}

/// An unknown variant id or game name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl std::fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
        write!(
            f,
            "unknown variant '{}' (known: {})",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

/// Looks a variant up by id (`duo`), `.blksgf` game name (`Blokus Duo`) or alias (`d`).
///
/// # Errors
/// [`UnknownVariant`] if none matches.
pub fn variant(name: &str) -> Result<Variant, UnknownVariant> {
    Ok(VariantId::parse(name)?.variant())
}

/// Every variant, in the spec's order.
pub fn all_variants() -> Vec<Variant> {
    VariantId::ALL.iter().map(|id| id.variant()).collect()
}

const CLASSIC_COLOURS: [&str; 4] = ["blue", "yellow", "red", "green"];

/// The board and piece set of a variant.
fn board_and_pieces(id: VariantId) -> (BoardShape, PieceSetId) {
    use VariantId::*;
    let sq = |n: u8| BoardShape::Square {
        width: n,
        height: n,
    };
    let trigon = |edge: u8| BoardShape::Trigon { edge };
    match id {
        Classic | Classic2 | Classic3 | ClassicTeams => (sq(20), PieceSetId::Classic),
        Duo => (sq(14), PieceSetId::Classic),
        Junior => (sq(14), PieceSetId::Junior),
        Trigon | Trigon2 | TrigonTeams => (trigon(9), PieceSetId::Trigon),
        Trigon3 => (trigon(8), PieceSetId::Trigon),
        PolyominoMini => (sq(8), PieceSetId::Mini),
        PolyominoSmall => (sq(12), PieceSetId::Small),
        PolyominoPenta => (sq(14), PieceSetId::Classic),
        PolyominoHexa => (sq(20), PieceSetId::Hexa),
    }
}

fn build(id: VariantId) -> VariantData {
    use VariantId::*;
    let (board, piece_set) = board_and_pieces(id);
    let table = MoveTable::get(board, piece_set);
    let g = table.geometry();
    let cells = |names: &[&str]| {
        names
            .iter()
            .map(|n| g.parse_cell(n).unwrap_or_else(|e| panic!("{id}: {e}")))
            .collect::<Vec<Cell>>()
    };
    let four = CLASSIC_COLOURS.to_vec();
    let solo = |n: usize| PlayerId::all(n).map(Seat::Player).collect::<Vec<_>>();
    let mut v = VariantData {
        id,
        game_name: id.game_name(),
        description: id.description(),
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
        Seat::Player(PlayerId(0)),
        Seat::Player(PlayerId(1)),
        Seat::Player(PlayerId(0)),
        Seat::Player(PlayerId(1)),
    ];
    let classic_starts = || StartRule::PerColour(cells(&["a20", "t20", "t1", "a1"]));
    let trigon_starts = || StartRule::Shared(cells(&["r15", "z12", "z7", "r4", "j7", "j12"]));
    let two_player = |v: &mut VariantData, colours: [&'static str; 2]| {
        v.colours = colours.to_vec();
        v.players = 2;
        v.seats = solo(2);
        v.scored = vec![true; 2];
    };
    match id {
        Classic => v.start = classic_starts(),
        Classic2 => {
            v.start = classic_starts();
            v.players = 2;
            v.seats = two_players_four_colours;
        }
        Classic3 => {
            v.start = classic_starts();
            v.players = 3;
            v.seats = vec![
                Seat::Player(PlayerId(0)),
                Seat::Player(PlayerId(1)),
                Seat::Player(PlayerId(2)),
                Seat::Rotating(vec![PlayerId(0), PlayerId(1), PlayerId(2)]),
            ];
            v.scored = vec![true, true, true, false];
        }
        ClassicTeams => {
            v.start = classic_starts();
            v.teams = Some(vec![Side(0), Side(1), Side(0), Side(1)]);
        }
        Duo | Junior => {
            let colours = if id == Duo {
                ["purple", "orange"]
            } else {
                ["green", "orange"]
            };
            two_player(&mut v, colours);
            v.start = StartRule::PerColour(cells(&["e10", "j5"]));
            if id == Junior {
                v.scoring = Scoring::Junior;
            }
        }
        Trigon => v.start = trigon_starts(),
        Trigon2 | TrigonTeams => {
            v.start = trigon_starts();
            v.mirror_pairs = vec![(Colour(0), Colour(2)), (Colour(1), Colour(3))];
            if id == Trigon2 {
                v.players = 2;
                v.seats = two_players_four_colours;
            } else {
                v.teams = Some(vec![Side(0), Side(1), Side(0), Side(1)]);
            }
        }
        Trigon3 => {
            v.colours = vec!["blue", "yellow", "red"];
            v.players = 3;
            v.seats = solo(3);
            v.scored = vec![true; 3];
            v.start = StartRule::Shared(cells(&["p14", "x11", "x6", "p3", "h6", "h11"]));
            v.alternate_starts = true;
        }
        PolyominoMini | PolyominoSmall | PolyominoPenta | PolyominoHexa => {
            two_player(&mut v, ["blue", "orange"]);
            v.start = StartRule::Anywhere;
            v.scoring = Scoring::Polyomino;
            v.pie = true;
            v.shared_pool = id == PolyominoHexa;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_option_lists_parse_and_print_back() {
        let o = RuleOptions::parse_list(" no_start_alternation, alternate_contact,").unwrap();
        assert!(o.alternate_contact && o.no_start_alternation && !o.no_mirror_opening);
        assert_eq!(o.enabled(), ["alternate_contact", "no_start_alternation"]);
        assert_eq!(
            RuleOptions::parse_list("none").unwrap(),
            RuleOptions::default()
        );
        assert_eq!(RuleOptions::parse_list("").unwrap(), RuleOptions::default());
        let e = RuleOptions::parse_list("no_mirror_opening,fast").unwrap_err();
        assert_eq!(e, UnknownRuleOption("fast".into()));
        assert!(e.to_string().contains("known: alternate_contact"), "{e}");
    }

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
    fn ids_names_and_aliases_resolve_to_their_variant() {
        for id in VariantId::ALL {
            assert_eq!(VariantId::parse(id.as_str()), Ok(id));
            assert_eq!(VariantId::parse(&id.as_str().to_uppercase()), Ok(id));
            assert_eq!(VariantId::parse(id.game_name()), Ok(id));
            for alias in id.aliases() {
                assert_eq!(VariantId::parse(alias), Ok(id));
            }
            assert_eq!(id.variant().id, id);
            let json = serde_json::to_string(&id).unwrap();
            assert_eq!(json, format!("\"{id}\""));
            assert_eq!(serde_json::from_str::<VariantId>(&json).unwrap(), id);
        }
        assert_eq!(VariantId::parse(" d ").unwrap(), VariantId::Duo);
        let err = VariantId::parse("chess").unwrap_err().to_string();
        assert!(
            err.contains("chess") && err.contains("trigon_teams"),
            "{err}"
        );
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
