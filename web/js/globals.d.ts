// The typed test hooks the pages expose (for the end-to-end tests and the console):
// what a person sees by looking, never a way to act for them.

/** The game page (`/game/ID`). */
interface GameHook {
  /** The last state the server sent. */
  state(): import('./api.js').GameState | null;
  /** Whether this browser plays the side to move (a placement). */
  myTurn(): boolean;
  /** Whether a move was sent and its answer is awaited. */
  sending(): boolean;
  /** How many legal placements the server offered this browser. */
  legalCount(): number;
  /** Where to aim a legal placement, the preferred piece first (changes nothing). */
  findAim(prefer?: string): import('./picker.js').AimPlan | null;
  /** The orientation index of the piece in hand. */
  orientation(): number;
  /** The board cell the piece in hand is aimed at (pointer or keyboard cursor). */
  aim(): number | null;
  /** How many sounds the page has played (muted ones are not played). */
  sounds(): number;
}

/** The puzzle page (`/puzzle`). */
interface PuzzleHook {
  /** The puzzle shown, once loaded. */
  puzzleId(): string | null;
  /** The placements so far. */
  placements(): Array<{ colour: string; piece: string; cells: string[] }>;
  /** Whether a check or hint request is under way. */
  busy(): boolean;
  /** Where to aim the piece in hand so that it covers these cells (changes nothing). */
  findAim(cells: string[]): import('./picker.js').AimPlan | null;
  /** The orientation index of the piece in hand. */
  orientation(): number;
}

interface Window {
  blokusGame?: GameHook;
  blokusPuzzle?: PuzzleHook;
}
