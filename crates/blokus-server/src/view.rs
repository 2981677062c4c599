//! The game state as clients see it (the `state` message and `GET /api/games/{id}`).

use blokus_core::notation::{format_move, move_cells, piece_name};
use blokus_core::score::{colour_scores, side_name, side_results, ColourScore};
use blokus_core::variant::Seat as ColourSeat;
use blokus_core::{Colour, PlayerId};
use blokus_core::{Game, GameEvent, PieChoice, RuleOptions, VariantId};
use serde::Serialize;

use crate::rematch::RematchView;
use crate::seats::{AiLevel, GameStatus, Seat, SeatKind};

/// The state of a game of either family: untagged, a 3D game's view says
/// `"family": "cube"`.
#[derive(Serialize)]
#[serde(untagged)]
pub enum AnyView {
    /// A flat game.
    Flat(GameView),
    /// A Blokus 3D game.
    Cube(crate::cube_view::CubeGameView),
}

/// The player who made event `n` (the player to move just before it).
pub fn event_player(game: &Game, n: usize) -> usize {
    game.position_at(n)
        .expect("event index within history")
        .player_to_move(game.rules())
        .index()
}

/// The colours each seat plays now, by name. The rotating Green of `classic_3` is listed
/// with the seat whose turn it is to play it next.
pub fn seat_colours(game: &Game, players: usize) -> Vec<Vec<&'static str>> {
    let rules = game.rules();
    let pos = game.position();
    let mut out = vec![Vec::new(); players];
    for c in Colour::all(rules.num_colours()) {
        let p = match rules.seat(c) {
            ColourSeat::Player(p) if !rules.v().pie => *p,
            _ => pos.player_of(rules, c),
        };
        if p.index() < players {
            out[p.index()].push(rules.colour_name(c));
        }
    }
    out
}

/// One event of the game as clients see it.
#[derive(Serialize)]
#[serde(untagged)]
pub enum EventView {
    /// A placement.
    Place {
        /// Colour index.
        colour: Colour,
        /// The player who placed it.
        player: usize,
        /// Covered cells.
        cells: Vec<String>,
        /// Piece name.
        piece: String,
        /// Colours passed after it.
        passes: Vec<Colour>,
    },
    /// The pie choice.
    Pie {
        /// The player who chose.
        player: usize,
        /// The choice.
        pie: PieChoice,
    },
    /// A player's time ran out.
    TimeOut {
        /// The player.
        player: usize,
        /// Always `true` (tells this event from the others).
        timeout: bool,
    },
}

/// A side's result line.
#[derive(Serialize)]
pub struct ResultView {
    /// Side index.
    pub side: usize,
    /// Side name.
    pub name: String,
    /// Score under the variant's result rule.
    pub score: i32,
    /// Junior tie-break.
    pub tiebreak: i32,
    /// 1-based place.
    pub place: usize,
}

/// A seat as clients see it.
#[derive(Serialize)]
pub struct SeatView {
    /// Seat index.
    pub seat: usize,
    /// Who sits here.
    pub kind: SeatKind,
    /// AI level (`null` for people).
    pub level: Option<AiLevel>,
    /// Whether a person holds the seat.
    pub claimed: bool,
    /// Kept for one person (a rematch's opponent): not open to others.
    pub reserved: bool,
    /// The display name its player chose (`null` if none).
    pub name: Option<String>,
    /// Colours the seat plays now.
    pub colours: Vec<&'static str>,
    /// Whether the seat is played right now (AI always; people with a connection).
    pub connected: bool,
}

/// The state of a game shared by every client: the `state` message without the
/// per-connection fields and the legal moves (see [`crate::protocol::StateMsg`]).
#[derive(Serialize)]
pub struct GameView {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: VariantId,
    /// Rule options.
    pub options: RuleOptions,
    /// Lobby status.
    pub status: GameStatus,
    /// Events so far.
    pub ply: usize,
    /// Whether the game is over.
    pub over: bool,
    /// Colour to move (`null` when over).
    pub to_move: Option<Colour>,
    /// Player to move (`null` when over).
    pub player_to_move: Option<PlayerId>,
    /// Whether the pie choice is due.
    pub awaiting_pie: bool,
    /// Per cell: owning colour or -1.
    pub owners: Vec<i8>,
    /// Every event.
    pub moves: Vec<EventView>,
    /// Attach points of the colour to move.
    pub attach: Vec<String>,
    /// Per colour, per piece: copies left.
    pub remaining: Vec<Vec<u8>>,
    /// Score breakdown per colour.
    pub scores: Vec<ColourScore>,
    /// Result per side.
    pub results: Vec<ResultView>,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// The clocks of a timed game (absent for untimed games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<crate::clock::ClockView>,
    /// Connections watching without a seat.
    pub spectators: usize,
    /// The rematch, once a player asked for one.
    pub rematch: Option<RematchView>,
    /// The tournament table the game is played at, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentTable>,
    /// Whether the game is rated (no undo, no hints; see `docs/accounts.md`).
    pub rated: bool,
}

/// Where a tournament game is played: the event, round and table.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentTable {
    /// The tournament's id.
    pub id: String,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
}

/// What the room knows beyond the game and its seats.
pub struct RoomFacts<'a> {
    /// Per seat: whether it is played right now.
    pub connected: &'a [bool],
    /// Connections without a seat.
    pub spectators: usize,
    /// The rematch, if any.
    pub rematch: Option<RematchView>,
    /// Whether the game is rated (no undo, no hints; see `docs/accounts.md`).
    pub rated: bool,
}

/// The shared state of a game (see [`GameView`]).
pub fn state(id: &str, game: &Game, seats: &[Seat], facts: RoomFacts<'_>) -> GameView {
    let connected = facts.connected;
    let rules = game.rules();
    let table = rules.table();
    let g = table.geometry();
    let pos = game.position();
    let over = game.is_over();
    let owners: Vec<i8> = g
        .cells()
        .map(|c| pos.owner(c).map_or(-1, |o| o.0 as i8))
        .collect();
    let moves = game
        .events()
        .iter()
        .enumerate()
        .map(|(n, e)| {
            let player = event_player(game, n);
            match *e {
                GameEvent::Place { colour, mv } => EventView::Place {
                    colour,
                    player,
                    cells: move_cells(table, mv),
                    piece: piece_name(table, mv).to_string(),
                    passes: game.passes_after(n),
                },
                GameEvent::Pie(pie) => EventView::Pie { player, pie },
                GameEvent::TimeOut { player } => EventView::TimeOut {
                    player: player.index(),
                    timeout: true,
                },
            }
        })
        .collect();
    let pie = pos.awaiting_pie_choice();
    let to_move = (!over).then(|| pos.to_move());
    let attach: Vec<String> = match to_move {
        Some(c) if !pie => pos
            .attach_points(rules, c)
            .iter()
            .map(|c| g.cell_name(c))
            .collect(),
        _ => Vec::new(),
    };
    let npieces = table.pieces().pieces.len();
    let remaining: Vec<Vec<u8>> = (0..rules.num_colours())
        .map(|c| {
            (0..npieces)
                .map(|p| pos.remaining(rules, Colour::new(c), p))
                .collect()
        })
        .collect();
    let results = side_results(rules, pos)
        .into_iter()
        .map(|r| ResultView {
            side: r.side.index(),
            name: side_name(rules, r.side),
            score: r.score,
            tiebreak: r.tiebreak,
            place: r.place,
        })
        .collect();
    let colours = seat_colours(game, seats.len());
    let seats_view = seats
        .iter()
        .zip(colours)
        .enumerate()
        .map(|(i, (s, colours))| SeatView {
            seat: i,
            kind: s.kind,
            level: s.level,
            claimed: s.claimed,
            reserved: s.reserved,
            name: s.name.as_ref().map(|n| n.to_string()),
            colours,
            connected: connected.get(i).copied().unwrap_or(false),
        })
        .collect();
    GameView {
        id: id.to_string(),
        variant: rules.v().id,
        options: rules.options,
        status: GameStatus::of(over, seats),
        ply: game.events().len(),
        over,
        to_move,
        player_to_move: (!over).then(|| pos.player_to_move(rules)),
        awaiting_pie: pie && !over,
        owners,
        moves,
        attach,
        remaining,
        scores: colour_scores(rules, pos),
        results,
        seats: seats_view,
        clock: None,
        spectators: facts.spectators,
        rematch: facts.rematch,
        tournament: None,
        rated: facts.rated,
    }
}

/// The legal placements of the colour to move, each as its cells in canonical order
/// joined by commas (the spelling of move text), and the sorted indices of the pieces
/// that have at least one of them.
pub fn legal_moves(game: &Game) -> (Vec<String>, Vec<usize>) {
    let table = game.rules().table();
    let moves = game.legal_moves();
    let mut pieces: Vec<usize> = moves
        .iter()
        .map(|&m| table.info(m).piece as usize)
        .collect();
    pieces.sort_unstable();
    pieces.dedup();
    let texts = moves.into_iter().map(|m| format_move(table, m)).collect();
    (texts, pieces)
}
