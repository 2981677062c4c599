//! The worked examples of docs/tournaments.md, move by move. Players are named by their
//! pairing number ("P3" has number 3) once round 1 has drawn the numbers.

use blokus_core::VariantId;
use blokus_tournament::{
    Event, EventConfig, EventError, NewEntrant, PairingNumber, PairingSystem, Points, ShortTables,
    TablePlan, TableResult, Tiebreak,
};

/// An event whose entrants are renamed after the draw so that "P{n}" has number n.
fn event(variant: VariantId, system: PairingSystem, players: usize, rounds: u32) -> Event {
    let mut config = EventConfig::new("worked example", variant);
    config.pairing = system;
    config.rounds = rounds;
    let entrants = (0..players)
        .map(|i| NewEntrant::person(&format!("entrant {i}")))
        .collect();
    Event::new(config, entrants).unwrap()
}

/// The tables of the current round as pairing numbers, in seat order.
fn tables(event: &Event) -> Vec<Vec<u32>> {
    let number = |id: blokus_tournament::EntrantId| event.entrants()[id.index()].number.unwrap().0;
    event
        .current_round()
        .unwrap()
        .tables
        .iter()
        .map(|t| t.seats.iter().map(|&id| number(id)).collect())
        .collect()
}

/// Enters the current round's results: for each table (in table order), the game score of
/// each pairing number at it.
fn results(event: &mut Event, scores: &[&[(u32, i32)]]) {
    let round = event.current_round().unwrap().clone();
    for (table, given) in round.tables.iter().zip(scores) {
        let seat_scores = table
            .seats
            .iter()
            .map(|id| {
                let n = event.entrants()[id.index()].number.unwrap().0;
                given
                    .iter()
                    .find(|(m, _)| *m == n)
                    .expect("a score per seat")
                    .1
            })
            .collect();
        event
            .record_result(
                round.number,
                table.number,
                TableResult::from_scores(seat_scores),
            )
            .unwrap();
    }
}

#[test]
fn italo_svizzero_two_seats() {
    let mut e = event(VariantId::Duo, PairingSystem::ItaloSvizzero, 6, 3);
    e.pair_next_round().unwrap();
    assert_eq!(tables(&e), [[1, 2], [3, 4], [5, 6]]);
    assert_eq!(e.current_round().unwrap().scan_end, Some(PairingNumber(6)));
    results(
        &mut e,
        &[
            &[(1, -4), (2, -11)],
            &[(3, -9), (4, -2)],
            &[(5, 15), (6, -8)],
        ],
    );

    // Scan from 1: 1 (1 point) takes 4, the next on 1 point; 5 finds nobody on 1 point
    // ahead, skips 6 (met) and takes 2; 3-6 remain.
    e.pair_next_round().unwrap();
    assert_eq!(tables(&e), [[4, 1], [2, 5], [6, 3]]);
    assert_eq!(e.current_round().unwrap().scan_end, Some(PairingNumber(6)));
    results(
        &mut e,
        &[
            &[(4, -10), (1, -5)],
            &[(2, -6), (5, -6)],
            &[(6, -1), (3, -7)],
        ],
    );

    // 1 (2 points) takes 5 (1.5); the scan resumes at 6, first of 6 and 4 on 1 point:
    // 6-4; then 2-3.
    e.pair_next_round().unwrap();
    assert_eq!(tables(&e), [[1, 5], [6, 4], [3, 2]]);
    assert_eq!(e.current_round().unwrap().scan_end, Some(PairingNumber(3)));
    results(
        &mut e,
        &[
            &[(1, 20), (5, -3)],
            &[(6, -5), (4, -5)],
            &[(3, -2), (2, -9)],
        ],
    );

    let st = e.standings();
    let line = |n: u32| {
        let r = st
            .rows
            .iter()
            .find(|r| r.number == Some(PairingNumber(n)))
            .unwrap();
        (r.place, r.points, r.tiebreaks[0], r.tiebreaks[1])
    };
    let p = Points::whole;
    let half = |n| Points::fraction(n, 2);
    assert_eq!(line(1), (1, p(3), p(11), half(7)));
    assert_eq!(line(5), (2, half(3), p(6), p(5)));
    assert_eq!(line(6), (3, half(3), p(-14), p(4)));
    assert_eq!(line(4), (4, half(3), p(-17), half(11)));
    assert_eq!(line(3), (5, p(1), p(-18), half(7)));
    assert_eq!(line(2), (6, half(1), p(-26), half(11)));
    assert!(e.is_finished());
    e.audit().unwrap();
}

#[test]
fn italo_svizzero_three_seats() {
    let mut e = event(VariantId::Trigon3, PairingSystem::ItaloSvizzero, 9, 2);
    e.pair_next_round().unwrap();
    assert_eq!(tables(&e), [[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
    results(
        &mut e,
        &[
            &[(1, -5), (2, -9), (3, -1)],
            &[(4, -2), (5, -12), (6, -6)],
            &[(7, -7), (8, -3), (9, -15)],
        ],
    );
    // 3 (2 points, first from 1) takes 4 and 8, the next on 2 points; the scan resumes at
    // 9: 1 is the first on 1 point and takes 6 and 7; 9, 2, 5 remain. Seats: whoever had
    // each seat least often.
    e.pair_next_round().unwrap();
    assert_eq!(tables(&e), [[3, 4, 8], [6, 1, 7], [2, 9, 5]]);
    assert_eq!(e.current_round().unwrap().scan_end, Some(PairingNumber(5)));
}

#[test]
fn swiss_floats_rather_than_repeats() {
    let mut e = event(VariantId::Duo, PairingSystem::Swiss, 4, 3);
    e.pair_next_round().unwrap();
    assert_eq!(tables(&e), [[1, 2], [3, 4]]);
    results(&mut e, &[&[(1, -3), (2, -9)], &[(3, -1), (4, -20)]]);
    e.pair_next_round().unwrap();
    assert_eq!(tables(&e), [[1, 3], [2, 4]]);
    results(&mut e, &[&[(1, -2), (3, -8)], &[(2, -5), (4, -6)]]);
    // 1 (2 points) has met 2 and 3 (1 point): 4 (0) floats up; 2-3.
    e.pair_next_round().unwrap();
    assert_eq!(tables(&e), [[4, 1], [3, 2]]);
}

#[test]
fn round_robin_follows_berger_tables() {
    let mut e = event(VariantId::Duo, PairingSystem::RoundRobin, 4, 3);
    let mut all = vec![];
    for _ in 0..3 {
        e.pair_next_round().unwrap();
        all.push(tables(&e));
        let round = e.current_round().unwrap().clone();
        for t in &round.tables {
            e.record_result(round.number, t.number, TableResult::from_scores(vec![0, 0]))
                .unwrap();
        }
    }
    assert_eq!(
        all,
        [
            vec![[1, 4], [2, 3]],
            vec![[1, 2], [4, 3]],
            vec![[3, 1], [2, 4]]
        ]
    );
    // Three draws each: everyone on 1.5.
    assert!(e
        .standings()
        .rows
        .iter()
        .all(|r| r.points == Points::fraction(3, 2)));
}

#[test]
fn short_tables_byes_or_smaller() {
    assert_eq!(TablePlan::new(10, 4, ShortTables::Byes).sizes, [4, 4]);
    assert_eq!(TablePlan::new(10, 4, ShortTables::Smaller).sizes, [4, 3, 3]);
    let mut config = EventConfig::new("ten", VariantId::Classic);
    config.short_tables = ShortTables::Smaller;
    let entrants = (0..10)
        .map(|i| NewEntrant::person(&format!("p{i}")))
        .collect();
    let mut e = Event::new(config, entrants).unwrap();
    let round = e.pair_next_round().unwrap();
    let variants: Vec<VariantId> = round.tables.iter().map(|t| t.variant).collect();
    use VariantId::{Classic, Classic3};
    assert_eq!(variants, [Classic, Classic3, Classic3]);
    // With byes, numbers 9 and 10 sit out round 1, each scoring the average 1.75.
    let e = {
        let entrants = (0..10)
            .map(|i| NewEntrant::person(&format!("p{i}")))
            .collect();
        let mut e = Event::new(EventConfig::new("ten", VariantId::Classic), entrants).unwrap();
        e.pair_next_round().unwrap();
        e
    };
    let byes: Vec<u32> = e
        .current_round()
        .unwrap()
        .byes
        .iter()
        .map(|b| e.entrants()[b.entrant.index()].number.unwrap().0)
        .collect();
    assert_eq!(byes, [10, 9]);
    assert!(e
        .current_round()
        .unwrap()
        .byes
        .iter()
        .all(|b| b.points == Points::fraction(7, 4)));
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let err = |c: EventConfig| Event::new(c, vec![]).unwrap_err().to_string();
    let mut c = EventConfig::new("x", VariantId::Duo);
    c.rounds = 0;
    assert!(err(c).contains("at least 1 round"));
    let mut c = EventConfig::new("x", VariantId::Classic);
    c.pairing = PairingSystem::RoundRobin;
    assert!(err(c).contains("round_robin pairs 2-player tables"));
    let mut c = EventConfig::new("x", VariantId::ClassicTeams);
    c.short_tables = ShortTables::Smaller;
    assert!(err(c).contains("no 2-player form"));
    let mut c = EventConfig::new("x", VariantId::Duo);
    c.tiebreaks = vec![Tiebreak::Wins, Tiebreak::Wins];
    assert!(err(c).contains("listed twice"));

    let mut e = Event::new(
        EventConfig::new("x", VariantId::Duo),
        vec![NewEntrant::person("Ada")],
    )
    .unwrap();
    assert_eq!(
        e.add_entrant(NewEntrant::person(" ada ")),
        Err(EventError::DuplicateName("ada".into()))
    );
    assert!(matches!(
        e.pair_next_round(),
        Err(EventError::TooFewPlayers { players: 1, .. })
    ));
    assert!(e.rounds().is_empty());
    e.add_entrant(NewEntrant::person("Bruno")).unwrap();
    e.add_entrant(NewEntrant::person("Chiara")).unwrap();
    e.add_entrant(NewEntrant::person("Dario")).unwrap();
    e.pair_next_round().unwrap();
    let before = e.clone();
    assert!(matches!(
        e.record_result(2, 1, TableResult::from_scores(vec![1, 0])),
        Err(EventError::WrongRound {
            round: 2,
            current: 1
        })
    ));
    assert!(matches!(
        e.record_result(1, 7, TableResult::from_scores(vec![1, 0])),
        Err(EventError::UnknownTable { .. })
    ));
    assert!(matches!(
        e.record_result(1, 1, TableResult::from_scores(vec![1, 0, 3])),
        Err(EventError::BadResult { .. })
    ));
    assert!(matches!(
        e.pair_next_round(),
        Err(EventError::RoundIncomplete { round: 1, .. })
    ));
    assert_eq!(e, before);
    // A result can be corrected until the next round is paired.
    e.record_result(1, 1, TableResult::from_scores(vec![1, 0]))
        .unwrap();
    e.record_result(1, 1, TableResult::from_scores(vec![0, 1]))
        .unwrap();
    e.record_result(1, 2, TableResult::forfeit(vec![1]))
        .unwrap();
    e.pair_next_round().unwrap();
    assert!(matches!(
        e.record_result(1, 1, TableResult::from_scores(vec![1, 0])),
        Err(EventError::WrongRound {
            round: 1,
            current: 2
        })
    ));
}
