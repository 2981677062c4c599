//! The solitaire puzzles of Blokus (SPEC 7): exact-cover tilings of rectangles and
//! rule-aware placement of every piece on a game board.
//!
//! ```
//! use blokus_solver::tiling::{parse_pieces, solve, Tiling};
//!
//! let t = Tiling { width: 10, height: 6, kinds: parse_pieces("pentominoes").unwrap(),
//!                  colours: None, strict: false };
//! let (solution, _stats) = solve(t, 0, &mut |_| {}).unwrap();
//! assert_eq!(solution.unwrap().len(), 12);
//! ```
#![deny(missing_docs)]

pub mod bits;
mod colour;
pub mod count;
pub mod fill;
mod order;
pub mod play;
pub mod puzzle;
mod restart;
mod symmetric;
pub mod tiling;
