//! Last good replies (with forgetting) for the playouts.
//!
//! After each simulation, every placement made by a side that won it is remembered as
//! the reply of its colour to the placement just before it (and to the two placements
//! before it); every placement of a losing side is forgotten if it was the remembered
//! reply. A playout then answers the same moves the same way when the reply is still
//! legal: replies that won before tend to keep winning, and a playout learns, during
//! one search, the answers that settle the local fights of this game.

use blokus_core::{Colour, Move, Position};

use crate::context::Context;

/// No reply remembered.
const NONE: u32 = u32::MAX;

/// Slots per colour for replies to the last two placements (a hash table; a collision
/// only costs a legality check).
const PAIR_SLOTS: usize = 1 << 16;

/// The replies of every colour, learnt during a search.
pub struct Replies {
    /// Moves in the variant's table.
    moves: usize,
    /// Per (colour, last placement): the reply.
    single: Vec<u32>,
    /// Per (colour, hash of the last two placements): the reply.
    pair: Vec<u32>,
}

impl Replies {
    /// Empty tables for the context's variant.
    pub fn new(ctx: &Context) -> Replies {
        let moves = ctx.rules.table().len();
        Replies {
            moves,
            single: vec![NONE; ctx.num_colours * moves],
            pair: vec![NONE; ctx.num_colours * PAIR_SLOTS],
        }
    }

    /// Forgets every reply.
    pub fn clear(&mut self) {
        self.single.fill(NONE);
        self.pair.fill(NONE);
    }

    fn single_slot(&self, colour: usize, last: Move) -> usize {
        colour * self.moves + last.index()
    }

    fn pair_slot(colour: usize, last: Move, before: Move) -> usize {
        let h = (last.index() as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add((before.index() as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
        colour * PAIR_SLOTS + (h >> 48) as usize % PAIR_SLOTS
    }

    /// The replies remembered for `colour` after `last` (and `before` it): to the two
    /// placements first, then to the last one.
    pub fn candidates(&self, colour: usize, last: Move, before: Option<Move>) -> [Option<Move>; 2] {
        let get = |v: u32| (v != NONE).then(|| Move::new(v as usize));
        [
            before.and_then(|b| get(self.pair[Self::pair_slot(colour, last, b)])),
            get(self.single[self.single_slot(colour, last)]),
        ]
    }

    /// Learns from one simulation: `seq` is its placements (colour, move) in order,
    /// learning starts at index `from` (earlier ones are context only), `winner` is
    /// the side that won it alone (none on a tie) and `pos` the final position (for the
    /// sides).
    pub fn learn(
        &mut self,
        ctx: &Context,
        pos: &Position,
        seq: &[(usize, Move)],
        from: usize,
        winner: Option<usize>,
    ) {
        for i in from.max(1)..seq.len() {
            let (c, m) = seq[i];
            let last = seq[i - 1].1;
            let before = (i >= 2).then(|| seq[i - 2].1);
            let side = ctx.side_of_mover(pos, Colour::new(c)).index();
            let won = winner == Some(side);
            let s = self.single_slot(c, last);
            let p = before.map(|b| Self::pair_slot(c, last, b));
            let reply = m.index() as u32;
            if won {
                self.single[s] = reply;
                if let Some(p) = p {
                    self.pair[p] = reply;
                }
            } else {
                if self.single[s] == reply {
                    self.single[s] = NONE;
                }
                if let Some(p) = p {
                    if self.pair[p] == reply {
                        self.pair[p] = NONE;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::Rules;

    #[test]
    fn winners_replies_are_kept_and_losers_forgotten() {
        let rules = Rules::by_name("duo").unwrap();
        let ctx = Context::new(&rules);
        let mut r = Replies::new(&ctx);
        let pos = Position::new(&rules);
        let (a, b, c) = (Move::new(10), Move::new(20), Move::new(30));
        let seq = [(0, a), (1, b), (0, c)];
        // Colour 0 (side 0) won: its reply c to b (after a) is kept; colour 1 lost.
        r.learn(&ctx, &pos, &seq, 0, Some(0));
        assert_eq!(r.candidates(0, b, Some(a)), [Some(c), Some(c)]);
        assert_eq!(r.candidates(1, a, Some(b)), [None, None]);
        // Now colour 0 lost the same sequence: the reply is forgotten.
        r.learn(&ctx, &pos, &seq, 0, Some(1));
        assert_eq!(r.candidates(0, b, Some(a)), [None, None]);
        // Colour 1's reply b to a had no placement before a: only the single table.
        assert_eq!(r.candidates(1, a, None), [None, Some(b)]);
        r.clear();
        assert_eq!(r.candidates(1, a, None), [None, None]);
    }
}
