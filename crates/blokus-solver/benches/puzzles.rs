//! Time to first solution of every puzzle form, and the 6x10 pentomino count.
//!
//! `cargo bench -p blokus-solver` (add a filter such as `tetro` to run a subset). The
//! searches take from microseconds to seconds, so each group uses few samples.

use std::time::Duration;

use blokus_solver::count::count;
use blokus_solver::puzzle::{self, Form};
use blokus_solver::tiling::{parse_pieces, Tiling};
use criterion::{criterion_main, Criterion};

fn first_solution(c: &mut Criterion) {
    let forms = [
        ("tetro_8x10", false, false, 10),
        ("tetro_8x10", true, false, 10),
        ("penta_15x16", false, false, 10),
        ("penta_15x16", true, false, 10),
        ("all_88", false, false, 10),
        ("all_84", false, false, 10),
        ("all_84", false, true, 10),
    ];
    let mut group = c.benchmark_group("first_solution");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (id, strict, decreasing, _) in forms {
        let name = format!(
            "{id}{}{}",
            if strict { "_strict" } else { "" },
            if decreasing { "_decreasing" } else { "" }
        );
        // Each iteration uses the next seed, so the figure is a median over seeds.
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                puzzle::solve(id, Form { strict, decreasing }, seed, &mut |_| {})
                    .unwrap()
                    .expect("solution")
            })
        });
    }
    group.finish();
}

fn count_6x10(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    group.bench_function("pentominoes_6x10", |b| {
        b.iter(|| {
            let t = Tiling {
                width: 10,
                height: 6,
                kinds: parse_pieces("pentominoes").unwrap(),
                colours: None,
                strict: false,
            };
            assert_eq!(count(t, &mut |_| {}).unwrap().up_to_symmetry, 2339);
        })
    });
    group.finish();
}

#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::first_solution, super::count_6x10);
}
use group::benches;
criterion_main!(benches);
