//! Blokus players behind one [`Player`] trait: random, greedy (one-move heuristic) and
//! Monte-Carlo tree search with strength levels, time limits and threads.
//!
//! ```
//! use blokus_ai::{player_from_spec, Budget, Decision};
//! use blokus_core::{Game, Rules};
//!
//! let game = Game::new(Rules::by_name("duo").unwrap());
//! let mut ai = player_from_spec("mcts:simulations=50,seed=1").unwrap();
//! assert!(matches!(ai.decide(&game, Budget::default()), Decision::Place(_)));
//! ```
#![deny(missing_docs)]

pub mod analysis;
pub mod book;
mod context;
pub mod cube;
pub mod endgame;
mod features;
mod greedy;
pub mod mcts;
mod player;
pub mod playout;
pub mod policy;
mod random;
mod replies;
mod spec;

pub use analysis::{Analyzer, MoveClass, PositionEval, RatedMove, Rating};
pub use context::{Context, Values, MAX_SIDES};
pub use features::{mirror_symmetry, Features, MoveScorer};
pub use greedy::GreedyPlayer;
pub use mcts::{MctsOptions, MctsPlayer, PolicyChoice, Schedule};
pub use player::{Budget, Decision, Player, SpecError};
pub use random::RandomPlayer;
pub use spec::{player_from_spec, with_default_seed, with_seed, PLAYER_KINDS};
