//! A player whose time runs out: loses a two-player game at once, or passes for the rest
//! of a game of more players; records keep it.

use blokus_core::record::{blksgf, json, result_text};
use blokus_core::score::side_results;
use blokus_core::Colour;
use blokus_core::{Game, GameError, GameEvent, PlayerId, Rules};

fn play_first_legal(game: &mut Game, moves: usize) {
    for _ in 0..moves {
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
    }
}

#[test]
fn two_players_the_player_out_of_time_loses_whatever_the_score() {
    let mut g = Game::new(Rules::by_name("duo").unwrap());
    g.play_text("d9,c10,d10,e10,d11").unwrap();
    g.play_text("i4,h5,i5,j5,i6").unwrap();
    g.play_text("e6,e7,e8").unwrap();
    // Purple is ahead on cells, but its clock runs out.
    g.time_out(PlayerId::new(0)).unwrap();
    assert!(g.is_over());
    assert!(g.legal_moves().is_empty());
    let r = side_results(g.rules(), g.position());
    assert_eq!((r[0].place, r[1].place), (2, 1));
    assert!(
        r[0].score > r[1].score,
        "the loser on time was ahead on points"
    );
    assert_eq!(result_text(g.rules(), g.position()), "W+T");
    assert_eq!(g.time_out(PlayerId::new(1)), Err(GameError::GameOver));
    // Taking it back restores the game.
    assert_eq!(
        g.undo().unwrap(),
        GameEvent::TimeOut {
            player: PlayerId::new(0)
        }
    );
    assert!(!g.is_over());
}

#[test]
fn classic_two_player_ends_with_the_other_player_winning() {
    let mut g = Game::new(Rules::by_name("classic_2").unwrap());
    play_first_legal(&mut g, 5);
    g.time_out(PlayerId::new(1)).unwrap();
    assert!(g.is_over());
    assert_eq!(result_text(g.rules(), g.position()), "B+T");
}

#[test]
fn with_more_players_the_player_out_of_time_passes_for_the_rest_of_the_game() {
    let mut g = Game::new(Rules::by_name("classic").unwrap());
    play_first_legal(&mut g, 4);
    assert_eq!(g.to_move(), Colour(0));
    g.time_out(PlayerId::new(0)).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.to_move(), Colour(1), "Blue's turn is skipped at once");
    let blue_before = g.position().pieces_placed(Colour(0));
    while !g.is_over() {
        assert_ne!(g.to_move(), Colour(0), "Blue never moves again");
        play_first_legal(&mut g, 1);
    }
    assert_eq!(g.position().pieces_placed(Colour(0)), blue_before);
    assert!(g.position().pieces_placed(Colour(1)) > blue_before);
    // Places follow the points: running out of time is no extra penalty here.
    let r = side_results(g.rules(), g.position());
    assert_eq!(r.len(), 4);
    assert_eq!(
        g.time_out(PlayerId::new(1)),
        Err(GameError::GameOver),
        "the game is over"
    );
}

#[test]
fn the_shared_colour_of_three_players_passes_once_one_of_them_is_out() {
    let mut g = Game::new(Rules::by_name("classic_3").unwrap());
    play_first_legal(&mut g, 4);
    g.time_out(PlayerId::new(1)).unwrap();
    assert!(g.position().is_colour_out(g.rules(), Colour(1)));
    assert!(
        g.position().is_colour_out(g.rules(), Colour(3)),
        "the shared Green"
    );
    assert!(!g.position().is_colour_out(g.rules(), Colour(0)));
    assert_eq!(
        g.time_out(PlayerId::new(1)),
        Err(GameError::AlreadyTimedOut(PlayerId::new(1)))
    );
    assert_eq!(
        g.time_out(PlayerId::new(3)),
        Err(GameError::NoSuchPlayer(PlayerId::new(3)))
    );
    while !g.is_over() {
        assert!(g.to_move() == Colour(0) || g.to_move() == Colour(2));
        play_first_legal(&mut g, 1);
    }
}

#[test]
fn records_keep_the_time_out_and_read_it_back() {
    let mut g = Game::new(Rules::by_name("duo").unwrap());
    g.play_text("d9,c10,d10,e10,d11").unwrap();
    g.time_out(PlayerId::new(1)).unwrap();
    let text = blksgf::write(&g);
    assert!(text.contains("RE[B+T]"), "{text}");
    assert!(text.contains("XTIMEOUT[2]"), "{text}");
    let back = blksgf::read(&text).unwrap();
    assert_eq!(back.events(), g.events());
    assert!(back.is_over());
    let v = json::to_json(&g);
    assert_eq!(v["events"][1]["type"], "timeout");
    assert_eq!(v["events"][1]["player"], 1);
    assert_eq!(v["result"]["text"], "B+T");
    let back = json::from_json(&v.to_string()).unwrap();
    assert_eq!(back.events(), g.events());

    let bad = text.replace("XTIMEOUT[2]", "XTIMEOUT[3]");
    let e = blksgf::read(&bad).err().unwrap().to_string();
    assert!(e.contains("'3' is not a player of Blokus Duo"), "{e}");

    // Four players: the game goes on after the time out, and so does the record.
    let mut g = Game::new(Rules::by_name("classic").unwrap());
    play_first_legal(&mut g, 2);
    g.time_out(PlayerId::new(2)).unwrap();
    play_first_legal(&mut g, 6);
    let back = blksgf::read(&blksgf::write(&g)).unwrap();
    assert_eq!(back.events(), g.events());
    assert_eq!(back.position(), g.position());
}
