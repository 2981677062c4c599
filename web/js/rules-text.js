// @ts-check
/**
 * The rules in words for people, per variant (the long form is docs/rules.md): what the
 * game page's score panel and the How-to-play page say. The rules themselves are only in
 * blokus-core; these are texts.
 * @module
 */

/** @typedef {import('./api.js').VariantSummary} VariantSummary */

/**
 * The variant's scoring, in one line.
 * @param {VariantSummary} v
 * @returns {string}
 */
export function scoringRule(v) {
  if (v.id === 'junior') return 'Most pieces placed wins; ties go to fewer cells left.';
  if (v.pie) return 'Most cells covered wins.';
  return 'Points: −1 per cell of unplaced pieces; +15 for placing every piece, +5 more if the monomino was last.';
}

/**
 * What the result column counts ("points", "cells", "pieces").
 * @param {VariantSummary} v
 * @returns {string}
 */
export function scoreUnit(v) {
  return v.id === 'junior' ? 'pieces' : v.pie ? 'cells' : 'points';
}

/** How each variant starts and what is special about it. @type {Record<string, string[]>} */
const SPECIAL = {
  classic: ['Four players, one colour each. Each colour starts in its own corner of the board: its first piece must cover that corner cell.'],
  classic_2: [
    'Two players with two colours each: Blue and Red against Yellow and Green. Colours still move in turn (Blue, Yellow, Red, Green), each from its own corner.',
    'Your score is the sum of your two colours.',
  ],
  classic_3: [
    'Three players play Blue, Yellow and Red from their corners. Green is played by everybody in turn: first by the Blue player, then Yellow, then Red, and so on.',
    "Green's score does not count: use it to block the others.",
  ],
  classic_teams: ['Four players in two teams, Blue with Red and Yellow with Green. A team scores the sum of its two colours.'],
  duo: ['Two players on a smaller board. The first pieces must cover the two starting points near the middle (e10 for Purple, j5 for Orange), so the fight starts at once.'],
  junior: [
    'Two players, the Duo board and the Junior set: two copies of twelve smaller pieces.',
    'The player who places the most pieces wins.',
  ],
  trigon: [
    'Four players on a hexagon of triangles. There are six starting points, open to every colour: a first piece covers any one that is still free.',
    'Pieces are made of 1 to 6 triangles; they turn in steps of 60 degrees.',
  ],
  trigon_2: [
    'Two players with two colours each (Blue and Red against Yellow and Green) on the Trigon board.',
    "Red's first piece is the mirror image of Blue's through the centre of the board, and Green's that of Yellow's; Yellow may not take a cell of Blue's mirror image, so both mirror placements stay possible.",
  ],
  trigon_3: [
    'Three players on the inner, smaller hexagon. Of the six starting points every other one is used: a free point stays between each two colours.',
  ],
  trigon_teams: ['Four players in two teams on the Trigon board; the second member of a team mirrors the first one\'s opening piece through the centre.'],
  polyomino_mini: ['Two players, an 8 × 8 board and nine small pieces each. There are no starting points: the game opens with the pie rule.'],
  polyomino_small: ['Two players, a 12 × 12 board and two sets of the nine small pieces each. The game opens with the pie rule.'],
  polyomino_penta: ['Two players, a 14 × 14 board and the 21 Classic pieces each. The game opens with the pie rule.'],
  polyomino_hexa: [
    'Two players on a 20 × 20 board with one shared set: the 21 Classic pieces and the 35 six-cell pieces. A piece played by either colour is gone for both.',
    'The game opens with the pie rule.',
  ],
};

/** The pie rule, for the Polyomino variants. */
export const PIE_RULE =
  'The pie rule: the first player places one Blue and one Orange piece (different shapes) anywhere. The second player then chooses: keep (play Blue) or swap (the first player plays Blue). Blue moves next and the corner rule applies from then on. One player cuts, the other chooses, so the opener should make both colours equally good.';

/**
 * What is special about a variant, a paragraph per point.
 * @param {VariantSummary} v
 * @returns {string[]}
 */
export function variantRules(v) {
  const out = [...(SPECIAL[v.id] || [v.description])];
  if (v.pie) out.push(PIE_RULE);
  if (v.alternate_contact) {
    out.push('Option: the alternate contact rule. Pieces of one colour may meet only point to point; a corner touching the side of another piece of the same colour is not allowed.');
  }
  return out;
}

/**
 * What happens when a player's time runs out, for this variant.
 * @param {VariantSummary} v
 * @returns {string}
 */
export function clockRule(v) {
  const start =
    'Games can be played on a clock: minutes plus seconds added after each of your moves (5+3 is five minutes, three seconds more per move), or a number of days per move. Only the clock of the player to move runs; the server keeps the time.';
  if (v.players === 2) return `${start} If your time runs out you lose the game, whatever the score.`;
  const shared = v.id === 'classic_3' ? ' (and Green, which you share, passes too)' : '';
  return `${start} If your time runs out your colours pass for the rest of the game${shared}; the others play on and the points decide the places as usual.`;
}

/** The rules' strategy advice, in our words. */
export const TIPS = [
  'Head out early: spread from your start toward the middle; a colour that stays in its corner runs out of room.',
  'Big pieces first: they need room that will not be there later; small ones fit the gaps at the end.',
  'Keep corners open on more than one side of your area, so one blocking move cannot shut you in.',
  'Use each shape for what it is good at: long pieces reach far, compact ones block, crosses open many corners.',
  'Block the most advanced corners of your opponents, and be patient: a step away can be the better block.',
  'Save places nobody else can reach for later; play the contested areas first.',
  "Count pieces, yours and theirs: an empty area only helps a player with a piece that fits it.",
];
