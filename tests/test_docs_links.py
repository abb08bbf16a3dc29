"""The README and docs/ hold together: every relative link (and image) points at a file that
exists, every ``#anchor`` at a heading of its target, and the README stays short enough to
read first (the rest belongs in docs/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 450

FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
INLINE_CODE = re.compile(r"`[^`]*`")


def prose_lines(path: Path) -> list[str]:
    """The file's lines outside fenced code blocks (links and headings there are not real)."""
    lines, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose_lines(path):
        match = HEADING.match(line)
        if match is None:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    targets: list[str] = []
    for line in prose_lines(path):
        targets.extend(LINK.findall(INLINE_CODE.sub("", line)))
    return targets


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target)  # http:, https:, mailto:, ...


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(document: Path) -> None:
    broken: list[str] = []
    for target in links(document):
        if not relative(target):
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (document.parent / file_part).resolve() if file_part else document
        if not resolved.exists():
            broken.append(f"{target}: no file {resolved}")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading with the anchor #{anchor} in {resolved.name}")
    assert not broken, f"{document.name} has broken links:\n" + "\n".join(broken)


def test_the_documents_are_found_and_linked() -> None:
    # The test above must have something to check: the README links into docs/, and docs/
    # holds the documents the README lists.
    names = {p.name for p in DOCUMENTS}
    assert {"benchmarks.md", "architecture.md", "operations.md"} <= names
    readme_targets = {t.partition("#")[0] for t in links(README)}
    unlinked = [p for p in DOCUMENTS[1:] if f"docs/{p.name}" not in readme_targets]
    assert not unlinked, f"documents in docs/ the README does not link: {unlinked}"


def test_a_broken_link_and_anchor_are_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n\n## A `code` heading, with punctuation\n\n"
        "[ok](#top) [ok](#a-code-heading-with-punctuation) [bad](#nowhere) "
        "[bad](missing.md) [web](https://example.com/x)\n\n```\n[not a link](fenced.md)\n```\n",
        encoding="utf-8",
    )
    assert links(page) == [
        "#top",
        "#a-code-heading-with-punctuation",
        "#nowhere",
        "missing.md",
        "https://example.com/x",
    ]
    assert anchors(page) == {"top", "a-code-heading-with-punctuation"}


def test_the_readme_stays_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < README_MAX_LINES, (
        f"README.md has {lines} lines; keep it under {README_MAX_LINES} and move detail to docs/"
    )
