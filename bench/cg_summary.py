#!/usr/bin/env python3
"""cg_summary.py: a callgrind profile of bench/walkers, per mover-step.

  python3 bench/cg_summary.py CALLGRIND.OUT STEPS [--edges]

For each function: self and inclusive instructions per mover-step and calls
per mover-step (calls are counted by callgrind even outside the collected
part, so use a run without --warmup for the call counts). With --edges, also
every caller -> callee arc. Reads callgrind's format directly (name
compression, fi/fe inline files, calls= lines); no packages needed.
"""
import collections
import re
import signal
import sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` is fine


def parse(path):
    names = {}
    self_cost = collections.Counter()
    arcs = collections.defaultdict(lambda: [0, 0])   # (caller, callee) -> [calls, inclusive]
    fn = cfn = None
    pending_calls = None
    total = 0

    def name(kind_value):
        m = re.match(r"\((\d+)\)(?:\s+(.*))?", kind_value)
        if not m:
            return kind_value
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), "?")

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("fn="):
                fn = name(line[3:])
                continue
            if line.startswith("cfn="):
                cfn = name(line[4:])
                continue
            if line.startswith("calls="):
                pending_calls = int(line[6:].split()[0])
                continue
            if line.startswith(("totals:", "summary:")):
                total = int(line.split()[1])
                continue
            if line[0].isdigit() or line[0] in "+-*":
                parts = line.split()
                cost = int(parts[1]) if len(parts) > 1 else 0
                if pending_calls is not None:
                    a = arcs[(fn, cfn)]
                    a[0] += pending_calls
                    a[1] += cost
                    pending_calls = None
                else:
                    self_cost[fn] += cost
    incl = collections.Counter(self_cost)
    for (caller, callee), (_, cost) in arcs.items():
        if caller != callee:
            incl[caller] += cost
    calls = collections.Counter()
    for (caller, callee), (n, _) in arcs.items():
        if caller != callee:
            calls[callee] += n
    return total, self_cost, incl, calls, arcs


def short(fn):
    return fn.split(":")[-1] if ":" in fn else fn


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    total, self_cost, incl, calls, arcs = parse(sys.argv[1])
    steps = float(sys.argv[2])
    print("total: %.0f instructions per mover-step (%d instructions, %d steps)"
          % (total / steps, total, steps))
    print("%10s %10s %8s  %s" % ("self/step", "incl/step", "calls/st", "function"))
    for fn, c in sorted(self_cost.items(), key=lambda kv: -kv[1]):
        if c / steps < 1:
            continue
        print("%10.0f %10.0f %8.2f  %s" % (c / steps, incl[fn] / steps, calls[fn] / steps, fn))
    if "--edges" in sys.argv:
        print("\narcs (caller -> callee): calls/step, inclusive instructions/step")
        for (a, b), (n, c) in sorted(arcs.items(), key=lambda kv: -kv[1][1]):
            if c / steps >= 5:
                print("%8.2f %10.0f  %s -> %s" % (n / steps, c / steps, short(a), short(b)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
