#!/usr/bin/env python3
"""Checks that documentation shows code that is compiled: every ```swift block of each Markdown file
given must appear, line for line, in a .swift file under the source folders given with it.

    .ci/check-code-blocks.py DOC.md:FOLDER[,FOLDER...] [DOC.md:FOLDER ...]

A block matches when its lines appear consecutively in one source file, each with the same text
after the same indentation is taken off (so a block may show a member of a type without its
enclosing lines). Prints each block that no source file contains, and exits non-zero if any.
"""
import pathlib
import sys


def blocks(markdown: str):
    """The ```swift blocks of a Markdown text, with the line each starts on."""
    lines = markdown.splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            start = index + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            yield start + 1, lines[start:end]
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
        document, _, folders = argument.partition(":")
        sources = [
            path.read_text().splitlines()
            for folder in folders.split(",")
            for path in sorted(pathlib.Path(folder).rglob("*.swift"))
            if ".build" not in path.parts
        ]
        for line, block in blocks(pathlib.Path(document).read_text()):
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
