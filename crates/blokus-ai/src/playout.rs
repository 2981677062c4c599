//! Knowledge-guided playouts: uniform legal draws from blokus-core's [`Playout`] (no
//! move lists while the board is open, exact lists updated incrementally near the end),
//! biased towards large pieces by keeping the biggest of [`DRAWS`] draws. Allocation-free.

use blokus_core::playout::Playout;
use blokus_core::{Move, Position};
use rand::rngs::SmallRng;

use crate::context::Context;

/// Uniform legal draws compared for each playout move; the biggest piece is played.
/// Two is what the simulation rate and the level ladder favoured.
pub const DRAWS: usize = 2;

/// Reusable scratch space for playouts of one variant. Allocates when built and when a
/// list first grows; a playout itself does not allocate.
pub struct Playouts {
    playout: Playout,
}

impl Playouts {
    /// Scratch space for games under the context's rules.
    pub fn new(ctx: &Context) -> Playouts {
        Playouts {
            playout: Playout::new(&ctx.rules),
        }
    }

    /// Plays `pos` to the end of the game (the turn bookkeeping of `pos` is not kept up
    /// to date: only its placements, which is what scoring reads), with core's playout
    /// loop. `on_move(ply, colour, move)` sees every placement; `ply` counts on from
    /// `first_ply`.
    pub fn run(
        &mut self,
        ctx: &Context,
        pos: &mut Position,
        rng: &mut SmallRng,
        first_ply: usize,
        mut on_move: impl FnMut(usize, usize, Move),
    ) {
        let t = ctx.rules.table();
        let size = |m: Move| t.info(m).cells().len() as u32;
        let mut ply = first_ply;
        self.playout
            .run_biased(&ctx.rules, pos, rng, DRAWS, size, |c, m| {
                on_move(ply, c, m);
                ply += 1;
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::{Rules, VariantId};
    use rand::SeedableRng;

    #[test]
    fn playouts_play_legal_moves_to_the_end_in_every_variant() {
        let mut rng = SmallRng::seed_from_u64(5);
        for id in VariantId::ALL.map(VariantId::as_str) {
            let mut rules = Rules::by_name(id).unwrap();
            for alt in [false, true] {
                rules.options.alternate_contact = alt;
                let ctx = Context::new(&rules);
                let mut playouts = Playouts::new(&ctx);
                for _ in 0..4 {
                    let mut pos = Position::new(&rules);
                    let mut moves = Vec::new();
                    playouts.run(&ctx, &mut pos, &mut rng, 0, |_, c, m| moves.push((c, m)));
                    // Replay with the rules' own checks.
                    let mut replay = Position::new(&rules);
                    for &(c, m) in &moves {
                        assert!(
                            replay.check_placement(&rules, c, m).is_ok(),
                            "{id}: illegal playout move"
                        );
                        replay.place(&rules, c, m);
                    }
                    for c in 0..rules.num_colours() {
                        assert!(
                            !replay.has_legal_move(&rules, c),
                            "{id}: colour {c} could still move"
                        );
                    }
                }
            }
        }
    }
}
