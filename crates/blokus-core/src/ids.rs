//! Small typed indices: a colour, a player and a side (team) of a variant, so a player
//! number cannot be passed where a colour is meant. Each wraps its 0-based index;
//! [`index`](Colour::index) gives it back for indexing tables.

macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub u8);

        impl $name {
            #[doc = concat!("The ", $what, " with this 0-based index.")]
            ///
            /// # Panics
            /// If the index does not fit (no variant has more than 255).
            #[inline]
            pub fn new(index: usize) -> $name {
                $name(u8::try_from(index).expect(concat!($what, " index out of range")))
            }

            /// The 0-based index.
            #[inline]
            pub fn index(self) -> usize {
                usize::from(self.0)
            }

            #[doc = concat!("Every ", $what, " of `count`, in order.")]
            pub fn all(count: usize) -> impl Iterator<Item = $name> {
                (0..count).map($name::new)
            }
        }

        impl From<$name> for usize {
            #[inline]
            fn from(x: $name) -> usize {
                x.index()
            }
        }

    };
}

index_type!(
    /// A colour of a variant, in turn order (Blue is 0 in Classic).
    Colour,
    "colour"
);
index_type!(
    /// A player of a variant: also the seat at a table that plays them.
    PlayerId,
    "player"
);
index_type!(
    /// A side: a team, or a player when the variant has no teams. Results are per side.
    Side,
    "side"
);

/// The 1-based number people use (`player 1` is index 0). A colour has no such text:
/// it is named by its variant (`Rules::colour_name`), and formatting its index by
/// accident would change stored and wire texts.
macro_rules! one_based_display {
    ($name:ident, $what:literal) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{} {}", $what, self.index() + 1)
            }
        }
    };
}
one_based_display!(PlayerId, "player");
one_based_display!(Side, "side");

impl Colour {
    /// The colour after this one in turn order, among `count` colours.
    #[inline]
    pub fn next(self, count: usize) -> Colour {
        Colour::new((self.index() + 1) % count)
    }

    /// The other colour of a two-colour game (the pie rule's opponent).
    #[inline]
    pub fn other_of_two(self) -> Colour {
        Colour::new(1 - self.index())
    }
}

/// One value per colour (room for `N` colours), indexed by [`Colour`], so a per-colour
/// table cannot be indexed by a player or a side by mistake.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ByColour<T, const N: usize>(pub [T; N]);

impl<T, const N: usize> std::ops::Index<Colour> for ByColour<T, N> {
    type Output = T;
    #[inline]
    fn index(&self, c: Colour) -> &T {
        &self.0[c.index()]
    }
}

impl<T, const N: usize> std::ops::IndexMut<Colour> for ByColour<T, N> {
    #[inline]
    fn index_mut(&mut self, c: Colour) -> &mut T {
        &mut self.0[c.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip_and_print_one_based() {
        assert_eq!(PlayerId::new(2).index(), 2);
        assert_eq!(PlayerId::new(0).to_string(), "player 1");
        assert_eq!(
            Colour::all(3).collect::<Vec<_>>(),
            [Colour(0), Colour(1), Colour(2)]
        );
        assert_eq!(serde_json::to_string(&Side(1)).unwrap(), "1");
    }
}
