//! Players through the public interface: legality in every variant, determinism,
//! converting a won endgame, resisting a mirroring opponent, specs.

use blokus_ai::{player_from_spec, Budget, Decision, GreedyPlayer, Player};
use blokus_core::Colour;
use blokus_core::{score, Cell, Game, Rules, VariantId};

/// Plays a game between players (indexed by player number mod their count); every
/// decision goes through the checked `Game` API, so an illegal one fails the test.
fn play(rules: &Rules, players: &mut [Box<dyn Player>]) -> Game {
    let mut game = Game::new(rules.clone());
    let mut guard = 0;
    while !game.is_over() {
        let p = game.position().player_to_move(rules).index() % players.len();
        match players[p].decide(&game, Budget::default()) {
            Decision::Place(m) => game
                .play(m)
                .unwrap_or_else(|e| panic!("{}: illegal move: {e}", rules.v().id)),
            Decision::Pie(c) => game.choose_pie(c).expect("pie choice pending"),
            Decision::Resign => {
                assert_eq!(rules.v().players, 2, "resigned in a multi-player game");
                break;
            }
        }
        guard += 1;
        assert!(guard < 500, "game does not end");
    }
    game
}

fn spec(s: &str) -> Box<dyn Player> {
    player_from_spec(s).unwrap()
}

#[test]
fn every_player_makes_only_legal_moves_in_every_variant() {
    for (i, id) in VariantId::ALL.map(VariantId::as_str).iter().enumerate() {
        let rules = Rules::by_name(id).unwrap();
        for seed in 0..2u64 {
            let s = seed + 10 * i as u64;
            let mut players = vec![
                spec(&format!("mcts:simulations=12,seed={s}")),
                spec(&format!("greedy:seed={s}")),
                spec(&format!("random:seed={s}")),
                spec(&format!("mcts:simulations=5,seed={s},resign=false")),
            ];
            let game = play(&rules, &mut players);
            assert!(game.is_over(), "{id}");
        }
    }
}

#[test]
fn the_alternate_contact_rule_is_respected() {
    let mut rules = Rules::by_name("trigon_2").unwrap();
    rules.options.alternate_contact = true;
    let mut players = vec![spec("mcts:simulations=10,seed=3"), spec("greedy:seed=3")];
    assert!(play(&rules, &mut players).is_over());
}

#[test]
fn a_seed_makes_play_reproducible() {
    let rules = Rules::by_name("duo").unwrap();
    let record = || {
        let mut players = vec![
            spec("mcts:simulations=60,seed=42"),
            spec("mcts:simulations=40,seed=7"),
        ];
        play(&rules, &mut players).moves().collect::<Vec<_>>()
    };
    assert_eq!(record(), record());
}

#[test]
fn two_threads_play_legal_moves() {
    let rules = Rules::by_name("duo").unwrap();
    let mut players = vec![
        spec("mcts:simulations=200,threads=2,seed=1"),
        spec("greedy"),
    ];
    assert!(play(&rules, &mut players).is_over());
}

/// A thinking time over before the first simulation (a stalled process on a busy
/// machine) still gives a legal move: the search always runs one simulation, which
/// lists the root's moves.
#[test]
fn a_thinking_time_already_over_still_gives_a_move() {
    let rules = Rules::by_name("duo").unwrap();
    for threads in [1, 2] {
        let s = format!("mcts:seconds=0.000000001,threads={threads}");
        let game = play(&rules, &mut [spec(&s), spec(&s)]);
        assert!(game.position().moves_played() >= 2, "{threads} threads");
    }
}

#[test]
fn mcts_beats_greedy_and_greedy_beats_random() {
    let rules = Rules::by_name("duo").unwrap();
    let mut wins = 0.0;
    for seed in 0..2 {
        // MCTS as each colour in turn.
        for first in [true, false] {
            let mcts = spec(&format!("mcts:simulations=400,seed={seed}"));
            let greedy = spec(&format!("greedy:seed={seed}"));
            let mut players = if first {
                vec![mcts, greedy]
            } else {
                vec![greedy, mcts]
            };
            let game = play(&rules, &mut players);
            let shares = score::win_shares(&rules, game.position());
            wins += shares[if first { 0 } else { 1 }];
        }
    }
    assert!(wins >= 3.0, "mcts won {wins} of 4 against greedy");
    let mut g = vec![spec("greedy:seed=5"), spec("random:seed=5")];
    let game = play(&rules, &mut g);
    assert_eq!(score::win_shares(&rules, game.position())[0], 1.0);
}

#[test]
fn a_won_endgame_is_converted() {
    // Blue plays well and Orange randomly for 16 placements: Blue is far ahead. Then
    // the search takes Blue over against a greedy Orange and must bring the win home.
    let rules = Rules::by_name("duo").unwrap();
    let mut game = Game::new(rules.clone());
    let mut blue = GreedyPlayer::new(1);
    let mut orange = spec("random:seed=9");
    while game.moves().count() < 16 && !game.is_over() {
        let d = if game.to_move() == Colour(0) {
            blue.decide(&game, Budget::default())
        } else {
            orange.decide(&game, Budget::default())
        };
        let Decision::Place(m) = d else { panic!() };
        game.play(m).unwrap();
    }
    let lead = {
        let r = score::side_results(&rules, game.position());
        r[0].score - r[1].score
    };
    assert!(lead > 0, "setup should favour Blue");
    let mut mcts = spec("mcts:simulations=300,seed=2,resign=false");
    let mut greedy = spec("greedy:seed=4");
    while !game.is_over() {
        let d = if game.to_move() == Colour(0) {
            mcts.decide(&game, Budget::default())
        } else {
            greedy.decide(&game, Budget::default())
        };
        let Decision::Place(m) = d else { panic!() };
        game.play(m).unwrap();
    }
    assert_eq!(score::win_shares(&rules, game.position()), vec![1.0, 0.0]);
}

/// Copies the opponent's last move with a board symmetry (the first one that keeps the
/// whole position symmetric with the players' colours swapped) when it can, else plays
/// greedily: against it, a careless player draws.
struct Mirror {
    fallback: GreedyPlayer,
}

/// Whether `map` carries every colour's cells onto those of its partner (`c ^ 1`).
fn symmetric_under(game: &Game, map: &[Cell]) -> bool {
    let pos = game.position();
    (0..game.rules().num_colours()).step_by(2).all(|c| {
        let other = pos.colour_cells(Colour::new(c + 1));
        pos.colour_cells(Colour::new(c)).len() == other.len()
            && pos
                .colour_cells(Colour::new(c))
                .iter()
                .all(|k| other.contains(map[k.index()]))
    })
}

impl Player for Mirror {
    fn name(&self) -> String {
        "mirror".into()
    }

    fn decide(&mut self, game: &Game, budget: Budget) -> Decision {
        if let Some((_, last)) = game.moves().last() {
            let t = game.rules().table();
            for map in t.geometry().symmetries() {
                let cells: Vec<Cell> = t
                    .info(last)
                    .cells()
                    .iter()
                    .map(|c| map[c.index()])
                    .collect();
                let Some(m) = t.find(&cells) else { continue };
                let mut copy = game.clone();
                if copy.play(m).is_ok() && symmetric_under(&copy, &map) {
                    return Decision::Place(m);
                }
            }
        }
        self.fallback.decide(game, budget)
    }
}

#[test]
fn a_mirroring_opponent_does_not_get_a_draw() {
    for id in ["duo", "junior", "trigon_2"] {
        let rules = Rules::by_name(id).unwrap();
        let mut players: Vec<Box<dyn Player>> = vec![
            spec("mcts:simulations=400,seed=11"),
            Box::new(Mirror {
                fallback: GreedyPlayer::new(0),
            }),
        ];
        let game = play(&rules, &mut players);
        let shares = score::win_shares(&rules, game.position());
        // The copier did copy (so the win is the defence's doing).
        let syms = rules.table().geometry().symmetries();
        let mut replay = Game::new(rules.clone());
        let mut copied = 0;
        for (_, m) in game.moves() {
            replay.play(m).unwrap();
            if replay.position().moves_played().is_multiple_of(2)
                && syms.iter().any(|map| symmetric_under(&replay, map))
            {
                copied += 1;
            }
        }
        assert!(copied >= 1, "{id}: the mirror never copied");
        assert_eq!(shares[0], 1.0, "{id}: {:?}", game.results());
    }
}

#[test]
fn the_pie_choice_is_made_by_search() {
    let rules = Rules::by_name("polyomino_mini").unwrap();
    let mut players = vec![
        spec("mcts:simulations=100,seed=1"),
        spec("mcts:simulations=100,seed=2"),
    ];
    let game = play(&rules, &mut players);
    assert!(game.position().pie_choice().is_some());
}

#[test]
fn bad_specs_are_explained() {
    let err = |s: &str| player_from_spec(s).err().expect(s).to_string();
    assert!(err("mcts:levle=3").contains("unknown option 'levle'"));
    assert!(err("mcts:level=0").contains("out of range"));
    assert!(err("mcts:level=x").contains("bad value 'x'"));
    assert!(err("mcts:seconds=-1").contains("positive"));
    assert!(err("mcts:threads=0").contains("threads"));
    assert!(err("mcts:resign=maybe").contains("true or false"));
    assert!(err("mcts:book=no").contains("true or false"));
    assert_eq!(
        spec("mcts:level=9,book=false").name(),
        "mcts:level=9,book=false"
    );
    assert!(err("greedy:level=3").contains("unknown option 'level' for player 'greedy'"));
    assert!(err("alphazero").contains("unknown player 'alphazero'"));
    assert!(err("mcts:level").contains("needs a value"));
    assert_eq!(spec("mcts:level=9").name(), "mcts:level=9");
}

/// Issue #10's second-player position (Duo, Orange to move after eleven placements):
/// plain uniform playouts rated the monomino `h10` best whatever the seed, while the
/// contest is for the corner (the reference engine plays `l1,m1,l2,m2,l3`). With
/// playouts that answer the opponent's last moves and open with big pieces, the search
/// often plays a big piece (four or five cells; in the corner, like the reference). The
/// position is lost for Orange (the reference's level 7 rates it 0.01 and resigns; the
/// search with whole-list playouts would resign too), so resigning is off here: the test
/// is about the move.
#[test]
fn the_second_player_does_not_waste_the_monomino_early() {
    let rules = Rules::by_name("duo").unwrap();
    let moves = [
        "f9,e10,f10,g10,f11",
        "k4,j5,k5,l5,k6",
        "f6,g6,g7,h7,g8",
        "j2,i3,j3,h4,i4",
        "g3,e4,f4,g4,e5",
        "l7,k8,l8,l9,m9",
        "i1,j1,k1,h2,i2",
        "i6,i7,i8,i9,j9",
        "h11,i11,j11,k11,j12",
        "n10,n11,m12,n12,m13",
        "l12,k13,l13,k14,l14",
    ];
    let mut game = Game::new(rules.clone());
    for m in moves {
        game.play_text(m).unwrap();
    }
    // The position is close: the search plays a big piece with about half of the seeds
    // (and the monomino with the others), where plain playouts chose `h10` with every
    // seed. Over 20 seeds, fewer than 4 big pieces would be a clear step back.
    let mut big = 0;
    let mut played = Vec::new();
    for seed in 1..=20 {
        let mut p = spec(&format!("mcts:simulations=5000,seed={seed},resign=false"));
        match p.decide(&game, Budget::default()) {
            Decision::Place(m) => {
                big += usize::from(rules.table().info(m).cells().len() >= 4);
                played.push(blokus_core::notation::format_move(rules.table(), m));
            }
            d => panic!("seed {seed}: {d:?}"),
        }
    }
    assert!(
        big >= 4,
        "only {big} of 20 seeds played a big piece: {played:?}"
    );
}
