#!/usr/bin/env python3
"""Where two GTP engines spend their CPU over a game: per placement of a colour.

    scripts/move_cpu.py [--games N] [--colours 1,2,3,4] GAME_NAME "ENGINE_A CMD" "ENGINE_B CMD"

GAME_NAME is the name both engines take in `set_game` (`"Blokus Duo"`, `"Blokus Trigon
Two-Player"`). The engines play GAMES games to the end against each other (give them their
options against resigning), seats alternating; the colours of the first player are the
first, third, ... in turn order. After each of an engine's `genmove` answers its process
CPU time (all threads, from /proc) is read, so a placement's cost includes what the
engine did since its previous one (its handling of the other side's `play`, say): the
sum over a game is its whole CPU time, as the reference match tool counts it.

Prints, per placement number k of a colour (from 0), each engine's mean CPU seconds over
the placements with that number, and each engine's mean CPU per game. A developer aid,
Linux only, not part of CI.
"""
import argparse
import os
import sys

from gtp_process import GtpProcess


class Engine(GtpProcess):
    """A GTP engine whose process CPU time can be read."""

    def __init__(self, command):
        super().__init__(command, "move_cpu")

    def cpu(self):
        """The process's CPU seconds so far (user and system, all threads)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play_game(engines, game_name, colours, first):
    """Plays one game, `engines[first]` taking the first player's colours. Returns
    per engine a list of (placement number of the colour, CPU seconds)."""
    for e in engines:
        e.send(f"set_game {game_name}")
        e.send("clear_board")
    last = [e.cpu() for e in engines]
    costs = [[], []]
    placed = {c: 0 for c in colours}
    out = set()
    turn = 0
    while len(out) < len(colours):
        colour = colours[turn % len(colours)]
        turn += 1
        if colour in out:
            continue
        i = first if colours.index(colour) % 2 == 0 else 1 - first
        answer = engines[i].send(f"genmove {colour}")
        now = engines[i].cpu()
        if answer.lower() == "resign":
            sys.exit("move_cpu: an engine resigned; start it with its option against resigning")
        if answer.lower() == "pass":
            out.add(colour)
            continue
        costs[i].append((placed[colour], now - last[i]))
        last[i] = now
        placed[colour] += 1
        engines[1 - i].send(f"play {colour} {answer}")
    return costs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    parser.add_argument("--colours", default="",
                        help="GTP colour names in turn order (default: b,w for Duo-like "
                             "games, else 1,2,3,4)")
    parser.add_argument("game", help="the game's name for set_game")
    parser.add_argument("a", help="command of engine A")
    parser.add_argument("b", help="command of engine B")
    args = parser.parse_args()
    if args.games < 1:
        sys.exit("move_cpu: --games must be at least 1")
    colours = args.colours.split(",") if args.colours else (
        ["b", "w"] if "Duo" in args.game or "Junior" in args.game else ["1", "2", "3", "4"])
    engines = [Engine(args.a), Engine(args.b)]
    sums = [{}, {}]
    counts = [{}, {}]
    totals = [0.0, 0.0]
    for g in range(args.games):
        costs = play_game(engines, args.game, colours, g % 2)
        for i in (0, 1):
            for k, c in costs[i]:
                sums[i][k] = sums[i].get(k, 0.0) + c
                counts[i][k] = counts[i].get(k, 0) + 1
                totals[i] += c
    for e in engines:
        e.close()
    print("k   A (s)   B (s)")
    for k in range(max(list(sums[0]) + list(sums[1]), default=-1) + 1):
        cells = [f"{sums[i][k] / counts[i][k]:.3f}" if k in sums[i] else "-" for i in (0, 1)]
        print(f"{k:<3} {cells[0]:>6}  {cells[1]:>6}")
    print(f"per game: A {totals[0] / args.games:.3f} s, B {totals[1] / args.games:.3f} s")


if __name__ == "__main__":
    main()
