#!/usr/bin/env bash
# On the H200, after a dev build (build/dev): what an empty launch costs when the GPU, not the host,
# paces it, beside the staged chain's time per launch at the small end of its sweep. For cold and
# hot-gated timing, PROBE_PROCESSES (default 4) processes of each of:
#   batch-K   part 1's one-launch case with --small-case-batch K (K = 1, 4): K empty launches
#             between one pair of events, queued behind the flush or the gate, recorded per launch
#   chain     part 3's staged chain (its sweep), per launch = its figure / 4
# Transcripts under OUTDIR/<mode>/<kind>/<i>/; the table is printed last (OUTDIR/table.txt).
#
#   scripts/diagnostics/queued-launch-probe.sh OUTDIR
set -uo pipefail
out=${1:?usage: scripts/diagnostics/queued-launch-probe.sh OUTDIR}
mkdir -p "$out"; out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.."
labrun=$PWD/build/dev/labrun
[ -x "$labrun" ] || { echo "queued-launch-probe: $labrun is missing" >&2; exit 2; }
for i in $(seq 1 "${PROBE_PROCESSES:-4}"); do
  for mode in cold hot-gated; do
    for kind in batch-1 batch-4 chain; do
      dir=$out/$mode/$kind/$i; mkdir -p "$dir"
      case $kind in
        batch-*) args=(--case 'part1/empty-single-launch' --small-case-batch "${kind#batch-}") ;;
        chain) args=(--case 'part3/staged-chain') ;;
      esac
      "$labrun" run day48-fusion --timing "$mode" "${args[@]}" --out "$dir" --quiet >/dev/null 2>"$dir/stderr.log" \
        || echo "$mode $kind $i: exit $?"
    done
  done
done
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, math, os, statistics, sys
out = sys.argv[1]
print("| mode | kind | case, n | per launch (us), each process | median |")
print("| --- | --- | --- | --- | ---: |")
for mode in ("cold", "hot-gated"):
    for kind in ("batch-1", "batch-4", "chain"):
        rows = {}
        for path in sorted(glob.glob(os.path.join(out, mode, kind, "*", "*.json"))):
            for c in json.load(open(path))["cases"]:
                if kind == "chain" and c["elements"] > 65536:
                    continue
                figure = c.get("figure_ms") or c["summary"]["median_ms"]
                per = 4 if kind == "chain" else c["launches_per_sample"]
                rows.setdefault((c["name"].split("/", 1)[1], c["elements"]), []).append(1000 * figure / per)
        for (name, n), values in sorted(rows.items()):
            print(f"| {mode} | {kind} | {name}, {n} | {' '.join(f'{v:.3f}' for v in values)} | {statistics.median(values):.3f} |")
PY
