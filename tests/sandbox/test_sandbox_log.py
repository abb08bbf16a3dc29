"""``tabula sandbox`` keeps the bot's log after it exits (its temporary database goes) and says
where it is: the log is read after a surprise, which is when the sandbox has been stopped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.sandbox.sandbox_process import SandboxProcess

pytestmark = [pytest.mark.processes, pytest.mark.timeout(120)]


def test_the_log_of_a_temporary_sandbox_is_kept_and_named(tmp_path: Path) -> None:
    process = SandboxProcess(tmp_path, keep=False)
    process.start()
    try:
        process.wait_page()
        process.wait_online()
        code = process.interrupt()
    finally:
        process.kill()
    assert code == 0, process.output()
    named = re.search(r"the bot's log is kept: (\S+)", process.output())
    assert named is not None, process.output()
    log = Path(named[1])
    try:
        assert log.is_file() and "shutdown requested" in log.read_text()
        assert f"the bot's log: {log}" in process.output()  # said at the start, too
    finally:
        log.unlink(missing_ok=True)
