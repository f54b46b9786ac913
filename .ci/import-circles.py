#!/usr/bin/env python3
"""Import circles between the files of a crate (issue 49).

For each crate given, every non-test source file is a node, and an arrow
runs from a file to each file whose items it names through `crate::`,
`super::` or `self::` (a `use` or a path in code; doc comments and
`#[cfg(test)]` modules left out). A name the crate root or a `mod.rs`
re-exports (`pub use`) leads to the file that defines it. A file that
declares a module (`mod x;`) does not import it by that. Prints each circle
(a strongly connected set of more than one file) and exits 1 when a crate
has one it is not allowed:

    .ci/import-circles.py crates/splendor-protocol crates/splendor-lobby \
        --allow crates/splendor-room=core.rs,...

An `--allow CRATE=FILES` names the one circle a crate may keep (the files of
one type's impl blocks, as quinn-proto's connection): the crate passes when
its only circle is within those files.
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments(text):
    """Comments out, strings kept (paths do not sit in strings)."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            depth = 1
            i += 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth += 1
                    i += 2
                elif text.startswith("*/", i):
                    depth -= 1
                    i += 2
                else:
                    i += 1
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
            continue
        if c == "'" and i + 2 < n and (text[i + 2] == "'" or text[i + 1] == "\\"):
            # A char literal ('x', '\n'); lifetimes ('a) are left alone.
            j = text.find("'", i + 2 if text[i + 1] == "\\" else i + 1)
            out.append("' '")
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def strip_test_modules(text):
    """`#[cfg(test)] mod x { ... }` and `#[cfg(test)] mod x;` removed."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*([{;])", text)
        if not m:
            return text
        if m.group(3) == ";":
            text = text[: m.start()] + text[m.end():]
            continue
        depth = 1
        i = m.end()
        while i < len(text) and depth:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
            i += 1
        text = text[: m.start()] + text[i:]


def test_module_names(text):
    return set(re.findall(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", text))


def expand(tail):
    """`a::{b, c::{d, e}}` -> [[a, b], [a, c, d], [a, c, e]] (from `crate::`)."""
    paths = []

    def walk(prefix, s):
        s = s.strip()
        m = re.match(r"((?:" + IDENT + r"\s*::\s*)*)(\{|" + IDENT + r"|\*)", s)
        if not m:
            return
        segs = [x.strip() for x in m.group(1).split("::") if x.strip()]
        if m.group(2) == "{":
            depth = 0
            start = m.end()
            i = m.end() - 1
            parts = []
            part_start = start
            while i < len(s):
                ch = s[i]
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        parts.append(s[part_start:i])
                        break
                elif ch == "," and depth == 1:
                    parts.append(s[part_start:i])
                    part_start = i + 1
                i += 1
            for p in parts:
                if p.strip():
                    walk(prefix + segs, p)
        else:
            last = m.group(2)
            paths.append(prefix + segs + ([] if last == "*" else [last]))

    walk([], tail)
    return paths


class Crate:
    def __init__(self, root):
        self.root = root
        self.src = os.path.join(root, "src")
        self.files = {}  # module path tuple -> file
        self.test_files = set()
        self.text = {}
        for dirpath, _, names in os.walk(self.src):
            for name in names:
                if not name.endswith(".rs"):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, self.src)
                parts = rel[:-3].split(os.sep)
                if parts[-1] in ("mod", "lib", "main") and (parts[-1] == "mod" or len(parts) == 1):
                    parts = parts[:-1]
                if parts and parts[0] == "bin":
                    continue
                self.files[tuple(parts)] = path
        # Test-only modules (`#[cfg(test)] mod tests;`) and what is under them.
        for module, path in list(self.files.items()):
            raw = open(path, encoding="utf-8").read()
            for name in test_module_names(raw):
                for other in self.files:
                    if other[: len(module) + 1] == module + (name,):
                        self.test_files.add(other)
        for module, path in self.files.items():
            if module in self.test_files:
                continue
            self.text[module] = strip_test_modules(strip_comments(open(path, encoding="utf-8").read()))
        self.reexports = {m: self.find_reexports(m) for m in self.text}

    def find_reexports(self, module):
        """Names `pub use`d by a module: name -> full module path of the source."""
        out = {}
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", self.text[module]):
            body = m.group(1)
            base = []
            if body.startswith("crate::"):
                body = body[len("crate::"):]
            elif body.startswith("self::"):
                body = body[len("self::"):]
                base = list(module)
            elif body.startswith("super::"):
                continue
            else:
                first = re.match(IDENT, body)
                child = tuple(list(module) + [first.group(0)]) if first else None
                if child not in self.files:
                    # Another crate's item: no file of this crate.
                    for path in expand(body):
                        if path:
                            out[path[-1]] = None
                    continue
                base = list(module)
            for path in expand(body):
                full = base + path
                if full:
                    out[full[-1]] = tuple(full[:-1])
        return out

    def resolve(self, path, depth=0):
        """The module (a key of files) that defines `path`'s item."""
        path = list(path)
        for k in range(len(path), -1, -1):
            prefix = tuple(path[:k])
            if prefix in self.files:
                if k < len(path) and prefix in self.reexports and depth < 5:
                    names = self.reexports[prefix]
                    if path[k] in names and names[path[k]] is None:
                        return None
                    src = names.get(path[k])
                    if src is not None and src != prefix:
                        return self.resolve(list(src) + path[k:], depth + 1)
                return prefix
        return ()

    def arrows(self):
        edges = {m: set() for m in self.text}
        for module, text in self.text.items():
            here = list(module)
            # A re-export is a door, not a use: who names the item through
            # it is led to the file that defines it.
            text = re.sub(r"\bpub(?:\([^)]*\))?\s+use\s+[^;]+;", "", text)
            # The file's own module: `mod.rs` is its directory's module.
            for m in re.finditer(r"\b(crate|super|self)((?:\s*::\s*super)*)\s*::\s*", text):
                kind = m.group(1)
                ups = m.group(2).count("super")
                tail = text[m.end(): m.end() + 400]
                if kind == "crate":
                    base = []
                elif kind == "self":
                    base = here
                else:
                    base = here[: max(0, len(here) - 1 - ups)]
                for path in expand(tail):
                    target = self.resolve(base + path)
                    if target is not None and target != module and target in self.text:
                        edges[module].add(target)
        return edges

    def name(self, module):
        return os.path.relpath(self.files[module], self.src)


def circles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index = {}
    low = {}
    stack = []
    on = set()
    out = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in edges:
        if v not in index:
            visit(v)
    return out


def main(argv):
    allow = {}
    crates = []
    i = 0
    while i < len(argv):
        if argv[i] == "--allow":
            crate, files = argv[i + 1].split("=", 1)
            allow[os.path.normpath(crate)] = set(files.split(","))
            i += 2
        else:
            crates.append(os.path.normpath(argv[i]))
            i += 1
    failed = False
    for root in crates + [c for c in allow if c not in crates]:
        crate = Crate(root)
        edges = crate.arrows()
        found = circles(edges)
        allowed = allow.get(root, set())
        bad = [c for c in found if not {crate.name(m) for m in c} <= allowed]
        arrows = sum(len(v) for v in edges.values())
        print(f"{root}: {len(crate.text)} files, {arrows} arrows, {len(found)} circle(s)")
        for c in found:
            names = sorted(crate.name(m) for m in c)
            mark = "allowed" if c not in bad else "CIRCLE"
            print(f"  {mark}: {' <-> '.join(names)}")
            if c in bad:
                for m in sorted(c, key=crate.name):
                    inside = sorted(crate.name(w) for w in edges[m] if w in c)
                    print(f"    {crate.name(m)} -> {', '.join(inside)}")
        failed |= bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
