//! Seat rotation: who moves first at a table.

use crate::entrant::EntrantId;
use crate::ledger::Ledger;

/// The players of a table in seat order (seat 0 moves first): of all orders, the one where
/// the players have had their seats fewest times before (summed over the table), then
/// where fewest repeat their last game's seat, then the first in the table's own order.
pub fn seat_order(players: &[EntrantId], ledger: &Ledger) -> Vec<EntrantId> {
    let cost = |order: &[EntrantId]| {
        order
            .iter()
            .enumerate()
            .fold((0u32, 0u32), |(had, repeat), (seat, &id)| {
                let record = ledger.record(id);
                let counts = record.seat_counts();
                (
                    had + counts.get(seat).copied().unwrap_or(0),
                    repeat + u32::from(record.last_seat() == Some(seat)),
                )
            })
    };
    let mut best: Option<((u32, u32), Vec<EntrantId>)> = None;
    for order in permutations(players) {
        let c = cost(&order);
        if best.as_ref().is_none_or(|(b, _)| c < *b) {
            best = Some((c, order));
        }
    }
    best.map(|(_, o)| o).unwrap_or_default()
}

/// Every order of `items`, in lexicographic order of positions.
fn permutations(items: &[EntrantId]) -> Vec<Vec<EntrantId>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let mut rest = items.to_vec();
        rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            all.push(tail);
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_of_four_are_all_distinct() {
        let ids: Vec<EntrantId> = (0..4).map(EntrantId).collect();
        let mut p = permutations(&ids);
        assert_eq!(p.len(), 24);
        assert_eq!(p[0], ids);
        p.sort();
        p.dedup();
        assert_eq!(p.len(), 24);
    }
}
