"""A person's record in words, for /stats and the leaderboard.

Two-seat games count wins and losses; multi-seat games (Ludo) count places, because a second
place among four is no loss. Counts of games read ``1 game`` / ``3 games``.
"""

from __future__ import annotations

from bot import games
from bot.i18n import tr
from bot.service.ratings import LeaderboardRow, Places, PlayerStats, multi_seat
from bot.ui.names import place_name, plural


def record(game: str, wins: int, losses: int, places: Places, locale: str | None = None) -> str:
    """``3 W / 1 L``, or for a multi-seat game ``1st: 2 · 2nd: 1 · 4th: 1``."""
    if multi_seat(game):
        return " · ".join(
            tr("record.place", locale, place=place_name(place, locale), count=count)
            for place, count in places
        )
    return tr("record.wins_losses", locale, wins=wins, losses=losses)


def stats_text(stats: PlayerStats, locale: str | None = None) -> str:
    """A /stats field: rating, games and record (and how games ended, where the game counts
    that: backgammon's gammons)."""
    mark = tr("leaderboard.provisional", locale) if stats.provisional else ""
    played = plural("count.games", stats.games, locale)
    held = record(stats.game, stats.wins, stats.losses, stats.places, locale)
    if multi_seat(stats.game):  # a streak of wins and losses says little among four seats
        text = tr(
            "stats.line_places", locale, rating=stats.rating, mark=mark, games=played, record=held
        )
    else:
        text = tr(
            "stats.line",
            locale,
            rating=stats.rating,
            mark=mark,
            games=played,
            record=held,
            streak=stats.streak_text,
        )
    extra = games.get(stats.game).texts.record_extra(stats.endings, locale)
    return f"{text}\n{extra}" if extra else text


def leaderboard_line(game: str, row: LeaderboardRow, locale: str | None = None) -> str:
    return tr(
        "leaderboard.row",
        locale,
        rank=row.rank,
        user=f"<@{row.user_id}>",
        rating=row.rating,
        mark=tr("leaderboard.provisional", locale) if row.provisional else "",
        record=record(game, row.wins, row.losses, row.places, locale),
        games=plural("count.games", row.games, locale),
    )
