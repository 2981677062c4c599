//! Restart budgets for searches with heavy-tailed run times.
//!
//! A depth-first search whose early choices doom a large subtree can run for a long time
//! while another order would finish at once. Restarting with a fresh order after a node
//! budget cuts that tail. The budgets follow the Luby sequence (1, 1, 2, 1, 1, 2, 4, 1,
//! ...) times a unit: within a logarithmic factor of the best fixed budget for any
//! run-time distribution, without knowing it (Luby, Sinclair and Zuckerman, 1993). The
//! budgets keep growing, so a search that has no solution still ends once one attempt
//! outlasts the whole search space.

/// The `i`-th term (from 1) of the Luby sequence.
pub(crate) fn luby(i: u64) -> u64 {
    debug_assert!(i >= 1);
    // u128: 2^64 - 1 is a term's index too.
    let mut i = i as u128;
    loop {
        // k: the smallest with 2^k - 1 >= i.
        let k = 128 - i.leading_zeros();
        if i == (1u128 << k) - 1 {
            return 1u64 << (k - 1);
        }
        // Inside the block after 2^(k-1) - 1 terms: the sequence repeats.
        i -= (1u128 << (k - 1)) - 1;
    }
}

/// The node budget of attempt `attempt` (from 0) with `unit` nodes per Luby step.
pub(crate) fn budget(unit: u64, attempt: u64) -> u64 {
    unit.saturating_mul(luby(attempt.saturating_add(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(31), 16);
        assert_eq!(luby(u64::MAX), 1 << 63);
        assert_eq!(budget(100, 6), 400);
    }
}
