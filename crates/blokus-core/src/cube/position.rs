//! A Blokus 3D position: the cubes on the site, the stones left, who is out, whose turn.
//!
//! The rules that differ from the flat families are explicit here: a stone needs support
//! from below ([`Placement::support`]) and face contact ([`Placement::touch`]) with its
//! own colour, except the game's first stone (anywhere) and each other colour's first
//! stone (touching any stone).

use std::fmt;

use super::rules::CubeRules;
use super::stone::{Stone, STONE_COUNT};
use super::table::{CubeMove, CubeTable, Placement, DROPS};
use super::voxel::{Voxel, VoxelSet};
use crate::Colour;

/// The most colours of a game.
pub const MAX_CUBE_COLOURS: usize = 4;

const ALL_STONES: u16 = (1 << STONE_COUNT) - 1;

/// Why a placement is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeIllegal {
    /// The game has ended.
    GameOver,
    /// Another colour is to move.
    NotToMove {
        /// The colour to move.
        expected: Colour,
    },
    /// The colour has placed this stone already.
    StoneUsed(Stone),
    /// A voxel is already filled.
    Occupied(Voxel),
    /// A cube would have empty space under it: this voxel below it is empty.
    Unsupported(Voxel),
    /// A colour's first stone (after the game's first) must share a face with a stone
    /// already placed.
    FirstStoneNotTouching,
    /// A later stone must share a face with a stone of its own colour.
    NoOwnContact,
}

impl fmt::Display for CubeIllegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CubeIllegal::GameOver => write!(f, "the game is over"),
            CubeIllegal::NotToMove { expected } => {
                write!(f, "it is colour {}'s turn", expected.index() + 1)
            }
            CubeIllegal::StoneUsed(s) => write!(f, "stone {} is already placed", s.name()),
            CubeIllegal::Occupied(_) => write!(f, "a cube is already there"),
            CubeIllegal::Unsupported(_) => {
                write!(f, "a cube would have empty space under it")
            }
            CubeIllegal::FirstStoneNotTouching => write!(
                f,
                "a colour's first stone must share a face with a stone already placed"
            ),
            CubeIllegal::NoOwnContact => {
                write!(f, "the stone must share a face with a stone of its colour")
            }
        }
    }
}

impl std::error::Error for CubeIllegal {}

/// A position. Fixed-size and `Copy`: a playout copies one without allocating.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CubePosition {
    occupied: VoxelSet,
    own: [VoxelSet; MAX_CUBE_COLOURS],
    /// Per colour, the empty voxels sharing a face with one of its cubes.
    attach: [VoxelSet; MAX_CUBE_COLOURS],
    /// Per colour, a bit per stone not yet placed.
    left: [u16; MAX_CUBE_COLOURS],
    /// Colours that could not place on their turn and are out for the rest of the game.
    out: [bool; MAX_CUBE_COLOURS],
    colours: u8,
    to_move: u8,
    placed: u16,
    over: bool,
}

impl CubePosition {
    /// The empty site, the first colour to move.
    pub fn new(rules: &CubeRules) -> CubePosition {
        let n = rules.num_colours();
        CubePosition {
            occupied: VoxelSet::EMPTY,
            own: [VoxelSet::EMPTY; MAX_CUBE_COLOURS],
            attach: [VoxelSet::EMPTY; MAX_CUBE_COLOURS],
            left: std::array::from_fn(|c| if c < n { ALL_STONES } else { 0 }),
            out: std::array::from_fn(|c| c >= n),
            colours: n as u8,
            to_move: 0,
            placed: 0,
            over: rules.table().is_empty(),
        }
    }

    /// The colour to move.
    #[inline]
    pub fn to_move(&self) -> Colour {
        Colour(self.to_move)
    }

    /// Whether the game has ended (no colour can place).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether a colour is out (it could not place on a turn).
    #[inline]
    pub fn is_out(&self, colour: Colour) -> bool {
        self.out[colour.index()]
    }

    /// Number of stones placed in the game.
    #[inline]
    pub fn stones_placed(&self) -> usize {
        self.placed as usize
    }

    /// Whether a colour still has a stone.
    #[inline]
    pub fn has_stone(&self, colour: Colour, stone: Stone) -> bool {
        self.left[colour.index()] >> stone.index() & 1 != 0
    }

    /// The stones a colour has not placed.
    pub fn stones_left(&self, colour: Colour) -> impl Iterator<Item = Stone> + '_ {
        Stone::ALL
            .into_iter()
            .filter(move |&s| self.has_stone(colour, s))
    }

    /// Every filled voxel.
    #[inline]
    pub fn occupied(&self) -> &VoxelSet {
        &self.occupied
    }

    /// The colour of the cube in a voxel.
    pub fn owner(&self, v: Voxel) -> Option<Colour> {
        Colour::all(self.colours as usize).find(|&c| self.own[c.index()].contains(v))
    }

    /// Whether `colour` may place `m` now by the placement rules (stone left, voxels
    /// empty, support, contact), whoever is to move.
    #[inline]
    pub fn is_legal(&self, table: &CubeTable, colour: Colour, m: CubeMove) -> bool {
        self.placement_error(table.get(m), colour).is_none()
    }

    /// Whether `p` fits for `colour` leaving contact aside: stone left, voxels empty,
    /// every cube supported.
    #[inline]
    pub(crate) fn fits(&self, p: &Placement, colour: Colour) -> bool {
        self.has_stone(colour, p.stone())
            && !p.cubes().iter().any(|&v| self.occupied.contains(v))
            && p.support().iter().all(|&v| self.occupied.contains(v))
    }

    /// The first placement rule `p` breaks for `colour`, if any.
    fn placement_error(&self, p: &Placement, colour: Colour) -> Option<CubeIllegal> {
        if !self.has_stone(colour, p.stone()) {
            return Some(CubeIllegal::StoneUsed(p.stone()));
        }
        if let Some(&v) = p.cubes().iter().find(|&&v| self.occupied.contains(v)) {
            return Some(CubeIllegal::Occupied(v));
        }
        if let Some(&v) = p.support().iter().find(|&&v| !self.occupied.contains(v)) {
            return Some(CubeIllegal::Unsupported(v));
        }
        if self.placed == 0 {
            return None;
        }
        let (contact, error) = if self.own[colour.index()].is_empty() {
            (&self.occupied, CubeIllegal::FirstStoneNotTouching)
        } else {
            (&self.own[colour.index()], CubeIllegal::NoOwnContact)
        };
        (!p.touch().iter().any(|&v| contact.contains(v))).then_some(error)
    }

    /// Why `m` cannot be played now by the colour to move, or `Ok`.
    ///
    /// # Errors
    /// The rule the placement breaks.
    pub fn check(&self, rules: &CubeRules, colour: Colour, m: CubeMove) -> Result<(), CubeIllegal> {
        if self.over {
            return Err(CubeIllegal::GameOver);
        }
        if colour != self.to_move() {
            return Err(CubeIllegal::NotToMove {
                expected: self.to_move(),
            });
        }
        self.placement_error(rules.table().get(m), colour)
            .map_or(Ok(()), Err)
    }

    /// Plays `m` for the colour to move after checking it, then passes the turn on.
    ///
    /// # Errors
    /// The rule the placement breaks; the position is unchanged.
    pub fn play(&mut self, rules: &CubeRules, m: CubeMove) -> Result<(), CubeIllegal> {
        let colour = self.to_move();
        self.check(rules, colour, m)?;
        self.place(rules.table(), colour, m);
        self.pass_turn(rules);
        Ok(())
    }

    /// Places `m` for `colour` without any check and without passing the turn.
    #[inline]
    pub fn place(&mut self, table: &CubeTable, colour: Colour, m: CubeMove) {
        let p = table.get(m);
        for &v in p.cubes() {
            self.occupied.insert(v);
            self.own[colour.index()].insert(v);
        }
        for &v in p.touch() {
            self.attach[colour.index()].insert(v);
        }
        for a in &mut self.attach[..self.colours as usize] {
            a.subtract(&self.occupied);
        }
        self.left[colour.index()] &= !(1 << p.stone().index());
        self.placed += 1;
    }

    /// Gives the turn to the next colour that can place; colours on the way that cannot
    /// are out for good. Ends the game when no colour can place.
    pub fn pass_turn(&mut self, rules: &CubeRules) {
        let n = self.colours as usize;
        for k in 1..=n {
            let c = Colour::new((self.to_move().index() + k) % n);
            if self.out[c.index()] {
                continue;
            }
            if self.any_legal(rules.table(), c) {
                self.to_move = c.0;
                return;
            }
            self.out[c.index()] = true;
        }
        self.over = true;
    }

    /// Settles the start of a game: if the first colour cannot place (a site too small
    /// for any stone), passes on as [`CubePosition::pass_turn`] does.
    pub fn settle(&mut self, rules: &CubeRules) {
        if !self.over && !self.any_legal(rules.table(), self.to_move()) {
            self.out[self.to_move().index()] = true;
            self.pass_turn(rules);
        }
    }

    /// Marks the end of a game whose colours are all out (after a playout).
    pub(crate) fn set_out(&mut self, colour: Colour) {
        self.out[colour.index()] = true;
        self.over = self.out[..self.colours as usize].iter().all(|&o| o);
    }

    /// The voxels where a stone of `colour` may make contact: for its later stones the
    /// empty voxels next to its own cubes; for its first stone those next to any cube.
    /// `None` before the game's first stone (anywhere on the base).
    #[inline]
    pub fn contact_voxels(&self, colour: Colour) -> Option<VoxelSet> {
        if self.placed == 0 {
            return None;
        }
        if !self.own[colour.index()].is_empty() {
            return Some(self.attach[colour.index()]);
        }
        let mut all = VoxelSet::EMPTY;
        for a in &self.attach[..self.colours as usize] {
            all.union_with(a);
        }
        Some(all)
    }

    /// Calls `f` with every candidate move for `colour` (a superset of the legal moves,
    /// possibly with repeats) until it returns `true`; returns whether it did.
    #[inline]
    pub fn any_candidate(
        &self,
        table: &CubeTable,
        colour: Colour,
        mut f: impl FnMut(CubeMove) -> bool,
    ) -> bool {
        match self.contact_voxels(colour) {
            None => table.grounded().iter().any(|&m| f(m)),
            Some(at) => at.iter().any(|v| {
                self.drop_at(table, v).is_some_and(|drop| {
                    self.stones_left(colour)
                        .any(|s| table.at(v, drop, s).iter().any(|&m| f(m)))
                })
            }),
        }
    }

    /// The number of empty voxels directly under empty voxel `v`, if below [`DROPS`]: a
    /// stone covering `v` must then reach that far down in `v`'s column.
    #[inline]
    pub fn drop_at(&self, table: &CubeTable, v: Voxel) -> Option<usize> {
        let mut below = table.below(v);
        for drop in 0..DROPS {
            match below {
                Some(b) if !self.occupied.contains(b) => below = table.below(b),
                _ => return Some(drop),
            }
        }
        None
    }

    /// Whether `colour` has a legal placement.
    pub fn any_legal(&self, table: &CubeTable, colour: Colour) -> bool {
        self.left[colour.index()] != 0
            && self.any_candidate(table, colour, |m| self.is_legal(table, colour, m))
    }

    /// Every legal placement of `colour`, in move order.
    pub fn legal_moves(&self, table: &CubeTable, colour: Colour) -> Vec<CubeMove> {
        let mut out = Vec::new();
        if self.left[colour.index()] != 0 {
            self.any_candidate(table, colour, |m| {
                if self.is_legal(table, colour, m) {
                    out.push(m);
                }
                false
            });
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The colour of the topmost cube on each base square, indexed `x + width * y`
    /// (`None` for an empty square or no base).
    pub fn top_view(&self, table: &CubeTable) -> Vec<Option<Colour>> {
        let (w, d) = (table.width(), table.depth());
        let mut view = vec![None; w * d];
        for (i, top) in view.iter_mut().enumerate() {
            *top = (0..table.height())
                .rev()
                .filter_map(|z| table.voxel(i % w, i / w, z))
                .find_map(|v| self.owner(v));
        }
        view
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::Seating;
    use super::super::site::Site;
    use super::*;
    use std::sync::Arc;

    /// 4 x 3 site, 3 levels for every player count.
    fn rules(seating: Seating) -> CubeRules {
        let site = Site::parse("name = t\nheights = 2:3 3:3 4:3\nfootprint =\noooo\noooo\noooo\n")
            .unwrap();
        CubeRules::new(seating, Arc::new(site))
    }

    /// The move of these cubes given as (x, y, z), 0-based.
    fn mv(r: &CubeRules, cubes: &[(usize, usize, usize)]) -> CubeMove {
        let t = r.table();
        let v: Vec<Voxel> = cubes
            .iter()
            .map(|&(x, y, z)| t.voxel(x, y, z).unwrap())
            .collect();
        t.find(&v).unwrap()
    }

    #[test]
    fn support_from_below() {
        let r = rules(Seating::Two);
        let mut pos = CubePosition::new(&r);
        // A domino in the air is refused; on the base it is fine.
        let high = mv(&r, &[(0, 0, 1), (1, 0, 1)]);
        let v = r.table().voxel(0, 0, 0).unwrap();
        assert_eq!(
            pos.check(&r, Colour(0), high),
            Err(CubeIllegal::Unsupported(v))
        );
        pos.play(&r, mv(&r, &[(0, 0, 0), (1, 0, 0)])).unwrap();
        // Yellow's I3 standing on the domino: supported. Overhanging by one: refused.
        let over = mv(&r, &[(0, 0, 1), (1, 0, 1), (2, 0, 1)]);
        let hole = r.table().voxel(2, 0, 0).unwrap();
        assert_eq!(
            pos.check(&r, Colour(1), over),
            Err(CubeIllegal::Unsupported(hole))
        );
        pos.play(&r, mv(&r, &[(1, 0, 1), (0, 0, 1)])).unwrap();
        // An upright stone is supported by its own lower cube.
        let upright = mv(&r, &[(2, 0, 0), (2, 0, 1), (2, 0, 2)]);
        assert!(r.table().get(upright).support().is_empty());
        assert_eq!(pos.check(&r, Colour(0), upright), Ok(()));
    }

    #[test]
    fn height_limit_is_in_the_table() {
        let r = rules(Seating::Two);
        let t = r.table();
        assert!(t.voxel(0, 0, 2).is_some() && t.voxel(0, 0, 3).is_none());
        // The straight tetracube cannot stand upright under 3 levels.
        assert!(t.moves().all(|m| {
            let p = t.get(m);
            let z = t.coords(p.cubes()[0]).2;
            p.stone() != Stone::I4 || p.cubes().iter().all(|&v| t.coords(v).2 == z)
        }));
    }

    #[test]
    fn first_round_and_face_contact() {
        let r = rules(Seating::Three);
        let mut pos = CubePosition::new(&r);
        // The game's first stone goes anywhere (on the base).
        pos.play(&r, mv(&r, &[(0, 0, 0), (1, 0, 0)])).unwrap();
        // Yellow's first stone must share a face with a placed stone: a corner or edge
        // of a cube is not a face.
        let diagonal = mv(&r, &[(2, 1, 0), (3, 1, 0)]);
        assert_eq!(
            pos.check(&r, Colour(1), diagonal),
            Err(CubeIllegal::FirstStoneNotTouching)
        );
        let beside = mv(&r, &[(2, 0, 0), (3, 0, 0)]);
        assert_eq!(pos.check(&r, Colour(1), beside), Ok(()));
        pos.play(&r, beside).unwrap();
        // Red touches Yellow only: fine for a first stone.
        pos.play(&r, mv(&r, &[(3, 1, 0), (3, 2, 0)])).unwrap();
        // Blue's second stone touching only Red and Yellow: refused; touching Blue: fine.
        let others = mv(&r, &[(2, 1, 0), (2, 2, 0), (1, 2, 0)]);
        assert_eq!(
            pos.check(&r, Colour(0), others),
            Err(CubeIllegal::NoOwnContact)
        );
        let on_top = mv(&r, &[(0, 0, 1), (1, 0, 1), (2, 0, 1)]);
        assert_eq!(pos.check(&r, Colour(0), on_top), Ok(()));
        pos.play(&r, on_top).unwrap();
        // Stones are placed once; voxels are filled once.
        let again = mv(&r, &[(3, 0, 1), (3, 0, 2), (2, 0, 2)]);
        assert_eq!(pos.check(&r, Colour(1), again), Ok(()));
        assert!(!pos.is_legal(r.table(), Colour(0), mv(&r, &[(0, 1, 0), (0, 2, 0)])));
        assert_eq!(
            pos.check(&r, Colour(1), mv(&r, &[(0, 0, 1), (1, 0, 1), (2, 0, 1)])),
            Err(CubeIllegal::Occupied(r.table().voxel(0, 0, 1).unwrap()))
        );
        assert_eq!(
            pos.check(&r, Colour(0), on_top),
            Err(CubeIllegal::NotToMove {
                expected: Colour(1)
            })
        );
    }

    #[test]
    fn a_colour_that_cannot_place_is_out_for_good() {
        // A 1 x 2 site with 1 level: the game's first stone fills it.
        let site = Site::parse("name = t\nheights = 2:1 3:1 4:1\nfootprint =\noo\n").unwrap();
        let r = CubeRules::new(Seating::Two, Arc::new(site));
        let mut pos = CubePosition::new(&r);
        assert_eq!(r.table().len(), 1);
        pos.play(&r, CubeMove::new(0)).unwrap();
        assert!(pos.is_out(Colour(1)) && pos.is_out(Colour(0)) && pos.is_over());
        assert_eq!(pos.play(&r, CubeMove::new(0)), Err(CubeIllegal::GameOver));
    }
}
