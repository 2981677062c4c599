#!/usr/bin/env python3
"""One GTP engine made of two: the first chooses the moves of a game's early
placements, the second the rest.

    scripts/splice_gtp.py --from K "FIRST ENGINE CMD" "SECOND ENGINE CMD"

Speaks GTP on stdin/stdout for a match tool (the reference's `twogtp`, `blokus match`).
`genmove` is answered by the first engine while fewer than K placements have been made
in the game (either side's, counted since `clear_board`), and by the second from the
K-th on; the chosen move is then played on the other engine, so both always hold the
game. `cputime` is both engines' together. Every other command goes to both engines,
and the first one's answer is given; should one accept it and the other refuse, the
script stops with an error naming the command (the two would no longer hold the same
game). A command's numeric id is repeated in its answer.

Playing such a splice against a third engine shows in games which part of the game an
engine loses in: ours for the opening and the reference for the rest against the
reference alone measures the opening alone. A developer aid, not part of CI.
"""
import argparse
import sys

from gtp_process import GtpProcess


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="switch", type=int, required=True,
                    help="the placement number (0-based) from which the second engine moves")
    ap.add_argument("first")
    ap.add_argument("second")
    args = ap.parse_args()
    if args.switch < 0:
        sys.exit("splice_gtp: --from must be 0 or more")
    engines = [GtpProcess(args.first, "splice_gtp"), GtpProcess(args.second, "splice_gtp")]
    placements = 0
    ident = ""

    def reply(ok, text):
        sys.stdout.write(("=" if ok else "?") + ident + " " + text + "\n\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        # A command may start with a numeric id, which its answer repeats.
        ident = words.pop(0) if words and words[0].isdigit() else ""
        if not words:
            continue
        line = " ".join(words)
        command = words[0]
        if command == "genmove" and len(words) == 2:
            mover = engines[0] if placements < args.switch else engines[1]
            other = engines[1] if mover is engines[0] else engines[0]
            ok, move = mover.ask(line)
            if ok and move.lower() not in ("resign", "pass"):
                played, why = other.ask(f"play {words[1]} {move}")
                if not played:
                    sys.exit(f"splice_gtp: '{other.command}' refused the move "
                             f"'{words[1]} {move}': {why}")
                placements += 1
            reply(ok, move)
        elif command == "cputime":
            total = 0.0
            for engine in engines:
                ok, text = engine.ask("cputime")
                if not ok:
                    reply(False, f"'{engine.command}' has no cputime")
                    break
                total += float(text)
            else:
                reply(True, f"{total:.3f}")
        elif command == "quit":
            for engine in engines:
                engine.close()
            reply(True, "")
            return
        else:
            answers = [engine.ask(line) for engine in engines]
            if answers[0][0] != answers[1][0]:
                sys.exit(f"splice_gtp: the engines disagree on '{line}': "
                         f"'{answers[0][1]}' and '{answers[1][1]}'")
            if command == "clear_board":
                placements = 0
            elif command == "play" and answers[0][0] and len(words) >= 3 \
                    and words[2].lower() != "pass":
                placements += 1
            reply(*answers[0])


if __name__ == "__main__":
    main()
