"""The container files, checked by reading them (no Docker engine is needed to run this)."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIP_INSTALL = ("python", "-m", "pip", "install")


@dataclass(frozen=True)
class Instruction:
    stage: int  # index of the FROM this instruction belongs to; -1 before the first
    keyword: str
    args: str


def logical_lines(text: str) -> list[str]:
    """Lines with backslash continuations joined and comments dropped."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not pending):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1].rstrip() + " "
            continue
        lines.append(pending + stripped)
        pending = ""
    return [line for line in lines if line]


def parse_dockerfile(text: str) -> list[Instruction]:
    stage = -1
    found = []
    for line in logical_lines(text):
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        found.append(Instruction(stage, keyword, args.strip()))
    return found


def exec_form(args: str) -> list[str]:
    """A JSON-array (exec form) command; the shell form is not accepted where signals matter."""
    parsed = json.loads(args)
    assert isinstance(parsed, list) and all(isinstance(p, str) for p in parsed), args
    return parsed


def pip_installs(commands: list[str]) -> list[list[str]]:
    """Every ``python -m pip install`` in ``commands``, split into words, without ``--quiet``.

    Split at ``&&``/``;`` first, so chained RUN lines count too.
    """
    found = []
    for command in commands:
        for part in re.split(r"&&|;", command):
            if "pip" not in part:
                continue  # other shell (awk programs, ...) need not split as words
            words = shlex.split(part)
            if tuple(words[:4]) == PIP_INSTALL:
                found.append([w for w in words if w not in ("--quiet", "-q")])
    return found


def without_dev_options(words: list[str]) -> list[str]:
    """CI installs editable with the test extra; the image installs the same project plainly."""
    plain = [w for w in words if w not in ("-e", "--editable")]
    return [re.sub(r"^(\.|/[^\[]*)\[[a-z,]+\]$", r"\1", w) for w in plain]


@pytest.fixture(scope="module")
def dockerfile() -> list[Instruction]:
    return parse_dockerfile((ROOT / "Dockerfile").read_text(encoding="utf-8"))


def final_stage(instructions: list[Instruction]) -> list[Instruction]:
    last = max(i.stage for i in instructions)
    return [i for i in instructions if i.stage == last]


def test_parser_reads_continuations_and_stages() -> None:
    parsed = parse_dockerfile(
        "# comment\nARG X=1\nFROM a AS one\nRUN echo \\\n    two\n\nFROM b\nUSER me\n"
    )
    assert [(i.stage, i.keyword, i.args) for i in parsed] == [
        (-1, "ARG", "X=1"),
        (0, "FROM", "a AS one"),
        (0, "RUN", "echo two"),
        (1, "FROM", "b"),
        (1, "USER", "me"),
    ]


def test_multi_stage_build_on_slim_python_311(dockerfile: list[Instruction]) -> None:
    args = dict(i.args.split("=", 1) for i in dockerfile if i.keyword == "ARG" and i.stage == -1)
    images = []
    for item in (i for i in dockerfile if i.keyword == "FROM"):
        image, *rest = item.args.split()
        image = re.sub(r"\$\{(\w+)\}", lambda m: args[m[1]], image)
        images.append((image, [w.lower() for w in rest]))
    assert len(images) >= 2, "build and runtime stages"
    for image, rest in images:
        assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", image), image
        assert rest[:1] == ["as"], "every stage is named"
    build_name = images[0][1][1]
    copies = [i.args for i in final_stage(dockerfile) if i.keyword == "COPY"]
    assert any(c.startswith(f"--from={build_name} ") for c in copies), copies
    # Nothing is pip-installed in the runtime stage: it only receives the built environment.
    assert not pip_installs([i.args for i in final_stage(dockerfile) if i.keyword == "RUN"])


def test_runs_as_a_non_root_user(dockerfile: list[Instruction]) -> None:
    users = [i.args for i in final_stage(dockerfile) if i.keyword == "USER"]
    assert users, "the runtime stage sets a USER"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0")
    creates = " ".join(i.args for i in final_stage(dockerfile) if i.keyword == "RUN")
    assert re.search(rf"useradd\b.*\b{re.escape(user)}\b", creates), "the user is created"


def test_database_lives_on_the_data_volume(dockerfile: list[Instruction]) -> None:
    stage = final_stage(dockerfile)
    volumes = [v for i in stage if i.keyword == "VOLUME" for v in exec_form(i.args)]
    assert volumes == ["/data"]
    env = " ".join(i.args for i in stage if i.keyword == "ENV")
    assert re.search(r"\bDATABASE_PATH=/data/tabula\.db\b", env), env
    # The volume is writable by the bot's user: created and chowned before USER.
    runs = " ".join(i.args for i in stage if i.keyword == "RUN")
    assert re.search(r"chown \S+ /data\b", runs), runs


def test_healthcheck_runs_tabula_health(dockerfile: list[Instruction]) -> None:
    (check,) = [i.args for i in final_stage(dockerfile) if i.keyword == "HEALTHCHECK"]
    options, _, command = check.partition("CMD ")
    assert exec_form(command) == ["tabula", "health"]
    # Enough grace for the gateway connect and command sync at start.
    start_period = re.search(r"--start-period=(\d+)s", options)
    assert start_period is not None and int(start_period[1]) >= 30
    (cmd,) = [i.args for i in final_stage(dockerfile) if i.keyword == "CMD"]
    # Exec form: the bot is PID 1 and receives SIGTERM itself (a shell would swallow it).
    assert exec_form(cmd) == ["tabula", "run"]


def test_pip_install_steps_match_ci(dockerfile: list[Instruction]) -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    ci_steps = pip_installs([line.strip() for line in ci if not line.strip().startswith("#")])
    image_steps = pip_installs([i.args for i in dockerfile if i.keyword == "RUN"])
    assert ci_steps, "no pip install found in .ci/run"
    plain = [without_dev_options(step) for step in image_steps]
    assert plain == [without_dev_options(step) for step in ci_steps]
    flat = " ".join(" ".join(step) for step in image_steps)
    assert "[test]" not in flat and "-e" not in flat.split()
    # The image can build the solved Ur table into its volume (`tabula ur-table build`).
    assert ".[solver]" in flat.split()


def test_pip_normalisation() -> None:
    assert without_dev_options(["python", "-m", "pip", "install", "-e", ".[test]"]) == [
        "python",
        "-m",
        "pip",
        "install",
        ".",
    ]
    assert pip_installs(["python -m pip install --quiet -e '.[test]' && echo done"]) == [
        ["python", "-m", "pip", "install", "-e", ".[test]"]
    ]


def test_compose_uses_the_volume_env_file_and_a_restart_policy() -> None:
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert re.search(r"^\s+env_file:\s*\.env\s*$", text, re.M)
    assert re.search(r"^\s+restart:\s*(unless-stopped|always|on-failure)\s*$", text, re.M)
    assert re.search(r"^\s+-\s*[\w-]+:/data\s*$", text, re.M), "a named volume on /data"
    grace = re.search(r"^\s+stop_grace_period:\s*(\d+)s\s*$", text, re.M)
    assert grace is not None and int(grace[1]) > 10, "more than the bot's 10 s drain"


def test_secrets_and_databases_stay_out_of_the_build_context() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for pattern in (".env", "*.db", ".venv", ".git"):
        assert pattern in ignored, pattern
    assert "!.env.example" in ignored
