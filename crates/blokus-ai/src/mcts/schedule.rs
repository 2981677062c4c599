//! How a simulation budget is spread over a game's moves.

use blokus_core::{GridKind, Position};

use crate::context::Context;

/// How a simulation budget (a level's or `simulations`) is spread over a game's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Schedule {
    /// The same budget for every move.
    #[default]
    Flat,
    /// Fewer simulations for a colour's first placements, more as its game goes on: the
    /// budget times `0.7·e^(0.1·k)` for the colour's placement number `k` (from 0.7 at
    /// the first to about 5 at the twentieth), less again for the first few, whose moves
    /// are pruned hardest. Late simulations are short and the search stops once the move
    /// cannot change, so a game costs far less than the counts suggest; the opening,
    /// where the prior decides most, costs less too.
    Growing,
}

impl Schedule {
    /// The simulations for the next placement of the colour to move in `pos`, out of a
    /// budget of `sims` per move.
    pub fn simulations(self, sims: u64, ctx: &Context, pos: &Position) -> u64 {
        if self == Schedule::Flat {
            return sims;
        }
        let k = pos.pieces_placed(pos.to_move());
        // The first placements search fewer moves: the biggest pieces only, and on
        // Classic-sized boards only those reaching for the centre (the search's pruning).
        let first: &[f32] = if ctx.rules.table().geometry().kind() == GridKind::Triangle {
            &[0.2, 0.5, 0.6, 0.8]
        } else if ctx.centre_reach.is_some() {
            &[0.2, 0.2, 0.3]
        } else {
            &[0.6]
        };
        let w = 0.7 * (0.1 * k as f32).exp() * first.get(k).copied().unwrap_or(1.0);
        ((sims as f64 * f64::from(w)).round() as u64).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::{Game, Rules};

    #[test]
    fn a_growing_schedule_spends_little_on_the_first_placements_and_more_later() {
        for (variant, first) in [("classic_2", 140), ("duo", 420), ("trigon_2", 140)] {
            let rules = Rules::by_name(variant).unwrap();
            let ctx = Context::new(&rules);
            let flat = |g: &Game| Schedule::Flat.simulations(1_000, &ctx, g.position());
            let grow = |g: &Game| Schedule::Growing.simulations(1_000, &ctx, g.position());
            let mut game = Game::new(rules.clone());
            assert_eq!(flat(&game), 1_000, "{variant}");
            assert_eq!(
                grow(&game),
                first,
                "{variant}: 1,000 x 0.7 x the first-move share"
            );
            // Play until the colour to move has made ten placements.
            while game.position().pieces_placed(game.position().to_move()) < 10 {
                let m = game.legal_moves()[0];
                game.play(m).unwrap();
            }
            // 1,000 x 0.7 x e^1.
            assert_eq!(grow(&game), 1_903, "{variant}");
            assert_eq!(flat(&game), 1_000, "{variant}");
        }
    }
}
