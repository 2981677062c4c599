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

/** The Blokus 3D page (`/cube/ID`). */
interface CubeHook {
  /** The last state the server sent. */
  state(): import('./cube.js').CubeState;
  /** Whether this browser may place a stone now. */
  myTurn(): boolean;
  /** Whether a move was sent and its answer is awaited. */
  sending(): boolean;
  /** The stone in hand and its cubes as turned (normalised), or null. */
  hand(): { stone: string; cubes: Array<[number, number, number]> } | null;
  /** The column to aim at so the stone in hand, as turned, rests on these cubes; null
   * if the stone in hand is not turned to their shape (changes nothing). */
  columnFor(move: string): [number, number] | null;
  /** Page coordinates of the middle of a column's top, as the camera sees it now. */
  screenPoint(x: number, y: number): { x: number; y: number };
  /** The ghost shown: its move text, whether legal, and why not (once known). */
  ghost(): { text: string; legal: boolean; reason: string | null } | null;
  /** Page coordinates of the place where the name of row `y` (0-based) is written. */
  rowLabelPoint(y: number): { x: number; y: number };
  /** The number of cubes of the AI's hint drawn in the view (0 when none). */
  hintCubes(): number;
  /** How many sounds the page has played (muted ones are not played). */
  sounds(): number;
}

interface Window {
  blokusGame?: GameHook;
  blokusCube?: CubeHook;
  blokusPuzzle?: PuzzleHook;
}
