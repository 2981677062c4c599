//! `blokus gtp` over pipes: whole games driven like a controller program would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A running engine and its pipes.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(args: &[&str]) -> Gtp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_blokus"))
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start blokus gtp");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends a line; returns the raw response up to (without) the blank line.
    fn raw(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut out = String::new();
        loop {
            let mut l = String::new();
            assert!(
                self.stdout.read_line(&mut l).unwrap() > 0,
                "engine closed after {line:?}"
            );
            if l == "\n" {
                return out;
            }
            out.push_str(&l);
        }
    }

    /// Sends a line; returns the exact bytes of the response, through its closing blank
    /// line.
    fn bytes(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut out = Vec::new();
        while !out.ends_with(b"\n\n") {
            let before = out.len();
            self.stdout.read_until(b'\n', &mut out).unwrap();
            assert!(out.len() > before, "engine closed after {line:?}");
        }
        String::from_utf8(out).unwrap()
    }

    /// Sends a command that must succeed; returns the response text after `= `.
    fn ok(&mut self, line: &str) -> String {
        let r = self.raw(line);
        assert!(r.starts_with('='), "{line:?} failed: {r}");
        r[1..].trim_start_matches(' ').trim_end().to_string()
    }

    fn quit(mut self) {
        assert_eq!(self.raw("quit"), "= \n");
        assert!(self.child.wait().unwrap().success());
    }
}

fn temp_path(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("blokus-cli-gtp-{}-{name}", std::process::id()))
        .display()
        .to_string()
}

/// Plays a game to the end: the engine generates the moves of `engine_colours`, the
/// test plays the first legal move for the others. Returns the number of moves.
fn play_out(gtp: &mut Gtp, colours: &[&str], engine_colours: &[&str]) -> usize {
    let mut moves = 0;
    let mut passes = 0;
    let mut turn = 0;
    while passes < colours.len() {
        let c = colours[turn % colours.len()];
        turn += 1;
        let legal = gtp.ok(&format!("all_legal {c}"));
        if legal.is_empty() {
            passes += 1;
            continue;
        }
        passes = 0;
        let first = legal.lines().next().unwrap().to_string();
        if engine_colours.contains(&c) {
            let mv = gtp.ok(&format!("genmove {c}"));
            assert!(
                legal.lines().any(|l| l == mv),
                "genmove {c} answered {mv}, not a legal move"
            );
        } else {
            gtp.ok(&format!("play {c} {first}"));
        }
        moves += 1;
        assert!(moves < 200, "game does not end");
    }
    moves
}

#[test]
fn a_whole_duo_game_then_save_and_load() {
    let mut gtp = Gtp::start(&[
        "--game",
        "Blokus Duo",
        "--level",
        "1",
        "--seed",
        "1",
        "--quiet",
    ]);
    assert_eq!(gtp.ok("protocol_version"), "2");
    assert_eq!(gtp.ok("name"), "blokus");
    assert_eq!(gtp.raw("7 known_command genmove"), "=7 true\n");
    assert!(gtp.ok("list_commands").lines().any(|l| l == "all_legal"));
    assert_eq!(gtp.ok("all_legal b").lines().count(), 414);
    let moves = play_out(&mut gtp, &["b", "w"], &["w"]);
    assert!(moves > 10);
    let score = gtp.ok("final_score");
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
    assert_eq!(gtp.ok("genmove b"), "pass");
    let board = gtp.ok("showboard");
    assert!(board.contains("Game over"), "{board}");

    let path = temp_path("duo.blksgf");
    gtp.ok(&format!("savesgf {path}"));
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.starts_with("(;GM[Blokus Duo]"));
    assert!(saved.contains(&format!("RE[{score}]")), "{saved}");
    assert_eq!(saved.matches("\n;").count(), moves);

    let mut other = Gtp::start(&["--game", "classic", "--player", "random", "--quiet"]);
    other.ok(&format!("loadsgf {path}"));
    assert_eq!(other.ok("final_score"), score);
    assert_eq!(other.ok("showboard"), board);
    // Before move 3: two moves on the board.
    other.ok(&format!("loadsgf {path} 3"));
    let path2 = temp_path("duo-2.blksgf");
    other.ok(&format!("savesgf {path2}"));
    let first_two = std::fs::read_to_string(&path2).unwrap();
    assert_eq!(first_two.matches("\n;").count(), 2, "{first_two}");
    std::fs::remove_file(path2).unwrap();
    other.quit();
    gtp.quit();
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_whole_classic_game_with_out_of_turn_play_and_undo() {
    let mut gtp = Gtp::start(&["--player", "greedy", "--seed", "4", "--quiet"]);
    gtp.ok("set_game Blokus");
    // Out of turn, as the reference engine allows: Green moves first.
    gtp.ok("play 4 a1");
    gtp.ok("undo");
    assert_eq!(gtp.raw("undo"), "? cannot undo\n");
    assert_eq!(gtp.ok("all_legal 1").lines().count(), 58);
    let moves = play_out(&mut gtp, &["1", "2", "3", "4"], &["1", "3"]);
    assert!(moves > 40);
    let score = gtp.ok("final_score");
    let points: Vec<i32> = score.split(' ').map(|p| p.parse().unwrap()).collect();
    assert_eq!(points.len(), 4, "{score}");
    assert!(points.iter().all(|&p| (0..=109).contains(&p)), "{score}");

    let path = temp_path("classic.blksgf");
    gtp.ok(&format!("savesgf {path}"));
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.starts_with("(;GM[Blokus]"), "{saved}");
    assert!(
        saved.contains("\n;1[") && saved.contains("\n;4["),
        "{saved}"
    );
    gtp.ok("clear_board");
    assert_eq!(gtp.ok("final_score"), "0 0 0 0");
    gtp.ok(&format!("loadsgf {path}"));
    assert_eq!(gtp.ok("final_score"), score);
    gtp.quit();
    std::fs::remove_file(path).unwrap();
}

#[test]
fn malformed_lines_get_errors_and_the_engine_keeps_going() {
    let mut gtp = Gtp::start(&["--game", "duo", "--player", "random", "--quiet"]);
    for line in [
        "frobnicate",
        "play",
        "play b",
        "play q e8",
        "play b e8,zz99",
        "play b a1,b2",
        "play b a1",
        "all_legal",
        "set_game Blokus Quattro",
        "loadsgf /nonexistent.blksgf",
        "genmove 7",
        "undo",
        "42 known_command",
        "\u{1}\u{2}\u{3}play",
    ] {
        let r = gtp.raw(line);
        assert!(r.starts_with('?'), "{line:?} -> {r}");
    }
    assert_eq!(
        gtp.raw("12 play b a1"),
        "?12 illegal move: the first piece must cover a starting point\n"
    );
    // Comments and empty lines get no response at all.
    writeln!(gtp.stdin, "# a comment\n\n   ").unwrap();
    assert_eq!(gtp.raw("3 name"), "=3 blokus\n");
    gtp.quit();
}

/// The exact bytes of every response form, as strict GTP clients (the reference
/// program's match tool) read them: status, id, a space, the text, a blank line.
#[test]
fn every_response_form_has_the_exact_gtp_bytes() {
    let mut gtp = Gtp::start(&["--game", "duo", "--player", "random", "--quiet"]);
    // Empty success, with and without an id.
    assert_eq!(gtp.bytes("set_game Blokus Duo"), "= \n\n");
    assert_eq!(gtp.bytes("clear_board"), "= \n\n");
    assert_eq!(gtp.bytes("7 play b e8,d9,e9,f9,e10"), "=7 \n\n");
    // One line of text.
    assert_eq!(gtp.bytes("protocol_version"), "= 2\n\n");
    assert_eq!(gtp.bytes("12 name"), "=12 blokus\n\n");
    // Several lines.
    let commands = gtp.bytes("list_commands");
    assert!(
        commands.starts_with("= all_legal\nclear_board\n"),
        "{commands}"
    );
    assert!(!commands[..commands.len() - 2].contains("\n\n"));
    // A text that starts on its own line: `= ` alone on the first.
    let board = gtp.bytes("showboard");
    assert!(board.starts_with("= \n   a b c"), "{board}");
    assert!(!board[..board.len() - 2].contains("\n\n"), "{board}");
    // Failures, with and without an id.
    assert_eq!(
        gtp.bytes("frobnicate"),
        "? unknown command 'frobnicate'\n\n"
    );
    assert_eq!(
        gtp.bytes("3 play w e8"),
        "?3 illegal move: cell e8 is already covered\n\n"
    );
    assert_eq!(gtp.bytes("quit"), "= \n\n");
    assert!(gtp.child.wait().unwrap().success());
}

/// `--rules` sets rule options for every game the engine plays; `rules` lists them.
#[test]
fn rule_options_from_the_command_line_hold_after_set_game() {
    let mut gtp = Gtp::start(&[
        "--game",
        "trigon_2",
        "--rules",
        "no_mirror_opening",
        "--player",
        "random",
        "--quiet",
    ]);
    assert_eq!(gtp.ok("rules"), "no_mirror_opening");
    gtp.ok("set_game Blokus Trigon Two-Player");
    gtp.ok("clear_board");
    gtp.ok("genmove 1");
    // Under the mirror opening, colour 3's only move would be colour 1's mirror image.
    assert_eq!(gtp.ok("rules"), "no_mirror_opening");
    assert!(gtp.ok("all_legal 3").lines().count() > 1);
    gtp.quit();
    let out = Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args(["gtp", "--rules", "no_mirror_opening,fast"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown rule option 'fast'"), "{err}");
}

/// Every variant, played to the end by two engine processes driven the way the
/// reference program's match tool drives engines: `set_game`, `clear_board`, `genmove`
/// to the engine whose turn it is and `play` of its answer to the other, `cputime`
/// after the game, `quit`. Any error response fails the test.
#[test]
fn two_engines_play_a_whole_game_of_every_variant_as_a_match_tool_drives_them() {
    use blokus_core::record::blksgf::move_prop;
    use blokus_core::{notation, Game, PieChoice, Rules, VariantId};
    for (i, id) in VariantId::ALL.map(VariantId::as_str).iter().enumerate() {
        let rules = Rules::by_name(id).unwrap();
        let seed = |k: usize| (2 * i + k).to_string();
        let mut engines = [0, 1].map(|k| {
            Gtp::start(&[
                "--player",
                "mcts:simulations=20",
                "--seed",
                &seed(k),
                "--quiet",
            ])
        });
        for e in &mut engines {
            e.ok(&format!("set_game {}", rules.v().game_name));
            e.ok("clear_board");
        }
        let mut game = Game::new(rules.clone());
        let mut turns = 0;
        while !game.is_over() {
            let player = game.position().player_to_move(&rules).index();
            let colour = move_prop(&rules, game.to_move());
            let (me, other) = if player.is_multiple_of(2) {
                (0, 1)
            } else {
                (1, 0)
            };
            let answer = engines[me].ok(&format!("genmove {colour}"));
            match answer.as_str() {
                "resign" => {
                    assert_eq!(rules.v().players, 2, "{id}: resigned with more players");
                    break;
                }
                "keep" | "swap" => {
                    let choice = if answer == "keep" {
                        PieChoice::Keep
                    } else {
                        PieChoice::Swap
                    };
                    game.choose_pie(choice)
                        .unwrap_or_else(|e| panic!("{id}: {answer}: {e}"));
                }
                text => {
                    let m = notation::parse_move(rules.table(), text)
                        .unwrap_or_else(|e| panic!("{id}: genmove answered {text:?}: {e}"));
                    game.play(m).unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
                }
            }
            engines[other].ok(&format!("play {colour} {answer}"));
            turns += 1;
            assert!(turns < 400, "{id}: game does not end");
        }
        assert!(turns >= 2 * rules.num_colours(), "{id}: only {turns} turns");
        for mut e in engines {
            let cpu: f64 = e.ok("cputime").parse().unwrap();
            assert!(cpu >= 0.0, "{id}: cputime {cpu}");
            e.quit();
        }
    }
}

/// Blokus 3D over pipes: a whole two-player game on a site file between the engine and
/// the test (first legal moves), out-of-turn and illegal moves refused with reasons, the
/// board with heights, the record saved, loaded back at a move, and a switch back to a
/// flat game.
#[test]
fn plays_a_whole_blokus_3d_game_on_a_site_file() {
    let site = temp_path("yard.site");
    std::fs::write(
        &site,
        "name = yard\nheights = 2:2 3:3 4:3\nfootprint =\noooo\noooo\noooo\n",
    )
    .unwrap();
    let mut gtp = Gtp::start(&[
        "--game",
        "rumis_2",
        "--site",
        &site,
        "--player",
        "random:seed=5",
    ]);
    assert_eq!(gtp.ok("site"), "yard");
    assert_eq!(gtp.ok("rules"), "none");
    assert_eq!(
        gtp.raw("play w a1.1,b1.1"),
        "? blue is to move, not yellow (in Blokus 3D colours move in turn)\n"
    );
    assert_eq!(
        gtp.raw("play b a1.2,b1.2"),
        "? illegal move: a cube would have empty space under it\n"
    );
    assert!(gtp
        .raw("play b a1.1,c3.1")
        .starts_with("? invalid move: 'a1.1,c3.1' is not"));
    assert!(gtp
        .raw("play b a1.1,e1.1")
        .starts_with("? invalid move: cube e1.1 is off"));
    let first_moves = gtp.ok("all_legal b");
    assert!(
        first_moves.lines().any(|l| l == "a1.1,b1.1"),
        "{first_moves}"
    );
    gtp.ok("play b a1.1,b1.1");
    assert_eq!(
        gtp.raw("play w d3.1,d3.2"),
        "? illegal move: a colour's first stone must share a face with a stone already placed\n"
    );
    let moves = 1 + play_out(&mut gtp, &["w", "b"], &["w"]);
    assert_eq!(gtp.ok("genmove b"), "pass");
    let score = gtp.ok("final_score");
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
    let board = gtp.raw("showboard");
    assert!(
        board.starts_with("= \nSite yard (4 x 3, 2 levels)"),
        "{board}"
    );
    assert!(
        board.contains("\nLevel 1:\n") && board.contains("Game over: "),
        "{board}"
    );
    let place_b = gtp.ok("get_place b");
    assert!(place_b.starts_with('1') || place_b == "2", "{place_b}");
    let record = temp_path("yard.blksgf");
    gtp.ok(&format!("savesgf {record}"));
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("GM[Blokus 3D Duo]") && text.contains("XSITEDEF[name = yard"));
    let game = blokus_core::cube::record::from_blksgf(&text).unwrap();
    assert_eq!(game.moves().len(), moves);
    assert!(game.is_over());
    // Back to the position before move 2: yellow to move after blue's a1.1,b1.1.
    gtp.ok("set_game Blokus Duo");
    gtp.ok(&format!("loadsgf {record} 2"));
    assert_eq!(gtp.ok("site"), "yard");
    let legal = gtp.ok("all_legal w");
    assert!(!legal.is_empty());
    let mv = gtp.ok("g");
    assert!(legal.lines().any(|l| l == mv), "{mv}");
    gtp.ok("undo");
    gtp.ok("undo");
    assert_eq!(gtp.raw("undo"), "? cannot undo\n");
    gtp.ok("site plaza");
    gtp.ok("set_game Blokus 3D");
    assert!(gtp.ok("play 1 c3.1,d3.1").is_empty());
    assert!(gtp.ok("showboard").contains("Site plaza (6 x 6, 8 levels)"));
    assert_eq!(
        gtp.raw("site moon"),
        "? unknown site 'moon' (built in: plaza, cross, ring, diamond, tower; or load a site file)\n"
    );
    gtp.ok("set_game Blokus Duo");
    gtp.ok("play b e8,d9,e9,f9,e10");
    assert!(gtp
        .ok("variants")
        .ends_with("rumis_2x4 Blokus 3D Two-Player"));
    gtp.quit();
}
