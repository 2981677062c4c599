#!/usr/bin/env bash
# Spar `blokus gtp` against a reference GTP engine (e.g. pentobi-gtp, built outside this
# repository) and print wins, the score with its 95% interval, the Elo difference and
# the CPU ratio (ours / reference). A developer aid; CI never runs it.
#
# Usage:
#   REF_GTP=/path/to/pentobi-gtp [REF_TWOGTP=/path/to/twogtp] \
#     scripts/spar.sh VARIANT GAMES REF_LEVEL OUT [OUR blokus gtp OPTIONS...]
#   scripts/spar.sh --report OUT      # the figures of a finished (or running) spar
# e.g. scripts/spar.sh duo 100 6 /tmp/duo-l6 --player mcts:simulations=8000
#
# VARIANT is one the reference engine knows (duo, classic_2, trigon_2, ...). Each engine
# searches with one thread; colours alternate from game to game. The tool is the
# reference match tool when REF_TWOGTP is set (records in OUT.dat and OUT.blksgf; an
# interrupted run resumes where it stopped), else `blokus match` (records in
# OUT.blksgf, CPU times from /usr/bin/time in OUT.cpu-ours / OUT.cpu-ref); SPAR_TOOL=
# twogtp|match chooses explicitly. REF_ARGS adds options for the reference engine
# (default --nobook). Needs a release build (BLOKUS_BIN, default target/release/blokus).
set -euo pipefail

# Score, Wilson 95% interval, Elo and CPU ratio from lines "result cpu_ours cpu_ref seat"
# (result 1 = we won, 0.5 = draw, 0 = lost; seat 0 = we played first).
report_lines() {
  awk '
    function elo(s) {
      if (s <= 0) return "-inf"; if (s >= 1) return "+inf"
      return sprintf("%+.0f", -400 * log(1 / s - 1) / log(10))
    }
    { n++; score += $1; if ($1 == 1) w++; else if ($1 == 0) l++; else d++
      cpu_ours += $2; cpu_ref += $3; seat_n[$4]++; seat_score[$4] += $1 }
    END {
      if (n == 0) { print "no finished games yet"; exit 1 }
      s = score / n; z = 1.96
      # Wilson score interval of the score (draws count half).
      c = (s + z * z / (2 * n)) / (1 + z * z / n)
      h = z * sqrt(s * (1 - s) / n + z * z / (4 * n * n)) / (1 + z * z / n)
      lo = c - h; hi = c + h; if (lo < 0) lo = 0; if (hi > 1) hi = 1
      printf "%d games: %d wins, %d draws, %d losses for us\n", n, w, d, l
      printf "score %.1f%% (95%% interval %.1f%% to %.1f%%)\n", 100 * s, 100 * lo, 100 * hi
      printf "Elo difference %s (%s to %s)\n", elo(s), elo(lo), elo(hi)
      for (k = 0; k < 2; k++) if (seat_n[k] > 0)
        printf "as the %s player: %.1f of %d\n", (k == 0 ? "first" : "second"), seat_score[k], seat_n[k]
      if (cpu_ref > 0)
        printf "CPU ours / reference %.2f (%.3f s vs %.3f s per game)\n",
          cpu_ours / cpu_ref, cpu_ours / n, cpu_ref / n
    }'
}

# Sums the "user+system" lines /usr/bin/time appended to a file.
cpu_sum() {
  awk -F+ '{ t += $1 + $2 } END { printf "%.3f", t }' "$1" 2>/dev/null || echo 0
}

report() {
  local out=$1
  if [ -f "$out.dat" ]; then
    # twogtp: Game Result Length PlayerB CpuB CpuW Fast; we are its "black" engine.
    grep -v '^#' "$out.dat" | awk '{ print $2, $5, $6, $4 }' | report_lines
  elif [ -f "$out.blksgf" ]; then
    local ours ref
    ours=$(cpu_sum "$out.cpu-ours"); ref=$(cpu_sum "$out.cpu-ref")
    # RE[B+..] / RE[W+..] with seats rotating: we play first in odd games.
    grep -o 'RE\[[^]]*\]' "$out.blksgf" | awk -v ours="$ours" -v ref="$ref" '
      { g++; first = (g % 2 == 1); r = substr($0, 4, 1)
        res = (r == "0" || r == "D") ? 0.5 : ((r == "B") == first ? 1 : 0)
        printf "%s %s %s %d\n", res, (g == 1 ? ours : 0), (g == 1 ? ref : 0), !first }' | report_lines
  else
    echo "spar: no results at $out (.dat or .blksgf)" >&2
    exit 1
  fi
}

if [ "${1:-}" = "--report" ]; then
  report "${2:?usage: spar.sh --report OUT}"
  exit
fi

variant=${1:?variant}; games=${2:?games}; level=${3:?reference level}; out=${4:?output prefix}
shift 4
ref=${REF_GTP:?set REF_GTP to the reference GTP engine}
[ -x "$ref" ] || { echo "spar: REF_GTP=$ref is not an executable" >&2; exit 1; }
bin=$(realpath "${BLOKUS_BIN:-target/release/blokus}")
[ -x "$bin" ] || { echo "spar: $bin not built (cargo build --release -p blokus-cli)" >&2; exit 1; }
tool=${SPAR_TOOL:-$([ -n "${REF_TWOGTP:-}" ] && echo twogtp || echo match)}
# The reference engine lacks these rules, so our side must play without them.
rules=()
case $variant in
  trigon_2) rules=(--rules no_mirror_opening) ;;
  trigon_3) rules=(--rules no_start_alternation) ;;
esac
ours="$bin gtp --game $variant --threads 1 --quiet ${rules[*]} $*"
theirs="$ref ${REF_ARGS:---nobook} --level $level --threads 1 --quiet"
echo "spar: $variant, $games games, $tool"
echo "  ours:      $ours"
echo "  reference: $theirs"
case $tool in
  twogtp)
    twogtp=${REF_TWOGTP:?set REF_TWOGTP to the reference match tool}
    "$twogtp" --black "$ours" --white "$theirs" --game "$variant" --nugames "$games" \
      --file "$out" --threads 1 --quiet
    ;;
  match)
    rm -f "$out.cpu-ours" "$out.cpu-ref"
    time_to() { echo "/usr/bin/time -a -o $1 -f %U+%S"; }
    # The match's own games follow the rules our side plays by.
    "$bin" match "gtp:$(time_to "$out.cpu-ours") $ours" "gtp:$(time_to "$out.cpu-ref") $theirs" \
      --variant "$variant" --games "$games" --sgf "$out.blksgf" --quiet "${rules[@]}" > "$out.summary"
    ;;
  *) echo "spar: SPAR_TOOL must be twogtp or match, not $tool" >&2; exit 1 ;;
esac
report "$out"
