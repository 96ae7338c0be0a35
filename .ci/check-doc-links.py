#!/usr/bin/env python3
"""Checks the documentation links that DocC never sees: every ``Symbol`` and <doc:Article> link in a
`///` comment of the library's sources — internal declarations included — must name a declaration
or an article that exists, and every relative link of the Markdown files at the top of the
repository (README.md, CHANGELOG.md, Benchmarks/README.md) must name a file that exists.

    .ci/check-doc-links.py

`docc convert --warnings-as-errors` (the docs step) checks the links of the articles and of public
declarations' comments, and fails on one that names nothing; comments of internal declarations are
not in the symbol graph, so a link there would go stale unnoticed.

A symbol link resolves the way DocC resolves one: its first component is a declaration of the
module (a type, or a member of the type whose comment holds the link, or of a type enclosing it),
and each further component is a member of the type before it, in the type itself or any of its
extensions. A member is named by its base name and, for a function, its argument labels
(`resolver(of:key:)`); a DocC disambiguation suffix (`-8ozsy`, `-(()->T)`) is ignored. Prints
each link that resolves to nothing, and exits non-zero if any.
"""
import pathlib
import re
import sys

SOURCES = pathlib.Path("Sources")
CATALOG = SOURCES / "Assemblies" / "Assemblies.docc"
MARKDOWN = ["README.md", "CHANGELOG.md", "Benchmarks/README.md"]
MODULE = "Assemblies"

TYPE_DECLARATION = re.compile(r"\b(class|struct|enum|protocol|actor|extension)\s+([A-Za-z_][\w.]*)")
MEMBER_DECLARATION = re.compile(
    r"\b(?:func|var|let|case|typealias|associatedtype)\s+(`?[A-Za-z_]\w*`?|[-+*/%<>=!&|^~.]+)"
    r"|\b(init|subscript)\s*[(<?!]"
)
SYMBOL_LINK = re.compile(r"``([^`]+)``")
ARTICLE_LINK = re.compile(r"<doc:([\w-]+)(?:#([\w-]+))?>")


def without_literals(line: str) -> str:
    """The line with string literals and a trailing `//` comment taken out, so braces in them don't count."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def logical_lines(path: pathlib.Path):
    """Each line of `path` as (number, raw text, text without literals), with a line whose parentheses
    are still open joined to the lines that close them: a parameter list over several lines."""
    lines = path.read_text().splitlines()
    index = 0
    while index < len(lines):
        number, raw = index + 1, lines[index]
        line = without_literals(raw)
        while (
            not raw.strip().startswith("//")
            and line.count("(") > line.count(")")
            and index + 1 < len(lines)
            and '"""' not in raw
        ):
            index += 1
            if lines[index].strip().startswith("//"):
                continue
            line += " " + without_literals(lines[index]).strip()
        yield number, raw, line
        index += 1


def labels(text: str) -> str:
    """The argument labels of the parameter list that `text` starts with: `(of handle: X, key: Y)` → `of:key:`."""
    depth, current, parts = 0, "", []
    for character in text.replace("->", "→"):
        if character in "([<":
            depth += 1
            if depth == 1:
                continue
        elif character in ")]>":
            depth -= 1
            if depth == 0:
                parts.append(current)
                break
        elif character == "," and depth == 1:
            parts.append(current)
            current = ""
            continue
        if depth >= 1:
            current += character
    result = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        # An enum case's associated value may have no label: `case wait(Slot, Store)` is `wait(_:_:)`.
        head = part.split(":", 1)[0].split() if ":" in part else []
        result += (head[0] if head else "_") + ":"
    return result


class Declarations:
    """What the module declares: each type's members, by base name, with the labels of each."""

    def __init__(self):
        self.members: dict[str, dict[str, set[str]]] = {}  # type → name → label lists
        self.top_level: set[str] = set()
        self.comments: list[tuple[pathlib.Path, int, str, list[str]]] = []  # link sites

    def add_member(self, owner: str | None, name: str, label_list: str | None):
        if owner is None:
            self.top_level.add(name)
            return
        self.members.setdefault(owner, {}).setdefault(name, set()).add(label_list or "")

    def read(self, path: pathlib.Path):
        stack: list[tuple[int, str]] = []  # (depth at which the type's body opened, type name)
        depth = 0
        pending_comment: list[tuple[int, str]] = []
        in_block_string = False
        for number, raw, line in logical_lines(path):
            stripped = raw.strip()
            if stripped.count('"""') % 2 == 1:
                in_block_string = not in_block_string
                continue
            if in_block_string:
                continue
            if stripped.startswith("///"):
                pending_comment.append((number, stripped[3:]))
                continue
            owner = stack[-1][1] if stack else None
            type_match = TYPE_DECLARATION.search(line)
            declared_type = None
            if type_match and not stripped.startswith("//"):
                declared_type = type_match.group(2).split(".")[-1]
                if type_match.group(1) != "extension":
                    self.add_member(owner, declared_type, None)
                    self.members.setdefault(declared_type, {})
            for match in MEMBER_DECLARATION.finditer(line):
                name = (match.group(1) or match.group(2)).strip("`")
                rest = line[match.end(1) if match.group(1) else match.end(2) - 1 :]
                rest = re.sub(r"^\s*<[^>]*>", "", rest)  # generic parameters
                label_list = labels(rest) if rest.lstrip().startswith("(") else None
                if match.group(2) in ("init", "subscript"):
                    rest = re.sub(r"^[?!]?\s*<[^>]*>", "", line[match.end(2) :])
                    label_list = labels(rest) if rest.startswith("(") else None
                if label_list is not None and not re.match(r"\w", name):
                    label_list = "_:" * label_list.count(":")  # an operator's operands have no labels
                self.add_member(owner, name, label_list)
            # The comment belongs to the declaration on this line (not to an attribute before it):
            # links in it resolve from its type.
            is_declaration = declared_type is not None or MEMBER_DECLARATION.search(line) is not None
            if pending_comment and (is_declaration or not stripped.startswith("@")):
                context = [name for _, name in stack]
                if declared_type and type_match.group(1) != "extension":
                    context = context + [declared_type]
                elif declared_type:
                    context = [declared_type]
                for comment_number, text in pending_comment:
                    self.comments.append((path, comment_number, text, context))
                pending_comment = []
            opened = line.count("{")
            closed = line.count("}")
            if declared_type and opened > closed:
                stack.append((depth + 1, declared_type))
            depth += opened - closed
            while stack and depth < stack[-1][0]:
                stack.pop()

    def member(self, owner: str, component: str) -> bool:
        name, _, rest = component.partition("(")
        name = re.sub(r"-[^/]*$", "", name) if not rest else name
        wanted = None
        if rest:
            wanted = "".join(
                label + ":" for label in re.sub(r"\).*$", "", rest).split(":") if label
            ) if ":" in rest else ""
        found = self.members.get(owner, {}).get(name)
        if found is None:
            return False
        return wanted is None or wanted in found

    def resolves(self, link: str, context: list[str]) -> bool:
        parts = [part for part in re.split(r"/(?![^(]*\))", link) if part]
        if parts and parts[0] == MODULE:
            parts = parts[1:]
            if not parts:
                return True
        first = parts[0]
        first_name = re.sub(r"-[\w]+$", "", first.split("(", 1)[0])
        # The first component: a member of an enclosing type (innermost first), or a type of the module.
        candidates = []
        for owner in reversed(context):
            if self.member(owner, first):
                candidates.append(first_name if first_name in self.members else None)
                break
        else:
            if first_name in self.members or first_name in self.top_level:
                candidates.append(first_name)
            else:
                return False
        owner = candidates[0]
        for part in parts[1:]:
            if owner is None or not self.member(owner, part):
                return False
            base = part.split("(", 1)[0]
            owner = base if base in self.members else None
        return True


def main() -> int:
    declarations = Declarations()
    for path in sorted(SOURCES.rglob("*.swift")):
        declarations.read(path)
    articles = {path.stem: path for path in CATALOG.rglob("*.md")}
    failures = []
    checked = 0
    for path, number, text, context in declarations.comments:
        for link in SYMBOL_LINK.findall(text):
            checked += 1
            if not declarations.resolves(link, context):
                failures.append(f"{path}:{number}: ``{link}`` names no declaration")
        for article, anchor in ARTICLE_LINK.findall(text):
            checked += 1
            if article not in articles:
                failures.append(f"{path}:{number}: <doc:{article}> names no article")
            elif anchor and not heading_exists(articles[article], anchor):
                failures.append(f"{path}:{number}: <doc:{article}#{anchor}> names no heading of {article}")
    for document in MARKDOWN:
        document = pathlib.Path(document)
        if not document.exists():
            continue
        for number, line in enumerate(document.read_text().splitlines(), start=1):
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                    continue
                checked += 1
                file = (document.parent / target.split("#", 1)[0]).resolve()
                if not file.exists():
                    failures.append(f"{document}:{number}: the link to {target} names no file")
    for failure in failures:
        print(failure)
    if failures:
        print(f"error: {len(failures)} of {checked} documentation links name nothing")
        return 1
    print(f"All {checked} documentation links in source comments and the top-level Markdown files resolve.")
    return 0


def heading_exists(article: pathlib.Path, anchor: str) -> bool:
    for line in article.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            if re.sub(r"[^\w]+", "-", title).strip("-") == anchor.strip("-"):
                return True
    return False


if __name__ == "__main__":
    sys.exit(main())
