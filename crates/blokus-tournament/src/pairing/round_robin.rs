//! Round robin for 2-player tables by Berger tables: with `m` players (one more, a "bye",
//! when their number is odd), numbered 1 to `m`, players `i` and `j` below `m` meet in
//! round `r` when `i + j = r + 1` modulo `m - 1`, and player `m` meets the `i` with
//! `2i = r + 1`; so everyone meets everyone in `m - 1` rounds. Of `i` and `j`, the one
//! with `i - j` even modulo `m - 1` moves first; player `m` moves first in even rounds.
//! Nobody has the same seat three rounds running, and over the cycle nobody moves first
//! more than once more than second. Rounds beyond one cycle repeat it with the
//! seats swapped (a double round robin).

/// The games of `round` (from 1) among `n` players (indices in pairing-number order):
/// pairs in seat order, and the player with a bye when `n` is odd.
pub fn schedule(n: usize, round: u32) -> (Vec<[usize; 2]>, Option<usize>) {
    if n < 2 {
        return (vec![], (n == 1).then_some(0));
    }
    let m = n + n % 2;
    let cycle = m - 1;
    let index = round.max(1) as usize - 1;
    let r = index % cycle + 1;
    let second_cycle = index / cycle % 2 == 1;
    // Labels 1..=m; label m is the fixed player (the bye when n is odd).
    let modc = |x: usize| (x + cycle - 1) % cycle + 1;
    let mut pairs = Vec::with_capacity(m / 2);
    let mut bye = None;
    for i in 1..m {
        let (a, b) = if modc(2 * i) == modc(r + 1) {
            if r.is_multiple_of(2) {
                (m, i)
            } else {
                (i, m)
            }
        } else {
            let j = modc(r + 1 + cycle - i % cycle);
            if j < i {
                continue;
            }
            if ((i + cycle - j) % cycle).is_multiple_of(2) {
                (i, j)
            } else {
                (j, i)
            }
        };
        let (a, b) = if second_cycle { (b, a) } else { (a, b) };
        let (a, b) = (a - 1, b - 1);
        if a == n || b == n {
            bye = Some(a.min(b));
        } else {
            pairs.push([a, b]);
        }
    }
    (pairs, bye)
}

/// The number of rounds in which everyone meets everyone once.
pub fn cycle_length(n: usize) -> u32 {
    (n + n % 2).saturating_sub(1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn everyone_meets_everyone_once_with_balanced_seats() {
        for n in 2..=13 {
            let mut met = HashSet::new();
            let mut first = vec![0i32; n];
            let mut byes = vec![0; n];
            let mut seats: Vec<Vec<usize>> = vec![vec![]; n];
            for round in 1..=cycle_length(n) {
                let (pairs, bye) = schedule(n, round);
                let mut seen: Vec<usize> = pairs.iter().flatten().copied().collect();
                if let Some(b) = bye {
                    byes[b] += 1;
                    seen.push(b);
                }
                seen.sort_unstable();
                assert_eq!(seen, (0..n).collect::<Vec<_>>(), "n={n} round {round}");
                for [a, b] in pairs {
                    assert!(met.insert((a.min(b), a.max(b))), "n={n}: {a}-{b} twice");
                    first[a] += 1;
                    first[b] -= 1;
                    seats[a].push(0);
                    seats[b].push(1);
                }
            }
            assert_eq!(met.len(), n * (n - 1) / 2);
            assert!(first.iter().all(|d| d.abs() <= 1), "n={n}: {first:?}");
            assert!(byes.iter().all(|&b| b == n % 2));
            for s in &seats {
                assert!(
                    s.windows(3).all(|w| w[0] != w[1] || w[1] != w[2]),
                    "n={n}: {s:?}"
                );
            }
        }
    }

    #[test]
    fn round_one_is_one_two_three_four() {
        // 1-4, 2-3 (Berger round 1).
        assert_eq!(schedule(4, 1), (vec![[0, 3], [1, 2]], None));
        // The second cycle swaps the seats.
        let (a, _) = schedule(4, 1);
        let (b, _) = schedule(4, 4);
        assert_eq!(b, a.iter().map(|p| [p[1], p[0]]).collect::<Vec<_>>());
    }
}
