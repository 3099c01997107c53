#!/usr/bin/env bash
# One pass on a GPU machine over a staged copy (see tools/gpu/stage.sh): the default suites
# through the cuda provider, a planted fault, compute-sanitizer on a subset, the benchmarks and
# the PyTorch peers. Writes under $OUT (or ./out): suites.txt, fault.txt, sanitizer.txt,
# aclnn.json, peers.json, table.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
reports=${REPORTS:-/tmp/aclnn-check-reports}  # many files: only summaries go to $out
mkdir -p "$out" "$reports"
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=$here/bin/aclnn-check
steps=${STEPS:-suites fault sanitizer bench peers}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for step in $steps; do
  start=$(date +%s)
  case $step in
    suites)
      timeout "${SUITES_SECONDS:-240}" "$cli" run "$here/cases" --provider cuda --report-dir "$reports/suites" >"$out/suites.txt" 2>&1
      echo "suites: rc $? ($(tail -3 "$out/suites.txt" | tr '\n' ' '))"
      python3 - "$reports/suites" >"$out/failures.txt" <<'PY'
import json, pathlib, sys
for report in sorted(pathlib.Path(sys.argv[1]).rglob("report.json")):
    def walk(node):
        if isinstance(node, dict):
            if "verdict" in node and node["verdict"] not in ("passed", "pass", "ok"):
                print(node.get("id"), node["verdict"], json.dumps(node.get("failures", []))[:600])
            for value in node.values(): walk(value)
        elif isinstance(node, list):
            for value in node: walk(value)
    walk(json.loads(report.read_text()))
PY
      echo "failing points: $(wc -l <"$out/failures.txt")"; head -c 3000 "$out/failures.txt";;
    fault)
      "$cli" run "$here/cases/hardswish_backward" --provider "$here/bin/fault/libaclnn_cuda.so" \
        --report-dir "$reports/fault" >"$out/fault.txt" 2>&1
      echo "fault: rc $? (expected non-zero) ($(tail -3 "$out/fault.txt" | tr '\n' ' '))";;
    sanitizer)
      # memcheck over the default suites (its workers are followed too); racecheck where a kernel
      # shares memory between threads (LayerNormBackward's block sums). A step stopped by its time
      # limit says so (rc 124).
      : >"$out/sanitizer.txt"
      for run in "memcheck cases" "racecheck cases/layer_norm_backward"; do
        set -- $run
        timeout "${SANITIZER_SECONDS:-240}" compute-sanitizer --tool "$1" --error-exitcode 9 \
          --print-limit 20 "$cli" run "$here/$2" --provider cuda \
          --report-dir "$reports/san_$1" >>"$out/sanitizer.txt" 2>&1
        echo "sanitizer $1 $2: rc $?" | tee -a "$out/sanitizer.txt"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer.txt" | sort | uniq -c | head -5
      done;;
    bench)
      timeout "${BENCH_SECONDS:-240}" "$cli" bench "$here/bench/cases_gpu" --provider cuda --json "$out/aclnn.json" --history "" \
        --benchmark_min_time=0.3 >"$out/bench.txt" 2>&1
      echo "bench: rc $?"; tail -25 "$out/bench.txt";;
    peers)
      timeout "${PEERS_SECONDS:-200}" python3 "$here/tools/gpu_peers.py" time -o "$out/peers.json" --reps 30 >"$out/peers.txt" 2>&1
      echo "peers: rc $?"; tail -3 "$out/peers.txt"
      python3 "$here/tools/gpu_peers.py" table "$out/peers.json" "$out/aclnn.json" | tee "$out/table.txt";;
  esac
  echo "step $step: $(( $(date +%s) - start )) s"
done
