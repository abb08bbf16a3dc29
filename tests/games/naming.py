"""The contract's scan shared by the games added through it: which of the bot's files (code,
catalogues, pages, migrations) name a word, such as a game's kind."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED_FOLDERS = ("bot", "cogs", "renderers", "sandbox")
SCANNED_SUFFIXES = frozenset({".py", ".json", ".html", ".js", ".css", ".sql", ".txt"})


def files_naming(word: str) -> set[str]:
    """The files (paths from the repository's root) whose text names ``word``, any case."""
    return {
        path.relative_to(ROOT).as_posix()
        for folder in SCANNED_FOLDERS
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and path.suffix in SCANNED_SUFFIXES
        and word in path.read_text(encoding="utf-8", errors="ignore").lower()
    }
