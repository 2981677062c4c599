//! A player that picks uniformly among legal moves.

use blokus_core::{Game, PieChoice};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::{Budget, Decision, Player};

/// Uniformly random legal moves (the weakest baseline).
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    /// A random player with a seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn decide(&mut self, game: &Game, _budget: Budget) -> Decision {
        if game.position().awaiting_pie_choice() {
            return Decision::Pie(if self.rng.gen_bool(0.5) {
                PieChoice::Keep
            } else {
                PieChoice::Swap
            });
        }
        let moves = game.legal_moves();
        assert!(!moves.is_empty(), "decide called with no legal move");
        Decision::Place(moves[self.rng.gen_range(0..moves.len())])
    }
}
