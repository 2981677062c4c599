//! An event: its settings, entrants and rounds, and everything an organiser does to it.
//! Every action checks its input first and changes nothing when it fails.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::config::{EventConfig, PairingSystem, ShortTables};
use crate::entrant::{Entrant, EntrantId, NewEntrant, PairingNumber};
use crate::error::EventError;
use crate::ledger::Ledger;
use crate::pairing::{self, round_robin, Contender, Pairing, Request, Walk};
use crate::result::TableResult;
use crate::round::{Bye, Round, Table};
use crate::standings::Standings;
use crate::tables::{table_variant, TablePlan};

/// A tournament: settings, entrants, and the rounds paired so far with their results.
///
/// The pairing is a function of the settings (seed included), the entrants and the
/// results, so [`Event::audit`] can replay it; the drawn numbers and every round are stored
/// as they were made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    config: EventConfig,
    /// Players per full table (the variant's number of players).
    seats: usize,
    entrants: Vec<Entrant>,
    rounds: Vec<Round>,
    /// The numbers the organiser drew by hand before round 1, by entrant id (those
    /// registered at the time), instead of the seeded draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hand_draw: Option<Vec<PairingNumber>>,
}

impl Event {
    /// A new event with its first entrants (more may register until round 1 is paired).
    ///
    /// # Errors
    /// [`EventError`] for 0 rounds, place points that do not fit the
    /// table, repeated tiebreaks, a system or short-table rule the variant cannot play,
    /// and bad or duplicate names.
    pub fn new(config: EventConfig, entrants: Vec<NewEntrant>) -> Result<Event, EventError> {
        let seats = config.variant.variant().players;
        check_config(&config, seats)?;
        let mut event = Event {
            config,
            seats,
            entrants: vec![],
            rounds: vec![],
            hand_draw: None,
        };
        for e in entrants {
            event.add_entrant(e)?;
        }
        Ok(event)
    }

    /// The settings.
    pub fn config(&self) -> &EventConfig {
        &self.config
    }

    /// Players per full table.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// Every entrant, by id.
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// One entrant.
    ///
    /// # Errors
    /// [`EventError::UnknownEntrant`].
    pub fn entrant(&self, id: EntrantId) -> Result<&Entrant, EventError> {
        self.entrants
            .get(id.index())
            .ok_or(EventError::UnknownEntrant(id))
    }

    /// The rounds paired so far.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The last round paired.
    pub fn current_round(&self) -> Option<&Round> {
        self.rounds.last()
    }

    /// Whether every round is paired and every result is in.
    pub fn is_finished(&self) -> bool {
        self.rounds.len() == self.config.rounds as usize
            && self.rounds.last().is_some_and(Round::is_complete)
    }

    /// Every game and bye so far, per entrant.
    pub fn ledger(&self) -> Ledger {
        Ledger::new(self.entrants.len(), &self.rounds, &self.config.place_points)
    }

    /// The standings after the results entered so far.
    pub fn standings(&self) -> Standings {
        Standings::new(self)
    }

    /// The round the next pairing will make.
    fn next_round(&self) -> u32 {
        self.rounds.len() as u32 + 1
    }

    /// Registers an entrant: before round 1 is paired, or between rounds as a late entry
    /// (placed at the end of the circle with the next pairing number).
    ///
    /// # Errors
    /// An empty or duplicate name, a round-robin event under way, or a finished event.
    pub fn add_entrant(&mut self, new: NewEntrant) -> Result<EntrantId, EventError> {
        let name = self.free_name(&new.name, None)?;
        if self.next_round() > self.config.rounds {
            return Err(EventError::Finished(self.config.rounds));
        }
        if !self.rounds.is_empty() && self.config.pairing == PairingSystem::RoundRobin {
            return Err(EventError::LateRoundRobin);
        }
        let id = EntrantId(self.entrants.len() as u32);
        // Numbers are drawn when round 1 is paired; a late entry, or an entry after a
        // draw by hand, takes the next one.
        let number = if self.rounds.is_empty() && self.hand_draw.is_none() {
            None
        } else {
            Some(self.next_number())
        };
        self.entrants.push(Entrant {
            id,
            name,
            kind: new.kind,
            number,
            first_round: self.next_round(),
            withdrawn_from: None,
        });
        Ok(id)
    }

    /// A name an entrant may take: trimmed, not empty, without control characters and
    /// not another entrant's (whatever the case); `own` is the entrant taking it.
    fn free_name(&self, name: &str, own: Option<EntrantId>) -> Result<String, EventError> {
        let trimmed = name.trim();
        if trimmed.is_empty() || trimmed.chars().any(char::is_control) {
            return Err(EventError::BadName(name.to_string()));
        }
        if self
            .entrants
            .iter()
            .any(|e| Some(e.id) != own && e.name.to_lowercase() == trimmed.to_lowercase())
        {
            return Err(EventError::DuplicateName(trimmed.to_string()));
        }
        Ok(trimmed.to_string())
    }

    /// Renames an entrant at any time (a player who entered as a guest and then made an
    /// account goes by its user name); pairings and results refer to entrants by id, so
    /// they stand.
    ///
    /// # Errors
    /// An unknown entrant, or a name that is empty or another entrant's.
    pub fn rename_entrant(&mut self, id: EntrantId, name: &str) -> Result<(), EventError> {
        self.entrant(id)?;
        let name = self.free_name(name, Some(id))?;
        self.entrants[id.index()].name = name;
        Ok(())
    }

    fn next_number(&self) -> PairingNumber {
        PairingNumber(
            self.entrants
                .iter()
                .filter_map(|e| e.number)
                .map(|n| n.0)
                .max()
                .unwrap_or(0)
                + 1,
        )
    }

    /// Withdraws an entrant from the next round on (a game already paired keeps them
    /// and still needs its result).
    ///
    /// # Errors
    /// An unknown or already withdrawn entrant.
    pub fn withdraw(&mut self, id: EntrantId) -> Result<(), EventError> {
        let next = self.next_round();
        let e = self
            .entrants
            .get_mut(id.index())
            .ok_or(EventError::UnknownEntrant(id))?;
        if e.withdrawn_from.is_some() {
            return Err(EventError::AlreadyWithdrawn(e.name.clone()));
        }
        e.withdrawn_from = Some(next);
        Ok(())
    }

    /// Enters (or corrects, until the next round is paired) the result of a table of the
    /// current round.
    ///
    /// # Errors
    /// A round other than the current one, an unknown table, or a result that does not
    /// fit the table.
    pub fn record_result(
        &mut self,
        round: u32,
        table: u32,
        result: TableResult,
    ) -> Result<(), EventError> {
        let current = self.rounds.len() as u32;
        if round != current || current == 0 {
            return Err(EventError::WrongRound { round, current });
        }
        let t = self
            .rounds
            .last_mut()
            .and_then(|r| r.tables.iter_mut().find(|t| t.number == table))
            .ok_or(EventError::UnknownTable { round, table })?;
        result
            .check(t.seats.len())
            .map_err(|e| EventError::BadResult { table, error: e })?;
        t.result = Some(result);
        Ok(())
    }

    /// Pairs the next round: draws the pairing numbers first in round 1, then seats the
    /// players by the event's system.
    ///
    /// # Errors
    /// Results still missing, all rounds paired, or too few players.
    pub fn pair_next_round(&mut self) -> Result<&Round, EventError> {
        if let Some(r) = self.rounds.last() {
            if !r.is_complete() {
                return Err(EventError::RoundIncomplete {
                    round: r.number,
                    tables: r.pending_tables(),
                });
            }
        }
        let number = self.next_round();
        if number > self.config.rounds {
            return Err(EventError::Finished(self.config.rounds));
        }
        let playing = self.entrants.iter().filter(|e| e.plays_in(number)).count();
        let plan = TablePlan::new(playing, self.seats, self.config.short_tables);
        if plan.sizes.is_empty() {
            return Err(EventError::TooFewPlayers {
                players: playing,
                seats: self.seats,
            });
        }
        if self.config.pairing == PairingSystem::RoundRobin {
            let n = self.entrants.iter().filter(|e| e.first_round == 1).count();
            let max = 2 * round_robin::cycle_length(n);
            if self.config.rounds > max {
                return Err(EventError::Config(format!(
                    "a round robin of {n} entrants has at most {max} rounds (two cycles), not {}",
                    self.config.rounds
                )));
            }
        }
        if number == 1 && self.hand_draw.is_none() {
            self.draw_numbers();
        }
        let pairing = self.make_pairing(number, &plan);
        let round = self.build_round(number, pairing);
        self.rounds.push(round);
        Ok(self.rounds.last().expect("just pushed"))
    }

    /// The numbers drawn by hand, by entrant id, if the organiser drew them.
    pub fn hand_draw(&self) -> Option<&[PairingNumber]> {
        self.hand_draw.as_deref()
    }

    /// Gives the entrants the pairing numbers the organiser drew by hand (`numbers[i]`
    /// for entrant `i`) instead of the seeded draw; allowed until round 1 is paired, and
    /// again to correct it. Entrants registering afterwards take the next numbers.
    ///
    /// # Errors
    /// [`EventError::Draw`] after round 1 is paired, or for numbers that are not
    /// 1 to the number of entrants, each once.
    pub fn draw_by_hand(&mut self, numbers: &[u32]) -> Result<(), EventError> {
        if !self.rounds.is_empty() {
            return Err(EventError::Draw(
                "the numbers are drawn once, before round 1 is paired".into(),
            ));
        }
        let n = self.entrants.len();
        if numbers.len() != n {
            return Err(EventError::Draw(format!(
                "give one number per entrant: {n} entrants, {} numbers",
                numbers.len()
            )));
        }
        if let Some(&x) = numbers.iter().find(|&&x| x == 0 || x as usize > n) {
            return Err(EventError::Draw(format!(
                "number {x} is not between 1 and {n}"
            )));
        }
        let mut seen = vec![false; n];
        for &x in numbers {
            if std::mem::replace(&mut seen[x as usize - 1], true) {
                return Err(EventError::Draw(format!("number {x} is given twice")));
            }
        }
        let drawn: Vec<PairingNumber> = numbers.iter().map(|&x| PairingNumber(x)).collect();
        for (e, &number) in self.entrants.iter_mut().zip(&drawn) {
            e.number = Some(number);
        }
        self.hand_draw = Some(drawn);
        Ok(())
    }

    /// Draws the pairing numbers of the entrants of round 1 from the seed.
    fn draw_numbers(&mut self) {
        let mut ids: Vec<usize> = (0..self.entrants.len()).collect();
        ids.shuffle(&mut ChaCha8Rng::seed_from_u64(self.config.seed));
        for (k, i) in ids.into_iter().enumerate() {
            self.entrants[i].number = Some(PairingNumber(k as u32 + 1));
        }
    }

    /// The players of `round` in pairing-number order, with their scores.
    fn contenders(&self, round: u32, ledger: &Ledger) -> Vec<Contender> {
        let mut v: Vec<Contender> = self
            .entrants
            .iter()
            .filter(|e| e.plays_in(round))
            .map(|e| Contender {
                id: e.id,
                number: e.number.expect("numbers are drawn before pairing"),
                score: ledger.points(e.id),
            })
            .collect();
        v.sort_by_key(|c| c.number);
        v
    }

    fn make_pairing(&self, number: u32, plan: &TablePlan) -> Pairing {
        let ledger = self.ledger();
        let players = self.contenders(number, &ledger);
        if self.config.pairing == PairingSystem::RoundRobin {
            return self.round_robin(number, &players);
        }
        if self.config.last_round_by_standings && number == self.config.rounds && number > 1 {
            let standings = self.standings();
            let mut ranked = players.clone();
            ranked.sort_by_key(|c| standings.position(c.id));
            return pairing::by_standings(&ranked, &ledger, &plan.sizes, plan.byes);
        }
        let walk = match self.config.pairing {
            PairingSystem::Swiss => Walk::Ranked,
            _ => Walk::Circle {
                scan_end: self.rounds.last().and_then(|r| r.scan_end),
            },
        };
        pairing::pair(&Request {
            walk,
            players: &players,
            ledger: &ledger,
            sizes: &plan.sizes,
            byes: plan.byes,
        })
    }

    /// The round-robin schedule's games among those still playing; a player whose
    /// scheduled opponent has withdrawn gets a bye.
    fn round_robin(&self, number: u32, players: &[Contender]) -> Pairing {
        let mut roster: Vec<&Entrant> = self.entrants.iter().collect();
        roster.sort_by_key(|e| e.number);
        let (games, bye) = round_robin::schedule(roster.len(), number);
        let playing = |i: usize| players.iter().any(|c| c.id == roster[i].id);
        let mut pairing = Pairing::default();
        for [a, b] in games {
            match (playing(a), playing(b)) {
                (true, true) => pairing.tables.push(vec![roster[a].id, roster[b].id]),
                (true, false) => pairing.byes.push(roster[a].id),
                (false, true) => pairing.byes.push(roster[b].id),
                (false, false) => {}
            }
        }
        pairing
            .byes
            .extend(bye.filter(|&b| playing(b)).map(|b| roster[b].id));
        // Table 1 for the lowest pairing numbers.
        pairing
            .tables
            .sort_by_key(|t| t.iter().map(|id| self.entrants[id.index()].number).min());
        pairing
    }

    fn build_round(&self, number: u32, pairing: Pairing) -> Round {
        let bye_points = self.config.bye_points();
        Round {
            number,
            tables: pairing
                .tables
                .into_iter()
                .zip(1..)
                .map(|(seats, n)| Table {
                    number: n,
                    variant: table_variant(self.config.variant, seats.len())
                        .expect("table sizes are checked against the variant"),
                    seats,
                    result: None,
                })
                .collect(),
            byes: pairing
                .byes
                .into_iter()
                .map(|entrant| Bye {
                    entrant,
                    points: bye_points,
                })
                .collect(),
            scan_end: pairing.scan_end,
        }
    }

    /// Replays the event from its settings, its entrants (in registration order, with
    /// their late entries and withdrawals) and its results.
    ///
    /// # Errors
    /// [`EventError`] if some stored action cannot be replayed.
    pub fn replay(&self) -> Result<Event, EventError> {
        let initial = |e: &&Entrant| e.first_round == 1;
        let new = |e: &Entrant| NewEntrant {
            name: e.name.clone(),
            kind: e.kind.clone(),
        };
        // Entrants registered before a draw by hand, the draw, then the others.
        let drawn = self.hand_draw.as_ref().map_or(0, Vec::len);
        let mut event = Event::new(
            self.config.clone(),
            self.entrants[..drawn.min(self.entrants.len())]
                .iter()
                .map(new)
                .collect(),
        )?;
        if let Some(numbers) = &self.hand_draw {
            let numbers: Vec<u32> = numbers.iter().map(|n| n.0).collect();
            event.draw_by_hand(&numbers)?;
        }
        for e in self.entrants[drawn.min(self.entrants.len())..]
            .iter()
            .filter(initial)
        {
            event.add_entrant(new(e))?;
        }
        let changes_before = |event: &mut Event, round: u32| -> Result<(), EventError> {
            for e in self
                .entrants
                .iter()
                .filter(|e| e.first_round == round && round > 1)
            {
                event.add_entrant(new(e))?;
            }
            for e in self
                .entrants
                .iter()
                .filter(|e| e.withdrawn_from == Some(round))
            {
                event.withdraw(e.id)?;
            }
            Ok(())
        };
        for round in &self.rounds {
            changes_before(&mut event, round.number)?;
            event.pair_next_round()?;
            for t in &round.tables {
                if let Some(r) = &t.result {
                    event.record_result(round.number, t.number, r.clone())?;
                }
            }
        }
        changes_before(&mut event, self.next_round())?;
        Ok(event)
    }

    /// Checks that replaying the event gives the same numbers and the same pairings.
    ///
    /// # Errors
    /// [`EventError::Audit`] naming the first difference.
    pub fn audit(&self) -> Result<(), EventError> {
        let replayed = self.replay()?;
        for (a, b) in self.entrants.iter().zip(&replayed.entrants) {
            if a != b {
                return Err(EventError::Audit(format!(
                    "entrant {} replays as {:?} (stored {:?})",
                    a.name, b, a
                )));
            }
        }
        for (a, b) in self.rounds.iter().zip(&replayed.rounds) {
            if a != b {
                return Err(EventError::Audit(format!(
                    "round {} replays differently",
                    a.number
                )));
            }
        }
        if self.entrants.len() != replayed.entrants.len()
            || self.rounds.len() != replayed.rounds.len()
        {
            return Err(EventError::Audit(
                "the replay has a different length".into(),
            ));
        }
        Ok(())
    }
}

/// Checks the settings against a table of `seats`.
fn check_config(config: &EventConfig, seats: usize) -> Result<(), EventError> {
    let bad = |m: String| Err(EventError::Config(m));
    if config.rounds == 0 {
        return bad("an event needs at least 1 round".into());
    }
    if config.name.trim().is_empty() {
        return bad("the event needs a name".into());
    }
    if config.place_points.values().len() != seats {
        return bad(format!(
            "{} has tables of {seats} players but {} place points are given",
            config.variant,
            config.place_points.values().len()
        ));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(t) = config.tiebreaks.iter().find(|t| !seen.insert(**t)) {
        return bad(format!("tiebreak {} is listed twice", t.name()));
    }
    if config.pairing == PairingSystem::RoundRobin && seats != 2 {
        return bad(format!(
            "round_robin pairs 2-player tables; {} seats {seats} (use swiss or italo_svizzero)",
            config.variant
        ));
    }
    if config.short_tables == ShortTables::Smaller {
        if let Some(s) = (2..seats).find(|&s| table_variant(config.variant, s).is_none()) {
            return bad(format!(
                "{} has no {s}-player form for a smaller table (use byes)",
                config.variant
            ));
        }
    }
    Ok(())
}
