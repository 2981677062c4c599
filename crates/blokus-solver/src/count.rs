//! Counting every tiling of a rectangle, up to the rectangle's symmetries.
//!
//! Two tilings that differ by a rotation or reflection of the rectangle count once. The
//! count picks a piece used exactly once (the one with the fewest placements, such as
//! the X pentomino), keeps one placement per symmetry orbit of it, and counts the
//! tilings with that piece fixed there. When the fixed placement is itself symmetric,
//! the tilings found there can still be images of each other, so they are deduplicated
//! by a canonical form. Without a unique piece, every tiling is enumerated and
//! deduplicated.

use std::collections::HashSet;
use std::ops::ControlFlow;

use crate::tiling::{Engine, State, Stats, Tiling, TilingError};

/// The result of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Tilings, counting those that differ by a symmetry of the rectangle once.
    pub up_to_symmetry: u64,
    /// Search statistics.
    pub stats: Stats,
}

/// A symmetry of a `w` x `h` rectangle as a map of (x, y).
type Sym = Box<dyn Fn(usize, usize) -> (usize, usize)>;

/// The symmetries of the rectangle (4, or 8 for a square).
fn symmetries(w: usize, h: usize) -> Vec<Sym> {
    let mut out: Vec<Sym> = vec![
        Box::new(|x, y| (x, y)),
        Box::new(move |x, y| (w - 1 - x, y)),
        Box::new(move |x, y| (x, h - 1 - y)),
        Box::new(move |x, y| (w - 1 - x, h - 1 - y)),
    ];
    if w == h {
        out.push(Box::new(|x, y| (y, x)));
        out.push(Box::new(move |x, y| (w - 1 - y, x)));
        out.push(Box::new(move |x, y| (y, w - 1 - x)));
        out.push(Box::new(move |x, y| (w - 1 - y, w - 1 - x)));
    }
    out
}

/// The canonical form of a tiling: the smallest of its images as a grid of kind labels.
fn canonical(engine: &Engine, stack: &[(u32, u8)], syms: &[Sym]) -> Vec<u8> {
    let (w, h) = (engine.tiling.width, engine.tiling.height);
    let mut best: Option<Vec<u8>> = None;
    for g in syms {
        let mut grid = vec![0u8; w * h];
        for &(p, _) in stack {
            let pl = &engine.places[p as usize];
            for &(x, y) in &pl.xy {
                let (x2, y2) = g(x, y);
                grid[y2 * w + x2] = pl.kind as u8;
            }
        }
        if best.as_ref().is_none_or(|b| grid < *b) {
            best = Some(grid);
        }
    }
    best.expect("at least the identity")
}

/// Every tiling that completes `s`, counted once per class under the symmetries.
fn distinct_tilings(
    engine: &Engine,
    s: &mut State,
    stats: &mut Stats,
    syms: &[Sym],
    progress: &mut dyn FnMut(&Stats),
) -> u64 {
    let mut seen = HashSet::new();
    let _ = engine.search(
        s,
        stats,
        &mut |stack| {
            seen.insert(canonical(engine, stack, syms));
            ControlFlow::Continue(())
        },
        progress,
        u64::MAX,
        &mut false,
    );
    seen.len() as u64
}

/// Counts the tilings of a colourless tiling up to the rectangle's symmetries.
///
/// # Errors
/// A [`TilingError`] if the problem is malformed or has colours (colour assignments
/// multiply the count and are not what people count).
pub fn count(tiling: Tiling, progress: &mut dyn FnMut(&Stats)) -> Result<Count, TilingError> {
    if tiling.colours.is_some() {
        return Err(TilingError::BadColours(
            "counting is for colourless tilings (blokus solve tiling --size WxH --pieces ...)"
                .into(),
        ));
    }
    let mut engine = Engine::new(tiling, 0)?;
    engine.ordered = false;
    let (w, h) = (engine.tiling.width, engine.tiling.height);
    let syms = symmetries(w, h);
    let mut stats = Stats::default();
    // The unique piece with the fewest placements.
    let unique = (0..engine.tiling.kinds.len())
        .filter(|&k| engine.tiling.kinds[k].count == 1)
        .min_by_key(|&k| {
            engine
                .places
                .iter()
                .filter(|p| p.kind as usize == k)
                .count()
        });
    let Some(u) = unique else {
        let mut s = engine.start_state();
        let up_to_symmetry = distinct_tilings(&engine, &mut s, &mut stats, &syms, progress);
        return Ok(Count {
            up_to_symmetry,
            stats,
        });
    };
    // One representative per orbit of u's placements, with the orbit size.
    let ids: Vec<u32> = (0..engine.places.len() as u32)
        .filter(|&p| engine.places[p as usize].kind as usize == u)
        .collect();
    let key = |cells: &[(usize, usize)]| {
        let mut v = cells.to_vec();
        v.sort_unstable();
        v
    };
    let mut done: HashSet<Vec<(usize, usize)>> = HashSet::new();
    let mut total = 0u64;
    for &p in &ids {
        let cells = &engine.places[p as usize].xy;
        if done.contains(&key(cells)) {
            continue;
        }
        let mut orbit: HashSet<Vec<(usize, usize)>> = HashSet::new();
        for g in &syms {
            let image: Vec<(usize, usize)> = cells.iter().map(|&(x, y)| g(x, y)).collect();
            orbit.insert(key(&image));
        }
        let symmetric = orbit.len() < syms.len();
        done.extend(orbit);
        let mut s = engine.start_state();
        engine.apply(&mut s, p, crate::colour::NONE);
        if symmetric {
            total += distinct_tilings(&engine, &mut s, &mut stats, &syms, progress);
        } else {
            let _ = engine.search(
                &mut s,
                &mut stats,
                &mut |_| {
                    total += 1;
                    ControlFlow::Continue(())
                },
                progress,
                u64::MAX,
                &mut false,
            );
        }
    }
    Ok(Count {
        up_to_symmetry: total,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiling::parse_pieces;

    fn tiling(w: usize, h: usize, pieces: &str) -> Tiling {
        Tiling {
            width: w,
            height: h,
            kinds: parse_pieces(pieces).unwrap(),
            colours: None,
            strict: false,
        }
    }

    #[test]
    fn small_counts() {
        // 2x2 with two dominoes: horizontal or vertical pair, the same up to rotation.
        let c = count(tiling(2, 2, "2x2"), &mut |_| {}).unwrap();
        assert_eq!(c.up_to_symmetry, 1);
        // 3x5 with the pentominoes L5, P, U... known: 3x20 has 2 tilings up to symmetry.
        let c = count(tiling(20, 3, "pentominoes"), &mut |_| {}).unwrap();
        assert_eq!(c.up_to_symmetry, 2);
        // 5x12: 1,010 tilings up to symmetry.
        let c = count(tiling(12, 5, "pentominoes"), &mut |_| {}).unwrap();
        assert_eq!(c.up_to_symmetry, 1010);
    }

    #[test]
    fn no_unique_piece_falls_back_to_dedup() {
        // 2x4 with two O tetrominoes: one tiling.
        let c = count(tiling(4, 2, "Ox2"), &mut |_| {}).unwrap();
        assert_eq!(c.up_to_symmetry, 1);
        // 4x2 with two L4: two L's interlocking, e.g. two distinct up to symmetry? Count
        // by hand: L4 pairs fill a 2x4 as "##.. / ##.." impossible; the known answer is 1.
        let c = count(tiling(4, 2, "L4x2"), &mut |_| {}).unwrap();
        assert_eq!(c.up_to_symmetry, 1);
    }
}
