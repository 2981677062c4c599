//! The rules of Blokus and its variants: one source of truth for every entry point.
//!
//! ```
//! use blokus_core::{Game, Rules};
//!
//! let mut game = Game::new(Rules::by_name("duo").unwrap());
//! assert_eq!(game.legal_moves().len(), 414);
//! game.play_text("d9,c10,d10,e10,d11").unwrap();
//! assert_eq!(game.legal_moves().len(), 414);
//! ```
#![deny(missing_docs)]

mod bitset;
pub mod cube;
pub mod game;
pub mod geometry;
pub mod ids;
pub mod movelists;
pub mod movetable;
pub mod notation;
pub mod piece;
pub mod playout;
pub mod position;
pub mod record;
pub mod render;
pub mod rules;
pub mod score;
pub mod seed;
pub mod variant;

pub use bitset::{CellSet, MAX_CELLS};
pub use game::{Game, GameError, GameEvent};
pub use geometry::{BoardShape, Cell, Geometry, GridKind};
pub use ids::{ByColour, Colour, PlayerId, Side};
pub use movelists::MoveLists;
pub use movetable::{Move, MoveTable};
pub use piece::{PieceSet, PieceSetId};
pub use position::{Illegal, PieChoice, Position};
pub use rules::Rules;
pub use variant::{
    all_variants, variant, Family, RuleOptions, Scoring, StartRule, UnknownRuleOption, Variant,
    VariantId,
};
