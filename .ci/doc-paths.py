#!/usr/bin/env python3
"""Every path the documents name exists (issue 49).

Reads README.md, ARCHITECTURE.md, CONTRIBUTING.md (if any), docs/*.md and
docs/design/*.md, and checks:
- each Markdown link to a file of the repository (not a web address): the
  file exists (relative to the document), and an `#anchor` into a Markdown
  file names one of its headings;
- each path in backticks that starts at the repository's root
  (`crates/...`, `docs/...`, `tests/...`, `docker/...`, `clients/...`,
  `.ci/...`) or at a crate (`splendor-lobby/src/...`), globs (`*`, `<lang>`)
  matched against the tree.
And ARCHITECTURE.md stays at most 20 KB. Prints each broken one and exits
1 if any; run from the repository root.
"""

import glob
import os
import re
import sys

# ARCHITECTURE.md is a bird's-eye view; the deep parts are in docs/design/.
ARCHITECTURE_MAX = 20 * 1024

ROOTS = ("crates/", "docs/", "tests/", "docker/", "clients/", ".ci/")


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    out = set()
    seen = {}
    fenced = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def exists(path):
    """The path, or a glob of it (`<lang>`, `*`, `{a,b}` read as globs)."""
    path = path.rstrip("/").rstrip(".,:;")
    pattern = re.sub(r"<[^>]+>", "*", path)
    m = re.search(r"\{([^}]*)\}", pattern)
    if m:
        return all(exists(pattern[: m.start()] + alt + pattern[m.end():]) for alt in m.group(1).split(","))
    if "*" in pattern:
        return bool(glob.glob(pattern))
    return os.path.exists(pattern)


def check(doc):
    broken = []
    text = open(doc, encoding="utf-8").read()
    base = os.path.dirname(doc)
    for m in re.finditer(r"\]\(([^)\s]+)\)", text):
        target = m.group(1)
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(base, path)) if path else doc
        if path and not os.path.exists(full):
            broken.append(f"link {target}: no {full}")
            continue
        if anchor and full.endswith(".md") and anchor not in anchors(full):
            broken.append(f"link {target}: no heading #{anchor} in {full}")
    for m in re.finditer(r"`([^`\s]+)`", text):
        token = m.group(1)
        token = re.sub(r"(:\d+(-\d+)?)+$", "", token)  # file:line
        if token.startswith(ROOTS):
            path = token
        elif re.match(r"^splendor-[a-z-]+/(src|tests|locales|web|benches)/", token):
            path = "crates/" + token
        else:
            continue
        if "..." in path or "…" in path:
            continue
        if not exists(path):
            broken.append(f"path `{token}`: not in the tree")
    return broken


def main():
    docs = ["README.md", "ARCHITECTURE.md"] + sorted(glob.glob("docs/*.md")) + sorted(glob.glob("docs/design/*.md"))
    failed = 0
    for doc in docs:
        if not os.path.exists(doc):
            continue
        for b in check(doc):
            print(f"{doc}: {b}")
            failed += 1
    size = os.path.getsize("ARCHITECTURE.md")
    if size > ARCHITECTURE_MAX:
        print(f"ARCHITECTURE.md is {size} bytes, more than {ARCHITECTURE_MAX}: move a deep part to docs/design/")
        failed += 1
    print(f"{len(docs)} documents, {failed} broken path(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
