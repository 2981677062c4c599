#!/usr/bin/env python3
"""The reference engine's view of sparring games: our side's expected result as a game goes.

    scripts/ref_values.py [--games N] [--every N] [--until N] GAMES.blksgf GAMES.dat "REF CMD"

GAMES.blksgf and GAMES.dat are what `scripts/spar.sh` leaves from the reference match tool:
one record per game, and its table of games whose PlayerB column says which engine had
the first seat (0: ours, the match tool's black engine). REF CMD starts the reference's
GTP engine with its game and level, without `--quiet` (say `pentobi-gtp --nobook --game
trigon_2 --level 7 --threads 1`): the engine's log line `Val X` after a search is its
expected result for the colour to move, which is what this reads.

Every N placements (default 8, up to --until, default 56) the engine searches the game's
position with `reg_genmove` for the colour to move (a search that plays nothing). The
value is turned into our side's. Prints each game's values, then per seat the mean at each
placement count: where in the game the reference thinks our results slip away. A
developer aid, not part of CI; it needs the reference engine, built outside the
repository.
"""
import argparse
import sys

from gtp_process import GtpProcess, record_placements


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records")
    ap.add_argument("table")
    ap.add_argument("engine")
    ap.add_argument("--games", type=int, help="only the first N games")
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--until", type=int, default=56)
    a = ap.parse_args()
    if a.every < 1 or a.until < a.every:
        sys.exit("ref_values: need --every at least 1 and --until at least --every")
    if a.games is not None and a.games < 1:
        sys.exit("ref_values: --games must be at least 1")
    try:
        records = open(a.records).read().split("(;")[1:]
        seats = [int(line.split("\t")[3]) for line in open(a.table)
                 if line.strip() and not line.startswith("#")]
    except (OSError, IndexError, ValueError) as e:
        sys.exit(f"ref_values: cannot read the games: {e}")
    if len(records) != len(seats):
        sys.exit(f"ref_values: {len(records)} records but {len(seats)} games in the table")
    if a.games is not None:
        records, seats = records[:a.games], seats[:a.games]
    engine = GtpProcess(a.engine, "ref_values", log=True)
    checkpoints = list(range(a.every, a.until + 1, a.every))
    sums = {}
    for number, (record, ours_black) in enumerate(zip(records, seats)):
        moves, _, first_seat = record_placements(record)
        seat = "first" if ours_black == 0 else "second"
        engine.send("clear_board")
        values = []
        for k, (colour, cells) in enumerate(moves):
            if k in checkpoints:
                # The colour that places next is the one to move (turn order would be
                # wrong once a colour has passed). One with no move left cannot be
                # searched.
                to_move = colour
                ok, _ = engine.ask(f"reg_genmove {to_move}")
                logged = engine.logged_value()
                value = None
                if ok and logged is not None:
                    mover_first = to_move in first_seat
                    value = logged if mover_first == (seat == "first") else 1 - logged
                    slot = sums.setdefault((seat, k), [0.0, 0])
                    slot[0] += value
                    slot[1] += 1
                values.append("-" if value is None else f"{value:.2f}")
            engine.send(f"play {colour} {cells}")
        print(f"game {number} (ours {seat}): " + " ".join(values), flush=True)
    engine.close()
    print("mean of our side's value after " + ", ".join(map(str, checkpoints)) + " placements:")
    for seat in ("first", "second"):
        cells = [sums.get((seat, k)) for k in checkpoints]
        print(f"  ours {seat}: " + " ".join(
            "-" if c is None else f"{c[0] / c[1]:.2f} ({c[1]})" for c in cells))


if __name__ == "__main__":
    main()
