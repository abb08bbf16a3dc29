"""The contract for Ur's rule sets: each was added by commits that touch only its own files
(every path names its kind: its engine, manifest, board, catalogue and tests), never a shared
module; the shared parts they are built from (``ur_sets``) name none of them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("ur_blitz", "ur_aseb", "ur_masters")
SHARED_PARTS = (
    "bot/engines/ur_sets.py",
    "bot/ai/ur_sets.py",
    "bot/ai/ur_sets_solver.py",
    "bot/ai/ur_sets_table.py",
    "bot/games/ur_sets.py",
    "bot/games/ur_sets_solved.py",
    "renderers/ur_sets.py",
)


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def history() -> bool:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return False
    try:
        return bool(git("log", "-1", "--format=%H", "--", "bot/games/ur_blitz.py").strip())
    except subprocess.CalledProcessError:
        return False


@pytest.mark.skipif(not history(), reason="no git history of the rule sets here")
@pytest.mark.parametrize("kind", KINDS)
def test_the_commits_that_add_a_rule_set_touch_only_its_own_files(kind: str) -> None:
    commits = git("log", "--format=%H", "--", f"bot/games/{kind}.py", f"bot/engines/{kind}.py")
    touched_by_kind = git("log", "--format=%H", "--", f"*{kind}*").split()
    assert commits.split() and set(commits.split()) <= set(touched_by_kind)
    for commit in touched_by_kind:
        files = git("show", "--name-only", "--format=", commit).split()
        assert all(kind in path for path in files), (commit, files)


def test_the_shared_parts_name_no_rule_set() -> None:
    for part in SHARED_PARTS:
        text = (ROOT / part).read_text(encoding="utf-8").lower()
        assert not any(kind in text for kind in KINDS), part
