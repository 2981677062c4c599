//! The state of a Blokus 3D game as clients see it (the `state` message of a 3D game):
//! the site, the cubes placed, the stones, scores by the top view and the seats.

use blokus_core::cube::notation::move_cubes;
use blokus_core::cube::score::{colour_scores, results, CubeColourScore};
use blokus_core::cube::{CubeGame, CubeVariantId, Stone};
use blokus_core::{Colour, PlayerId};
use serde::Serialize;

use crate::rematch::RematchView;
use crate::seats::{GameStatus, Seat};
use crate::view::{ResultView, RoomFacts, SeatView};

/// The site of a game.
#[derive(Serialize)]
pub struct SiteView {
    /// Site name.
    pub name: String,
    /// Columns (`a`, `b`, ...: x).
    pub width: usize,
    /// Rows (`1`, `2`, ... from the south: y).
    pub depth: usize,
    /// Levels of this game (the height limit for its number of players).
    pub height: usize,
    /// The base squares as [x, y].
    pub squares: Vec<[usize; 2]>,
}

/// A stone of the set, in its base orientation.
#[derive(Serialize)]
pub struct StoneView {
    /// Name (`I2`, `V3`, ..., `SR4`).
    pub name: &'static str,
    /// Its cubes as [x, y, z].
    pub cubes: Vec<[i8; 3]>,
}

/// One placement of the game.
#[derive(Serialize)]
pub struct CubeEventView {
    /// The colour (its index in JSON).
    pub colour: Colour,
    /// The player who placed it.
    pub player: PlayerId,
    /// Cubes, as `c4.2` (column, row, `.`, level).
    pub cubes: Vec<String>,
    /// Stone name.
    pub stone: &'static str,
    /// Colours that went out (could not place) right after it.
    pub passes: Vec<Colour>,
}

/// The shared state of a Blokus 3D game: the `state` message without the
/// per-connection fields and the legal moves.
#[derive(Serialize)]
pub struct CubeGameView {
    /// Game id.
    pub id: String,
    /// Variant id (`rumis_2`).
    pub variant: &'static str,
    /// Always `cube`: tells the pages which view to use.
    pub family: &'static str,
    /// The site.
    pub site: SiteView,
    /// Colour names in turn order.
    pub colours: Vec<&'static str>,
    /// Lobby status.
    pub status: GameStatus,
    /// Placements so far.
    pub ply: usize,
    /// Whether the game is over.
    pub over: bool,
    /// Colour to move (`null` when over).
    pub to_move: Option<Colour>,
    /// Player to move (`null` when over).
    pub player_to_move: Option<PlayerId>,
    /// Every filled voxel as [x, y, z, colour].
    pub cubes: Vec<[usize; 4]>,
    /// Every placement.
    pub moves: Vec<CubeEventView>,
    /// The stones, indexed as in `remaining`.
    pub stones: Vec<StoneView>,
    /// Per colour, per stone: 1 if not placed yet.
    pub remaining: Vec<Vec<u8>>,
    /// Per colour: whether it is out (places no more stones).
    pub out: Vec<bool>,
    /// Score breakdown per colour (squares on top, stones left, points).
    pub scores: Vec<CubeColourScore>,
    /// Result per player.
    pub results: Vec<ResultView>,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// Connections watching without a seat.
    pub spectators: usize,
    /// The rematch, once a player asked for one.
    pub rematch: Option<RematchView>,
    /// Whether the game is rated (no undo, no hints; see `docs/accounts.md`).
    pub rated: bool,
}

/// The shared state of a 3D game (see [`CubeGameView`]).
pub fn state(id: &str, game: &CubeGame, seats: &[Seat], facts: RoomFacts<'_>) -> CubeGameView {
    let connected = facts.connected;
    let rules = game.rules();
    let t = rules.table();
    let site = rules.site();
    let pos = game.position();
    let over = game.is_over();
    let seating = rules.seating();
    let colours: Vec<&'static str> = Colour::all(rules.num_colours())
        .map(|c| rules.colour_name(c))
        .collect();
    let squares = (0..t.depth())
        .flat_map(|y| (0..t.width()).map(move |x| [x, y]))
        .filter(|&[x, y]| site.is_base(x, y))
        .collect();
    let cubes = pos
        .occupied()
        .iter()
        .filter_map(|v| {
            let (x, y, z) = t.coords(v);
            Some([x, y, z, pos.owner(v)?.index()])
        })
        .collect();
    let moves = game
        .moves()
        .iter()
        .enumerate()
        .map(|(n, &(colour, m))| CubeEventView {
            colour,
            player: seating.player_of(colour),
            cubes: move_cubes(t, m),
            stone: t.get(m).stone().name(),
            passes: game.outs_after(n),
        })
        .collect();
    let stones = Stone::ALL
        .iter()
        .map(|s| StoneView {
            name: s.name(),
            cubes: s.shape().to_vec(),
        })
        .collect();
    let remaining = Colour::all(rules.num_colours())
        .map(|c| {
            Stone::ALL
                .iter()
                .map(|&s| u8::from(pos.has_stone(c, s)))
                .collect()
        })
        .collect();
    let seat_colours = |p: PlayerId| -> Vec<&'static str> {
        Colour::all(rules.num_colours())
            .filter(|&c| seating.player_of(c) == p)
            .map(|c| rules.colour_name(c))
            .collect()
    };
    let results = results(rules, pos)
        .into_iter()
        .map(|r| ResultView {
            side: r.player.index(),
            name: seat_colours(r.player).join("+"),
            score: r.score,
            tiebreak: 0,
            place: r.place,
        })
        .collect();
    let seats_view = seats
        .iter()
        .enumerate()
        .map(|(i, s)| SeatView {
            seat: i,
            kind: s.kind,
            level: s.level,
            claimed: s.claimed,
            reserved: s.reserved,
            name: s.name.as_ref().map(|n| n.to_string()),
            colours: seat_colours(PlayerId::new(i)),
            connected: connected.get(i).copied().unwrap_or(false),
        })
        .collect();
    let to_move = (!over).then(|| game.to_move());
    CubeGameView {
        id: id.to_string(),
        variant: CubeVariantId::of_seating(seating).as_str(),
        family: "cube",
        site: SiteView {
            name: site.name().to_string(),
            width: t.width(),
            depth: t.depth(),
            height: t.height(),
            squares,
        },
        colours,
        status: GameStatus::of(over, seats),
        ply: game.moves().len(),
        over,
        to_move,
        player_to_move: to_move.map(|c| seating.player_of(c)),
        cubes,
        moves,
        stones,
        remaining,
        out: Colour::all(rules.num_colours())
            .map(|c| pos.is_out(c))
            .collect(),
        scores: colour_scores(rules, pos),
        results,
        seats: seats_view,
        spectators: facts.spectators,
        rematch: facts.rematch,
        rated: facts.rated,
    }
}

/// The legal placements of the colour to move, each as its cubes in canonical order
/// joined by commas (`a1.1,b1.1`), and the sorted indices of the stones having one.
pub fn legal_moves(game: &CubeGame) -> (Vec<String>, Vec<usize>) {
    let t = game.rules().table();
    let moves = game.legal_moves();
    let mut stones: Vec<usize> = moves.iter().map(|&m| t.get(m).stone().index()).collect();
    stones.sort_unstable();
    stones.dedup();
    let texts = moves
        .into_iter()
        .map(|m| blokus_core::cube::notation::format_move(t, m))
        .collect();
    (texts, stones)
}
