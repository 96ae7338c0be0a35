#!/usr/bin/env python3
"""Checks that every performance figure the documentation states is one a benchmark run wrote: each
number followed by `instructions`, `×`, `ns` or `µs` in README.md (outside its generated sections)
and in the DocC articles must appear in a section of Benchmarks/README.md that
Benchmarks/Scripts/write-results.sh generated.

    .ci/check-benchmark-figures.py

Thousands separators don't matter (`7,797` matches `7797`). Prints each figure no generated table
holds, and exits non-zero if any: copy the figure from the tables, or run the script again.
"""
import pathlib
import re
import sys

GENERATED = re.compile(r"<!-- BEGIN GENERATED: ([\w-]+) -->\n(.*?)<!-- END GENERATED: \1 -->", re.S)
FIGURE = re.compile(r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s?(instructions|×|ns\b|µs\b)")
DOCUMENTS = [pathlib.Path("README.md")] + sorted(pathlib.Path("Sources/Assemblies/Assemblies.docc").glob("*.md"))


def numbers(text: str) -> set[str]:
    return {match.replace(",", "") for match in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


def main() -> int:
    tables = "".join(body for _, body in GENERATED.findall(pathlib.Path("Benchmarks/README.md").read_text()))
    known = numbers(tables)
    failures = 0
    checked = 0
    for document in DOCUMENTS:
        text = GENERATED.sub(lambda match: "\n" * match.group(0).count("\n"), document.read_text())
        for number, line in enumerate(text.splitlines(), start=1):
            for figure, unit in FIGURE.findall(line):
                checked += 1
                if figure.replace(",", "") not in known:
                    failures += 1
                    print(f"{document}:{number}: {figure}{unit if unit == '×' else ' ' + unit} is in no table of Benchmarks/README.md")
    if failures:
        print(
            f"error: {failures} of {checked} performance figures aren't in the generated tables; copy them from "
            "Benchmarks/README.md, or run Benchmarks/Scripts/write-results.sh"
        )
        return 1
    print(f"All {checked} performance figures of the documentation are in the generated tables.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
