//! Exact endgame search: whether the side to move wins, draws or loses with best play
//! from here on, and which of its moves keep that result.
//!
//! Near the end of a two-sided game few placements are left, and a search of every line
//! (alpha-beta on win, draw or loss, with a transposition table) costs less than the
//! Monte-Carlo search's simulations while being exact where they are not: a game lost by
//! one point because the last pieces went in the wrong order is a game a program should
//! not lose. The search is bounded by a node budget and gives up past it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use blokus_core::score;
use blokus_core::variant::Scoring;
use blokus_core::{Colour, Move, Position, Rules, Side};

/// A result with best play, for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Every line loses.
    Loss,
    /// The best line draws.
    Draw,
    /// Some line wins.
    Win,
}

impl Outcome {
    fn from_value(v: i8) -> Outcome {
        match v {
            i8::MIN..=-1 => Outcome::Loss,
            0 => Outcome::Draw,
            _ => Outcome::Win,
        }
    }
}

/// The solved root: its result with best play and the moves that keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The result with best play.
    pub outcome: Outcome,
    /// Every legal move of the colour to move that keeps that result, bigger pieces
    /// first.
    pub best: Vec<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// Whether the solver handles this game: two sides scored by points (Duo, the
/// two-player games of the bigger boards), no pie choice pending.
pub fn applies(rules: &Rules, pos: &Position) -> bool {
    let v = rules.v();
    v.players == 2
        && v.num_sides() == 2
        && v.scoring == Scoring::Standard
        && !v.shared_pool
        && !pos.awaiting_pie_choice()
        && !pos.is_over()
}

/// Solves `pos` for its side to move, visiting at most `node_limit` positions; `None`
/// when the budget runs out first (or the game is not one the solver handles).
pub fn solve(rules: &Rules, pos: &Position, node_limit: u64) -> Option<Solved> {
    if !applies(rules, pos) {
        return None;
    }
    let root_colour = pos.to_move();
    let root_side = score::side_of_colour(rules, pos, root_colour)?;
    let mut s = Search {
        rules,
        root_side,
        nodes: 0,
        limit: node_limit,
        table: HashMap::default(),
        lists: Vec::new(),
    };
    let mut list = Vec::new();
    s.ordered_moves(pos, root_colour, &mut list);
    // Keys only need to differ within one search: the root's is 0.
    let hash = 0;
    let mut best_moves = Vec::new();
    let mut best = -1;
    for &m in &list {
        let mut next = pos.clone();
        next.play(rules, m);
        // Only whether the move keeps the best result so far matters: a worse one may
        // fail low with a bound, which is cheaper to prove than its value.
        let v = s.value(&next, hash ^ move_key(root_colour, m), best - 1, 2)?;
        if v > best {
            best = v;
            best_moves.clear();
        }
        if v == best {
            best_moves.push(m);
        }
    }
    Some(Solved {
        outcome: Outcome::from_value(best),
        best: best_moves,
        nodes: s.nodes,
    })
}

/// A bound on a position's value stored in the table.
#[derive(Clone, Copy)]
struct Bounds {
    lower: i8,
    upper: i8,
    /// The move that proved the bound (tried first when the position comes again).
    best: Option<Move>,
}

/// The keys are already random; hashing them again would only cost time.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

struct Search<'r> {
    rules: &'r Rules,
    root_side: Side,
    nodes: u64,
    limit: u64,
    table: HashMap<u64, Bounds, BuildHasherDefault<KeyHasher>>,
    /// Move lists to reuse, one taken per level of the search.
    lists: Vec<Vec<Move>>,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn move_key(colour: Colour, m: Move) -> u64 {
    mix(((colour.index() as u64) << 32) | m.index() as u64)
}

fn to_move_key(colour: Colour) -> u64 {
    mix(0xffff_0000_0000 | colour.index() as u64)
}

impl Search<'_> {
    /// The colour's legal moves, bigger pieces first.
    fn ordered_moves(&self, pos: &Position, colour: Colour, out: &mut Vec<Move>) {
        pos.legal_moves_into(self.rules, colour, out);
        let t = self.rules.table();
        out.sort_by_key(|&m| std::cmp::Reverse(t.info(m).cells().len()));
    }

    /// The best and worst points a side can still end with.
    fn points_range(&self, pos: &Position, side: Side) -> (i32, i32) {
        let rules = self.rules;
        let board = rules.v().geometry().num_cells();
        let (mut lo, mut hi) = (0, 0);
        for c in Colour::all(rules.num_colours()) {
            if score::side_of_colour(rules, pos, c) != Some(side) {
                continue;
            }
            let left = pos.cells_remaining(rules, c) as i32;
            let now = if left == 0 {
                score::colour_scores(rules, pos)[c.index()].points
            } else {
                -left
            };
            lo += now;
            if left == 0 || pos.is_colour_out(rules, c) {
                hi += now;
                continue;
            }
            // It can only place on cells free and not beside its own pieces.
            let room = (board - pos.forbidden(c).len()) as i32;
            hi += if room >= left { 20 } else { room - left };
        }
        (lo, hi)
    }

    /// The root side's result with best play, 1 win, 0 draw, −1 loss: exact when it lies
    /// strictly between `alpha` and `beta`, else a bound on the side it fell (alpha-beta).
    fn value(&mut self, pos: &Position, hash: u64, mut alpha: i8, mut beta: i8) -> Option<i8> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        if pos.is_over() {
            let share = score::win_shares(self.rules, pos)[self.root_side.index()];
            return Some(if share > 0.75 {
                1
            } else if share > 0.25 {
                0
            } else {
                -1
            });
        }
        // What the points still to be won allow, then what the table knows.
        let other = Side::new(1 - self.root_side.index());
        let (our_lo, our_hi) = self.points_range(pos, self.root_side);
        let (their_lo, their_hi) = self.points_range(pos, other);
        let mut lo: i8 = if our_lo > their_hi {
            1
        } else if our_lo >= their_hi {
            0
        } else {
            -1
        };
        let mut hi: i8 = if our_hi < their_lo {
            -1
        } else if our_hi <= their_lo {
            0
        } else {
            1
        };
        let colour = pos.to_move();
        let key = hash ^ to_move_key(colour);
        let mut first = None;
        if let Some(b) = self.table.get(&key) {
            lo = lo.max(b.lower);
            hi = hi.min(b.upper);
            first = b.best;
        }
        if lo == hi || hi <= alpha || lo >= beta {
            return Some(if lo >= beta { lo } else { hi });
        }
        alpha = alpha.max(lo - 1);
        beta = beta.min(hi + 1);
        let (alpha0, beta0) = (alpha, beta);
        let maximising = score::side_of_colour(self.rules, pos, colour) == Some(self.root_side);
        let mut list = self.lists.pop().unwrap_or_default();
        self.ordered_moves(pos, colour, &mut list);
        if let Some(k) = first.and_then(|f| list.iter().position(|&m| m == f)) {
            list[..=k].rotate_right(1);
        }
        let mut best = if maximising { -2 } else { 2 };
        let mut best_move = None;
        let mut complete = true;
        for &m in &list {
            let mut next = pos.clone();
            next.play(self.rules, m);
            let Some(v) = self.value(&next, hash ^ move_key(colour, m), alpha, beta) else {
                complete = false;
                break;
            };
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                best_move = Some(m);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        list.clear();
        self.lists.push(list);
        if !complete {
            return None;
        }
        // Store what was proved: a bound when the search cut off, else the value.
        let bounds = if best <= alpha0 {
            Bounds {
                lower: lo,
                upper: best,
                best: best_move,
            }
        } else if best >= beta0 {
            Bounds {
                lower: best,
                upper: hi,
                best: best_move,
            }
        } else {
            Bounds {
                lower: best,
                upper: best,
                best: best_move,
            }
        };
        self.table.insert(key, bounds);
        Some(best)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use blokus_core::Game;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// A game of `variant` played to the end by random legal moves.
    pub(crate) fn random_game(variant: &str, seed: u64) -> Game {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(Rules::by_name(variant).unwrap());
        while !game.is_over() {
            let moves = game.legal_moves();
            game.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        game
    }

    /// The root side's result by visiting every line (no pruning, no table), or `None`
    /// past `budget` positions.
    fn every_line(rules: &Rules, pos: &Position, side: Side, budget: &mut u64) -> Option<i8> {
        *budget = budget.checked_sub(1)?;
        if pos.is_over() {
            let share = score::win_shares(rules, pos)[side.index()];
            return Some(if share == 1.0 {
                1
            } else if share == 0.5 {
                0
            } else {
                -1
            });
        }
        let ours = score::side_of_colour(rules, pos, pos.to_move()) == Some(side);
        let mut values = Vec::new();
        for m in pos.legal_moves(rules, pos.to_move()) {
            let mut next = pos.clone();
            next.play(rules, m);
            values.push(every_line(rules, &next, side, budget)?);
        }
        let best = if ours {
            values.iter().max()
        } else {
            values.iter().min()
        };
        best.copied()
    }

    /// The position's result and the moves that keep it agree with a search of every line, in
    /// positions a few placements from the end of random games (Duo and Classic
    /// two-player, where two colours share a side).
    #[test]
    fn the_results_agree_with_a_search_of_every_line() {
        let mut checked = [0; 3];
        for (variant, seed) in (0..80)
            .map(|s| ("duo", s))
            .chain((0..10).map(|s| ("classic_2", s)))
        {
            let game = random_game(variant, seed);
            let rules = game.rules();
            let n = game.events().len();
            for back in [3, 5, 7] {
                let pos = game.position_at(n - back).unwrap();
                if pos.is_over() {
                    continue;
                }
                let side = score::side_of_colour(rules, pos, pos.to_move()).unwrap();
                let mut budget = 40_000;
                let mut expected = Vec::new();
                let mut complete = true;
                for m in pos.legal_moves(rules, pos.to_move()) {
                    let mut next = pos.clone();
                    next.play(rules, m);
                    match every_line(rules, &next, side, &mut budget) {
                        Some(v) => expected.push((m, Outcome::from_value(v))),
                        None => complete = false,
                    }
                }
                if !complete {
                    continue;
                }
                let solved = solve(rules, pos, u64::MAX).unwrap();
                let best = expected.iter().map(|e| e.1).max().unwrap();
                let mut keeping: Vec<Move> = expected
                    .iter()
                    .filter(|e| e.1 == best)
                    .map(|e| e.0)
                    .collect();
                let mut got = solved.best.clone();
                got.sort();
                keeping.sort();
                assert_eq!(
                    solved.outcome, best,
                    "{variant} seed {seed}, {back} from the end"
                );
                assert_eq!(got, keeping, "{variant} seed {seed}, {back} from the end");
                checked[best as usize] += 1;
            }
        }
        // Every kind of result came up, so the comparison covered each.
        assert!(checked.iter().all(|&k| k > 0), "{checked:?}");
    }

    /// Past its budget the search gives up rather than guess.
    #[test]
    fn the_search_gives_up_past_its_budget() {
        let game = random_game("duo", 3);
        let rules = game.rules();
        let pos = game.position_at(game.events().len() - 9).unwrap();
        let full = solve(rules, pos, u64::MAX).unwrap();
        assert!(full.nodes > 100, "{}", full.nodes);
        assert_eq!(solve(rules, pos, full.nodes / 2), None);
        assert_eq!(solve(rules, pos, full.nodes), Some(full));
    }

    #[test]
    fn only_two_sided_games_scored_by_points_are_solved() {
        for (variant, applies_here) in [
            ("duo", true),
            ("classic_2", true),
            ("classic", false),
            ("junior", false),
        ] {
            let game = random_game(variant, 1);
            let pos = game.position_at(game.events().len() - 2).unwrap();
            assert_eq!(applies(game.rules(), pos), applies_here, "{variant}");
        }
    }
}
