#!/usr/bin/env python3
"""Checks that documentation shows code that is compiled: every ```swift block of each Markdown file
given must appear, line for line, in a .swift file under the source folders given with it.

    .ci/check-code-blocks.py DOC.md[#Heading]:PATH[,PATH...] [...]

PATH is a folder (its .swift files, .build folders left out) or a .swift file. With `#Heading`, only
the blocks under that heading (up to the next heading of its level or higher) are checked.

Left out: a block whose first line ends with ", for comparison" (`// Swinject, for comparison`),
another framework's code, which this package can't compile; and one whose first line starts with
`// Package.swift`, part of a manifest, which `.ci/run readme` compiles on its own.

A block matches when its lines appear consecutively in one source file, each with the same text
after the same indentation is taken off (so a block may show a member of a type without its
enclosing lines). Prints each block that no source file contains, and exits non-zero if any.
"""
import pathlib
import sys


def section(markdown: str, heading: str):
    """The lines of `markdown` under `heading` (its text, without the #s), as (number, line) pairs."""
    lines = list(enumerate(markdown.splitlines(), start=1))
    start = level = None
    for position, (_, line) in enumerate(lines):
        hashes = len(line) - len(line.lstrip("#"))
        if 0 < hashes and line[hashes:].strip() == heading and not line.startswith("```"):
            start, level = position + 1, hashes
            break
    if start is None:
        raise SystemExit(f"error: no heading '{heading}'")
    end = start
    while end < len(lines):
        line = lines[end][1]
        hashes = len(line) - len(line.lstrip("#"))
        if 0 < hashes <= level and line[hashes:hashes + 1] == " ":
            break
        end += 1
    return lines[start:end]


def blocks(numbered_lines):
    """The ```swift blocks of numbered Markdown lines, with the line each starts on."""
    numbers = [number for number, _ in numbered_lines]
    lines = [line for _, line in numbered_lines]
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            start = index + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            yield numbers[start], lines[start:end]
            index = end
        index += 1


def dedented(lines):
    indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:].rstrip() for line in lines]


def contains(source_lines, block):
    block = dedented(block)
    size = len(block)
    for start in range(len(source_lines) - size + 1):
        window = source_lines[start : start + size]
        if dedented(window) == block:
            return True
    return False


def main(arguments):
    failures = 0
    checked = 0
    for argument in arguments:
        target, _, folders = argument.partition(":")
        document, _, heading = target.partition("#")
        paths = []
        for folder in folders.split(","):
            root = pathlib.Path(folder)
            paths += [root] if root.is_file() else sorted(root.rglob("*.swift"))
        sources = [path.read_text().splitlines() for path in paths if ".build" not in path.parts]
        markdown = pathlib.Path(document).read_text()
        numbered = section(markdown, heading) if heading else list(enumerate(markdown.splitlines(), start=1))
        for line, block in blocks(numbered):
            first = block[0].strip() if block else ""
            if first.startswith("//") and (first.endswith(", for comparison") or first.startswith("// Package.swift")):
                continue
            checked += 1
            if not any(contains(source, block) for source in sources):
                failures += 1
                print(f"{document}:{line}: this swift block is in no .swift file under {folders}:")
                print("\n".join("    " + text for text in block))
    if failures:
        print(f"error: {failures} of {checked} code blocks aren't compiled code; copy them from the sources")
        return 1
    print(f"All {checked} swift code blocks are compiled code.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
