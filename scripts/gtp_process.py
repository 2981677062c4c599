"""A GTP engine in a subprocess, spoken to one command at a time, the game records the
developer scripts that drive engines read (move_cpu.py, ref_values.py,
move_quality.py, opening_values.py), and the interval they report means with."""
import math
import re
import shlex
import subprocess
import sys


def record_placements(record):
    """One `.blksgf` record's placements as (colour, cells) in order, its colours in
    turn order, and the first seat's colours (every other one from the first)."""
    moves = re.findall(r";([A-Za-z0-9])\[([^\]]*)\]", record)
    colours = sorted({c for c, _ in moves})
    return moves, colours, set(colours[0::2])


class GtpProcess:
    """Starts `command`; `tool` names the calling script in error messages. With
    `log=True` the engine's standard error is read too, and the lines it writes before
    each answer are kept in `log_lines`."""

    def __init__(self, command, tool, log=False):
        self.command = command
        self.tool = tool
        self.log_lines = []
        try:
            self.proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if log else subprocess.DEVNULL, text=True)
        except OSError as e:
            sys.exit(f"{tool}: cannot start '{command}': {e}")

    def ask(self, line):
        """Sends `line`; returns (whether the engine accepted it, its answer's text)."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:
            sys.exit(f"{self.tool}: '{self.command}' ended before '{line}' could be sent")
        self.log_lines = []
        answer = []
        while True:
            text = self.proc.stdout.readline()
            if text == "":
                sys.exit(f"{self.tool}: '{self.command}' ended while answering '{line}'")
            if answer and text.strip() == "":
                break
            if answer or text[:1] in "=?":
                answer.append(text.rstrip("\n"))
            elif text.strip():
                self.log_lines.append(text.rstrip("\n"))
        joined = "\n".join(answer)
        return joined.startswith("="), joined[1:].strip()

    def logged_value(self):
        """The last `Val X` the engine logged while answering (the reference engine's
        expected result for the colour it searched for), or None."""
        values = [float(m.group(1)) for m in
                  (re.match(r"Val (-?[\d.]+)", t) for t in self.log_lines) if m]
        return values[-1] if values else None

    def send(self, line):
        """The text of the engine's success answer to `line`; exits on a refusal."""
        ok, text = self.ask(line)
        if not ok:
            sys.exit(f"{self.tool}: '{self.command}' refused '{line}': ?{text}")
        return text

    def replay(self, moves):
        """Sets up the position after `moves`, (colour, move) pairs from the start."""
        self.send("clear_board")
        for colour, move in moves:
            self.send(f"play {colour} {move}")

    def close(self):
        """Asks the engine to quit and waits for it."""
        try:
            self.send("quit")
        except SystemExit:
            pass
        self.proc.wait()


def interval(values):
    """The mean of `values` and the half-width of its 95% interval (None for a single
    value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, None
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n)
