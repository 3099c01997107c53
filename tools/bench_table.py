#!/usr/bin/env python3
"""The peer comparison table from aclnn_bench's Google Benchmark JSON (stdlib only).

  tools/bench_table.py merge A.json B.json ... -o peers.json   join one JSON per thread count
  tools/bench_table.py table peers.json                        print the table

Every number in the table is recomputed from the JSON: per benchmark, the median bytes_per_second
of its repetitions (the "median" aggregate when only aggregates were written), or with
--statistic best the fastest repetition, as STREAM reports its best trial. "reps" gives the slowest
and fastest repetition of the provider's row as % of that row's number: on a shared machine whole
repetitions can run at half speed (the triad and the peers too), and a row whose slowest
repetition is far below its median was measured through one of those dips. Names are
<workload>/<dtype>/<impl>/threads:<n>; "% of triad" divides by Triad/float32/triad/threads:<n>
of the same thread count, and "x torch" / "x oneDNN" are the aclnn provider's GB/s divided by the
peer's (above 1: the provider is faster).
"""
import argparse
import json
import statistics
import sys

PROVIDER_IMPLS = ("cpu", "ref", "aclnn")
# How torch and oneDNN say that they have no kernel for a dtype.
UNSUPPORTED = ("not implemented for", "could not create a primitive descriptor")


def load(path):
    with open(path, encoding="utf-8") as f:
        output = json.load(f)
    if not isinstance(output, dict) or not isinstance(output.get("benchmarks"), list):
        sys.exit(f"{path}: /benchmarks: not a Google Benchmark JSON output")
    return output


def merge(paths, out):
    merged = None
    for path in paths:
        output = load(path)
        if merged is None:
            merged = {"context": dict(output.get("context", {})), "benchmarks": []}
            merged["context"]["aclnn_bench_threads"] = []
        merged["context"]["aclnn_bench_threads"].append(output.get("context", {}).get("aclnn_bench_threads", "?"))
        merged["benchmarks"].extend(output["benchmarks"])
    with open(out, "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")


def split_name(name):
    """('LogitGrad', 'float32', 'cpu', 1) from 'LogitGrad/float32/cpu/threads:1' (or with
    '/manual_time' after it), else None."""
    parts = name.split("/")
    if parts[-1] == "manual_time":  # the provider's rows, timed by its device events
        parts = parts[:-1]
    if len(parts) != 4 or not parts[3].startswith("threads:"):
        return None
    return parts[0], parts[1], parts[2], int(parts[3][len("threads:"):])


STATISTICS = {"median": statistics.median, "best": max}


def throughputs(output, statistic="median"):
    """{(workload, dtype, impl, threads): (bytes/s or None, label or error, [repetitions])}"""
    samples, medians, notes = {}, {}, {}
    for run in output["benchmarks"]:
        key = split_name(run.get("run_name", run.get("name", "")))
        if key is None:
            continue
        if run.get("error_occurred"):
            notes[key] = "error: " + run.get("error_message", "")
            samples.setdefault(key, [])
            continue
        if run.get("label"):
            notes.setdefault(key, run["label"])
        rate = run.get("bytes_per_second")
        if rate is None:
            continue
        if run.get("run_type", "iteration") == "iteration":
            samples.setdefault(key, []).append(rate)
        elif run.get("aggregate_name") == "median":
            medians[key] = rate
    result = {}
    for key in set(samples) | set(medians):
        values = samples.get(key) or ([medians[key]] if key in medians else [])
        result[key] = (STATISTICS[statistic](values) if values else None, notes.get(key, ""), values)
    return result


def spread(repetitions, rate):
    """The slowest and fastest repetition as % of the row's rate, e.g. '88-103%'."""
    if not rate or len(repetitions) < 2:
        return "-"
    return f"{100 * min(repetitions) / rate:.0f}-{100 * max(repetitions) / rate:.0f}%"


def table(path, statistic="median"):
    output = load(path)
    rates = throughputs(output, statistic)
    context = output.get("context", {})
    caps = [f"{key}={context[key]}" for key in ("aclnn_bench_simd_target", "ATEN_CPU_CAPABILITY",
                                                 "ONEDNN_MAX_CPU_ISA") if key in context]
    if caps:
        print("instruction sets: " + ", ".join(caps) + "\n")
    triad = {key[3]: (rate, values) for key, (rate, _, values) in rates.items() if key[2] == "triad"}
    rows = sorted({(w, d, t) for (w, d, impl, t) in rates if impl in PROVIDER_IMPLS},
                  key=lambda k: (k[2], k[0], ["float32", "float16", "bfloat16"].index(k[1])
                                 if k[1] in ("float32", "float16", "bfloat16") else 9))
    header = f"{'operator':<30} {'dtype':<9} {'threads':>7} {'GB/s':>7} {'% triad':>8} {'x torch':>8} {'x oneDNN':>8} {'reps':>9}"
    print(header)
    print("-" * len(header))

    def ratio(ours, workload, dtype, impl, threads):
        peer = rates.get((workload, dtype, impl, threads))
        if peer is None:
            return "-"
        if not peer[0] and any(words in peer[1] for words in UNSUPPORTED):
            return "n/a"
        if not ours or not peer[0]:
            return "err"
        return f"{ours / peer[0]:.2f}"

    for workload, dtype, threads in rows:
        impl = next(i for i in PROVIDER_IMPLS if (workload, dtype, i, threads) in rates)
        ours, _, repetitions = rates[(workload, dtype, impl, threads)]
        gbs = f"{ours / 1e9:.2f}" if ours else "err"
        triad_rate = triad.get(threads, (None, []))[0]
        of_triad = f"{100 * ours / triad_rate:.0f}%" if ours and triad_rate else "-"
        print(f"{workload:<30} {dtype:<9} {threads:>7} {gbs:>7} {of_triad:>8} "
              f"{ratio(ours, workload, dtype, 'torch', threads):>8} {ratio(ours, workload, dtype, 'onednn', threads):>8} {spread(repetitions, ours):>9}")
    for threads, (rate, repetitions) in sorted(triad.items()):
        if rate:
            print(f"{'Triad (STREAM, float32)':<30} {'float32':<9} {threads:>7} {rate / 1e9:>7.2f} {'100%':>8} "
                  f"{'':>8} {'':>8} {spread(repetitions, rate):>9}")
    print(f"\nGB/s: minimum bytes the operator must move / real time, {statistic} of the repetitions; "
          "x torch, x oneDNN: the provider's GB/s / the peer's (above 1: faster); reps: the slowest and "
          "fastest repetition as % of GB/s; -: no peer; n/a: the peer has no kernel for the dtype; "
          "err: the benchmark failed (below).")
    notes = sorted({(impl, w, d, note) for (w, d, impl, t), (_, note, _) in rates.items()
                    if impl not in PROVIDER_IMPLS + ("triad",) and note})
    if notes:
        print("\npeer variants and errors:")
        for impl, workload, dtype, note in notes:
            print(f"  {impl:<7} {workload}/{dtype}: {note[:160]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    merge_parser = commands.add_parser("merge")
    merge_parser.add_argument("inputs", nargs="+")
    merge_parser.add_argument("-o", "--output", required=True)
    table_parser = commands.add_parser("table")
    table_parser.add_argument("input")
    table_parser.add_argument("--statistic", choices=sorted(STATISTICS), default="median",
                              help="per benchmark: the median repetition, or the best (as STREAM)")
    args = parser.parse_args()
    if args.command == "merge":
        merge(args.inputs, args.output)
    else:
        table(args.input, args.statistic)


if __name__ == "__main__":
    main()
