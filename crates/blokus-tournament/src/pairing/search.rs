//! The table search shared by italo-svizzero and Swiss: seat tables one after another in
//! the system's order of preference, and backtrack (branch and bound) to the pairing with
//! the fewest repeat meetings, then the lowest cost.
//!
//! The first pairing reached is the system's greedy one; the search only departs from it
//! when that saves a repeat meeting (or, for Swiss, lowers the score cost). It is
//! exhaustive up to [`NODE_BUDGET`] steps, which covers every field where an exhaustive
//! search is affordable; beyond that it keeps the best pairing found.

use crate::points::Points;

/// Steps of the search before it settles for the best pairing found so far.
pub(crate) const NODE_BUDGET: usize = 200_000;

/// What makes one pairing system differ from another.
pub(crate) trait Preferences {
    /// The first player of the next table, among the unseated, the scan resuming at
    /// index `scan`.
    fn anchor(&self, unseated: &[bool], scan: usize) -> usize;
    /// The unseated players in the order the anchor's table would take them.
    fn candidates(&self, anchor: usize, unseated: &[bool]) -> Vec<usize>;
    /// Where the scan resumes once `table` (anchor first) is seated.
    fn scan_after(&self, _table: &[usize], scan: usize) -> usize {
        scan
    }
    /// What a table costs beyond its repeat meetings.
    fn cost(&self, _table: &[usize]) -> Points {
        Points::ZERO
    }
}

/// A complete pairing found by the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// Tables of player indices, anchor first.
    pub tables: Vec<Vec<usize>>,
    /// Where the scan resumes after the last table.
    pub scan: usize,
    /// Repeat meetings (a pair meeting for the third time counts twice).
    pub repeats: u32,
    /// The summed table cost.
    pub cost: Points,
}

/// Seats `n` players at tables of `sizes` (which add up to `n`); `met(a, b)` tells how
/// often two players have met.
pub(crate) fn search(
    prefs: &dyn Preferences,
    sizes: &[usize],
    n: usize,
    met: &dyn Fn(usize, usize) -> u32,
    scan: usize,
) -> Found {
    let mut left = sizes.to_vec();
    left.sort_unstable_by(|a, b| b.cmp(a));
    let mut dfs = Dfs {
        prefs,
        left,
        met,
        unseated: vec![true; n],
        tables: Vec::with_capacity(sizes.len()),
        best: None,
        nodes: 0,
    };
    dfs.table(scan, 0, Points::ZERO);
    dfs.best.unwrap_or(Found {
        tables: vec![],
        scan,
        repeats: 0,
        cost: Points::ZERO,
    })
}

struct Dfs<'a> {
    prefs: &'a dyn Preferences,
    /// Table sizes still to seat, largest first.
    left: Vec<usize>,
    met: &'a dyn Fn(usize, usize) -> u32,
    unseated: Vec<bool>,
    tables: Vec<Vec<usize>>,
    best: Option<Found>,
    nodes: usize,
}

impl Dfs<'_> {
    /// Whether the search can stop: out of budget, or nothing can beat the best.
    fn done(&self) -> bool {
        self.best.as_ref().is_some_and(|b| {
            self.nodes >= NODE_BUDGET || (b.repeats == 0 && b.cost == Points::ZERO)
        })
    }

    /// Whether a partial pairing can still beat the best one.
    fn promising(&self, repeats: u32, cost: Points) -> bool {
        self.best
            .as_ref()
            .is_none_or(|b| (repeats, cost) < (b.repeats, b.cost))
    }

    /// Seats the next table: the anchor's, of each size still to seat (largest first), so
    /// that who sits at the smaller tables is part of the search.
    fn table(&mut self, scan: usize, repeats: u32, cost: Points) {
        if self.left.is_empty() {
            if self.promising(repeats, cost) {
                self.best = Some(Found {
                    tables: self.tables.clone(),
                    scan,
                    repeats,
                    cost,
                });
            }
            return;
        }
        let anchor = self.prefs.anchor(&self.unseated, scan);
        self.unseated[anchor] = false;
        let order = self.prefs.candidates(anchor, &self.unseated);
        let mut sizes = self.left.clone();
        sizes.dedup();
        for size in sizes {
            if self.done() {
                break;
            }
            let at = self
                .left
                .iter()
                .position(|&s| s == size)
                .expect("a listed size");
            self.left.remove(at);
            let mut members = vec![anchor];
            self.companions(size, &order, 0, &mut members, scan, repeats, cost);
            self.left.insert(at, size);
        }
        self.unseated[anchor] = true;
    }

    /// Adds companions to the table from `order[from..]`: taking them in order of
    /// preference position keeps each set of companions from being tried twice, while
    /// those who have met nobody at the table yet are tried first.
    #[allow(clippy::too_many_arguments)]
    fn companions(
        &mut self,
        size: usize,
        order: &[usize],
        from: usize,
        members: &mut Vec<usize>,
        scan: usize,
        repeats: u32,
        cost: Points,
    ) {
        if members.len() == size {
            let cost = cost + self.prefs.cost(members);
            if self.promising(repeats, cost) {
                let next = self.prefs.scan_after(members, scan);
                self.tables.push(members.clone());
                self.table(next, repeats, cost);
                self.tables.pop();
            }
            return;
        }
        self.nodes += 1;
        let meets = |c: usize| members.iter().map(|&m| (self.met)(c, m)).sum::<u32>();
        let mut tries: Vec<(u32, usize)> = (from..order.len())
            .filter(|&i| self.unseated[order[i]])
            .map(|i| (meets(order[i]), i))
            .collect();
        tries.sort_by_key(|&(m, _)| m);
        for (m, i) in tries {
            if self.done() {
                return;
            }
            if !self.promising(repeats + m, cost) {
                continue;
            }
            let c = order[i];
            self.unseated[c] = false;
            members.push(c);
            self.companions(size, order, i + 1, members, scan, repeats + m, cost);
            members.pop();
            self.unseated[c] = true;
        }
    }
}
