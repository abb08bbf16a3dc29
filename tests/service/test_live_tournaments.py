"""Each tournament's owner in a process (``bot.service.live_tournaments``): made on first use,
let go once the tournament is over unless work on it is under way."""

from __future__ import annotations

from bot.service.live_tournaments import LiveTournaments


def test_an_owner_is_made_once_and_holds_its_tournaments_state() -> None:
    live = LiveTournaments()
    owner = live.get(7)
    assert live.get(7) is owner and 7 in live and len(live) == 1
    assert (owner.shown, owner.event_status, owner.told) == (None, None, set())
    owner.shown = 3
    live.forget_shown()
    assert owner.shown is None and live.peek(8) is None and 8 not in live


async def test_an_owner_goes_only_when_no_work_on_it_is_under_way() -> None:
    live = LiveTournaments()
    owner = live.get(1)
    owner.refreshing = True
    assert not live.release(1) and 1 in live
    owner.refreshing = False
    async with owner.round_lock:
        assert not live.release(1) and 1 in live
    assert live.release(1) and 1 not in live
    assert not live.release(1)  # gone already
    assert live.get(1) is not owner  # a later look starts afresh
