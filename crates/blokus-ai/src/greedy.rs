//! A player that looks one move ahead with a hand-made heuristic.

use blokus_core::Colour;
use blokus_core::{Game, PieChoice};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::context::Context;
use crate::features::MoveScorer;
use crate::{Budget, Decision, Player};

/// Plays the move with the best one-move heuristic: piece size, attach points gained,
/// opponents' attach points blocked, and closeness to the centre in the opening. Ties
/// are broken at random (seeded).
pub struct GreedyPlayer {
    rng: SmallRng,
    ctx: Option<Context>,
}

impl GreedyPlayer {
    /// A greedy player with a seed for tie-breaking.
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: SmallRng::seed_from_u64(seed),
            ctx: None,
        }
    }
}

/// The pie choice by a static look at the two opening pieces: Blue moves next, so the
/// chooser keeps Blue unless Orange's piece is clearly bigger.
pub(crate) fn static_pie_choice(game: &Game) -> PieChoice {
    let pos = game.position();
    let t = game.rules().table();
    let size = |c: usize| {
        pos.first_move(Colour::new(c))
            .map_or(0, |m| t.info(m).cells().len())
    };
    if size(1) > size(0) + 1 {
        PieChoice::Swap
    } else {
        PieChoice::Keep
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn decide(&mut self, game: &Game, _budget: Budget) -> Decision {
        if game.position().awaiting_pie_choice() {
            return Decision::Pie(static_pie_choice(game));
        }
        let ctx = match &self.ctx {
            Some(c) if c.matches(game.rules()) => c,
            _ => self.ctx.insert(Context::new(game.rules())),
        };
        let scorer = MoveScorer::new(ctx, game.position());
        let mut best = None;
        let mut best_score = f32::MIN;
        let mut ties = 0u32;
        for m in game.legal_moves() {
            let s = scorer.score(m);
            if s > best_score {
                best_score = s;
                best = Some(m);
                ties = 1;
            } else if s == best_score {
                // Reservoir sampling among equal moves.
                ties += 1;
                if self.rng.gen_range(0..ties) == 0 {
                    best = Some(m);
                }
            }
        }
        Decision::Place(best.expect("decide called with no legal move"))
    }
}
