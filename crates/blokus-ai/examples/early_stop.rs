//! Development aid: what stopping when the move is likely settled saves against stopping
//! only when it is certain ([`EarlyStop`]), at the positions of one game given as a file
//! of placements, one per line, in turn order. Each position is searched on the growing
//! schedule with each rule and the same seeds; prints the simulations, the CPU time and
//! whether the move is the same, then the totals.
//! `cargo run --release -p blokus-ai --example early_stop -- duo GAME.txt 86000 [SEEDS] [STEP] [RULES]`
//! (SEEDS searches per position, default 2; every STEP-th position, default 1; RULES:
//! rule options such as `no_mirror_opening`).
use blokus_ai::mcts::{EarlyStop, Params, Schedule};
use blokus_ai::{Budget, Decision, MctsOptions, MctsPlayer, Player};
use blokus_core::{Game, RuleOptions, Rules};

/// One search: its move, simulations and CPU seconds.
fn search(game: &Game, sims: u64, seed: u64, stop: EarlyStop) -> (Decision, u64, f64) {
    let mut p = MctsPlayer::with_params(
        MctsOptions {
            simulations: Some(sims),
            seed,
            schedule: Some(Schedule::Growing),
            // Searched, not answered from the opening book.
            book: false,
            ..Default::default()
        },
        Params {
            early_stop: stop,
            ..Params::default()
        },
    );
    let start = cpu_time::ProcessTime::now();
    let d = p.decide(game, Budget::default());
    (d, p.last_stats().simulations, start.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: early_stop VARIANT MOVES_FILE SIMULATIONS [SEEDS] [STEP] [RULES]";
    let mut rules = Rules::by_name(args.get(1).expect(usage)).expect("variant");
    let text = std::fs::read_to_string(args.get(2).expect(usage)).expect("moves file");
    let sims: u64 = args.get(3).expect(usage).parse().expect(usage);
    let seeds: u64 = args.get(4).map_or(2, |s| s.parse().expect(usage));
    let step: usize = args.get(5).map_or(1, |s| s.parse().expect(usage));
    if let Some(list) = args.get(6) {
        rules.options = RuleOptions::parse_list(list).expect("rule options");
    }
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let (mut certain, mut likely, mut same, mut searches) = ((0, 0.0), (0, 0.0), 0, 0);
    for p in (0..lines.len()).step_by(step) {
        let mut game = Game::new(rules.clone());
        for line in &lines[..p] {
            game.play_text(line).expect("legal placement");
        }
        if game.is_over() {
            break;
        }
        for seed in 0..seeds {
            let (a, an, acpu) = search(&game, sims, seed, EarlyStop::Certain);
            let (b, bn, bcpu) = search(&game, sims, seed, EarlyStop::Likely);
            println!(
                "after {p}, seed {seed}: certain {an} in {acpu:.2} s, likely {bn} in {bcpu:.2} s, {}",
                if a == b { "same move" } else { "another move" }
            );
            certain = (certain.0 + an, certain.1 + acpu);
            likely = (likely.0 + bn, likely.1 + bcpu);
            same += usize::from(a == b);
            searches += 1;
        }
    }
    println!(
        "{searches} searches: likely ran {:.1}% of certain's simulations in {:.1}% of its CPU time; {same} the same move",
        100.0 * likely.0 as f64 / certain.0.max(1) as f64,
        100.0 * likely.1 / certain.1.max(1e-9),
    );
}
