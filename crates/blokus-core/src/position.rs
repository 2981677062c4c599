//! The state of a game between moves, with incremental per-colour state, legality checks,
//! legal-move generation and turn order.
//!
//! A [`Position`] is a fixed-size `Clone` value (no heap data), so a playout can copy it
//! and play moves without allocating. It does not know its rules; every method takes the
//! [`Rules`] of its game.

use std::ops::ControlFlow;

use crate::bitset::CellSet;
use crate::geometry::Cell;
use crate::ids::{ByColour, Colour, PlayerId};
use crate::movetable::Move;
use crate::rules::Rules;
use crate::variant::{Seat, StartRule};

/// Most colours of any variant.
pub const MAX_COLOURS: usize = 4;
/// Most piece kinds of any set (Hexa).
pub const MAX_PIECES: usize = 56;
const NONE: u8 = u8::MAX;

/// The second player's choice after a Polyomino opening (SPEC 5, pie rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PieChoice {
    /// The second player takes Blue and moves next.
    Keep,
    /// The first player takes Blue (and moves next); the second plays Orange.
    Swap,
}

/// Why a placement is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game has ended.
    GameOver,
    /// The pie choice must be made before the next placement.
    AwaitingPieChoice,
    /// Another colour is to move.
    NotToMove {
        /// The colour to move.
        expected: Colour,
    },
    /// No piece of this kind is left.
    PieceUsed(String),
    /// A cell is already covered.
    Occupied(Cell),
    /// A cell touches a piece of the same colour along an edge.
    EdgeContact(Cell),
    /// No corner contact with the colour's pieces.
    NoCornerContact,
    /// A first piece must cover a starting point.
    NoStartingPoint,
    /// The first piece must be the point reflection of the partner's.
    NotMirrored,
    /// The cells are kept free for a partner colour's mirrored opening.
    Reserved(Cell),
    /// The starting point is next to one already used (starting points alternate).
    StartNotAlternating,
    /// The alternate contact rule forbids a straight side at a shared lattice point.
    SideContact,
    /// The two opening pieces must have different shapes.
    SameOpeningShape,
}

/// Naming cells needs the board; this type pairs an [`Illegal`] with its rules.
pub struct IllegalDisplay<'a>(pub &'a Illegal, pub &'a Rules);

impl std::fmt::Display for IllegalDisplay<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.1.table().geometry();
        match self.0 {
            Illegal::GameOver => write!(f, "the game is over"),
            Illegal::AwaitingPieChoice => write!(f, "the second player must first choose a colour (pie rule)"),
            Illegal::NotToMove { expected } => write!(f, "it is {}'s turn", self.1.colour_name(*expected)),
            Illegal::PieceUsed(p) => write!(f, "piece {p} has already been placed"),
            Illegal::Occupied(c) => write!(f, "cell {} is already covered", g.cell_name(*c)),
            Illegal::EdgeContact(c) => write!(f, "cell {} touches a piece of the same colour along an edge", g.cell_name(*c)),
            Illegal::NoCornerContact => write!(f, "the piece must touch a piece of the same colour at a corner"),
            Illegal::NoStartingPoint => write!(f, "the first piece must cover a starting point"),
            Illegal::NotMirrored => write!(f, "the first piece must be the point reflection of the partner colour's first piece"),
            Illegal::Reserved(c) => write!(f, "cell {} is kept free for a mirrored opening", g.cell_name(*c)),
            Illegal::StartNotAlternating => write!(f, "starting points must alternate: leave a free one between used ones"),
            Illegal::SideContact => write!(f, "the alternate contact rule forbids a corner touching the side of a piece of the same colour"),
            Illegal::SameOpeningShape => write!(f, "the two opening pieces must have different shapes"),
        }
    }
}

/// The state of a game.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    occupied: CellSet,
    colour_cells: ByColour<CellSet, MAX_COLOURS>,
    forbidden: ByColour<CellSet, MAX_COLOURS>,
    corners: ByColour<CellSet, MAX_COLOURS>,
    touched_points: ByColour<CellSet, MAX_COLOURS>,
    straight_points: ByColour<CellSet, MAX_COLOURS>,
    remaining: [[u8; MAX_PIECES]; MAX_COLOURS],
    placed: ByColour<u8, MAX_COLOURS>,
    cells_placed: ByColour<u16, MAX_COLOURS>,
    last_piece: ByColour<u8, MAX_COLOURS>,
    first_move: ByColour<Option<Move>, MAX_COLOURS>,
    start_used: ByColour<u8, MAX_COLOURS>,
    to_move: u8,
    over: bool,
    awaiting_pie: bool,
    pie: Option<PieChoice>,
    moves_played: u16,
    /// Players whose time ran out, one bit each (see [`Position::time_out`]).
    timed_out: u8,
}

impl Position {
    /// The starting position of a game.
    pub fn new(rules: &Rules) -> Position {
        let set = rules.table().pieces();
        let mut full = [0u8; MAX_PIECES];
        for (i, p) in set.pieces.iter().enumerate() {
            full[i] = p.count;
        }
        let mut remaining = [[0u8; MAX_PIECES]; MAX_COLOURS];
        for c in Colour::all(rules.num_colours()) {
            remaining[rules.pool(c)] = full;
        }
        Position {
            occupied: CellSet::EMPTY,
            colour_cells: ByColour([CellSet::EMPTY; MAX_COLOURS]),
            forbidden: ByColour([CellSet::EMPTY; MAX_COLOURS]),
            corners: ByColour([CellSet::EMPTY; MAX_COLOURS]),
            touched_points: ByColour([CellSet::EMPTY; MAX_COLOURS]),
            straight_points: ByColour([CellSet::EMPTY; MAX_COLOURS]),
            remaining,
            placed: ByColour([0; MAX_COLOURS]),
            cells_placed: ByColour([0; MAX_COLOURS]),
            last_piece: ByColour([NONE; MAX_COLOURS]),
            first_move: ByColour([None; MAX_COLOURS]),
            start_used: ByColour([NONE; MAX_COLOURS]),
            to_move: 0,
            over: false,
            awaiting_pie: false,
            pie: None,
            moves_played: 0,
            timed_out: 0,
        }
    }

    // ----- queries -----

    /// The colour to move.
    #[inline]
    pub fn to_move(&self) -> Colour {
        Colour(self.to_move)
    }

    /// Whether the game has ended (no colour can place a piece).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether the Polyomino opening is complete and the pie choice is pending.
    #[inline]
    pub fn awaiting_pie_choice(&self) -> bool {
        self.awaiting_pie
    }

    /// The pie choice, once made.
    pub fn pie_choice(&self) -> Option<PieChoice> {
        self.pie
    }

    /// Number of placements made so far.
    pub fn moves_played(&self) -> usize {
        self.moves_played as usize
    }

    /// Every covered cell.
    pub fn occupied(&self) -> &CellSet {
        &self.occupied
    }

    /// The cells of one colour.
    pub fn colour_cells(&self, colour: Colour) -> &CellSet {
        &self.colour_cells[colour]
    }

    /// The colour covering a cell.
    pub fn owner(&self, cell: Cell) -> Option<Colour> {
        if !self.occupied.contains(cell) {
            return None;
        }
        Colour::all(MAX_COLOURS).find(|&c| self.colour_cells[c].contains(cell))
    }

    /// Cells where this colour may not play (covered, or edge-adjacent to its pieces).
    pub fn forbidden(&self, colour: Colour) -> &CellSet {
        &self.forbidden[colour]
    }

    /// The colour's attach points: free cells touching its pieces at a corner only.
    /// Before its first piece, its usable starting cells.
    pub fn attach_points(&self, rules: &Rules, colour: Colour) -> CellSet {
        if self.placed[colour] > 0 {
            self.corners[colour].difference(&self.forbidden[colour])
        } else {
            self.start_cells(rules, colour)
        }
    }

    /// Copies of a piece left for a colour.
    #[inline]
    pub fn remaining(&self, rules: &Rules, colour: Colour, piece: usize) -> u8 {
        self.remaining[rules.pool(colour)][piece]
    }

    /// Copies left of every piece for a colour, by piece index (entries past the set's
    /// pieces are 0).
    #[inline]
    pub fn remaining_pieces(&self, rules: &Rules, colour: Colour) -> &[u8; MAX_PIECES] {
        &self.remaining[rules.pool(colour)]
    }

    /// Pieces placed by a colour.
    pub fn pieces_placed(&self, colour: Colour) -> usize {
        self.placed[colour] as usize
    }

    /// Cells covered by a colour.
    pub fn cells_placed(&self, colour: Colour) -> usize {
        self.cells_placed[colour] as usize
    }

    /// The colour's first placement.
    pub fn first_move(&self, colour: Colour) -> Option<Move> {
        self.first_move[colour]
    }

    /// The piece a colour placed last.
    pub fn last_piece(&self, colour: Colour) -> Option<usize> {
        (self.last_piece[colour] != NONE).then_some(self.last_piece[colour] as usize)
    }

    /// Cells of a colour's unplaced pieces (its own pool; the shared pool in Hexa).
    pub fn cells_remaining(&self, rules: &Rules, colour: Colour) -> usize {
        let set = rules.table().pieces();
        set.pieces
            .iter()
            .enumerate()
            .map(|(i, p)| p.size * self.remaining(rules, colour, i) as usize)
            .sum()
    }

    /// Whether the colour has placed all its pieces.
    pub fn all_placed(&self, rules: &Rules, colour: Colour) -> bool {
        let n = rules.table().pieces().pieces.len();
        self.remaining[rules.pool(colour)][..n]
            .iter()
            .all(|&r| r == 0)
    }

    /// The player who makes the colour's next placement.
    pub fn player_of(&self, rules: &Rules, colour: Colour) -> PlayerId {
        let v = rules.v();
        if v.pie {
            // The first player makes the whole opening; afterwards the pie choice decides.
            return PlayerId::new(match self.pie {
                None => 0,
                Some(PieChoice::Swap) => colour.index(),
                Some(PieChoice::Keep) => 1 - colour.index(),
            });
        }
        match &v.seats[colour.index()] {
            Seat::Player(p) => *p,
            Seat::Rotating(players) => players[self.placed[colour] as usize % players.len()],
        }
    }

    /// The player to move (the chooser while the pie choice is pending).
    pub fn player_to_move(&self, rules: &Rules) -> PlayerId {
        if self.awaiting_pie {
            PlayerId(1)
        } else {
            self.player_of(rules, self.to_move())
        }
    }

    // ----- starting rules -----

    /// Starting cells a colour's first piece may cover now (empty for `Anywhere`).
    fn start_cells(&self, rules: &Rules, colour: Colour) -> CellSet {
        let mut out = CellSet::EMPTY;
        match rules.start() {
            StartRule::PerColour(cells) => out.insert(cells[colour.index()]),
            StartRule::Shared(cells) => {
                for (i, &c) in cells.iter().enumerate() {
                    if self.start_allowed(rules, i) {
                        out.insert(c);
                    }
                }
            }
            StartRule::Anywhere => {}
        }
        out.difference(&self.occupied)
    }

    /// Whether shared starting point `i` may be used, under the alternation rule.
    fn start_allowed(&self, rules: &Rules, i: usize) -> bool {
        if !rules.start_alternation() {
            return true;
        }
        let n = match rules.start() {
            StartRule::Shared(c) => c.len(),
            _ => return true,
        };
        self.start_used.0[..rules.num_colours()]
            .iter()
            .filter(|&&u| u != NONE)
            .all(|&u| ((i + n - u as usize) % n).is_multiple_of(2) && i != u as usize)
    }

    /// The move a mirror follower must play first, if the rule applies to this colour.
    fn mirror_target(&self, rules: &Rules, colour: Colour) -> Option<Option<Move>> {
        self.mirror_leader_move(rules, colour)
            .map(|lead| reflect_move(rules, lead))
    }

    /// The only first move the mirror-opening rule leaves `colour` (legal or not), once
    /// its leader has played; `None` when the rule does not constrain it.
    pub fn mirrored_first_move(&self, rules: &Rules, colour: Colour) -> Option<Move> {
        self.mirror_target(rules, colour).flatten()
    }

    /// The first move of the colour whose reflection `colour`'s first move must be, once
    /// that leader has played.
    fn mirror_leader_move(&self, rules: &Rules, colour: Colour) -> Option<Move> {
        if !rules.mirror_opening() || self.placed[colour] > 0 {
            return None;
        }
        let &(leader, _) = rules.v().mirror_pairs.iter().find(|&&(_, f)| f == colour)?;
        self.first_move[leader]
    }

    /// Cells kept free for mirror followers other than `colour`.
    fn reserved(&self, rules: &Rules, colour: Colour) -> CellSet {
        let mut out = CellSet::EMPTY;
        if !rules.mirror_opening() {
            return out;
        }
        for &(leader, follower) in &rules.v().mirror_pairs {
            if follower == colour || self.placed[follower] > 0 {
                continue;
            }
            if let Some(m) = self.first_move[leader] {
                for &c in rules.table().info(m).cells() {
                    if let Some(r) = rules.table().geometry().reflect(c) {
                        out.insert(r);
                    }
                }
            }
        }
        out
    }

    // ----- legality -----

    /// Checks a placement by `colour`, ignoring whose turn it is.
    ///
    /// # Errors
    /// The first rule the placement breaks.
    pub fn check_placement(&self, rules: &Rules, colour: Colour, m: Move) -> Result<(), Illegal> {
        let t = rules.table();
        let info = t.info(m);
        if self.remaining(rules, colour, info.piece as usize) == 0 {
            return Err(Illegal::PieceUsed(
                t.pieces().pieces[info.piece as usize].name.clone(),
            ));
        }
        for &c in info.cells() {
            if self.occupied.contains(c) {
                return Err(Illegal::Occupied(c));
            }
        }
        for &c in info.cells() {
            if self.forbidden[colour].contains(c) {
                return Err(Illegal::EdgeContact(c));
            }
        }
        if rules.mirror_opening() {
            let reserved = self.reserved(rules, colour);
            if let Some(&c) = info.cells().iter().find(|&&c| reserved.contains(c)) {
                return Err(Illegal::Reserved(c));
            }
        }
        if self.placed[colour] > 0 {
            if !t.cell_set(m).intersects(&self.corners[colour]) {
                return Err(Illegal::NoCornerContact);
            }
            if rules.alternate_contact() && !self.alternate_contact_ok(rules, colour, m) {
                return Err(Illegal::SideContact);
            }
            return Ok(());
        }
        if let Some(lead) = self.mirror_leader_move(rules, colour) {
            return if is_reflection(rules, lead, m) {
                Ok(())
            } else {
                Err(Illegal::NotMirrored)
            };
        }
        match rules.start() {
            StartRule::Anywhere => {
                if rules.v().pie {
                    let other = self.first_move[colour.other_of_two()];
                    if other.is_some_and(|o| t.info(o).piece == info.piece) && self.pie.is_none() {
                        return Err(Illegal::SameOpeningShape);
                    }
                }
                Ok(())
            }
            StartRule::PerColour(_) | StartRule::Shared(_) => {
                if t.cell_set(m).intersects(&self.start_cells(rules, colour)) {
                    Ok(())
                } else if matches!(rules.start(), StartRule::Shared(_))
                    && rules.start_alternation()
                    && t.cell_set(m).intersects(&self.all_start_cells(rules))
                {
                    Err(Illegal::StartNotAlternating)
                } else {
                    Err(Illegal::NoStartingPoint)
                }
            }
        }
    }

    fn all_start_cells(&self, rules: &Rules) -> CellSet {
        match rules.start() {
            StartRule::PerColour(c) | StartRule::Shared(c) => c.iter().copied().collect(),
            StartRule::Anywhere => CellSet::EMPTY,
        }
    }

    /// Checks a placement by the colour to move.
    ///
    /// # Errors
    /// Why the move is illegal now.
    pub fn check(&self, rules: &Rules, colour: Colour, m: Move) -> Result<(), Illegal> {
        if self.over {
            return Err(Illegal::GameOver);
        }
        if self.awaiting_pie {
            return Err(Illegal::AwaitingPieChoice);
        }
        if colour != self.to_move() {
            return Err(Illegal::NotToMove {
                expected: self.to_move(),
            });
        }
        self.check_placement(rules, colour, m)
    }

    /// Whether `colour` may place `m` (ignoring whose turn it is).
    #[inline]
    pub fn is_legal(&self, rules: &Rules, colour: Colour, m: Move) -> bool {
        // The common failures first, without building an error (`PieceUsed` allocates):
        // forbidden cells include every occupied cell.
        let info = rules.table().info(m);
        self.remaining(rules, colour, info.piece as usize) > 0
            && !info.hits(&self.forbidden[colour])
            && self.check_placement(rules, colour, m).is_ok()
    }

    #[inline]
    fn alternate_contact_ok(&self, rules: &Rules, colour: Colour, m: Move) -> bool {
        let t = rules.table();
        t.straight_points(m)
            .iter()
            .all(|&p| !self.touched_points[colour].contains(Cell::new(p as usize)))
            && t.touched_points(m)
                .iter()
                .all(|&p| !self.straight_points[colour].contains(Cell::new(p as usize)))
    }

    // ----- move generation -----

    /// Calls `f` once for every legal placement of `colour`, stopping early when `f`
    /// breaks. Allocates nothing.
    pub fn for_each_legal<B>(
        &self,
        rules: &Rules,
        colour: Colour,
        mut f: impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.over {
            return ControlFlow::Continue(());
        }
        let t = rules.table();
        let pool = rules.pool(colour);
        let npieces = t.pieces().pieces.len();
        let forbidden = &self.forbidden[colour];
        if self.placed[colour] == 0 {
            return self.for_each_first_move(rules, colour, f);
        }
        let attach = self.corners[colour].difference(forbidden);
        let alt = rules.alternate_contact();
        let reserved = self.reserved(rules, colour);
        let check_reserved = !reserved.is_empty();
        for p in attach.iter() {
            let status = t.edge_status(p, forbidden);
            for piece in 0..npieces {
                if self.remaining[pool][piece] == 0 {
                    continue;
                }
                'moves: for &m in t.moves_at_status(p, piece, status) {
                    let info = t.info(m);
                    if info.hits(forbidden) {
                        continue;
                    }
                    for &c in info.cells() {
                        // Each move is reported once: at its lowest attach point.
                        if c >= p {
                            break;
                        }
                        if attach.contains(c) {
                            continue 'moves;
                        }
                    }
                    if check_reserved && t.cell_set(m).intersects(&reserved) {
                        continue;
                    }
                    if alt && !self.alternate_contact_ok(rules, colour, m) {
                        continue;
                    }
                    f(m)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn for_each_first_move<B>(
        &self,
        rules: &Rules,
        colour: Colour,
        mut f: impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let t = rules.table();
        if let Some(target) = self.mirror_target(rules, colour) {
            if let Some(m) = target {
                if self.check_placement(rules, colour, m).is_ok() {
                    f(m)?;
                }
            }
            return ControlFlow::Continue(());
        }
        let pool = rules.pool(colour);
        let forbidden = &self.forbidden[colour];
        let reserved = self.reserved(rules, colour);
        if matches!(rules.start(), StartRule::Anywhere) {
            // The pie opening: anywhere, but the two opening pieces differ in shape.
            let other_piece = (rules.v().pie && self.pie.is_none())
                .then(|| self.first_move[colour.other_of_two()].map(|o| t.info(o).piece))
                .flatten();
            for m in t.all() {
                let info = t.info(m);
                if self.remaining[pool][info.piece as usize] == 0 || Some(info.piece) == other_piece
                {
                    continue;
                }
                if !info.hits(forbidden) && !info.hits(&reserved) {
                    f(m)?;
                }
            }
            return ControlFlow::Continue(());
        }
        let starts = self.start_cells(rules, colour);
        let npieces = t.pieces().pieces.len();
        for p in starts.iter() {
            for piece in 0..npieces {
                if self.remaining[pool][piece] == 0 {
                    continue;
                }
                for &m in t.moves_at(p, piece) {
                    let info = t.info(m);
                    // Each move is reported once: at the lowest starting cell it covers.
                    if info.hits(forbidden)
                        || info.hits(&reserved)
                        || info.cells().iter().any(|&c| c < p && starts.contains(c))
                    {
                        continue;
                    }
                    f(m)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Every legal placement of `colour`.
    pub fn legal_moves(&self, rules: &Rules, colour: Colour) -> Vec<Move> {
        let mut v = Vec::new();
        self.legal_moves_into(rules, colour, &mut v);
        v
    }

    /// Replaces the contents of `out` with every legal placement of `colour`, reusing
    /// its allocation (for hot loops such as playouts).
    pub fn legal_moves_into(&self, rules: &Rules, colour: Colour, out: &mut Vec<Move>) {
        out.clear();
        let _ = self.for_each_legal::<()>(rules, colour, |m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    /// Whether `colour` has any legal placement (stops at the first one found). A colour
    /// of a player whose time ran out has none: it passes for the rest of the game.
    pub fn has_legal_move(&self, rules: &Rules, colour: Colour) -> bool {
        if self.all_placed(rules, colour) || self.is_colour_out(rules, colour) {
            return false;
        }
        self.for_each_legal(rules, colour, |_| ControlFlow::Break(()))
            .is_break()
    }

    // ----- playing -----

    /// Places `m` for `colour` without any check or turn change (setup and trusted use).
    pub fn place(&mut self, rules: &Rules, colour: Colour, m: Move) {
        let t = rules.table();
        let info = t.info(m);
        let set = t.cell_set(m);
        self.occupied.union_with(set);
        self.colour_cells[colour].union_with(set);
        for c in Colour::all(rules.num_colours()) {
            self.forbidden[c].union_with(set);
        }
        for &e in t.edge_cells(m) {
            self.forbidden[colour].insert(e);
        }
        for &k in t.corner_cells(m) {
            self.corners[colour].insert(k);
        }
        if rules.alternate_contact() {
            for &p in t.touched_points(m) {
                self.touched_points[colour].insert(Cell::new(p as usize));
            }
            for &p in t.straight_points(m) {
                self.straight_points[colour].insert(Cell::new(p as usize));
            }
        }
        self.remaining[rules.pool(colour)][info.piece as usize] -= 1;
        if self.first_move[colour].is_none() {
            self.first_move[colour] = Some(m);
            if let StartRule::Shared(points) = rules.start() {
                if let Some(i) = points.iter().position(|&p| set.contains(p)) {
                    self.start_used[colour] = i as u8;
                }
            }
        }
        self.placed[colour] += 1;
        self.cells_placed[colour] += info.cells().len() as u16;
        self.last_piece[colour] = info.piece;
        self.moves_played += 1;
    }

    /// Plays `m` for the colour to move (trusted: see [`Position::check`]), then passes
    /// the turn to the next colour that can move, ending the game if none can.
    pub fn play(&mut self, rules: &Rules, m: Move) {
        let c = self.to_move();
        self.place(rules, c, m);
        if rules.v().pie
            && self.pie.is_none()
            && self.first_move[Colour(0)].is_some()
            && self.first_move[Colour(1)].is_some()
        {
            self.awaiting_pie = true;
            self.to_move = 0;
            return;
        }
        self.advance(rules);
    }

    /// Makes the pie choice; Blue moves next.
    ///
    /// # Errors
    /// If no pie choice is pending.
    pub fn choose_pie(&mut self, rules: &Rules, choice: PieChoice) -> Result<(), &'static str> {
        if !self.awaiting_pie {
            return Err("no pie choice is pending");
        }
        self.awaiting_pie = false;
        self.pie = Some(choice);
        self.to_move = (rules.num_colours() - 1) as u8;
        self.advance(rules);
        Ok(())
    }

    /// Sets the colour to move, then skips to the first one (from there) that can move.
    pub fn set_to_move(&mut self, rules: &Rules, colour: Colour) {
        self.over = false;
        self.to_move = ((colour.index() + rules.num_colours() - 1) % rules.num_colours()) as u8;
        self.advance(rules);
    }

    /// Hands the turn to the next colour with a legal move; ends the game if none has one.
    pub fn advance(&mut self, rules: &Rules) {
        let n = rules.num_colours();
        for k in 1..=n {
            let c = Colour::new((self.to_move as usize + k) % n);
            if self.has_legal_move(rules, c) {
                self.to_move = c.0;
                return;
            }
        }
        self.over = true;
    }

    /// Whether a move that was legal for `colour` earlier still is: its piece is left, no
    /// cell has become forbidden, and (under the alternate rule) no side contact arose.
    /// Only valid for moves known to have touched an attach point (playout lists).
    #[inline]
    pub fn still_legal(&self, rules: &Rules, colour: Colour, m: Move) -> bool {
        let t = rules.table();
        let info = t.info(m);
        self.remaining[rules.pool(colour)][info.piece as usize] > 0
            && !info.hits(&self.forbidden[colour])
            && (!rules.alternate_contact() || self.alternate_contact_ok(rules, colour, m))
    }

    /// Whether some cells are kept free for a mirrored opening that `colour` must avoid.
    pub fn has_reserved_cells(&self, rules: &Rules, colour: Colour) -> bool {
        rules.mirror_opening() && !self.reserved(rules, colour).is_empty()
    }

    /// Whether `player`'s time ran out.
    pub fn has_timed_out(&self, player: PlayerId) -> bool {
        player.index() < 8 && self.timed_out & (1 << player.index()) != 0
    }

    /// Whether any player's time ran out.
    pub fn any_timed_out(&self) -> bool {
        self.timed_out != 0
    }

    /// Whether `colour` passes for the rest of the game because a player who plays it
    /// ran out of time (with a shared colour, any of its players).
    pub fn is_colour_out(&self, rules: &Rules, colour: Colour) -> bool {
        if self.timed_out == 0 {
            return false;
        }
        match &rules.v().seats[colour.index()] {
            Seat::Player(_) if rules.v().pie => self.has_timed_out(self.player_of(rules, colour)),
            Seat::Player(p) => self.has_timed_out(*p),
            Seat::Rotating(players) => players.iter().any(|&p| self.has_timed_out(p)),
        }
    }

    /// `player`'s time ran out. With two players the game ends and that player loses
    /// (see [`crate::score::side_results`]); with more, the player's colours (and a
    /// colour shared with them) pass for the rest of the game, which ends when no other
    /// colour can move.
    pub fn time_out(&mut self, rules: &Rules, player: PlayerId) {
        self.timed_out |= 1 << player.index();
        if rules.v().players <= 2 {
            self.over = true;
            self.awaiting_pie = false;
        } else if !self.over && self.is_colour_out(rules, self.to_move()) {
            self.advance(rules);
        }
    }

    /// Marks the game as over (a playout that established no colour can move).
    pub fn finish(&mut self, _rules: &Rules) {
        self.over = true;
        self.awaiting_pie = false;
    }

    /// Marks the Polyomino opening as complete without a choice yet (record setup).
    pub fn set_awaiting_pie(&mut self, pending: bool) {
        self.awaiting_pie = pending;
    }
}

/// Whether `m` covers exactly the point reflections of `lead`'s cells (what
/// `reflect_move(rules, lead) == Some(m)` says, without a lookup).
fn is_reflection(rules: &Rules, lead: Move, m: Move) -> bool {
    let t = rules.table();
    let (a, b) = (t.info(lead).cells(), t.cell_set(m));
    a.len() == t.info(m).cells().len()
        && a.iter()
            .all(|&c| t.geometry().reflect(c).is_some_and(|r| b.contains(r)))
}

/// The point reflection of a move through the board centre, if it is a placement.
pub fn reflect_move(rules: &Rules, m: Move) -> Option<Move> {
    let t = rules.table();
    let cells: Option<Vec<Cell>> = t
        .info(m)
        .cells()
        .iter()
        .map(|&c| t.geometry().reflect(c))
        .collect();
    t.find(&cells?)
}
