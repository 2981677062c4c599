//! Variant descriptions for clients: the list for the lobby and, per variant, everything
//! a board page needs to draw and to preview placements (cells, pieces, orientations).

use blokus_core::piece::{normalize, symmetry_count, transform, PieceDef};
use blokus_core::variant::Seat as ColourSeat;
use blokus_core::{GridKind, PlayerId, Side, StartRule, Variant};
use serde::Serialize;

/// One line of `GET /api/variants`.
#[derive(Serialize)]
pub struct VariantSummary {
    /// Variant id (`duo`).
    pub id: &'static str,
    /// `.blksgf` game name.
    pub name: &'static str,
    /// One line for people.
    pub description: &'static str,
    /// Board description (`20x20 squares`).
    pub board: String,
    /// `square` or `triangle`.
    pub grid: GridKind,
    /// Colour names in turn order.
    pub colours: Vec<&'static str>,
    /// Number of players (= seats).
    pub players: usize,
    /// Seat descriptions, e.g. `blue+red`.
    pub seat_names: Vec<String>,
    /// Piece set name.
    pub piece_set: &'static str,
    /// Whether the Trigon alternate contact rule may be switched on.
    pub alternate_contact: bool,
    /// Whether the Polyomino pie rule is used.
    pub pie: bool,
    /// Teams of players, if any.
    pub teams: Option<Vec<Side>>,
}

/// A piece with its orientations in symmetry order (see [`VariantDetail::pieces`]).
#[derive(Serialize)]
pub struct PieceInfo {
    /// `.blksgf` name.
    pub name: String,
    /// Cells.
    pub size: usize,
    /// Copies per colour (per game in a shared set).
    pub count: u8,
    /// `symmetries[t]` is the shape after symmetry `t`, normalised: `t < n/2` are the
    /// rotations of the base shape, `t >= n/2` rotations of its mirror image
    /// (n = 8 on squares, 12 on triangles). Cells are (x, y), y up; on triangles the
    /// cell at (x, y) points up iff x + y is even.
    pub symmetries: Vec<Vec<(i32, i32)>>,
}

impl PieceInfo {
    /// A piece of a board of `kind`, with `count` copies.
    pub fn of(kind: GridKind, piece: &PieceDef, count: u8) -> PieceInfo {
        let base = &piece.orientations[0];
        PieceInfo {
            name: piece.name.clone(),
            size: piece.size,
            count,
            symmetries: (0..symmetry_count(kind))
                .map(|t| normalize(kind, &transform(kind, base, t)))
                .collect(),
        }
    }
}

/// `GET /api/variants/{id}`: the summary plus the board and the pieces. Puzzle boards
/// (`GET /api/puzzles/{id}`) have the same shape, so one board page draws both.
#[derive(Serialize)]
pub struct VariantDetail {
    /// The summary.
    #[serde(flatten)]
    pub summary: VariantSummary,
    /// Bounding rectangle width in columns.
    pub width: usize,
    /// Bounding rectangle height in rows.
    pub height: usize,
    /// Cells in index order: [x, y, up] with y from the bottom; up is 1 for triangles
    /// pointing up, else 0. Cell names are column letters + row number (`a1`).
    pub cells: Vec<(usize, usize, u8)>,
    /// Cell names in index order.
    pub names: Vec<String>,
    /// Starting cells (per colour, or shared), by name.
    pub starts: Vec<String>,
    /// Whether `starts` are per colour (true) or colourless points any colour may use.
    pub starts_per_colour: bool,
    /// For each colour, the player who plays it, or `null` for the rotating Green of
    /// `classic_3` (and for the Polyomino colours, which the pie choice assigns).
    pub colour_player: Vec<Option<PlayerId>>,
    /// The piece set.
    pub pieces: Vec<PieceInfo>,
    /// Whether every colour draws from one shared set (Hexa).
    pub shared_pool: bool,
}

/// The lobby line of a variant.
pub fn summary(v: &Variant) -> VariantSummary {
    let seat_names = (0..v.players)
        .map(|p| {
            if v.pie {
                return format!("player {}", p + 1);
            }
            let names: Vec<&str> = (0..v.colours.len())
                .filter(|&c| matches!(&v.seats[c], ColourSeat::Player(q) if q.index() == p))
                .map(|c| v.colours[c])
                .collect();
            let mut s = names.join("+");
            if v.seats.iter().any(|s| matches!(s, ColourSeat::Rotating(_))) {
                s.push_str(" (+green in turn)");
            }
            s
        })
        .collect();
    VariantSummary {
        id: v.id.as_str(),
        name: v.game_name,
        description: v.description,
        board: v.board.describe(),
        grid: v.geometry().kind(),
        colours: v.colours.clone(),
        players: v.players,
        seat_names,
        piece_set: v.piece_set.name(),
        alternate_contact: v.has_alternate_contact(),
        pie: v.pie,
        teams: v.teams.clone(),
    }
}

/// Everything a board page needs about a variant.
pub fn detail(v: &Variant) -> VariantDetail {
    let g = v.geometry();
    let kind = g.kind();
    let cells = g
        .cells()
        .map(|c| {
            let (x, y) = g.xy(c);
            (x, y, u8::from(g.is_up(c)))
        })
        .collect();
    let names = g.cells().map(|c| g.cell_name(c)).collect();
    let (starts, per_colour) = match &v.start {
        StartRule::PerColour(cs) => (cs.iter().map(|&c| g.cell_name(c)).collect(), true),
        StartRule::Shared(cs) => (cs.iter().map(|&c| g.cell_name(c)).collect(), false),
        StartRule::Anywhere => (Vec::new(), false),
    };
    let colour_player = v
        .seats
        .iter()
        .map(|s| match s {
            ColourSeat::Player(p) if !v.pie => Some(*p),
            _ => None,
        })
        .collect();
    let pieces = v
        .table
        .pieces()
        .pieces
        .iter()
        .map(|p| PieceInfo::of(kind, p, p.count))
        .collect();
    let (width, height) = (g.width(), g.height());
    VariantDetail {
        summary: summary(v),
        width,
        height,
        cells,
        names,
        starts,
        starts_per_colour: per_colour,
        colour_player,
        pieces,
        shared_pool: v.shared_pool,
    }
}
