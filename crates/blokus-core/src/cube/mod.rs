//! Blokus 3D (Rumis, SPEC 5.1): the third board family, with cubes instead of cells.
//!
//! Stones are polycubes turned in 3D ([`stone`]); a site is a footprint with a height
//! limit per number of players, read from data ([`site`]); every placement of every
//! stone in a site's box is precomputed ([`table`]); a [`CubePosition`] keeps the filled
//! voxels per colour and checks support from below and face contact; [`score`] counts
//! the top view; [`playout`] plays random games without allocating; [`notation`]
//! writes cubes with their level (`c4.2`); [`render`] shows a position as text.
//!
//! ```
//! use blokus_core::cube::{CubeGame, CubeRules, Seating, Site};
//!
//! let rules = CubeRules::new(Seating::Two, Site::builtin("plaza").unwrap());
//! let mut game = CubeGame::new(rules);
//! game.play_text("a1.1,b1.1").unwrap();
//! game.play_text("a1.2,a2.1,a2.2").unwrap();
//! assert_eq!(game.position().stones_placed(), 2);
//! ```

pub mod game;
pub mod notation;
pub mod playout;
pub mod position;
pub mod record;
pub mod render;
pub mod rules;
pub mod score;
pub mod site;
pub mod stone;
pub mod table;
pub mod variant;
pub mod voxel;

pub use game::{CubeGame, CubeGameError};
pub use notation::CubeNotationError;
pub use playout::CubePlayout;
pub use position::{CubeIllegal, CubePosition};
pub use rules::{CubeRules, Seating, CUBE_COLOURS};
pub use site::{Site, SiteError, BUILTIN_SITES};
pub use stone::Stone;
pub use table::{CubeMove, CubeTable, Placement};
pub use variant::{AnyVariant, CubeVariantId, UnknownAnyVariant, UnknownSite, DEFAULT_SITE};
pub use voxel::{Voxel, VoxelSet};
