//! Uniformly random playouts, fast.
//!
//! While most of its candidates are legal, a colour's move is drawn without listing its
//! legal moves. Let S be the pairs (p, m) where p is an attach point of the colour and m
//! one of the table's moves of an available piece covering p and avoiding p's forbidden
//! edge neighbours. A pair is drawn uniformly from S and kept if m is legal, with
//! probability 1/k where k is the number of attach points m covers. A legal move appears
//! in S exactly k times (it avoids every forbidden cell, so it is listed at each attach
//! point it covers), so every legal move is kept with the same probability: the draw is
//! uniform over the legal moves.
//!
//! Legal moves only get rarer as a game goes on. Once the draws for a colour miss too
//! often, it draws from its list of legal moves for the rest of the playout, kept up to
//! date incrementally ([`MoveLists`]: from the search's root, not generated again for
//! every playout). A colour with no legal move can never move again, which makes
//! automatic passes free. First moves are drawn by rejection from a fixed superset
//! (every move covering a starting point).

use rand::Rng;

use crate::bitset::CellSet;
use crate::geometry::GridKind;
use crate::ids::{ByColour, Colour};
use crate::movelists::MoveLists;
use crate::movetable::Move;
use crate::position::{PieChoice, Position, MAX_COLOURS};
use crate::rules::Rules;

/// Rejection draws of a first move before enumerating the legal ones exactly.
const TRIES: usize = 32;

/// Rejection tries per wanted draw after which a colour draws from its move list for
/// the rest of the playout, on square boards: keeping a list costs about as much as
/// that many tries (measured with `examples/sims_per_cpu` in Duo and Classic
/// two-player, at 4 to 32 tries).
const SWITCH_SQUARE: usize = 8;

/// The same on triangle boards, where each new attach point adds more moves to a list.
const SWITCH_TRIANGLE: usize = 24;

/// Reusable scratch space for random playouts of one variant. Allocates when built (and
/// when a buffer first grows); a playout itself does not allocate.
pub struct Playout {
    /// Attach points of the colour being drawn for, with their edge status.
    points: Vec<(crate::geometry::Cell, usize)>,
    /// Per attach point, the cumulative number of pairs up to and including it.
    cumulative: Vec<u32>,
    /// Per colour, whether it draws from its move list (else by rejection).
    listing: ByColour<bool, MAX_COLOURS>,
    /// Rejection tries per wanted draw after which a colour switches to its list.
    switch: usize,
    scratch: Vec<Move>,
    /// Every colour's legal moves, kept up to date along the playout.
    lists: MoveLists,
    /// Per colour, every move that could ever be its first (covers a starting point, or
    /// anything for `Anywhere`): a fixed superset to draw first moves from.
    first_candidates: ByColour<Vec<Move>, MAX_COLOURS>,
}

impl Playout {
    /// Scratch space for games under `rules`.
    pub fn new(rules: &Rules) -> Playout {
        Playout {
            points: Vec::with_capacity(128),
            cumulative: Vec::with_capacity(128),
            listing: ByColour([false; MAX_COLOURS]),
            switch: match rules.table().geometry().kind() {
                GridKind::Square => SWITCH_SQUARE,
                GridKind::Triangle => SWITCH_TRIANGLE,
            },
            scratch: Vec::with_capacity(4096),
            lists: MoveLists::new(),
            first_candidates: ByColour(std::array::from_fn(|c| {
                first_candidates(rules, Colour::new(c))
            })),
        }
    }

    /// Plays uniformly random legal moves (and random pie choices) from `pos` to the end
    /// of the game. Returns the number of placements made.
    pub fn run(&mut self, rules: &Rules, pos: &mut Position, rng: &mut impl Rng) -> usize {
        self.run_biased(rules, pos, rng, 1, |_| 0, |_, _| {})
    }

    /// Plays `pos` to the end of the game, each move the best by `key` of `draws`
    /// uniform legal draws (see [`Playout::draw_best`]), pie choices at random;
    /// `on_move(colour, move)` sees every placement before it is made. Returns the
    /// number of placements made.
    pub fn run_biased<R: Rng>(
        &mut self,
        rules: &Rules,
        pos: &mut Position,
        rng: &mut R,
        draws: usize,
        key: impl Fn(Move) -> u32,
        on_move: impl FnMut(Colour, Move),
    ) -> usize {
        /// Best-of-`draws` uniform draws, reporting each placement.
        struct Biased<'a, K, F> {
            playout: &'a mut Playout,
            draws: usize,
            key: K,
            on_move: F,
        }
        impl<R: Rng, K: Fn(Move) -> u32, F: FnMut(Colour, Move)> PlayoutPolicy<R> for Biased<'_, K, F> {
            fn choose(
                &mut self,
                rules: &Rules,
                pos: &Position,
                colour: Colour,
                rng: &mut R,
            ) -> Option<Move> {
                self.playout
                    .draw_best(rules, pos, colour, rng, self.draws, &self.key)
            }
            fn placing(&mut self, colour: Colour, mv: Move) {
                (self.on_move)(colour, mv);
            }
        }
        self.begin(rules);
        let mut policy = Biased {
            playout: self,
            draws,
            key,
            on_move,
        };
        play_out(rules, pos, rng, &mut policy)
    }

    /// Starts a new playout from any position: forgets the lists and their base.
    /// Between two `begin`s (or [`Playout::restart`]s) the positions given to
    /// [`Playout::draw`] may only move forward.
    pub fn begin(&mut self, _rules: &Rules) {
        self.lists.clear();
        self.listing = ByColour([false; MAX_COLOURS]);
    }

    /// Makes `pos` the base of the next playouts (the root of a tree search): every
    /// colour's legal moves are listed there once, and each [`Playout::restart`] starts
    /// from those lists.
    pub fn set_base(&mut self, rules: &Rules, pos: &Position) {
        self.lists.set_base(rules, pos);
    }

    /// Starts a new playout from the base (see [`Playout::set_base`]) or a position
    /// reached from it by placements; without a base, the same as [`Playout::begin`].
    pub fn restart(&mut self) {
        self.lists.restart();
        self.listing = ByColour([false; MAX_COLOURS]);
    }

    /// Every legal placement of `colour` in `pos` (ignoring whose turn it is), from the
    /// lists kept up to date: `pos` follows the same rule as for [`Playout::draw`].
    pub fn legal_moves(&mut self, rules: &Rules, pos: &Position, colour: Colour) -> &[Move] {
        self.lists.moves(rules, pos, colour)
    }

    /// A uniformly random legal move of `colour`, or `None` if it has none (then, as
    /// legal moves only ever disappear, it never will have one again in this game).
    pub fn draw(
        &mut self,
        rules: &Rules,
        pos: &Position,
        colour: Colour,
        rng: &mut impl Rng,
    ) -> Option<Move> {
        self.draw_best(rules, pos, colour, rng, 1, |_| 0)
    }

    /// Draws up to `draws` legal moves of `colour` uniformly (independently, sharing one
    /// set-up) and returns the one with the highest `key`, the earliest on ties: biased
    /// playouts on the same machinery. `None` if the colour has no legal move.
    pub fn draw_best(
        &mut self,
        rules: &Rules,
        pos: &Position,
        colour: Colour,
        rng: &mut impl Rng,
        draws: usize,
        key: impl Fn(Move) -> u32,
    ) -> Option<Move> {
        let draws = draws.max(1);
        let mut best = Best::new(draws, key);
        if pos.pieces_placed(colour) == 0 {
            if let Some(m) = pos.mirrored_first_move(rules, colour) {
                // The mirror-opening rule leaves one move at most.
                return pos.is_legal(rules, colour, m).then_some(m);
            }
            // Rejection sampling from a fixed superset stays uniform over the legal moves.
            let cands = &self.first_candidates[colour];
            for _ in 0..(TRIES * draws).min(cands.len()) {
                let m = cands[rng.gen_range(0..cands.len())];
                if pos.is_legal(rules, colour, m) && best.offer(m) {
                    break;
                }
            }
            if best.found() {
                return best.get();
            }
            pos.legal_moves_into(rules, colour, &mut self.scratch);
            return best.pick_from(&self.scratch, rng);
        }
        if self.listing[colour] || pos.has_reserved_cells(rules, colour) {
            return best.pick_from(self.lists.moves(rules, pos, colour), rng);
        }
        let t = rules.table();
        let forbidden = pos.forbidden(colour);
        let attach = pos.attach_points(rules, colour);
        self.points.clear();
        self.cumulative.clear();
        let mut total = 0u32;
        for p in attach.iter() {
            let status = t.edge_status(p, forbidden);
            total += t.moves_at_status_all(p, status).len() as u32;
            self.points.push((p, status));
            self.cumulative.push(total);
        }
        if total == 0 {
            return None;
        }
        let alt = rules.alternate_contact();
        let remaining = pos.remaining_pieces(rules, colour);
        let limit = self.switch * draws;
        let mut tries = 0;
        while tries < limit {
            tries += 1;
            let r = rng.gen_range(0..total);
            let i = self.cumulative.partition_point(|&c| c <= r);
            let (p, status) = self.points[i];
            let k = r - if i == 0 { 0 } else { self.cumulative[i - 1] };
            let m = t.moves_at_status_all(p, status)[k as usize];
            if remaining[t.piece_of(m)] == 0 {
                continue;
            }
            let info = t.info(m);
            if info.hits(forbidden) || (alt && !pos.still_legal(rules, colour, m)) {
                continue;
            }
            let multiplicity = info.cells().iter().filter(|&&c| attach.contains(c)).count() as u32;
            if (multiplicity == 1 || rng.gen_range(0..multiplicity) == 0) && best.offer(m) {
                break;
            }
        }
        if tries < limit {
            return best.get();
        }
        // Most draws miss now (legal moves only get rarer): the list, from here on.
        self.listing[colour] = true;
        let best = Best::new(draws, best.key);
        best.pick_from(self.lists.moves(rules, pos, colour), rng)
    }
}

/// How a playout chooses its moves: [`play_out`] runs the game loop (turns, passes,
/// colours already out, the pie choice) and asks the policy only for placements.
pub trait PlayoutPolicy<R: Rng> {
    /// The placement of `colour` (to move in `pos`), or `None` if it has no legal move;
    /// then, as legal moves only ever disappear, it is never asked again.
    fn choose(
        &mut self,
        rules: &Rules,
        pos: &Position,
        colour: Colour,
        rng: &mut R,
    ) -> Option<Move>;

    /// Sees every placement just before it is made.
    fn placing(&mut self, _colour: Colour, _mv: Move) {}

    /// Whether the playout may end here, its result being settled: asked each time a
    /// colour (`colour`) runs out of moves, with `out` marking every colour that has (the
    /// game is then finished as it stands, the other colours' remaining placements
    /// unmade).
    fn settled(
        &mut self,
        _rules: &Rules,
        _pos: &Position,
        _colour: Colour,
        _out: &ByColour<bool, MAX_COLOURS>,
    ) -> bool {
        false
    }
}

/// Plays `pos` to the end of the game with `policy`'s placements and random pie choices
/// (or until the policy finds the result [settled](PlayoutPolicy::settled)); colours
/// already out (their player ran out of time) never place. The turn bookkeeping
/// of `pos` is not kept up to date, only its placements (what scoring reads); it is
/// finished at the end. Returns the number of placements made.
pub fn play_out<R: Rng, P: PlayoutPolicy<R>>(
    rules: &Rules,
    pos: &mut Position,
    rng: &mut R,
    policy: &mut P,
) -> usize {
    let n = rules.num_colours();
    let mut dead = ByColour([false; MAX_COLOURS]);
    for c in Colour::all(n) {
        dead[c] = pos.is_colour_out(rules, c);
    }
    let mut placed = 0;
    let mut c = pos.to_move();
    let mut idle = 0;
    while !pos.is_over() && idle < n {
        if pos.awaiting_pie_choice() {
            let choice = if rng.gen_bool(0.5) {
                PieChoice::Keep
            } else {
                PieChoice::Swap
            };
            let _ = pos.choose_pie(rules, choice);
            c = pos.to_move();
            continue;
        }
        let mv = if dead[c] {
            None
        } else {
            policy.choose(rules, pos, c, rng)
        };
        match mv {
            Some(m) => {
                policy.placing(c, m);
                pos.place(rules, c, m);
                placed += 1;
                idle = 0;
                if rules.v().pie
                    && pos.pie_choice().is_none()
                    && pos.first_move(Colour(0)).is_some()
                    && pos.first_move(Colour(1)).is_some()
                {
                    pos.set_awaiting_pie(true);
                    continue;
                }
            }
            None => {
                dead[c] = true;
                idle += 1;
                if policy.settled(rules, pos, c, &dead) {
                    break;
                }
            }
        }
        c = c.next(n);
    }
    pos.finish(rules);
    placed
}

/// The best of a number of uniform draws by a key.
struct Best<K> {
    wanted: usize,
    seen: usize,
    best: Option<(Move, u32)>,
    key: K,
}

impl<K: Fn(Move) -> u32> Best<K> {
    fn new(wanted: usize, key: K) -> Best<K> {
        Best {
            wanted,
            seen: 0,
            best: None,
            key,
        }
    }

    /// Takes a legal draw; true when enough have been seen.
    fn offer(&mut self, m: Move) -> bool {
        self.seen += 1;
        if self.wanted == 1 {
            self.best = Some((m, 0));
            return true;
        }
        let k = (self.key)(m);
        if self.best.is_none_or(|(_, b)| k > b) {
            self.best = Some((m, k));
        }
        self.seen >= self.wanted
    }

    fn found(&self) -> bool {
        self.best.is_some()
    }

    fn get(&self) -> Option<Move> {
        self.best.map(|(m, _)| m)
    }

    /// The best of the wanted number of uniform draws from an exact list.
    fn pick_from(mut self, list: &[Move], rng: &mut impl Rng) -> Option<Move> {
        if list.is_empty() {
            return None;
        }
        for _ in 0..self.wanted {
            if self.offer(list[rng.gen_range(0..list.len())]) {
                break;
            }
        }
        self.get()
    }
}

/// Every move that covers one of `colour`'s possible starting cells (all moves when
/// openings go anywhere).
fn first_candidates(rules: &Rules, colour: Colour) -> Vec<Move> {
    if colour.index() >= rules.num_colours() {
        return Vec::new();
    }
    let t = rules.table();
    let starts: CellSet = match rules.start() {
        crate::variant::StartRule::PerColour(cells) => {
            std::iter::once(cells[colour.index()]).collect()
        }
        crate::variant::StartRule::Shared(cells) => cells.iter().copied().collect(),
        crate::variant::StartRule::Anywhere => return t.all().collect(),
    };
    t.all()
        .filter(|&m| t.cell_set(m).intersects(&starts))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::VariantId;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn playouts_end_games_legally_in_every_variant() {
        let mut rng = SmallRng::seed_from_u64(1);
        for id in VariantId::ALL.map(VariantId::as_str) {
            let rules = Rules::by_name(id).unwrap();
            let mut p = Playout::new(&rules);
            for _ in 0..3 {
                let mut pos = Position::new(&rules);
                let n = p.run(&rules, &mut pos, &mut rng);
                assert!(n > 0 && pos.is_over(), "{id}");
                for c in Colour::all(rules.num_colours()) {
                    assert!(
                        !pos.has_legal_move(&rules, c),
                        "{id}: colour {} could still move",
                        c.index()
                    );
                }
            }
        }
    }

    /// A colour whose player ran out of time never places again in a playout, while
    /// the others play on to the end.
    #[test]
    fn colours_already_out_never_place() {
        let rules = Rules::by_name("classic").unwrap();
        let mut rng = SmallRng::seed_from_u64(4);
        let mut p = Playout::new(&rules);
        for _ in 0..3 {
            let mut pos = Position::new(&rules);
            pos.time_out(&rules, crate::PlayerId::new(1));
            let mut placed = ByColour([0usize; MAX_COLOURS]);
            p.run_biased(&rules, &mut pos, &mut rng, 1, |_| 0, |c, _| placed[c] += 1);
            assert_eq!(placed[Colour(1)], 0, "the colour out of time placed");
            assert_eq!(pos.pieces_placed(Colour(1)), 0);
            for c in [0, 2, 3] {
                assert!(placed[Colour(c)] > 0, "colour {c} should have played");
            }
        }
    }

    /// Move by move, every draw is legal, a `None` means no legal move, and the move lists
    /// stay exactly the legal moves.
    #[test]
    fn draws_are_legal_and_move_lists_exact() {
        let mut rng = SmallRng::seed_from_u64(9);
        for id in [
            "duo",
            "classic",
            "trigon_2",
            "trigon_3",
            "junior",
            "polyomino_small",
        ] {
            let rules = Rules::by_name(id).unwrap();
            let mut p = Playout::new(&rules);
            for _ in 0..4 {
                let mut pos = Position::new(&rules);
                p.begin(&rules);
                let n = rules.num_colours();
                let mut idle = 0;
                let mut c = Colour(0);
                while idle < n {
                    if pos.awaiting_pie_choice() {
                        pos.choose_pie(&rules, PieChoice::Swap).unwrap();
                        c = pos.to_move();
                        continue;
                    }
                    let drawn = p.draw(&rules, &pos, c, &mut rng);
                    if !pos.is_over() {
                        let mut exact = pos.legal_moves(&rules, c);
                        let mut list = p.legal_moves(&rules, &pos, c).to_vec();
                        exact.sort();
                        list.sort();
                        assert_eq!(list, exact, "{id}: move list of colour {c:?}");
                    }
                    match drawn {
                        Some(m) => {
                            assert!(pos.is_legal(&rules, c, m), "{id}: drawn move is legal");
                            pos.place(&rules, c, m);
                            if rules.v().pie
                                && pos.pie_choice().is_none()
                                && pos.first_move(Colour(0)).is_some()
                                && pos.first_move(Colour(1)).is_some()
                            {
                                pos.set_awaiting_pie(true);
                            }
                            idle = 0;
                        }
                        None => {
                            assert!(
                                !pos.has_legal_move(&rules, c),
                                "{id}: None only without legal moves"
                            );
                            idle += 1;
                        }
                    }
                    c = c.next(n);
                }
            }
        }
    }

    /// Draws are uniform: in a fixed position every legal move comes up about equally
    /// often (chi-square against the uniform distribution).
    #[test]
    fn draws_are_uniform_over_the_legal_moves() {
        let rules = Rules::by_name("duo").unwrap();
        let mut game = crate::Game::new(rules.clone());
        game.play_text("d9,c10,d10,e10,d11").unwrap();
        game.play_text("i4,h5,i5,j5,i6").unwrap();
        for k in [7, 11] {
            let moves = game.legal_moves();
            game.play(moves[k % moves.len()]).unwrap();
        }
        let pos = game.position().clone();
        let legal = pos.legal_moves(&rules, pos.to_move());
        let index: std::collections::HashMap<Move, usize> =
            legal.iter().enumerate().map(|(i, &m)| (m, i)).collect();
        let mut counts = vec![0f64; legal.len()];
        let mut p = Playout::new(&rules);
        let mut rng = SmallRng::seed_from_u64(3);
        let draws = 200 * legal.len();
        for _ in 0..draws {
            let m = p.draw(&rules, &pos, pos.to_move(), &mut rng).unwrap();
            counts[index[&m]] += 1.0;
        }
        let expected = draws as f64 / legal.len() as f64;
        let chi2: f64 = counts
            .iter()
            .map(|c| (c - expected).powi(2) / expected)
            .sum();
        let dof = legal.len() as f64 - 1.0;
        // Mean dof, sd sqrt(2 dof): 5 sd is far beyond chance for a uniform draw.
        assert!(
            chi2 < dof + 5.0 * (2.0 * dof).sqrt(),
            "chi2 {chi2:.0} with {dof} degrees of freedom"
        );
    }
}
