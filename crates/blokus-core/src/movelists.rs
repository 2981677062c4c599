//! Per-colour lists of legal moves, kept up to date as a game goes forward instead of
//! being generated again for every position (the hot path of playouts and tree search).
//!
//! Legality only ever shrinks, with one exception at attach points: forbidden cells,
//! used pieces and (alternate contact) the touched lattice points only accumulate, so a
//! move legal now that covers an attach point its colour already had when the list was
//! made was legal then too, and is in the list. Bringing a list up to date is therefore
//! two steps: drop the moves that are no longer legal, and add the moves through the
//! attach points created since. Both steps are cheap next to a full generation, which
//! visits every attach point.
//!
//! A list is only kept once its colour has placed a piece and while no cells are
//! reserved for it (the mirror-opening rule frees cells again when the follower plays):
//! otherwise the moves are generated in full each time.
//!
//! Lists can start from a *base* position: [`MoveLists::set_base`] generates every
//! colour's list there once, and each [`MoveLists::restart`] starts again from those
//! lists, for any position reached from the base by further placements (the
//! simulations of a tree search all start at its root).

use crate::bitset::CellSet;
use crate::ids::{ByColour, Colour};
use crate::movetable::Move;
use crate::position::{Position, MAX_COLOURS};
use crate::rules::Rules;

/// One colour's list and the attach points it was last brought up to date with
/// (`None`: no list kept).
#[derive(Clone, Default)]
struct List {
    moves: Vec<Move>,
    attach: Option<CellSet>,
}

impl List {
    fn copy_from(&mut self, other: &List) {
        self.moves.clear();
        self.moves.extend_from_slice(&other.moves);
        self.attach = other.attach;
    }
}

/// The legal moves of every colour of a game, updated incrementally. Reuses its buffers:
/// after the first positions it does not allocate.
#[derive(Clone)]
pub struct MoveLists {
    work: ByColour<List, MAX_COLOURS>,
    base: ByColour<List, MAX_COLOURS>,
    /// Per colour, whether its working list must first be copied from the base.
    from_base: ByColour<bool, MAX_COLOURS>,
}

impl Default for MoveLists {
    fn default() -> MoveLists {
        MoveLists::new()
    }
}

impl MoveLists {
    /// Empty lists, no base.
    pub fn new() -> MoveLists {
        MoveLists {
            work: ByColour(Default::default()),
            base: ByColour(Default::default()),
            from_base: ByColour([false; MAX_COLOURS]),
        }
    }

    /// Forgets the base and every list: the next position may be any position.
    pub fn clear(&mut self) {
        for c in 0..MAX_COLOURS {
            let c = Colour::new(c);
            self.base[c].attach = None;
            self.work[c].attach = None;
            self.from_base[c] = false;
        }
    }

    /// Makes `pos` the base: generates every colour's list there, and starts again from
    /// it (see [`MoveLists::restart`]).
    pub fn set_base(&mut self, rules: &Rules, pos: &Position) {
        for c in Colour::all(rules.num_colours()) {
            let list = &mut self.base[c];
            list.attach = None;
            if keeps_list(rules, pos, c) {
                pos.legal_moves_into(rules, c, &mut list.moves);
                list.attach = Some(pos.attach_points(rules, c));
            }
        }
        self.restart();
    }

    /// Starts again from the base lists (or from nothing without a base): the positions
    /// asked about next must be the base or positions reached from it by placements.
    pub fn restart(&mut self) {
        for c in 0..MAX_COLOURS {
            let c = Colour::new(c);
            self.from_base[c] = self.base[c].attach.is_some();
            self.work[c].attach = None;
        }
    }

    /// Every legal placement of `colour` in `pos` (ignoring whose turn it is and whether
    /// the game is over), in no particular order. `pos` must be the position last asked
    /// about, or one reached from it by placements (since the last
    /// [`MoveLists::restart`]: the base or one reached from it).
    pub fn moves(&mut self, rules: &Rules, pos: &Position, colour: Colour) -> &[Move] {
        if std::mem::take(&mut self.from_base[colour]) {
            self.work[colour].copy_from(&self.base[colour]);
        }
        let list = &mut self.work[colour];
        if !keeps_list(rules, pos, colour) {
            list.attach = None;
            pos.legal_moves_into(rules, colour, &mut list.moves);
        } else if let Some(old) = list.attach {
            update(rules, pos, colour, list, old);
        } else {
            pos.legal_moves_into(rules, colour, &mut list.moves);
            list.attach = Some(pos.attach_points(rules, colour));
        }
        &list.moves
    }

    /// Whether the base lists `colour`'s moves: then [`MoveLists::moves`] brings a copy
    /// of that list up to date instead of generating one from scratch (which costs
    /// about as much as a full move generation). For tests: the playouts no longer ask.
    #[cfg(test)]
    fn listed_at_base(&self, colour: Colour) -> bool {
        self.base[colour].attach.is_some()
    }

    /// The list of `colour` as last brought up to date, if one is kept (for tests).
    #[cfg(test)]
    fn kept(&self, colour: Colour) -> Option<&[Move]> {
        let list = &self.work[colour];
        list.attach.map(|_| list.moves.as_slice())
    }
}

/// Whether a colour's moves can be kept in an incremental list: it has placed a piece
/// (first moves follow other rules) and no cells are reserved for another colour.
fn keeps_list(rules: &Rules, pos: &Position, colour: Colour) -> bool {
    pos.pieces_placed(colour) > 0 && !pos.has_reserved_cells(rules, colour)
}

/// Brings a kept list made at attach points `old` up to date with `pos`.
fn update(rules: &Rules, pos: &Position, colour: Colour, list: &mut List, old: CellSet) {
    let t = rules.table();
    let attach = pos.attach_points(rules, colour);
    let forbidden = pos.forbidden(colour);
    if rules.alternate_contact() {
        retain(&mut list.moves, |m| pos.still_legal(rules, colour, m));
    } else {
        let remaining = pos.remaining_pieces(rules, colour);
        retain(&mut list.moves, |m| {
            remaining[t.piece_of(m)] > 0 && !t.info(m).hits(forbidden)
        });
    }
    let fresh = attach.difference(&old);
    if !fresh.is_empty() {
        let alternate = rules.alternate_contact();
        let npieces = t.pieces().pieces.len();
        // A move through the new attach point `p` is skipped if it covers a forbidden
        // cell, an attach point listed already (then and now: its moves are in the list)
        // or a lower new attach point (found there): one window test for all three.
        let mut skip = old.intersection(&attach);
        skip.union_with(forbidden);
        for p in fresh.iter() {
            let status = t.edge_status(p, forbidden);
            for piece in 0..npieces {
                if pos.remaining(rules, colour, piece) == 0 {
                    continue;
                }
                for &m in t.moves_at_status(p, piece, status) {
                    if t.info(m).hits(&skip) || (alternate && !pos.still_legal(rules, colour, m)) {
                        continue;
                    }
                    list.moves.push(m);
                }
            }
            skip.insert(p);
        }
    }
    list.attach = Some(attach);
}

/// Keeps the moves for which `keep` holds, in order: `Vec::retain` with the test inlined
/// (the standard one called it out of line for every move, a fifth of a Duo search's
/// time).
#[inline]
fn retain(moves: &mut Vec<Move>, mut keep: impl FnMut(Move) -> bool) {
    let mut kept = 0;
    for i in 0..moves.len() {
        let m = moves[i];
        if keep(m) {
            moves[kept] = m;
            kept += 1;
        }
    }
    moves.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PieChoice;
    use crate::variant::VariantId;
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Plays a random game of `variant` (rule options from `options`), checking after
    /// every placement that each colour's list equals full generation. With `base_at`,
    /// the lists are based at that placement and restarted there every few moves.
    fn check_game(variant: &str, alternate: bool, no_mirror: bool, seed: u64, base_at: usize) {
        let mut rules = Rules::by_name(variant).unwrap();
        rules.options.alternate_contact = alternate;
        rules.options.no_mirror_opening = no_mirror;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut lists = MoveLists::new();
        let mut pos = Position::new(&rules);
        let mut base: Option<Position> = None;
        let n = rules.num_colours();
        for ply in 0..200 {
            if pos.is_over() {
                break;
            }
            if pos.awaiting_pie_choice() {
                let choice = if rng.gen_bool(0.5) {
                    PieChoice::Keep
                } else {
                    PieChoice::Swap
                };
                pos.choose_pie(&rules, choice).unwrap();
                continue;
            }
            if ply == base_at {
                lists.set_base(&rules, &pos);
                base = Some(pos.clone());
            } else if base.is_some() && ply % 7 == 0 {
                // Back to the base, then forward along this game again in one step.
                lists.restart();
            }
            // Ask about colours in a random order, some not at all, as playouts do.
            for _ in 0..n {
                let c = Colour::new(rng.gen_range(0..n));
                let mut got = lists.moves(&rules, &pos, c).to_vec();
                let mut exact = pos.legal_moves(&rules, c);
                got.sort();
                exact.sort();
                assert_eq!(
                    got, exact,
                    "{variant} (alt {alternate}, seed {seed}) colour {c:?} after {ply} placements"
                );
                if let Some(kept) = lists.kept(c) {
                    assert_eq!(kept.len(), exact.len());
                }
            }
            let c = pos.to_move();
            let moves = pos.legal_moves(&rules, c);
            let m = moves[rng.gen_range(0..moves.len())];
            pos.play(&rules, m);
        }
    }

    /// One variant of each family and board size: square boards (Classic, Duo,
    /// Junior, the Polyomino boards with the pie rule, Hexa's shared pool), Trigon
    /// (with and without the alternate contact and mirror-opening rules).
    const VARIANTS: [(&str, bool, bool); 10] = [
        ("classic", false, false),
        ("classic_2", false, false),
        ("duo", false, false),
        ("junior", false, false),
        ("trigon", false, false),
        ("trigon", true, false),
        ("trigon_2", false, false),
        ("trigon_2", false, true),
        ("polyomino_small", false, false),
        ("polyomino_hexa", false, false),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// After any random sequence of placements, in every variant family, the lists
        /// equal full generation, with or without a base.
        #[test]
        fn lists_equal_full_generation(
            which in 0..VARIANTS.len(),
            seed in any::<u64>(),
            base_at in prop_oneof![Just(usize::MAX), 0usize..40],
        ) {
            let (variant, alt, no_mirror) = VARIANTS[which];
            check_game(variant, alt, no_mirror, seed, base_at);
        }
    }

    #[test]
    fn every_variant_once() {
        for id in VariantId::ALL.map(VariantId::as_str) {
            check_game(id, false, false, 3, 9);
        }
    }

    /// The base lists a colour's moves once it has placed a piece there, not before.
    #[test]
    fn the_base_lists_colours_that_have_placed() {
        let rules = Rules::by_name("duo").unwrap();
        let mut pos = Position::new(&rules);
        let mut lists = MoveLists::new();
        let (a, b) = (Colour::new(0), Colour::new(1));
        lists.set_base(&rules, &pos);
        assert!(!lists.listed_at_base(a) && !lists.listed_at_base(b));
        let first = pos.legal_moves(&rules, a)[0];
        pos.play(&rules, first);
        lists.set_base(&rules, &pos);
        assert!(lists.listed_at_base(a) && !lists.listed_at_base(b));
        lists.clear();
        assert!(!lists.listed_at_base(a));
    }
}
