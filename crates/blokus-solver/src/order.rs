//! A legal placement order for a finished board.
//!
//! A search that builds the final arrangement directly (see `symmetric.rs`) still has to
//! hand back the placements in an order each of which the rules accept when made. The
//! rules engine itself decides: a placement is made as soon as blokus-core says it is
//! legal.
//!
//! Greedy placement is enough. In a finished board no pieces overlap and no two pieces of
//! a colour share an edge, so placing one piece never makes another piece of the same
//! board illegal; it only adds attach points. So if any legal order exists, placing
//! whatever is legal now never gets stuck. With `decreasing`, the pieces go by size class
//! (largest first), greedily within each class.

use blokus_core::Colour;
use blokus_core::{Move, Position, Rules};

/// Orders `board` (every placement of the finished board, as (colour, move)) so that
/// each placement is legal when made, after `prefix` (placements already made, all of
/// which are also in `board`). Colours take turns where they can, largest pieces first,
/// so the order reads like a game. With `decreasing`, no piece follows a smaller one
/// (counting the prefix).
///
/// Returns `None` when no such order exists (the board's pieces of a colour are not
/// corner-connected to its start, a prefix move is not in `board`, or a larger piece
/// would have to follow the prefix's last, smaller one).
pub(crate) fn legal_order(
    rules: &Rules,
    prefix: &[(Colour, Move)],
    board: &[(Colour, Move)],
    decreasing: bool,
) -> Option<Vec<(Colour, Move)>> {
    let table = rules.table();
    let size = |m: Move| table.info(m).cells().len();
    let mut rest: Vec<(Colour, Move)> = board.to_vec();
    let mut pos = Position::new(rules);
    for &(c, m) in prefix {
        let i = rest.iter().position(|&x| x == (c, m))?;
        rest.swap_remove(i);
        pos.place(rules, c, m);
    }
    // Largest first, then by colour and move so the result does not depend on the
    // order `board` came in.
    rest.sort_by_key(|&(c, m)| (std::cmp::Reverse(size(m)), c, m));
    let mut out = prefix.to_vec();
    let mut last = prefix.last().map_or(usize::MAX, |&(_, m)| size(m));
    let colours = rules.num_colours();
    let mut turn = 0;
    while !rest.is_empty() {
        // The size class now being placed: everything, or the largest size left.
        let class = if decreasing {
            let largest = size(rest[0].1);
            if largest > last {
                return None;
            }
            largest
        } else {
            0
        };
        let mut idle = 0;
        loop {
            let c = turn % colours;
            turn += 1;
            let pick = rest.iter().position(|&(pc, m)| {
                pc == Colour::new(c) && size(m) >= class && pos.is_legal(rules, Colour::new(c), m)
            });
            match pick {
                Some(i) => {
                    let (pc, m) = rest.remove(i);
                    pos.place(rules, pc, m);
                    out.push((pc, m));
                    last = size(m);
                    idle = 0;
                }
                None => idle += 1,
            }
            let class_done = !rest.iter().any(|&(_, m)| size(m) >= class);
            if class_done {
                break;
            }
            if idle >= colours {
                return None;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Rules {
        Rules::by_name("classic").unwrap()
    }

    fn mv(rules: &Rules, cells: &str) -> Move {
        blokus_core::notation::parse_move(rules.table(), cells).unwrap()
    }

    #[test]
    fn orders_a_shuffled_board_legally() {
        let r = classic();
        // Blue: a monomino in its corner, then a domino touching it at a corner.
        let board = vec![(Colour(0), mv(&r, "b19,c19")), (Colour(0), mv(&r, "a20"))];
        let order = legal_order(&r, &[], &board, false).unwrap();
        assert_eq!(
            order,
            vec![(Colour(0), mv(&r, "a20")), (Colour(0), mv(&r, "b19,c19"))]
        );
        // Decreasing: the domino must come first, and cannot (it misses the corner).
        assert!(legal_order(&r, &[], &board, true).is_none());
    }

    #[test]
    fn refuses_disconnected_pieces_and_foreign_prefixes() {
        let r = classic();
        let board = vec![(Colour(0), mv(&r, "a20")), (Colour(0), mv(&r, "e15"))];
        assert!(legal_order(&r, &[], &board, false).is_none());
        let board = vec![(Colour(0), mv(&r, "a20"))];
        assert!(legal_order(&r, &[(Colour(1), mv(&r, "t20"))], &board, false).is_none());
    }
}
