//! The strict search's colours: every partial tiling stays coloured (each colour one
//! copy of each kind, no two pieces of a colour sharing an edge), or is abandoned.
//!
//! A new piece takes a colour the [`crate::colour::Palette`] leaves it, chosen to bar
//! the fewest empty cells; failing that, a piece or two blocking one colour move aside
//! ([`Engine::repair`]); failing that, every piece is coloured again by DSatur
//! ([`colour::recolour`]) within a step limit. Colours are never search choices: a
//! piece's colour may change whenever a later piece needs it to, so the exact-cover
//! search does not branch on them.

use super::{Engine, State, Stats};
use crate::bits::Bits;
use crate::colour::{self, NoColouring, NONE};

impl Engine {
    /// Strict rule: colours the latest placement, colouring every piece again if it
    /// has no colour left; `false` if the pieces cannot be coloured (a dead end).
    /// Colours changed on the way are saved in `before`. Other tilings: nothing to do.
    pub(super) fn colour_latest(
        &self,
        s: &mut State,
        stats: &mut Stats,
        before: &mut Option<Vec<u8>>,
    ) -> bool {
        if !self.colour_in_search {
            return true;
        }
        let last = s.stack.len() - 1;
        let p = s.stack[last].0 as usize;
        let pl = &self.places[p];
        let kind = pl.kind as usize;
        let open = s.palette.allowed(kind, &pl.bits);
        if open != 0 {
            let c = self.pick_colour(s, open, &pl.around);
            s.stack[last].1 = c;
            s.palette.place(kind, c, &pl.around);
            return true;
        }
        stats.recolourings += 1;
        let mut colours: Vec<u8> = s.stack.iter().map(|&(_, c)| c).collect();
        if self.repair(s, &mut colours) {
            stats.repairs += 1;
        } else {
            let conflicts = self.conflicts(&s.stack);
            let hint = colours.clone();
            for c in &mut colours[s.fixed..] {
                *c = NONE;
            }
            if let Err(why) = colour::recolour(
                &conflicts,
                self.colours,
                &mut colours,
                &hint,
                s.recolour_limit,
                &mut stats.colour_steps,
            ) {
                stats.colour_dead_ends += 1;
                if why == NoColouring::GaveUp {
                    stats.colour_give_ups += 1;
                    s.gave_up = true;
                }
                return false;
            }
        }
        *before = Some(s.stack.iter().map(|&(_, c)| c).collect());
        s.palette.clear();
        for (e, c) in s.stack.iter_mut().zip(colours) {
            e.1 = c;
            let pl = &self.places[e.0 as usize];
            s.palette.place(pl.kind as usize, c, &pl.around);
        }
        true
    }

    /// Of the `open` colours for a new piece with neighbour cells `around`, the one
    /// that restricts the empty cells around it least: the colour already barred from
    /// most of them (ties: the seed's colour order).
    fn pick_colour(&self, s: &State, open: u8, around: &Bits) -> u8 {
        let mut best = (NONE, 0usize);
        for &c in &self.colour_order[..self.colours] {
            if open >> c & 1 != 0 {
                let mut barred = s.palette.barred(c);
                barred.intersect_with(around);
                barred.subtract(&s.covered);
                let score = barred.len() + 1;
                if score > best.1 {
                    best = (c, score);
                }
            }
        }
        best.0
    }

    /// Whether piece `j` of the stack conflicts with piece `i`.
    #[inline]
    fn in_conflict(&self, stack: &[(u32, u8)], i: usize, j: usize) -> bool {
        let a = &self.places[stack[i].0 as usize];
        let b = &self.places[stack[j].0 as usize];
        i != j && (a.kind == b.kind || (self.tiling.strict && !a.around.is_disjoint(&b.bits)))
    }

    /// The colours worn by pieces in conflict with piece `i`.
    fn worn_around(&self, stack: &[(u32, u8)], colours: &[u8], i: usize) -> u8 {
        (0..stack.len())
            .filter(|&j| colours[j] != NONE && self.in_conflict(stack, i, j))
            .fold(0, |m, j| m | 1 << colours[j])
    }

    /// A cheap repair for the latest piece, which has no colour left: for some colour,
    /// every piece wearing it in conflict with the new one moves to another colour its
    /// own conflicts leave. Sets `colours` (the new piece's included) on success.
    fn repair(&self, s: &State, colours: &mut [u8]) -> bool {
        let last = colours.len() - 1;
        for &c in &self.colour_order[..self.colours] {
            let blockers: Vec<usize> = (0..last)
                .filter(|&j| colours[j] == c && self.in_conflict(&s.stack, last, j))
                .collect();
            if blockers.iter().any(|&j| j < s.fixed) {
                continue;
            }
            let saved: Vec<u8> = blockers.iter().map(|&j| colours[j]).collect();
            // The new piece takes c first, so no blocker can move back to it.
            colours[last] = c;
            let mut ok = true;
            for &j in &blockers {
                let worn = self.worn_around(&s.stack, colours, j) | 1 << c;
                let free = !worn & ((1u16 << self.colours) - 1) as u8;
                if free == 0 {
                    ok = false;
                    break;
                }
                colours[j] = free.trailing_zeros() as u8;
            }
            if ok {
                return true;
            }
            for (&j, &old) in blockers.iter().zip(&saved) {
                colours[j] = old;
            }
            colours[last] = NONE;
        }
        false
    }

    /// Per placed piece, the pieces it must not share a colour with: copies of its
    /// kind, and (strict rule) its edge neighbours.
    fn conflicts(&self, stack: &[(u32, u8)]) -> Vec<u128> {
        let mut out = vec![0u128; stack.len()];
        for i in 0..stack.len() {
            for j in i + 1..stack.len() {
                if self.in_conflict(stack, i, j) {
                    out[i] |= 1 << j;
                    out[j] |= 1 << i;
                }
            }
        }
        out
    }
}
