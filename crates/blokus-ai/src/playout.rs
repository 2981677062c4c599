//! Knowledge-guided playouts: uniform legal draws from blokus-core's [`Playout`] (no
//! move lists while the board is open, exact lists updated incrementally near the end),
//! biased towards large pieces by keeping the biggest of [`DRAWS`] draws. Allocation-free.

use blokus_core::playout::Playout;
use blokus_core::position::MAX_COLOURS;
use blokus_core::{Move, PieChoice, Position};
use rand::rngs::SmallRng;
use rand::Rng;

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
    /// to date: only its placements, which is what scoring reads). `on_move(ply, colour,
    /// move)` sees every placement; `ply` counts on from `first_ply`.
    pub fn run(
        &mut self,
        ctx: &Context,
        pos: &mut Position,
        rng: &mut SmallRng,
        first_ply: usize,
        mut on_move: impl FnMut(usize, usize, Move),
    ) {
        if pos.is_over() {
            return;
        }
        let rules = &ctx.rules;
        let t = rules.table();
        let size = |m: Move| t.info(m).cells().len() as u32;
        self.playout.begin(rules);
        let n = ctx.num_colours;
        let mut dead = [false; MAX_COLOURS];
        let mut ply = first_ply;
        let mut idle = 0;
        let mut c = pos.to_move();
        while idle < n {
            if pos.awaiting_pie_choice() {
                let choice = if rng.gen_bool(0.5) {
                    PieChoice::Keep
                } else {
                    PieChoice::Swap
                };
                pos.choose_pie(rules, choice)
                    .expect("pie choice is pending");
                if pos.is_over() {
                    return;
                }
                c = pos.to_move();
                continue;
            }
            let mv = if dead[c] {
                None
            } else {
                self.playout.draw_best(rules, pos, c, rng, DRAWS, size)
            };
            match mv {
                Some(m) => {
                    on_move(ply, c, m);
                    ply += 1;
                    pos.place(rules, c, m);
                    idle = 0;
                    if rules.v().pie
                        && pos.pie_choice().is_none()
                        && pos.first_move(0).is_some()
                        && pos.first_move(1).is_some()
                    {
                        pos.set_awaiting_pie(true);
                        continue;
                    }
                }
                None => {
                    dead[c] = true;
                    idle += 1;
                }
            }
            c = (c + 1) % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::{Rules, VARIANT_IDS};
    use rand::SeedableRng;

    #[test]
    fn playouts_play_legal_moves_to_the_end_in_every_variant() {
        let mut rng = SmallRng::seed_from_u64(5);
        for id in VARIANT_IDS {
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
