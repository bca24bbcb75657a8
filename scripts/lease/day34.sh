#!/usr/bin/env bash
# Issue 33's GPU steps, for one lent GPU, after `cmake --preset dev && cmake --build --preset dev` on
# it (this script builds nothing). Under two minutes on an H200:
# 1. `labrun plan` on every registered lab (no GPU needed; here to keep it beside the runs);
# 2. `labrun run day34-stencil-tile`, timed from process start to its last file; `labrun report`
#    must reproduce its Markdown and `labrun validate` accept it;
# 3. `labrun run day20-sobel-threshold --out OUTDIR/day20-port`: the ported day 20, whose transcript
#    must match the committed 1.7.0 one (evidence/day20-sobel-threshold/nvidia-h200/2026-12-02T02-48-06Z)
#    in everything but timing, its environment, claims' wording and the fields 1.8.0 adds;
# 4. the GPU smoke test of every registered lab (ctest: gpu.every registered lab runs ...), day 34 and
#    the three ported labs among them.
# Logs and what the runs wrote go under OUTDIR (day 34's evidence at OUTDIR/evidence/..., to commit
# unedited); a short table is printed last. Exits 1 when a step failed.
#
#   scripts/lease/day34.sh OUTDIR
set -uo pipefail
out=${1:?usage: scripts/lease/day34.sh OUTDIR}
mkdir -p "$out/plan"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.."
labrun=./build/dev/labrun
status=0
rows=()
row() { rows+=("$(printf '| %-34s | %-6s | %8s | %s |' "$1" "$2" "$3" "$4")"); }
seconds_since() { awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $1}"; }
[ -x "$labrun" ] || { echo "no $labrun: build the dev preset first"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true

echo "== plan, every lab"
begin=$(date +%s.%N)
plans=ok
for lab in $("$labrun" list | awk '/^[a-z0-9-]+  /{print $1}'); do
  if "$labrun" plan "$lab" >"$out/plan/$lab.md" 2>"$out/plan/$lab.log" && grep -q "^## Claims" "$out/plan/$lab.md"; then
    echo "$lab: $(grep -c '^| ' "$out/plan/$lab.md") table rows, $(grep -c 'Declared figures' "$out/plan/$lab.md") figure table"
  else
    plans=FAILED; status=1; echo "$lab: plan FAILED (see plan/$lab.log)"
  fi
done
row "plan, every lab" "$plans" "$(seconds_since "$begin")" "$(ls "$out/plan"/*.md | wc -l) plans in plan/"

echo "== day 34"
marker=$(mktemp); sleep 1
begin=$(date +%s.%N)
"$labrun" run day34-stencil-tile >"$out/day34.stdout.md" 2>"$out/day34.log"
code=$?
took=$(seconds_since "$begin")
[ "$code" -eq 0 ] || status=1
json=""
while IFS= read -r f; do
  mkdir -p "$out/$(dirname "$f")"; cp "$f" "$out/$f"
  case "$f" in *.trace.json) ;; *.json) json=$f ;; esac
done < <(find evidence profiles -type f -newer "$marker" 2>/dev/null | sort)
rm -f "$marker"
verdict="no transcript"
if [ -n "$json" ]; then
  "$labrun" report "$json" | cmp -s - "${json%.json}.md" && echo "report reproduces $json" || { echo "report DIFFERS for $json"; status=1; }
  "$labrun" validate "$json" || status=1
  verdict=$(python3 - "$json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
claims = {c["id"]: c for c in t["claims"]}
c = claims["tile-is-not-faster"]
bits = claims["tile-changes-no-bit"]["verdict"]
print(f'{c["verdict"]} (naive/tiled {c["measured"] if c["measured"] is None else round(c["measured"], 3)}, '
      f'{c["tolerance"]}); bitwise {bits}')
for case in t["cases"]:
    if "/stencil/" in case["name"]:
        figures = ", ".join(f'{f["name"]} {f["value"] if f["value"] is None else round(f["value"], 3)} {f["unit"]}'
                            for f in case["declared_figures"])
        print(f'  {case["name"].split("/")[-1]:6} {case["size_label"]:12} {case["summary"]["median_ms"]:.4f} ms; {figures}',
              file=sys.stderr)
PY
)
  grep -A12 "^## Claims against" "${json%.json}.md" | grep -E "^\| At every size|^\| The tiled" | cut -c1-250
fi
echo "day34: exit $code, $took s from start to last file"
row "run day34-stencil-tile" "$([ "$code" -eq 0 ] && echo ok || echo "exit $code")" "$took" "$verdict"

echo "== day 20, ported, against its committed transcript"
begin=$(date +%s.%N)
"$labrun" run day20-sobel-threshold --out "$out/day20-port" >/dev/null 2>"$out/day20.log"
code=$?
took=$(seconds_since "$begin")
[ "$code" -eq 0 ] || status=1
new=$(ls "$out"/day20-port/*.json 2>/dev/null | grep -v trace | head -1)
same="no transcript"
if [ -n "$new" ]; then
  same=$(python3 - evidence/day20-sobel-threshold/nvidia-h200/2026-12-02T02-48-06Z.json.gz "$new" <<'PY'
import gzip, json, sys
# Everything a declaration decides, compared; timing, the environment, claims' words and 1.8.0's
# declared_figures and launch_check (issue 31's hot launch check) left out (src/claims and
# docs/transcript-fields.md say why they may differ).
timing = {"samples_ms", "summary", "rounds", "median_interval_ms", "sampling_seconds", "sample_sm_clock_mhz",
          "throttled_samples", "gate_timeout_samples", "median_cycles", "stop_reason", "warmups", "measured",
          "measured_interval", "verdict", "verdict_basis", "max_abs_error", "max_rel_error", "relative_l2_error",
          "max_abs_difference", "first_median_ms", "second_median_ms", "relative_difference",
          "second_samples_ms", "declared_figures", "attributes", "launch_check"}
wording = {"figures", "tolerance", "detail"}
def strip(node, claims=False):
    if isinstance(node, dict):
        return {k: strip(v, claims) for k, v in node.items() if k not in timing and not (claims and k in wording)}
    if isinstance(node, list):
        return [strip(v, claims) for v in node]
    return node
# The committed run is stored gzip-compressed (NAME.json.gz); the new one is plain.
old, new = (json.load(gzip.open(p, "rt") if p.endswith(".gz") else open(p)) for p in sys.argv[1:3])
diffs = [k for k in ("lab", "sizes", "predictions", "correctness", "cases", "claims", "roofline", "stability")
         if strip(old.get(k), k == "claims") != strip(new.get(k), k == "claims")]
keys = lambda t: [sorted(c.get("attributes", {})) for c in t["cases"]]
if keys(old) != keys(new):
    diffs.append("cases' attribute keys")
print("identical but for timing" if not diffs else "DIFFERS in " + ", ".join(diffs))
PY
)
fi
case "$same" in identical*) ;; *) status=1 ;; esac
echo "day20: exit $code, $took s; $same"
row "run day20 (port) vs committed" "$([ "$code" -eq 0 ] && echo ok || echo "exit $code")" "$took" "$same"

echo "== GPU smoke test of every registered lab (ctest)"
begin=$(date +%s.%N)
ctest --test-dir build/dev -R 'gpu\.every registered lab runs' --output-on-failure >"$out/smoke.log" 2>&1
code=$?
took=$(seconds_since "$begin")
[ "$code" -eq 0 ] || status=1
tail -3 "$out/smoke.log"
row "smoke test, every lab" "$([ "$code" -eq 0 ] && echo ok || echo FAILED)" "$took" \
  "$(grep -oE '[0-9]+% tests passed.*' "$out/smoke.log" | head -1)"

echo
echo "| step                               | result |  seconds | what to look at |"
echo "| ---------------------------------- | ------ | -------: | --------------- |"
printf '%s\n' "${rows[@]}"
exit "$status"
