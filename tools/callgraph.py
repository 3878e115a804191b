#!/usr/bin/env python3
"""tools/callgraph.py: checks that csrc/ calls one way down.

Each module is a .c file with the .h of the same name (cs_mesh.c and
cs_mesh.h are one module; header-only modules such as cs_math.h count too).
A module depends on another when one of its files
  - includes the other's header (collideslide.h, the public API that
    declares everything, and cs_internal.h, the tests' umbrella, excepted), or
  - calls a function the other defines (found by name: every non-static
    function defined at the start of a line in a .c file, and every inline
    function a header defines; a call is `name(` in code, comments and
    strings stripped).
The check fails when this graph has a cycle (module A reaches B and B
reaches A), when a core file includes cs_internal.h, or when a module
calls or includes nothing it should not be able to see. Calls through
function pointers (a query's visitor handed to a tree walk, the user's
filter and query callbacks) are not edges: they are the caller's code run
by the callee, not a call up.

  python3 tools/callgraph.py [--dot] [csrc]
prints the order from the top (the binding) down, or the cycle.
"""
import os
import re
import sys

EXEMPT = {"collideslide", "cs_internal"}


def strip(src, strings=True):
    src = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), src, flags=re.S)
    src = re.sub(r"//[^\n]*", "", src)
    if not strings:
        return src
    src = re.sub(r'"(\\.|[^"\\\n])*"', '""', src)
    src = re.sub(r"'(\\.|[^'\\\n])*'", "''", src)
    return src


def module_of(path):
    return os.path.splitext(os.path.basename(path))[0]


def main(argv):
    dot = "--dot" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = args[0] if args else "csrc"
    files = sorted(f for f in os.listdir(root) if f.endswith((".c", ".h")))
    raw = {f: open(os.path.join(root, f), encoding="utf-8").read() for f in files}
    text = {f: strip(raw[f]) for f in files}
    defined = {}   # function name -> module
    def_re_c = re.compile(r"^(?!static\b)(?!typedef\b)[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{",
                          re.M)
    def_re_inline = re.compile(r"^CS_INLINE\b[\w \*]*?\b(\w+)\s*\([^;{]*\)\s*\{", re.M)
    for f, src in text.items():
        rx = def_re_c if f.endswith(".c") else def_re_inline
        for m in rx.finditer(src):
            defined.setdefault(m.group(1), module_of(f))
    deps = {}
    problems = []
    for f, src in text.items():
        mod = module_of(f)
        if mod in EXEMPT:
            continue
        d = deps.setdefault(mod, set())
        for inc in re.findall(r'#\s*include\s+"([^"]+)"', strip(raw[f], False)):
            im = module_of(inc)
            if im == "cs_internal":
                problems.append("%s includes cs_internal.h (the tests' umbrella)" % f)
            if im not in EXEMPT and im != mod and inc in raw:
                d.add(im)
        code = src
        if f.endswith(".h"):   # a header's prototypes declare, they do not call
            code = re.sub(r"^[A-Za-z_][\w \*]*\b\w+\s*\([^;{]*\)\s*;", "", code, flags=re.M)
        for name in re.findall(r"\b([A-Za-z_]\w*)\s*\(", code):
            callee = defined.get(name)
            if callee and callee != mod:
                d.add(callee)
    # cycles: depth-first search with colours
    colour = {m: 0 for m in deps}
    order, stack = [], []

    def visit(m):
        colour[m] = 1
        stack.append(m)
        for n in sorted(deps.get(m, ())):
            if n not in colour:
                colour[n] = 0
                deps.setdefault(n, set())
            if colour[n] == 1:
                cyc = stack[stack.index(n):] + [n]
                problems.append("cycle: " + " -> ".join(cyc))
            elif colour[n] == 0:
                visit(n)
        stack.pop()
        colour[m] = 2
        order.append(m)

    for m in sorted(deps):
        if colour[m] == 0:
            visit(m)
    if dot:
        print("digraph csrc {")
        for m in sorted(deps):
            for n in sorted(deps[m]):
                print('  "%s" -> "%s";' % (m, n))
        print("}")
        return 0
    if problems:
        for p in problems:
            print("callgraph: " + p)
        return 1
    order.reverse()
    print("callgraph: %d modules, %d edges, no cycle; top down:" %
          (len(deps), sum(len(v) for v in deps.values())))
    for m in order:
        print("  %-10s -> %s" % (m, " ".join(sorted(deps[m])) or "(nothing)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
