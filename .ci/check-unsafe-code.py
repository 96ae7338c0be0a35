#!/usr/bin/env python3
"""Checks that Sources/Assemblies/Internal/UnsafeCode.md lists every unsafe construct the library uses.

A construct is any identifier or attribute that opts out of a check Swift would otherwise make:
everything spelled with `unsafe`/`Unsafe` (`unowned(unsafe)`, `unsafeBitCast`, `UnsafeMutablePointer`,
`withUnsafeCurrentTask`, `_withUnsafeGuaranteedRef`, `nonisolated(unsafe)`...), `unchecked`
(`@unchecked Sendable`, `@exclusivity(unchecked)`), `Unmanaged`, `unsafelyUnwrapped`, and
underscored attributes (`@_transparent`). Comments and string literals don't count.

The ledger's table "Where each construct is used" has a row per construct: the construct, then the
files that use it. The check fails when a file uses a construct its row doesn't name, or a row
names a file that no longer uses it (the entry would be stale).

    python3 .ci/check-unsafe-code.py
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCES = os.path.join(ROOT, "Sources", "Assemblies")
LEDGER = os.path.join(SOURCES, "Internal", "UnsafeCode.md")

CONSTRUCT = re.compile(
    r"unowned\(unsafe\)|nonisolated\(unsafe\)|@exclusivity\(unchecked\)|@unchecked\b|@_[A-Za-z_]+\b"
    r"|\b_?[A-Za-z]*[Uu]nsafe[A-Za-z]*\b|\bUnmanaged\b"
)


def code_only(text):
    """The text with comments and string literals blanked out, lines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def used():
    found = {}
    for directory, _, names in os.walk(SOURCES):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as file:
                code = code_only(file.read())
            for match in CONSTRUCT.finditer(code):
                found.setdefault(match.group(0), set()).add(name)
    return found


def listed():
    rows = {}
    with open(LEDGER, encoding="utf-8") as file:
        text = file.read()
    section = text.split("## Where each construct is used", 1)
    if len(section) < 2:
        sys.exit(f"error: {LEDGER} has no section '## Where each construct is used'")
    for line in section[1].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        construct = cells[0].strip("`")
        rows[construct] = {name.strip().strip("`") for name in cells[1].split(",") if name.strip()}
    return rows


def main():
    actual, ledger = used(), listed()
    problems = []
    for construct in sorted(actual):
        missing = actual[construct] - ledger.get(construct, set())
        if missing:
            problems.append(f"`{construct}` is used in {', '.join(sorted(missing))}, which the ledger doesn't list for it")
    for construct in sorted(ledger):
        stale = ledger[construct] - actual.get(construct, set())
        if stale:
            problems.append(f"the ledger lists `{construct}` in {', '.join(sorted(stale))}, which no longer use it")
    if problems:
        print(f"error: {os.path.relpath(LEDGER, ROOT)} doesn't match the code:", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        print(
            "To fix this, say in the ledger why each new use is sound (invariant, guardian, tests) and update "
            "its table; or remove the construct.",
            file=sys.stderr,
        )
        return 1
    print(f"Every unsafe construct is in the ledger: {sum(len(files) for files in actual.values())} uses of "
          f"{len(actual)} constructs.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
