//! MCTS simulations per second at the start and in the middle of a game, with one and
//! two threads. Each iteration is one fresh search of a fixed number of simulations, so
//! criterion's throughput figure is simulations per second. The `budget` group checks
//! that a time budget per move is kept: its time per iteration is the budget.

#![allow(missing_docs)] // criterion macros generate undocumented items

use blokus_ai::mcts::Params;
use blokus_ai::{Budget, Decision, GreedyPlayer, MctsOptions, MctsPlayer, Player};
use blokus_core::{Game, Rules};
use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};

/// A game after `placements` greedy moves.
fn position(variant: &str, placements: usize) -> Game {
    let mut game = Game::new(Rules::by_name(variant).unwrap());
    let mut p = GreedyPlayer::new(3);
    while game.moves().count() < placements && !game.is_over() {
        match p.decide(&game, Budget::default()) {
            Decision::Place(m) => game.play(m).unwrap(),
            Decision::Pie(c) => game.choose_pie(c).unwrap(),
            Decision::Resign => break,
        }
    }
    game
}

/// Times one decision from `game` per iteration, each a search with a fresh tree.
fn fresh_searches(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    opts: MctsOptions,
    game: &Game,
) {
    // Every budgeted simulation runs, so the throughput figure is honest.
    let params = Params {
        early_stop: blokus_ai::mcts::EarlyStop::Never,
        ..Params::default()
    };
    let mut player = MctsPlayer::with_params(opts, params);
    group.bench_function(id, |b| {
        b.iter(|| {
            player.reset();
            player.decide(game, Budget::default())
        })
    });
}

fn bench(c: &mut Criterion) {
    let cases = [
        ("duo", 16, 2_000u64),
        ("classic", 32, 1_000),
        ("trigon_2", 32, 500),
    ];
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(6));
    for (variant, mid, sims) in cases {
        for (phase, placements) in [("start", 0), ("mid", mid)] {
            let game = position(variant, placements);
            for threads in [1usize, 2] {
                group.throughput(Throughput::Elements(sims));
                let id = BenchmarkId::new(format!("{variant}/{phase}"), format!("{threads}t"));
                let opts = MctsOptions {
                    simulations: Some(sims),
                    threads,
                    resign: false,
                    // Searched, not answered from the opening book.
                    book: false,
                    ..MctsOptions::default()
                };
                fresh_searches(&mut group, id, opts, &game);
            }
        }
    }
    group.finish();
}

/// A time budget is respected: the time per decision should be the budget (plus at most
/// one simulation and the set-up of the search), whatever the variant and phase.
fn budget(c: &mut Criterion) {
    let mut group = c.benchmark_group("budget");
    group.sample_size(10);
    for (variant, placements) in [("duo", 0), ("classic", 32), ("trigon_2", 0)] {
        let game = position(variant, placements);
        for seconds in [0.05, 0.2] {
            for threads in [1usize, 2] {
                let id = BenchmarkId::new(
                    format!("{variant}/{placements}"),
                    format!("{seconds}s/{threads}t"),
                );
                let opts = MctsOptions {
                    seconds: Some(seconds),
                    threads,
                    resign: false,
                    ..MctsOptions::default()
                };
                fresh_searches(&mut group, id, opts, &game);
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench, budget);
criterion_main!(benches);
