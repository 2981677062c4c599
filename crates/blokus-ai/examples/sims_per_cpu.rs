//! Development aid: simulations per CPU-second of one search (one thread, early stopping
//! off) at a position given as a file of placements, one per line, in turn order; for
//! comparing with another engine, or two builds, at the same positions. With RUNS > 1
//! the search is repeated (fresh each time) and the median is printed too.
//! `cargo run --release -p blokus-ai --example sims_per_cpu -- duo GAME.txt 16 20000 [RUNS] [RULES] [THREADS]`
//! (RULES: rule options such as `no_mirror_opening`, for games played without them, or
//! `none`; THREADS: search threads, CPU time counted over all of them).
use blokus_ai::mcts::Params;
use blokus_ai::{Budget, MctsOptions, MctsPlayer, Player};
use blokus_core::{Game, RuleOptions, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: sims_per_cpu VARIANT MOVES_FILE PLACEMENTS SIMULATIONS [RUNS] [RULES] [THREADS]";
    let variant = args.get(1).expect(usage);
    let text = std::fs::read_to_string(args.get(2).expect(usage)).expect("moves file");
    let placements: usize = args.get(3).expect(usage).parse().expect(usage);
    let sims: u64 = args.get(4).expect(usage).parse().expect(usage);
    let runs: usize = args.get(5).map_or(1, |r| r.parse().expect(usage));
    let threads: usize = args.get(7).map_or(1, |t| t.parse().expect(usage));
    let mut rules = Rules::by_name(variant).expect("variant");
    if let Some(list) = args.get(6) {
        rules.options = RuleOptions::parse_list(list).expect("rule options");
    }
    let mut game = Game::new(rules);
    for line in text.lines().take(placements) {
        game.play_text(line.trim()).expect("legal placement");
    }
    let params = Params {
        early_stop: blokus_ai::mcts::EarlyStop::Never,
        ..Params::default()
    };
    let mut rates = Vec::with_capacity(runs);
    for run in 0..runs {
        let mut p = MctsPlayer::with_params(
            MctsOptions {
                simulations: Some(sims),
                seed: run as u64,
                threads,
                // Searched, not answered from the opening book.
                book: false,
                ..Default::default()
            },
            params,
        );
        let start = cpu_time::ProcessTime::now();
        p.decide(&game, Budget::default());
        let cpu = start.elapsed().as_secs_f64();
        let done = p.last_stats().simulations;
        let rate = done as f64 / cpu;
        println!("{variant} after {placements}: {done} simulations in {cpu:.3} CPU s: {rate:.0} per CPU s");
        rates.push(rate);
    }
    if runs > 1 {
        rates.sort_by(f64::total_cmp);
        println!(
            "{variant} after {placements}: median {:.0} per CPU s of {runs} runs",
            rates[runs / 2]
        );
    }
}
