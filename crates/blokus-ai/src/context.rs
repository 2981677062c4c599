//! Per-variant constants the players read in their hot loops, computed once per game.

use blokus_core::position::MAX_PIECES;
use blokus_core::{Cell, CellSet, Position, Rules, Scoring};
use blokus_core::{Colour, Side};

/// Most sides (players or teams) of any variant.
pub const MAX_SIDES: usize = 4;

/// One value per side, each in [0, 1] (1 = this side won clearly; quality-based rewards
/// may go a little beyond, see `mcts::reward`).
pub type Values = [f32; MAX_SIDES];

/// Constants of one variant: piece sizes, sides, board centre.
#[derive(Clone)]
pub struct Context {
    /// The rules of the game.
    pub rules: Rules,
    /// Cells of each piece kind.
    pub sizes: [u8; MAX_PIECES],
    /// Number of piece kinds.
    pub num_pieces: usize,
    /// Largest piece size of the set.
    pub max_size: u8,
    /// Index of the one-cell piece, if the set has one.
    pub mono: Option<usize>,
    /// Number of colours.
    pub num_colours: usize,
    /// Number of sides.
    pub num_sides: usize,
    /// Squared distance of each cell from the board centre, scaled to [0, 1].
    pub centre_dist: Vec<f32>,
    /// On Classic-sized square boards, each cell's distance from the centre in cells
    /// (for steering the opening towards the centre); `None` on other boards.
    pub centre_reach: Option<Vec<f32>>,
    /// The board's symmetries other than the identity, each as the image of every
    /// cell (what a mirroring opponent copies moves with).
    pub symmetries: Vec<Vec<Cell>>,
    /// Per symmetry, the distance (in cells) between each cell and its image: how close
    /// a move gets to covering cells a mirroring opponent could not copy.
    pub symmetry_gaps: Vec<Vec<f32>>,
    /// The learnt move policy's weights, for the variants it was trained for.
    pub policy: Option<crate::policy::Weights>,
}

impl Context {
    /// The constants of a game's rules.
    pub fn new(rules: &Rules) -> Context {
        let set = rules.table().pieces();
        let mut sizes = [0u8; MAX_PIECES];
        for (i, p) in set.pieces.iter().enumerate() {
            sizes[i] = p.size as u8;
        }
        let g = rules.table().geometry();
        let (w, h) = (g.width() as f32, g.height() as f32);
        let (cx, cy) = ((w - 1.0) / 2.0, (h - 1.0) / 2.0);
        let max_d = cx * cx + cy * cy;
        let centre_reach = (g.kind() == blokus_core::GridKind::Square && g.num_cells() >= 400)
            .then(|| {
                g.cells()
                    .map(|c| {
                        let (x, y) = g.xy(c);
                        (x as f32 - cx).hypot(y as f32 - cy)
                    })
                    .collect()
            });
        let centre_dist = g
            .cells()
            .map(|c| {
                let (x, y) = g.xy(c);
                let (dx, dy) = (x as f32 - cx, y as f32 - cy);
                (dx * dx + dy * dy) / max_d
            })
            .collect();
        let symmetries = g.symmetries();
        // Triangle cells are half a column wide and 0.87 of a side tall.
        let (sx, sy) = match g.kind() {
            blokus_core::GridKind::Square => (1.0, 1.0),
            blokus_core::GridKind::Triangle => (0.5, 0.866),
        };
        let symmetry_gaps = symmetries
            .iter()
            .map(|map| {
                g.cells()
                    .map(|c| {
                        let ((x, y), (u, v)) = (g.xy(c), g.xy(map[c.index()]));
                        let dx = (x as f32 - u as f32) * sx;
                        let dy = (y as f32 - v as f32) * sy;
                        (dx * dx + dy * dy).sqrt()
                    })
                    .collect()
            })
            .collect();
        Context {
            rules: rules.clone(),
            sizes,
            num_pieces: set.pieces.len(),
            max_size: sizes.iter().copied().max().unwrap_or(1),
            mono: set.find("1"),
            num_colours: rules.num_colours(),
            num_sides: rules.v().num_sides(),
            centre_dist,
            centre_reach,
            symmetries,
            symmetry_gaps,
            policy: crate::policy::PolicyFamily::of(rules).map(|f| f.weights()),
        }
    }

    /// Whether these constants were made for `rules`.
    pub fn matches(&self, rules: &Rules) -> bool {
        self.rules.v().id == rules.v().id && self.rules.options == rules.options
    }

    /// The side a colour's next placement is made for (the mover's side).
    #[inline]
    pub fn side_of_mover(&self, pos: &Position, colour: Colour) -> Side {
        self.rules
            .v()
            .side_of_player(pos.player_of(&self.rules, colour))
    }

    /// The side whose score a colour counts for, if it counts.
    #[inline]
    pub fn scoring_side(&self, pos: &Position, colour: Colour) -> Option<Side> {
        self.rules.v().scored[colour.index()].then(|| self.side_of_mover(pos, colour))
    }

    /// Attach points of every scored colour of other sides than `side` (what blocking
    /// aims at).
    pub fn opponent_attach(&self, pos: &Position, side: Side) -> CellSet {
        let mut out = CellSet::EMPTY;
        for c in Colour::all(self.num_colours) {
            if self.scoring_side(pos, c).is_some_and(|s| s != side) && pos.pieces_placed(c) > 0 {
                out.union_with(&pos.attach_points(&self.rules, c));
            }
        }
        out
    }

    /// Each side's score under the variant's result rule, plus the Junior tie-break
    /// folded in as a fraction (fewer cells left is better), without allocating.
    pub fn side_scores(&self, pos: &Position) -> [f32; MAX_SIDES] {
        let mut score = [0f32; MAX_SIDES];
        let v = self.rules.v();
        for c in Colour::all(self.num_colours) {
            let Some(side) = self.scoring_side(pos, c) else {
                continue;
            };
            let remaining = pos.cells_remaining(&self.rules, c) as f32;
            score[side.index()] += match v.scoring {
                Scoring::Standard => {
                    let all = remaining == 0.0 && !v.shared_pool;
                    let mut s = -remaining;
                    if all {
                        s += 15.0;
                        if self.mono.is_some() && pos.last_piece(c) == self.mono {
                            s += 5.0;
                        }
                    }
                    s
                }
                // Tie-break on cells left, scaled so it never outweighs a piece.
                Scoring::Junior => pos.pieces_placed(c) as f32 - remaining / 1000.0,
                Scoring::Polyomino => pos.cells_placed(c) as f32,
            };
        }
        score
    }

    /// The side with the best score alone, if one has it (none on a tie for first).
    pub fn sole_winner(&self, pos: &Position) -> Option<usize> {
        let score = self.side_scores(pos);
        let n = self.num_sides;
        let best = (0..n).max_by(|&a, &b| score[a].total_cmp(&score[b]))?;
        (0..n)
            .all(|o| o == best || score[o] < score[best])
            .then_some(best)
    }

    /// How close to the centre a set of cells reaches: the distance of its closest
    /// cell (in cells; `f32::MAX` on boards without [`Context::centre_reach`]).
    pub fn reach(&self, cells: &[Cell]) -> f32 {
        self.centre_reach.as_ref().map_or(f32::MAX, |d| {
            cells.iter().map(|c| d[c.index()]).fold(f32::MAX, f32::min)
        })
    }

    /// Each side's win share (sides tied for first split the win) and score margin over
    /// the best other side, for a finished (or abandoned) game.
    pub fn shares_and_margins(&self, pos: &Position) -> (Values, Values) {
        let score = self.side_scores(pos);
        let n = self.num_sides;
        let best = score[..n].iter().copied().fold(f32::MIN, f32::max);
        let winners = score[..n].iter().filter(|&&s| s == best).count() as f32;
        let mut shares = [0f32; MAX_SIDES];
        let mut margins = [0f32; MAX_SIDES];
        for s in 0..n {
            shares[s] = if score[s] == best { 1.0 / winners } else { 0.0 };
            let other = (0..n)
                .filter(|&o| o != s)
                .map(|o| score[o])
                .fold(f32::MIN, f32::max);
            margins[s] = score[s] - other;
        }
        (shares, margins)
    }

    /// The value of a finished (or abandoned) game for each side: its win share, plus a
    /// small term for the score margin so won games are won clearly and lost ones lost
    /// narrowly.
    pub fn outcome(&self, pos: &Position) -> Values {
        let (shares, margins) = self.shares_and_margins(pos);
        self.outcome_of(&shares, &margins)
    }

    /// The value of a finished game as the search's values show it to users: the win
    /// shares where the search uses quality-based rewards (its values then report win
    /// shares too), else [`Context::outcome`].
    pub fn final_values(&self, pos: &Position) -> Values {
        let (shares, margins) = self.shares_and_margins(pos);
        if crate::mcts::reward::used_in(&self.rules) {
            shares
        } else {
            self.outcome_of(&shares, &margins)
        }
    }

    /// [`Context::outcome`] from the sides' win shares and score margins.
    pub fn outcome_of(&self, shares: &Values, margins: &Values) -> Values {
        const MARGIN_WEIGHT: f32 = 0.1;
        let scale = match self.rules.v().scoring {
            Scoring::Junior => 2.0,
            _ => 12.0,
        };
        let mut out = [0f32; MAX_SIDES];
        for s in 0..self.num_sides {
            let margin = 0.5 + 0.5 * (margins[s] / scale).tanh();
            out[s] = (1.0 - MARGIN_WEIGHT) * shares[s] + MARGIN_WEIGHT * margin;
        }
        out
    }
}
