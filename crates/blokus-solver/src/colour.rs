//! The colours of a tiling's pieces: each colour owns one copy of every piece kind, and
//! under the strict rule no two pieces of a colour share an edge.
//!
//! Without the strict rule any tiling can be coloured afterwards (each kind's copies
//! take the colours still free for that kind), so the search stays colourless and
//! [`fill_in`] colours the tiling it finds.
//!
//! Under the strict rule most tilings cannot be coloured, and the conflict that dooms a
//! tiling is usually laid down early, long before the tiling is complete. So the strict
//! search keeps every partial tiling coloured: a new piece takes a colour its kind still
//! has free and none of its neighbours wears ([`Palette`] answers that in a few bit
//! operations); when no colour is left, every piece is coloured again from scratch
//! ([`recolour`], a DSatur backtracking search), and if that fails the partial tiling
//! is abandoned at once. Colours are not search choices, so the exact-cover search does
//! not branch on them: a piece's colour can change whenever later pieces need it to.

use crate::bits::Bits;

/// Most colours a tiling may have.
pub(crate) const MAX_COLOURS: usize = 4;

/// Most piece kinds a coloured tiling may have.
pub(crate) const MAX_KINDS: usize = 32;

/// The colour of a placement that has none (yet).
pub(crate) const NONE: u8 = u8::MAX;

/// Quick colour lookups for the pieces placed so far. Small and `Copy`, so a search
/// saves and restores it around each placement.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Palette {
    /// Colours in play.
    n: u8,
    /// Whether neighbours must differ.
    strict: bool,
    /// Per kind, a bit per colour whose copy of it is not placed.
    free: [u8; MAX_KINDS],
    /// Per colour, the cells sharing an edge with its pieces (strict rule only).
    forbidden: [Bits; MAX_COLOURS],
}

impl Palette {
    /// A palette of `n` colours (at most [`MAX_COLOURS`]; 0 for colourless tilings).
    pub(crate) fn new(n: usize, strict: bool) -> Palette {
        debug_assert!(n <= MAX_COLOURS);
        Palette {
            n: n as u8,
            strict,
            free: [all(n); MAX_KINDS],
            forbidden: [Bits::EMPTY; MAX_COLOURS],
        }
    }

    /// Records a piece of `kind` with neighbour cells `around` placed in colour `c`.
    #[inline]
    pub(crate) fn place(&mut self, kind: usize, c: u8, around: &Bits) {
        self.free[kind] &= !(1 << c);
        if self.strict {
            self.forbidden[c as usize].union_with(around);
        }
    }

    /// The colours a piece of `kind` covering `bits` may take now: its copy in that
    /// colour is not placed and (strict rule) it touches no piece of that colour.
    #[inline]
    pub(crate) fn allowed(&self, kind: usize, bits: &Bits) -> u8 {
        let mut mask = self.free[kind];
        if self.strict {
            for c in 0..self.n as usize {
                if mask >> c & 1 != 0 && !bits.is_disjoint(&self.forbidden[c]) {
                    mask &= !(1 << c);
                }
            }
        }
        mask
    }

    /// The cells a piece of colour `c` may not cover (strict rule).
    #[inline]
    pub(crate) fn barred(&self, c: u8) -> Bits {
        self.forbidden[c as usize]
    }

    /// Forgets every piece.
    pub(crate) fn clear(&mut self) {
        *self = Palette::new(self.n as usize, self.strict);
    }
}

/// A bit for each of `n` colours.
fn all(n: usize) -> u8 {
    ((1u16 << n) - 1) as u8
}

/// Colours the uncoloured placements of a tiling without the strict rule: each kind's
/// uncoloured copies take the colours its coloured copies left, in order.
///
/// `kinds[i]` is placement i's kind, `colours[i]` its colour or [`NONE`]. Returns `None`
/// if some kind has more copies than free colours (or a colour twice).
pub(crate) fn fill_in(kinds: &[usize], colours: &[u8], n: usize) -> Option<Vec<u8>> {
    let num_kinds = kinds.iter().max().map_or(0, |&k| k + 1);
    let mut free = vec![all(n); num_kinds];
    for (&k, &c) in kinds.iter().zip(colours) {
        if c != NONE {
            if free[k] >> c & 1 == 0 {
                return None;
            }
            free[k] &= !(1 << c);
        }
    }
    kinds
        .iter()
        .zip(colours)
        .map(|(&k, &c)| {
            if c != NONE {
                return Some(c);
            }
            let first = free[k].trailing_zeros();
            (first < n as u32).then(|| {
                free[k] &= !(1 << first);
                first as u8
            })
        })
        .collect()
}

/// Why pieces could not be coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoColouring {
    /// No colouring exists.
    Impossible,
    /// Not decided within the step limit.
    GaveUp,
}

/// Most pieces [`recolour`] handles (one bit each in a `u128`).
pub(crate) const MAX_PIECES: usize = 128;

/// Colours every piece whose colour is [`NONE`] so that no two pieces in conflict share
/// a colour, keeping the colours already set; within `limit` backtracking steps.
///
/// `conflicts[i]` has a bit for each piece that must differ from piece i (copies of its
/// kind, and its neighbours under the strict rule), symmetrically. `hint[i]`, when not
/// [`NONE`], is tried first for piece i: colouring again after a small change, the old
/// colours mostly still fit. On failure `colour` is as given. Adds the steps taken to
/// `steps`.
pub(crate) fn recolour(
    conflicts: &[u128],
    n: usize,
    colour: &mut [u8],
    hint: &[u8],
    limit: u64,
    steps: &mut u64,
) -> Result<(), NoColouring> {
    debug_assert!(conflicts.len() <= MAX_PIECES && colour.len() == conflicts.len());
    let mut d = Dsatur {
        conflicts,
        n,
        hint,
        class: [0; MAX_COLOURS],
        open_set: 0,
        steps: 0,
        limit,
    };
    let mut used = 0u8;
    for (i, &c) in colour.iter().enumerate() {
        if c == NONE {
            d.open_set |= 1 << i;
        } else {
            if c as usize >= n || conflicts[i] & d.class[c as usize] != 0 {
                return Err(NoColouring::Impossible);
            }
            d.class[c as usize] |= 1 << i;
            used |= 1 << c;
        }
    }
    let ok = d.run(used);
    *steps += d.steps.min(d.limit);
    if ok {
        for (i, c) in colour.iter_mut().enumerate() {
            if let Some(k) = (0..n).find(|&k| d.class[k] >> i & 1 != 0) {
                *c = k as u8;
            }
        }
        Ok(())
    } else if d.steps > d.limit {
        Err(NoColouring::GaveUp)
    } else {
        Err(NoColouring::Impossible)
    }
}

/// DSatur backtracking: colour the piece with the fewest colours left first.
struct Dsatur<'a> {
    conflicts: &'a [u128],
    n: usize,
    hint: &'a [u8],
    /// Per colour, the pieces wearing it.
    class: [u128; MAX_COLOURS],
    /// The pieces without a colour.
    open_set: u128,
    steps: u64,
    limit: u64,
}

impl Dsatur<'_> {
    /// The colours still open to piece i.
    #[inline]
    fn open(&self, i: usize) -> u8 {
        let mut m = 0;
        for c in 0..self.n {
            if self.conflicts[i] & self.class[c] == 0 {
                m |= 1 << c;
            }
        }
        m
    }

    /// Colours the rest; `used`: colours some piece wears (the others are
    /// interchangeable, so only one of them is tried).
    fn run(&mut self, used: u8) -> bool {
        self.steps += 1;
        if self.steps > self.limit {
            return false;
        }
        // The open piece with the fewest colours left, then the most conflicts.
        let mut best: Option<(usize, u8, u32)> = None;
        let mut rest = self.open_set;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let open = self.open(i);
            if open == 0 {
                return false;
            }
            let key = (open.count_ones(), u32::MAX - self.conflicts[i].count_ones());
            if best.is_none_or(|(_, bo, bd)| key < (bo.count_ones(), u32::MAX - bd)) {
                best = Some((i, open, self.conflicts[i].count_ones()));
                if open.count_ones() == 1 {
                    // Forced: nothing is more constrained (short of a dead end, which
                    // the forced colour's consequences reveal soon enough).
                    break;
                }
            }
        }
        let Some((i, open, _)) = best else {
            return true;
        };
        self.open_set &= !(1 << i);
        // The hinted colour first, then the others in order.
        let first = self.hint.get(i).copied().unwrap_or(NONE);
        let order = std::iter::once(first)
            .filter(|&c| c != NONE)
            .chain((0..self.n as u8).filter(|&c| c != first));
        let mut fresh_tried = false;
        for c in order {
            if open >> c & 1 == 0 {
                continue;
            }
            if used >> c & 1 == 0 {
                if fresh_tried {
                    continue;
                }
                fresh_tried = true;
            }
            self.class[c as usize] |= 1 << i;
            if self.run(used | 1 << c) {
                return true;
            }
            self.class[c as usize] &= !(1 << i);
            if self.steps > self.limit {
                break;
            }
        }
        self.open_set |= 1 << i;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_in_gives_each_kind_distinct_colours_and_keeps_fixed_ones() {
        let c = fill_in(&[0, 0, 1, 1, 0], &[NONE, 2, NONE, NONE, NONE], 3).unwrap();
        assert_eq!(c[1], 2);
        let mut zeros = vec![c[0], c[1], c[4]];
        zeros.sort();
        assert_eq!(zeros, vec![0, 1, 2]);
        assert_ne!(c[2], c[3]);
        // Three copies of a kind, two colours: impossible.
        assert_eq!(fill_in(&[0, 0, 0], &[NONE; 3], 2), None);
        // A colour fixed twice for one kind: impossible.
        assert_eq!(fill_in(&[0, 0], &[1, 1], 2), None);
    }

    #[test]
    fn strict_palette_forbids_touching_same_colour() {
        let mut p = Palette::new(2, true);
        let mut around = Bits::EMPTY;
        around.insert(1);
        p.place(0, 1, &around);
        let mut next = Bits::EMPTY;
        next.insert(1);
        // Kind 0 has only colour 0 left; kind 1 touching the colour-1 piece: colour 0.
        assert_eq!(p.allowed(0, &next), 0b01);
        assert_eq!(p.allowed(1, &next), 0b01);
        let mut far = Bits::EMPTY;
        far.insert(5);
        assert_eq!(p.allowed(1, &far), 0b11);
        p.clear();
        assert_eq!(p.allowed(0, &next), 0b11);
    }

    #[test]
    fn plain_palette_only_tracks_copies() {
        let mut p = Palette::new(4, false);
        let cells = Bits::below(3);
        p.place(0, 2, &cells);
        assert_eq!(p.allowed(0, &cells), 0b1011);
        assert_eq!(p.allowed(1, &cells), 0b1111);
    }

    /// Conflict sets from pairs.
    fn graph(n: usize, edges: &[(u16, u16)]) -> Vec<u128> {
        let mut g = vec![0u128; n];
        for &(a, b) in edges {
            g[a as usize] |= 1 << b;
            g[b as usize] |= 1 << a;
        }
        g
    }

    #[test]
    fn recolour_finds_colourings_keeps_fixed_ones_and_proves_impossibility() {
        // A 5-cycle needs 3 colours.
        let cycle = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
        let mut c = vec![NONE; 5];
        assert_eq!(
            recolour(&cycle, 2, &mut c, &[], 1000, &mut 0),
            Err(NoColouring::Impossible)
        );
        assert_eq!(c, vec![NONE; 5]);
        let mut c = vec![NONE, NONE, 2, NONE, NONE];
        recolour(&cycle, 3, &mut c, &[], 1000, &mut 0).unwrap();
        assert_eq!(c[2], 2);
        for (i, &js) in cycle.iter().enumerate() {
            for j in 0..5 {
                if js >> j & 1 != 0 {
                    assert_ne!(c[i], c[j]);
                }
            }
        }
        // A hint that fits is kept.
        let mut c = vec![NONE; 5];
        recolour(&cycle, 3, &mut c, &[2, 1, 2, 1, 0], 1000, &mut 0).unwrap();
        assert_eq!(c, vec![2, 1, 2, 1, 0]);
        // Fixed colours that already clash.
        let mut c = vec![1, 1, NONE, NONE, NONE];
        assert_eq!(
            recolour(&cycle, 3, &mut c, &[], 1000, &mut 0),
            Err(NoColouring::Impossible)
        );
        assert_eq!(c, vec![1, 1, NONE, NONE, NONE]);
        // K5 with 4 colours, with too few steps to decide.
        let k5: Vec<(u16, u16)> = (0..5)
            .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
            .collect();
        let mut c = vec![NONE; 5];
        assert_eq!(
            recolour(&graph(5, &k5), 4, &mut c, &[], 2, &mut 0),
            Err(NoColouring::GaveUp)
        );
    }
}
