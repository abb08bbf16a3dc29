from __future__ import annotations

import datetime as dt
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from bot.ui.driver import warn_if_late

NOW = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


def interaction(seconds_ago: float) -> Any:
    created = NOW - dt.timedelta(seconds=seconds_ago)
    return SimpleNamespace(created_at=created, user=SimpleNamespace(id=7), channel_id=9)


def test_a_late_acknowledgement_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.ui.driver"):
        warn_if_late(interaction(0.1), NOW)
        assert not caplog.records
        warn_if_late(interaction(2.2), NOW)
    assert len(caplog.records) == 1
    assert "late acknowledgement" in caplog.records[0].getMessage()
