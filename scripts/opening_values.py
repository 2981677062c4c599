#!/usr/bin/env python3
"""How good an engine's openings are, judged by a third engine's search: many times
fewer games than whole games need for the same precision.

    scripts/opening_values.py --placements K --games N [--jobs J] "OURS" "OPPONENT" "JUDGE"

Plays N openings of K placements between OURS and OPPONENT (GTP engine commands, set up
for the same game: say `blokus gtp --game trigon_2 ...` and `pentobi-gtp --nobook --game
trigon_2 --level 5 --threads 1 --quiet`), ours in the first seat in even-numbered games
and in the second in odd ones. Then JUDGE (the reference's engine with its log on, e.g.
`pentobi-gtp --nobook --game trigon_2 --level 6 --threads 1`) searches the position
with `reg_genmove` for the colour to move; its logged `Val X`, that colour's expected
result, is turned into our side's. Prints each opening's value and both engines' CPU
seconds in it, then the mean value per seat and the seats' mean with its 95% interval
(an opening in which a side resigns counts as lost for it). With `--jobs J` the
openings are played J at a time, each job with engines of its own; `{job}` in a command
is replaced by the job's number (0-based), to give each job its own seed. `--record
FILE` writes each opening's placements, one line per opening.

The value is the judge's view of the position as it would play on from there: games in
which the reference plays on after our opening score about what it says, and its noise
is several times smaller than a game result's. Our own engine playing on may do worse
than the value says (docs/ai.md, "Trigon two-player: the opening judged"). A developer
aid, not part of CI; the judge and opponent are the reference's engine, built outside
the repository.
"""
import argparse
import math
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from gtp_process import GtpProcess, interval

TOOL = "opening_values"


def cputime(engine):
    """The engine's CPU seconds so far, by its `cputime` command."""
    text = engine.send("cputime")
    try:
        return float(text)
    except ValueError:
        sys.exit(f"{TOOL}: '{engine.command}' answered 'cputime' with '{text}'")


def play_opening(engines, colours, ours, placements):
    """One opening: the placements as (colour, move), each side's CPU seconds in it, and
    the colour that resigned in it (None if none did)."""
    mine, theirs = engines
    for e in engines:
        e.send("clear_board")
    start = [cputime(mine), cputime(theirs)]
    moves, resigned = [], None
    for k in range(placements):
        colour = colours[k % len(colours)]
        mover, other = (mine, theirs) if colour in ours else (theirs, mine)
        move = mover.send(f"genmove {colour}")
        if move.lower() == "resign":
            resigned = colour
            break
        other.send(f"play {colour} {move}")
        moves.append((colour, move))
    return moves, cputime(mine) - start[0], cputime(theirs) - start[1], resigned


def judge_value(judge, moves, colours, ours):
    """Our side's expected result after `moves`, by the judge's search; None if the
    judge logged no value."""
    judge.replay(moves)
    to_move = colours[len(moves) % len(colours)]
    judge.send(f"reg_genmove {to_move}")
    value = judge.logged_value()
    if value is None:
        return None
    return value if to_move in ours else 1 - value


def shown(half):
    """An interval's half-width as printed (nothing when unknown)."""
    return "" if half is None else f" (+-{half:.3f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--placements", type=int, required=True,
                    help="placements in each opening (both sides' together)")
    ap.add_argument("--games", type=int, required=True, help="openings to play")
    ap.add_argument("--jobs", type=int, default=1, help="openings played at a time")
    ap.add_argument("--colours", default="1,2,3,4",
                    help="the game's colours in turn order, as the engines name them")
    ap.add_argument("--record", help="write each opening's placements to this file")
    ap.add_argument("ours")
    ap.add_argument("opponent")
    ap.add_argument("judge")
    a = ap.parse_args()
    if a.placements < 1 or a.games < 1 or a.jobs < 1:
        sys.exit(f"{TOOL}: --placements, --games and --jobs must be at least 1")
    colours = a.colours.split(",")
    if len(colours) < 2 or len(set(colours)) != len(colours):
        sys.exit(f"{TOOL}: --colours needs two or more different colours, got '{a.colours}'")
    seats = [set(colours[0::2]), set(colours[1::2])]
    lock = threading.Lock()
    results = {}
    queue = iter(range(a.games))
    failed = threading.Event()

    def job(j):
        try:
            play_share(j)
        except SystemExit:
            # The other jobs stop after their current opening; the message is raised.
            failed.set()
            raise

    def play_share(j):
        start = lambda cmd, log=False: GtpProcess(cmd.replace("{job}", str(j)), TOOL, log)
        engines = [start(a.ours), start(a.opponent)]
        judge = start(a.judge, log=True)
        while True:
            # Each job takes the next opening, so every job plays both seats.
            with lock:
                g = None if failed.is_set() else next(queue, None)
            if g is None:
                break
            seat = g % 2
            ours = seats[seat]
            moves, cpu_ours, cpu_opp, resigned = play_opening(engines, colours, ours,
                                                              a.placements)
            if resigned is not None:
                # A resignation ends the game: the resigning side has lost it.
                value = 0.0 if resigned in ours else 1.0
            else:
                value = judge_value(judge, moves, colours, ours)
            with lock:
                results[g] = (seat, value, cpu_ours, cpu_opp, moves)
                told = "-" if value is None else f"{value:.3f}"
                if resigned is not None:
                    told += f" ({resigned} resigned)"
                print(f"opening {g} (ours {'first' if seat == 0 else 'second'}): value {told}, "
                      f"CPU ours {cpu_ours:.2f} s, opponent {cpu_opp:.2f} s", flush=True)
        for e in engines + [judge]:
            e.close()

    with ThreadPoolExecutor(a.jobs) as pool:
        for f in [pool.submit(job, j) for j in range(a.jobs)]:
            f.result()

    if a.record:
        with open(a.record, "w") as out:
            for g in sorted(results):
                out.write(" ".join(f"{c}:{m}" for c, m in results[g][4]) + "\n")
    judged = [r for r in results.values() if r[1] is not None]
    if len(judged) < len(results):
        print(f"the judge logged no value for {len(results) - len(judged)} openings")
    if not judged:
        sys.exit(f"{TOOL}: no opening was judged")
    by_seat = []
    for name, seat in (("first seat", 0), ("second seat", 1)):
        rows = [r[1] for r in judged if r[0] == seat]
        if rows:
            mean, half = interval(rows)
            by_seat.append((mean, half))
            print(f"{name}: value {mean:.3f}{shown(half)} of {len(rows)} openings")
    if len(by_seat) == 2:
        # The seats' mean, each seat weighing half: the seat is a large part of a
        # value's spread, and this leaves it out of the interval.
        (m1, h1), (m2, h2) = by_seat
        both = None if h1 is None or h2 is None else math.hypot(h1, h2) / 2
        print(f"both seats: value {(m1 + m2) / 2:.3f}{shown(both)} "
              f"of {len(judged)} openings")
    cpu = [sum(r[i] for r in results.values()) / len(results) for i in (2, 3)]
    ratio = cpu[0] / cpu[1] if cpu[1] > 0 else float("nan")
    print(f"CPU per opening: ours {cpu[0]:.2f} s, opponent {cpu[1]:.2f} s, ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
