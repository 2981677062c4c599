//! A variant together with the rule options chosen for one game.

use crate::geometry::GridKind;
use crate::ids::Colour;
use crate::movetable::MoveTable;
use crate::variant::{RuleOptions, Seat, StartRule, Variant, VariantData};

/// The complete rules of one game: the variant plus its options.
#[derive(Clone)]
pub struct Rules {
    /// The variant.
    pub variant: Variant,
    /// The options.
    pub options: RuleOptions,
}

impl Rules {
    /// Rules of a variant with the given options.
    pub fn new(variant: Variant, options: RuleOptions) -> Rules {
        Rules { variant, options }
    }

    /// Rules of a variant id or game name with default options.
    ///
    /// # Errors
    /// If the variant is unknown.
    pub fn by_name(name: &str) -> Result<Rules, crate::variant::UnknownVariant> {
        Ok(Rules::new(
            crate::variant::variant(name)?,
            RuleOptions::default(),
        ))
    }

    /// The variant's data.
    #[inline]
    pub fn v(&self) -> &VariantData {
        &self.variant
    }

    /// The placement table.
    #[inline]
    pub fn table(&self) -> &MoveTable {
        &self.variant.table
    }

    /// Number of colours.
    #[inline]
    pub fn num_colours(&self) -> usize {
        self.variant.colours.len()
    }

    /// The piece pool a colour draws from.
    #[inline]
    pub fn pool(&self, colour: Colour) -> usize {
        if self.variant.shared_pool {
            0
        } else {
            colour.index()
        }
    }

    /// Whether the alternate contact rule is in force.
    #[inline]
    pub fn alternate_contact(&self) -> bool {
        self.options.alternate_contact && self.variant.table.geometry().kind() == GridKind::Triangle
    }

    /// Whether the point-reflection opening is in force.
    #[inline]
    pub fn mirror_opening(&self) -> bool {
        !self.options.no_mirror_opening && !self.variant.mirror_pairs.is_empty()
    }

    /// Whether used starting points must alternate.
    #[inline]
    pub fn start_alternation(&self) -> bool {
        self.variant.alternate_starts && !self.options.no_start_alternation
    }

    /// The starting rule.
    pub fn start(&self) -> &StartRule {
        &self.variant.start
    }

    /// The seat of a colour.
    pub fn seat(&self, colour: Colour) -> &Seat {
        &self.variant.seats[colour.index()]
    }

    /// A colour's name.
    pub fn colour_name(&self, colour: Colour) -> &'static str {
        self.variant.colours[colour.index()]
    }

    /// Parses a colour given by name (`blue`), initial, 1-based number, or in two-colour
    /// variants `b`/`w` (SPEC 10 / GTP).
    pub fn parse_colour(&self, text: &str) -> Option<Colour> {
        let t = text.trim().to_ascii_lowercase();
        let n = self.num_colours();
        if n == 2 {
            match t.as_str() {
                "b" | "black" => return Some(Colour(0)),
                "w" | "white" => return Some(Colour(1)),
                _ => {}
            }
        }
        if let Ok(k) = t.parse::<usize>() {
            return (1..=n).contains(&k).then(|| Colour::new(k - 1));
        }
        self.variant
            .colours
            .iter()
            .position(|c| *c == t)
            .map(Colour::new)
    }
}
