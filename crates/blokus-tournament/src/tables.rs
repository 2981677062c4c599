//! How many tables of which size a round has, and which variant a smaller table plays.

use blokus_core::VariantId;

use crate::config::ShortTables;

/// The table sizes of a round (largest first) and the number of byes, for `players`
/// players at tables of `seats`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablePlan {
    /// Seats of each table, largest first.
    pub sizes: Vec<usize>,
    /// Players who sit out with a bye.
    pub byes: usize,
}

impl TablePlan {
    /// With [`ShortTables::Byes`]: full tables and a bye for each player left over. With
    /// [`ShortTables::Smaller`]: as few tables as hold everyone, their sizes differing by at
    /// most one (so as many full tables as possible with no table below `seats - 1` when
    /// that can be done); a table of one is a bye.
    pub fn new(players: usize, seats: usize, short: ShortTables) -> TablePlan {
        let seats = seats.max(1);
        match short {
            ShortTables::Byes => TablePlan {
                sizes: vec![seats; players / seats],
                byes: players % seats,
            },
            ShortTables::Smaller => {
                let tables = players.div_ceil(seats);
                if tables == 0 {
                    return TablePlan {
                        sizes: vec![],
                        byes: 0,
                    };
                }
                let base = players / tables;
                let extra = players % tables;
                let mut sizes: Vec<usize> =
                    (0..tables).map(|i| base + usize::from(i < extra)).collect();
                let byes = sizes.iter().filter(|&&s| s == 1).count();
                sizes.retain(|&s| s > 1);
                TablePlan { sizes, byes }
            }
        }
    }

    /// The players seated at tables.
    pub fn seated(&self) -> usize {
        self.sizes.iter().sum()
    }
}

/// The variant a table of `seats` players plays in an event of `variant`: the variant itself
/// at full size, else the variant of the same family (same id before the first `_`) with
/// that many players and no teams (`classic` at 3 seats: `classic_3`; `trigon` at 2:
/// `trigon_2`). `None` when the family has none (`duo` has no 1-player form,
/// `classic_teams` no 3-player one).
pub fn table_variant(variant: VariantId, seats: usize) -> Option<VariantId> {
    let full = variant.variant();
    if full.players == seats {
        return Some(variant);
    }
    if full.teams.is_some() {
        return None;
    }
    let family = |id: VariantId| id.as_str().split('_').next();
    VariantId::ALL
        .into_iter()
        .filter(|&id| family(id) == family(variant))
        .map(VariantId::variant)
        .find(|v| v.players == seats && v.teams.is_none())
        .map(|v| v.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byes_fill_full_tables_only() {
        let p = TablePlan::new(10, 4, ShortTables::Byes);
        assert_eq!((p.sizes, p.byes), (vec![4, 4], 2));
        let p = TablePlan::new(7, 2, ShortTables::Byes);
        assert_eq!((p.sizes, p.byes), (vec![2, 2, 2], 1));
    }

    #[test]
    fn smaller_tables_are_as_even_as_possible() {
        let sizes = |n| TablePlan::new(n, 4, ShortTables::Smaller).sizes;
        assert_eq!(sizes(8), vec![4, 4]);
        assert_eq!(sizes(9), vec![3, 3, 3]);
        assert_eq!(sizes(10), vec![4, 3, 3]);
        assert_eq!(sizes(11), vec![4, 4, 3]);
        assert_eq!(sizes(5), vec![3, 2]);
        let p = TablePlan::new(5, 2, ShortTables::Smaller);
        assert_eq!((p.sizes, p.byes), (vec![2, 2], 1));
    }

    #[test]
    fn smaller_tables_play_the_family_variant() {
        use VariantId::*;
        assert_eq!(table_variant(Classic, 4), Some(Classic));
        assert_eq!(table_variant(Classic, 3), Some(Classic3));
        assert_eq!(table_variant(Classic, 2), Some(Classic2));
        assert_eq!(table_variant(Trigon, 3), Some(Trigon3));
        assert_eq!(table_variant(Trigon3, 2), Some(Trigon2));
        assert_eq!(table_variant(ClassicTeams, 3), None);
        assert_eq!(table_variant(Duo, 1), None);
    }
}
