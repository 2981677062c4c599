#!/usr/bin/env python3
"""How good are the moves engines choose, as a stronger engine judges them.

    scripts/move_quality.py [--games N] [--from A] [--to B] [--every K] [--jobs J]
        GAMES.blksgf "ORACLE CMD" "ENGINE CMD" ["ENGINE CMD" ...]

Positions are taken from the records (say the sparring games `scripts/spar.sh` left):
in each game, the positions after A, A+K, ... placements up to B (default 16 to 40,
every 4). Each engine (a GTP engine started by its command; start ours with `--noresign`)
chooses its move there with `reg_genmove` for the colour the record has placing next.
The oracle, a GTP engine whose log reports `Val X` after a search (the reference engine
at a high level, without `--quiet`: `pentobi-gtp --nobook --game trigon_2 --level 7
--threads 1`), then searches the position after that move for the colour placing next
(or the next one after it with a move left), and its value is turned into the mover's
expected result. A move two engines share is judged once; a position where a move
leaves no colour a move is left out.

Prints each engine's mean value over the positions all engines answered, and its mean
difference from the first engine's with a 95% interval (paired by position), and how
often it chose the first engine's move. A change to our engine shows in a few hundred
positions, where games would take thousands: a developer aid, not part of CI; the
oracle is a judge with its own taste, so a gain here is a lead to test in games, not a
result.
"""
import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from gtp_process import GtpProcess, interval, record_placements

ORACLE = None
ENGINES = []


def start(oracle_cmd, engine_cmds):
    """Starts one worker's engines."""
    global ORACLE, ENGINES
    ORACLE = GtpProcess(oracle_cmd, "move_quality", log=True)
    ENGINES = [GtpProcess(cmd, "move_quality") for cmd in engine_cmds]


def key(move):
    """A move's cells in a fixed order (engines may list them differently)."""
    return ",".join(sorted(move.split(",")))


def judge(task):
    """The engines' moves at one position and the oracle's value of each for the mover."""
    moves, colour, after, first_seat = task
    chosen = []
    for engine in ENGINES:
        engine.replay(moves)
        ok, answer = engine.ask(f"reg_genmove {colour}")
        chosen.append(answer if ok and answer not in ("resign", "pass", "") else None)
    values = {}
    for move in chosen:
        if move is None:
            continue
        if key(move) in values:
            continue
        ORACLE.replay(moves + [(colour, move)])
        values[key(move)] = None
        # The colours in turn after the mover, from the one the record has placing
        # next: the first with a move left is searched. A colour with a single move
        # is not searched (the oracle answers at once): that move is played, and the
        # next colour asked.
        for other in after * 2:
            ok, answer = ORACLE.ask(f"reg_genmove {other}")
            if not ok:
                sys.exit(f"move_quality: the oracle refused a search after {colour} {move}")
            logged = ORACLE.logged_value()
            same = (other in first_seat) == (colour in first_seat)
            if logged is not None:
                values[key(move)] = logged if same else 1.0 - logged
                break
            if answer == "resign":
                values[key(move)] = 0.0 if same else 1.0
                break
            if answer != "pass":
                ORACLE.send(f"play {other} {answer}")
    return [None if m is None or values[key(m)] is None else (m, values[key(m)])
            for m in chosen]


def positions(records, a):
    """(placements before, colour to place, the other colours in turn from the one
    placing next, the first seat's colours) tasks."""
    tasks = []
    for record in records:
        moves, colours, first_seat = record_placements(record)
        for k in range(a.start, min(a.end, len(moves) - 2) + 1, a.every):
            colour, next_colour = moves[k][0], moves[k + 1][0]
            i = colours.index(next_colour)
            after = [c for c in colours[i:] + colours[:i] if c != colour]
            tasks.append((moves[:k], colour, after, first_seat))
    return tasks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records")
    ap.add_argument("oracle")
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--games", type=int, help="only the first N games")
    ap.add_argument("--from", dest="start", type=int, default=16)
    ap.add_argument("--to", dest="end", type=int, default=40)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    if a.every < 1 or a.start < 0 or a.end < a.start or a.jobs < 1:
        sys.exit("move_quality: need --every and --jobs of at least 1 and --to >= --from >= 0")
    if a.games is not None and a.games < 1:
        sys.exit("move_quality: --games must be at least 1")
    try:
        records = open(a.records).read().split("(;")[1:]
    except OSError as e:
        sys.exit(f"move_quality: cannot read the games: {e}")
    if a.games is not None:
        records = records[:a.games]
    tasks = positions(records, a)
    if not tasks:
        sys.exit("move_quality: no position in that range of placements")
    # Each command once here first, so that one that cannot start says so plainly
    # (the workers' own failures only break the pool).
    for cmd in [a.oracle] + a.engines:
        GtpProcess(cmd, "move_quality").close()
    try:
        with ProcessPoolExecutor(a.jobs, initializer=start,
                                 initargs=(a.oracle, a.engines)) as pool:
            results = list(pool.map(judge, tasks))
    except BrokenProcessPool:
        sys.exit("move_quality: a worker stopped (its message is above)")
    answered = [(len(t[0]), r) for t, r in zip(tasks, results) if all(x is not None for x in r)]
    full = [r for _, r in answered]
    if not full:
        sys.exit("move_quality: no position was answered by every engine")
    print(f"{len(full)} of {len(results)} positions answered by every engine "
          f"(placements {a.start}-{a.end}, every {a.every})")
    base = [r[0][1] for r in full]
    for i, cmd in enumerate(a.engines):
        vals = [r[i][1] for r in full]
        diffs = [v - b for v, b in zip(vals, base)]
        n = len(diffs)
        mean, half = interval(diffs)
        half = half or 0.0
        same = sum(1 for r in full if key(r[i][0]) == key(r[0][0])) / n
        print(f"  {sum(vals) / n:.4f}  vs first {mean:+.4f} "
              f"({mean - half:+.4f} to {mean + half:+.4f})"
              f"  same move {100 * same:.0f}%  {cmd}")
    print("by placements before the move (positions): each engine's mean difference "
          "from the first")
    for k in sorted({k for k, _ in answered}):
        rows = [r for j, r in answered if j == k]
        print(f"  {k} ({len(rows)}): " + " ".join(
            f"{sum(r[i][1] - r[0][1] for r in rows) / len(rows):+.4f}"
            for i in range(1, len(a.engines))))


if __name__ == "__main__":
    main()
