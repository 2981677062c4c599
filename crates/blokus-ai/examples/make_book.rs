//! Writes an opening book (see `blokus_ai::book`): a long search of our own for the
//! empty board and for every reply to each first placement of a largest piece; with
//! `--second`, for the first colour's second placement after its book move and each
//! such reply; with `--tree K D`, for every position reached from the empty board in up
//! to D placements, each by one of the K moves a search of the position before liked
//! best (what either side is likely to play). `--seat S` makes a book for the colour
//! that moves `S`-th (0: first): only its positions are written, the replies to the
//! first placements are left out for seat 0, and in the tree its positions lead on by
//! its book move alone. Positions that a board symmetry keeping every start in place
//! maps onto each other are searched once, and each entry's images are written too.
//! `--extend BOOK` starts from a book and searches only what it lacks. Searches are
//! seeded, so a book is reproducible.
//! `cargo run --release -p blokus-ai --example make_book -- duo 30000 OUT.txt [--jobs N] [--second] [--tree K D] [--seat S] [--extend BOOK]`
use std::sync::Mutex;

use blokus_ai::book::{Book, Entry};
use blokus_ai::{Budget, Context, Decision, MctsOptions, MctsPlayer, Schedule};
use blokus_core::{Cell, Colour, Game, Move, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: make_book VARIANT SIMULATIONS OUT [--jobs N] [--second] [--tree K D] [--seat S] [--extend BOOK]";
    let rules = Rules::by_name(args.get(1).expect(usage)).expect("a variant");
    let sims: u64 = args.get(2).expect(usage).parse().expect(usage);
    let out = args.get(3).expect(usage);
    let jobs: usize = args
        .iter()
        .position(|a| a == "--jobs")
        .map_or(1, |i| args[i + 1].parse().expect(usage));
    let second = args.iter().any(|a| a == "--second");
    let tree = args.iter().position(|a| a == "--tree").map(|i| {
        let n = |j: usize| -> usize { args[i + j].parse().expect(usage) };
        (n(1), n(2))
    });
    let seat: Option<usize> = args
        .iter()
        .position(|a| a == "--seat")
        .map(|i| args[i + 1].parse().expect(usage));
    let colours = rules.num_colours();
    // Whether the position after `path` is one the book is for.
    let ours = |path: &[Move]| seat.is_none_or(|s| path.len() % colours == s);
    let extend = args
        .iter()
        .position(|a| a == "--extend")
        .map(|i| std::fs::read_to_string(&args[i + 1]).expect("the book to extend"));
    let ctx = Context::new(&rules);
    let syms = start_preserving_symmetries(&rules, &ctx);
    let t = rules.table();

    let mut book = match &extend {
        Some(text) => {
            let book = Book::parse(&rules, text).expect("the book to extend parses");
            assert_eq!(
                book.simulations(),
                sims,
                "the book to extend has other simulations"
            );
            book
        }
        None => Book::new(sims),
    };
    let empty = Game::new(rules.clone());
    let first = match book.lookup(&empty) {
        Some(e) => e,
        None => search(&empty, sims, 0).0,
    };
    book.insert(Vec::new(), first);
    eprintln!(
        "empty board: {}",
        blokus_core::notation::format_move(t, first.mv)
    );

    // Every first placement of a largest piece, searched once per symmetry class.
    let firsts = largest(&empty);
    let paths: Vec<Vec<Move>> = classes(&firsts, &syms, t)
        .into_iter()
        .map(|m| vec![m])
        .filter(|p| ours(p) && !known(&book, &rules, p))
        .collect();
    let mut found = run(&rules, &paths, sims, jobs);
    if second {
        // The first colour's second placement, after its book move and each reply.
        let mut after = empty.clone();
        after.play(first.mv).unwrap();
        let paths: Vec<Vec<Move>> = largest(&after)
            .into_iter()
            .map(|r| vec![first.mv, r])
            .filter(|p| !known(&book, &rules, p))
            .collect();
        found.extend(run(&rules, &paths, sims, jobs));
    }
    if let Some((k, depth)) = tree {
        // Layer by layer: each position's K favourite moves lead to the next layer.
        let mut layer: Vec<Vec<Move>> = vec![Vec::new()];
        for _ in 0..depth {
            let searched = run_top(&rules, &layer, sims, jobs, k);
            let mut next = Vec::new();
            for (path, entry, top) in searched {
                let top = if ours(&path) && seat.is_some() {
                    vec![entry.mv]
                } else {
                    top
                };
                if !path.is_empty() {
                    found.push((path.clone(), entry));
                }
                for m in top {
                    let mut p = path.clone();
                    p.push(m);
                    next.push(p);
                }
            }
            next.sort();
            next.dedup();
            layer = next;
        }
        // The last layer needs only its moves.
        let rest: Vec<Vec<Move>> = layer
            .into_iter()
            .filter(|p| ours(p) && !known(&book, &rules, p))
            .collect();
        found.extend(run(&rules, &rest, sims, jobs));
    }
    found.retain(|(path, _)| ours(path));
    for (path, entry) in found {
        // The images of the position under the symmetries have the image move.
        for map in &syms {
            let image = |m: Move| map_move(t, map, m);
            let p: Vec<Move> = path.iter().map(|&m| image(m)).collect();
            book.insert(
                p,
                Entry {
                    mv: image(entry.mv),
                    value: entry.value,
                },
            );
        }
        book.insert(path, entry);
    }
    book.retain(|path| ours(path));
    let text = format!(
        "# Opening book for {}: {} positions, each searched with {} simulations.\n# Written by crates/blokus-ai/examples/make_book.rs:\n# make_book {}\n{}",
        rules.v().id,
        book.len(),
        sims,
        // The output's name is the writer's business.
        args[1..]
            .iter()
            .enumerate()
            .map(|(i, a)| if i == 2 { "OUT.txt" } else { a.as_str() })
            .collect::<Vec<_>>()
            .join(" "),
        book.to_text(&rules)
    );
    std::fs::write(out, text).expect("write the book");
    eprintln!("{} positions written to {out}", book.len());
}

/// Whether the book has the position after `path`.
fn known(book: &Book, rules: &Rules, path: &[Move]) -> bool {
    let mut game = Game::new(rules.clone());
    for &m in path {
        game.play(m).unwrap();
    }
    book.lookup(&game).is_some()
}

/// Searches each position (the placements of `paths` from the start) on `jobs` threads.
fn run(rules: &Rules, paths: &[Vec<Move>], sims: u64, jobs: usize) -> Vec<(Vec<Move>, Entry)> {
    run_top(rules, paths, sims, jobs, 0)
        .into_iter()
        .map(|(p, e, _)| (p, e))
        .collect()
}

/// [`run`], with each position's `k` favourite moves (a game that is over has none).
fn run_top(
    rules: &Rules,
    paths: &[Vec<Move>],
    sims: u64,
    jobs: usize,
    k: usize,
) -> Vec<(Vec<Move>, Entry, Vec<Move>)> {
    let next = Mutex::new(0usize);
    let found = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(path) = paths.get(i) else { break };
                let mut game = Game::new(rules.clone());
                for &m in path {
                    game.play(m).unwrap();
                }
                let (e, top) = search(&game, sims, i as u64 + 1);
                eprintln!("{}/{}", i + 1, paths.len());
                let top = top.into_iter().take(k).collect();
                found.lock().unwrap().push((path.clone(), e, top));
            });
        }
    });
    found.into_inner().unwrap()
}

/// The move a search of `sims` simulations prefers, and its value for the mover; and
/// every move it searched, the preferred first, then by visits.
fn search(game: &Game, sims: u64, seed: u64) -> (Entry, Vec<Move>) {
    let mut p = MctsPlayer::new(MctsOptions {
        simulations: Some(sims),
        schedule: Some(Schedule::Flat),
        seed,
        resign: false,
        book: false,
        ..MctsOptions::default()
    });
    let rating = p.rate(game, Budget::default());
    let best = &rating.moves[0];
    let Decision::Place(mv) = best.decision else {
        panic!("a placement")
    };
    let all = rating
        .moves
        .iter()
        .filter_map(|m| match m.decision {
            Decision::Place(m) => Some(m),
            _ => None,
        })
        .collect();
    (
        Entry {
            mv,
            value: best.value,
        },
        all,
    )
}

/// The colour to move's legal placements of its largest pieces.
fn largest(game: &Game) -> Vec<Move> {
    let t = game.rules().table();
    let moves = game.legal_moves();
    let size = |m: &Move| t.info(*m).cells().len();
    let most = moves.iter().map(size).max().unwrap_or(0);
    moves.into_iter().filter(|m| size(m) == most).collect()
}

/// One move of each class of `moves` that the symmetries map onto each other.
fn classes(moves: &[Move], syms: &[Vec<Cell>], t: &blokus_core::MoveTable) -> Vec<Move> {
    moves
        .iter()
        .copied()
        .filter(|&m| syms.iter().all(|map| map_move(t, map, m) >= m))
        .collect()
}

/// The board symmetries under which every colour's legal first placements stay the
/// same set (those that keep every start in place).
fn start_preserving_symmetries(rules: &Rules, ctx: &Context) -> Vec<Vec<Cell>> {
    let t = rules.table();
    let empty = blokus_core::Position::new(rules);
    ctx.symmetries
        .iter()
        .filter(|map| {
            Colour::all(rules.num_colours()).all(|c| {
                let mut a = empty.legal_moves(rules, c);
                let mut b: Vec<Move> = a.iter().map(|&m| map_move(t, map, m)).collect();
                a.sort();
                b.sort();
                a == b
            })
        })
        .cloned()
        .collect()
}

/// The image of a move under a symmetry of the board.
fn map_move(t: &blokus_core::MoveTable, map: &[Cell], m: Move) -> Move {
    let cells: Vec<Cell> = t.info(m).cells().iter().map(|c| map[c.index()]).collect();
    t.find(&cells)
        .expect("a symmetry maps placements onto placements")
}
