//! Colouring a tiling's pieces: each colour gets one copy of every piece kind, and under
//! the strict rule no two pieces of a colour share an edge.
//!
//! Both are graph colouring: copies of one kind must differ pairwise (a kind has one copy
//! per colour), and under the strict rule so must neighbours. Colouring a found tiling is
//! far cheaper than carrying colours through the exact-cover search, which would multiply
//! its branching by the colours; a tiling that cannot be coloured is simply skipped.

/// Why pieces could not be coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoColouring {
    /// No colouring exists.
    Impossible,
    /// Not decided within the step limit.
    GaveUp,
}

/// Colours the pieces, or says why not.
///
/// `kinds[i]` is piece i's kind, `adjacent[i]` the pieces sharing an edge with it (used
/// only if `strict`), `fixed[i]` a colour chosen beforehand.
pub(crate) fn assign(
    kinds: &[usize],
    adjacent: &[Vec<usize>],
    colours: usize,
    strict: bool,
    fixed: &[Option<u8>],
    limit: u64,
) -> Result<Vec<u8>, NoColouring> {
    let n = kinds.len();
    let mut conflicts: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in 0..n {
            if i != j && (kinds[i] == kinds[j] || (strict && adjacent[i].contains(&j))) {
                conflicts[i].push(j);
            }
        }
    }
    let mut colour: Vec<Option<u8>> = fixed.to_vec();
    colour.resize(n, None);
    // Pre-coloured pieces must already agree.
    for i in 0..n {
        if let Some(c) = colour[i] {
            if (c as usize) >= colours || conflicts[i].iter().any(|&j| colour[j] == Some(c)) {
                return Err(NoColouring::Impossible);
            }
        }
    }
    let mut steps = 0u64;
    if dsatur(&conflicts, colours, &mut colour, &mut steps, limit) {
        Ok(colour
            .into_iter()
            .map(|c| c.expect("all coloured"))
            .collect())
    } else if steps > limit {
        Err(NoColouring::GaveUp)
    } else {
        Err(NoColouring::Impossible)
    }
}

/// Backtracking colouring, most constrained piece first (DSatur order).
fn dsatur(
    conflicts: &[Vec<usize>],
    colours: usize,
    colour: &mut [Option<u8>],
    steps: &mut u64,
    limit: u64,
) -> bool {
    *steps += 1;
    if *steps > limit {
        return false;
    }
    // The uncoloured piece with the fewest colours left.
    let mut best: Option<(usize, u32)> = None;
    for i in 0..colour.len() {
        if colour[i].is_some() {
            continue;
        }
        let mut taken = 0u32;
        for &j in &conflicts[i] {
            if let Some(c) = colour[j] {
                taken |= 1 << c;
            }
        }
        let free = colours as u32 - taken.count_ones();
        if free == 0 {
            return false;
        }
        if best.is_none_or(|(b, t)| {
            let bf = colours as u32 - t.count_ones();
            free < bf || (free == bf && conflicts[i].len() > conflicts[b].len())
        }) {
            best = Some((i, taken));
        }
    }
    let Some((i, taken)) = best else {
        return true;
    };
    for c in 0..colours as u8 {
        if taken >> c & 1 == 0 {
            colour[i] = Some(c);
            if dsatur(conflicts, colours, colour, steps, limit) {
                return true;
            }
        }
    }
    colour[i] = None;
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_get_distinct_colours() {
        let kinds = [0, 0, 1, 1];
        let adj = vec![vec![]; 4];
        let c = assign(&kinds, &adj, 2, false, &[], 100).unwrap();
        assert_ne!(c[0], c[1]);
        assert_ne!(c[2], c[3]);
    }

    #[test]
    fn strict_neighbours_differ_or_fail() {
        // Pieces 0 (kind 0) and 2 (kind 1) touch; with 2 colours, fixing both to 0 fails.
        let kinds = [0, 0, 1, 1];
        let adj = vec![vec![2], vec![], vec![0], vec![]];
        let c = assign(&kinds, &adj, 2, true, &[], 100).unwrap();
        assert_ne!(c[0], c[2]);
        assert_eq!(
            assign(&kinds, &adj, 2, true, &[Some(0), None, Some(0)], 100),
            Err(NoColouring::Impossible)
        );
    }
}
