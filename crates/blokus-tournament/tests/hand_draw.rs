//! Pairing numbers drawn by hand: round 1 follows them, later entrants take the next
//! numbers, the audit replays them, and bad draws are refused by name.

use blokus_core::VariantId;
use blokus_tournament::{Event, EventConfig, EventError, NewEntrant, TableResult};

fn event(names: &[&str]) -> Event {
    let mut config = EventConfig::new("club night", VariantId::Duo);
    config.rounds = 2;
    Event::new(
        config,
        names.iter().map(|n| NewEntrant::person(n)).collect(),
    )
    .unwrap()
}

fn names_at_tables(event: &Event) -> Vec<Vec<String>> {
    event
        .current_round()
        .unwrap()
        .tables
        .iter()
        .map(|t| {
            let mut v: Vec<String> = t
                .seats
                .iter()
                .map(|id| event.entrants()[id.index()].name.clone())
                .collect();
            v.sort();
            v
        })
        .collect()
}

#[test]
fn round_one_follows_the_numbers_drawn_by_hand() {
    let mut e = event(&["Ada", "Bruno", "Chiara", "Dario"]);
    // Ada drew 3, Bruno 1, Chiara 4, Dario 2: round 1 seats 1-2 (Bruno, Dario), 3-4.
    e.draw_by_hand(&[3, 1, 4, 2]).unwrap();
    // A late registration before round 1 takes number 5.
    let elena = e.add_entrant(NewEntrant::person("Elena")).unwrap();
    assert_eq!(e.entrants()[elena.index()].number.unwrap().0, 5);
    e.add_entrant(NewEntrant::person("Fabio")).unwrap();
    e.pair_next_round().unwrap();
    assert_eq!(
        names_at_tables(&e),
        vec![
            vec!["Bruno".to_string(), "Dario".to_string()],
            vec!["Ada".to_string(), "Chiara".to_string()],
            vec!["Elena".to_string(), "Fabio".to_string()],
        ]
    );
    for t in e.current_round().unwrap().tables.clone() {
        e.record_result(1, t.number, TableResult::from_scores(vec![3, 1]))
            .unwrap();
    }
    e.pair_next_round().unwrap();
    e.audit().unwrap();
    let json = serde_json::to_string(&e).unwrap();
    assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), e);
    // After round 1 the numbers stay.
    assert!(matches!(
        e.draw_by_hand(&[1, 2, 3, 4, 5, 6]),
        Err(EventError::Draw(_))
    ));
}

#[test]
fn bad_draws_are_refused_by_name_and_change_nothing() {
    let mut e = event(&["Ada", "Bruno", "Chiara"]);
    let before = e.clone();
    for (numbers, message) in [
        (&[1, 2][..], "3 entrants, 2 numbers"),
        (&[1, 2, 2][..], "number 2 is given twice"),
        (&[1, 2, 4][..], "number 4 is not between 1 and 3"),
        (&[0, 1, 2][..], "number 0 is not between 1 and 3"),
    ] {
        let err = e.draw_by_hand(numbers).unwrap_err().to_string();
        assert!(err.contains(message), "{numbers:?}: {err}");
        assert_eq!(e, before);
    }
    // A correction before round 1 replaces the draw.
    e.draw_by_hand(&[1, 2, 3]).unwrap();
    e.draw_by_hand(&[3, 2, 1]).unwrap();
    assert_eq!(e.hand_draw().unwrap()[0].0, 3);
    e.audit().unwrap();
}

#[test]
fn an_entrant_renamed_keeps_pairings_and_results_and_names_stay_unique() {
    let mut e = event(&["Ada", "Bruno", "Chiara", "Dario"]);
    e.pair_next_round().unwrap();
    let ada = e.entrants()[0].id;
    let ada_table = e.current_round().unwrap().table_of(ada).unwrap().number;
    e.record_result(1, ada_table, TableResult::from_scores(vec![80, 70]))
        .unwrap();
    let before = e.standings();
    e.rename_entrant(ada, " ada_l ").unwrap();
    assert_eq!(e.entrants()[0].name, "ada_l");
    let after = e.standings();
    assert_eq!(after.rows.len(), before.rows.len());
    for (a, b) in after.rows.iter().zip(&before.rows) {
        assert_eq!(
            (a.entrant, a.place, a.points),
            (b.entrant, b.place, b.points)
        );
    }
    e.audit().unwrap();
    // Its own name in another case is fine; another entrant's, an empty one or an
    // unknown entrant is refused.
    e.rename_entrant(ada, "ADA_L").unwrap();
    assert!(matches!(
        e.rename_entrant(ada, "bruno"),
        Err(EventError::DuplicateName(_))
    ));
    assert!(matches!(
        e.rename_entrant(ada, "  "),
        Err(EventError::BadName(_))
    ));
    assert!(e
        .rename_entrant(blokus_tournament::EntrantId(99), "Zed")
        .is_err());
}
