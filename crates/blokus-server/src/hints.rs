//! Puzzle hints: searches for a solution through the hub's CPU limiter, and the last
//! solutions found, so that hint after hint costs one search.
//!
//! A position that a remembered solution (or, for a tiling, a mirror image of it with
//! the colours renamed) extends gets its next piece at once. Opening a puzzle starts one
//! background search per form, once per server, so that the first hint from the empty
//! board needs no search either. A stopping server stops the searches at once.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use blokus_solver::play::{self, Completion, Hint, Limits};
use blokus_solver::puzzle::{Form, PlacementOut, PuzzleInfo};

use crate::cpu::Cpu;
use crate::error::AppError;

/// Time a hint may search on a tiling.
const TILING_HINT_TIME: Duration = Duration::from_secs(2);
/// Placements a hint may try on a game board (a few seconds).
const BOARD_HINT_NODES: u64 = 20_000;
/// Time the background search of a tiling form may take.
const WARM_UP_TIME: Duration = Duration::from_secs(10);
/// Placements the background search of a placement puzzle may try (a few seconds; the
/// puzzles' first solutions take a median of well under a second).
const WARM_UP_NODES: u64 = 500_000;
/// Solutions remembered per puzzle and form.
const KNOWN_PER_FORM: usize = 4;

/// A solution found for a puzzle's form.
struct Known {
    puzzle: &'static str,
    form: Form,
    solution: Vec<PlacementOut>,
}

/// The hint searcher of one server.
#[derive(Clone)]
pub struct Hints {
    cpu: Cpu,
    /// Solutions found, newest last.
    known: Arc<Mutex<Vec<Known>>>,
    /// Puzzle forms whose background search has started.
    warmed: Arc<Mutex<Vec<(&'static str, Form)>>>,
}

/// The forms a puzzle has.
fn forms(p: &PuzzleInfo) -> impl Iterator<Item = Form> + '_ {
    [(false, false), (true, false), (false, true)]
        .into_iter()
        .filter(|&(strict, decreasing)| (!strict || p.strict) && (!decreasing || p.decreasing))
        .map(|(strict, decreasing)| Form { strict, decreasing })
}

/// Search limits: placement puzzles count placements, tilings time.
fn limits(p: &PuzzleInfo, nodes: u64, time: Duration) -> Limits {
    if p.variant.is_some() {
        Limits {
            max_nodes: nodes,
            ..Limits::default()
        }
    } else {
        Limits {
            max_time: Some(time),
            ..Limits::default()
        }
    }
}

impl Hints {
    /// A searcher running its searches through `cpu`.
    pub fn new(cpu: Cpu) -> Hints {
        Hints {
            cpu,
            known: Arc::default(),
            warmed: Arc::default(),
        }
    }

    /// Starts a background search for a solution of each form of a puzzle, once per
    /// server. It waits for a CPU slot like any search; a hint asked meanwhile waits
    /// too and is then answered from memory.
    pub fn warm_up(&self, p: &'static PuzzleInfo) {
        for form in forms(p) {
            {
                let mut warmed = self.warmed.lock().unwrap_or_else(|e| e.into_inner());
                if warmed.contains(&(p.id, form)) {
                    continue;
                }
                warmed.push((p.id, form));
            }
            let hints = self.clone();
            tokio::spawn(async move {
                let limits = limits(p, WARM_UP_NODES, WARM_UP_TIME);
                let memory = hints.clone();
                let _ = hints
                    .cpu
                    .run(move |stop| {
                        if memory.known_extension(p, form, &[]).is_some() {
                            return;
                        }
                        let limits = Limits {
                            stop: Some(stop),
                            ..limits
                        };
                        if let Ok(Completion::Found(solution)) =
                            play::complete(p, form, &[], 1, limits)
                        {
                            memory.remember(p, form, solution);
                        }
                    })
                    .await;
            });
        }
    }

    /// The next piece of a solution extending the placements.
    ///
    /// # Errors
    /// [`AppError::BadRequest`] when the placements break a rule, or as [`Cpu::run`].
    pub async fn hint(
        &self,
        p: &'static PuzzleInfo,
        form: Form,
        placements: Vec<PlacementOut>,
        seed: u64,
    ) -> Result<Hint, AppError> {
        let memory = self.clone();
        let limits = limits(p, BOARD_HINT_NODES, TILING_HINT_TIME);
        self.cpu
            .run(move |stop| {
                // Check first: a remembered solution must never excuse a broken position.
                play::check(p, form, &placements)?;
                if let Some(solution) = memory.known_extension(p, form, &placements) {
                    return Ok(play::hint_of(&placements, Completion::Found(solution)));
                }
                let limits = Limits {
                    stop: Some(stop),
                    ..limits
                };
                let completion = play::complete(p, form, &placements, seed, limits)?;
                if let Completion::Found(solution) = &completion {
                    memory.remember(p, form, solution.clone());
                }
                Ok::<_, play::Refusal>(play::hint_of(&placements, completion))
            })
            .await?
            .map_err(|refusal| AppError::BadRequest(refusal.to_string()))
    }

    /// A remembered solution that extends the placements, if any.
    fn known_extension(
        &self,
        p: &PuzzleInfo,
        form: Form,
        placements: &[PlacementOut],
    ) -> Option<Vec<PlacementOut>> {
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known
            .iter()
            .rev()
            .filter(|k| k.puzzle == p.id && k.form == form)
            .find_map(|k| play::extend_with(p, &k.solution, placements))
    }

    /// Remembers a solution, forgetting the oldest of its puzzle and form beyond
    /// [`KNOWN_PER_FORM`].
    fn remember(&self, p: &'static PuzzleInfo, form: Form, solution: Vec<PlacementOut>) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        let same = |k: &Known| k.puzzle == p.id && k.form == form;
        if known.iter().filter(|k| same(k)).count() >= KNOWN_PER_FORM {
            if let Some(i) = known.iter().position(same) {
                known.remove(i);
            }
        }
        known.push(Known {
            puzzle: p.id,
            form,
            solution,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_solver::puzzle;

    #[test]
    fn remembered_solutions_answer_hints_per_form_and_the_oldest_go() {
        let hints = Hints::new(Cpu::new(1));
        let p = puzzle::find("tetro_8x10").unwrap();
        let strict = Form {
            strict: true,
            decreasing: false,
        };
        let solution = |seed| {
            puzzle::solve("tetro_8x10", strict, seed, &mut |_| {})
                .unwrap()
                .unwrap()
                .placements()
        };
        let first = solution(1);
        hints.remember(p, strict, first.clone());
        // The empty board and a start of the solution: answered from memory.
        assert_eq!(hints.known_extension(p, strict, &[]).unwrap().len(), 20);
        let ext = hints.known_extension(p, strict, &first[..4]).unwrap();
        assert_eq!(&ext[..4], &first[..4]);
        // The plain form remembers nothing yet.
        assert!(hints.known_extension(p, Form::default(), &[]).is_none());
        // Newer solutions push the oldest out.
        for seed in 2..2 + KNOWN_PER_FORM as u64 {
            hints.remember(p, strict, solution(seed));
        }
        let known = hints.known.lock().unwrap();
        let kept = known
            .iter()
            .filter(|k| k.puzzle == p.id && k.form == strict)
            .count();
        assert_eq!(kept, KNOWN_PER_FORM);
        assert!(!known.iter().any(|k| k.solution == first));
    }
}
