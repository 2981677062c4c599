//! Time to first solution of a tiling puzzle over a range of seeds, one thread, with
//! the search statistics: the spread across seeds (the slow tail) in one run.
//!
//! `cargo run --release -p blokus-solver --example tiling_seeds -- penta_15x16 --strict 1 10`
//! (puzzle, optional `--strict`, first and last seed).

use std::time::Instant;

use blokus_solver::puzzle;
use blokus_solver::tiling;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let strict = args.iter().any(|a| a == "--strict");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--strict").collect();
    let id = rest.first().map_or("penta_15x16", |s| s.as_str());
    let first: u64 = rest.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let last: u64 = rest.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let info = match puzzle::find(id) {
        Ok(info) => info,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let Some(t) = info.tiling(strict) else {
        eprintln!("{id} is not a tiling puzzle");
        std::process::exit(2);
    };
    let mut times = Vec::new();
    for seed in first..=last {
        let t0 = Instant::now();
        let (sol, stats) = tiling::solve(t.clone(), seed, &mut |_| {}).expect("a valid tiling");
        let secs = t0.elapsed().as_secs_f64();
        assert!(sol.is_some(), "seed {seed}: no solution");
        println!(
            "seed {seed:3}: {secs:7.3} s  {:>10} nodes  {:>4} restarts  {:>8} recolourings  {:>8} repairs  {:>8} colour dead ends  {:>6} give-ups {:>10} colour steps",
            stats.nodes, stats.restarts, stats.recolourings, stats.repairs, stats.colour_dead_ends, stats.colour_give_ups, stats.colour_steps
        );
        times.push(secs);
    }
    times.sort_by(f64::total_cmp);
    let median = if times.len() % 2 == 1 {
        times[times.len() / 2]
    } else {
        (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
    };
    println!(
        "{id}{}: seeds {first}..{last}: median {median:.3} s, slowest {:.3} s",
        if strict { " --strict" } else { "" },
        times.last().copied().unwrap_or(0.0)
    );
}
