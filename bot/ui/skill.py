"""The skill record and the fair-play review in words: /stats lines, the PR board, the
moderators' list and audit log."""

from __future__ import annotations

import math
from collections.abc import Sequence

import discord

from bot import games
from bot.i18n import tr
from bot.service.fairplay import AuditRow, Case
from bot.service.fairplay_flag import MIN_DECISIONS
from bot.service.skill import BoardRow, Interval, SkillSummary
from bot.ui.names import plural

__all__ = ["audit_embed", "cases_embed", "skill_board_embed", "skill_text"]


def _number(x: float, digits: int = 1, *, signed: bool = False) -> str:
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def _range(found: Interval, digits: int = 1, *, signed: bool = False) -> str:
    if math.isinf(found.low) or math.isinf(found.high):
        return "?"
    low = _number(found.low, digits, signed=signed)
    return f"{low} … {_number(found.high, digits, signed=signed)}"


def skill_text(s: SkillSummary, locale: str | None = None) -> str:
    """The /stats lines of one game's skill record."""
    lines = []
    played = plural("count.games", s.games, locale)
    decisions = plural("count.decisions", s.decisions, locale)
    if s.pr is not None:
        lines.append(
            tr(
                "stats.skill_pr",
                locale,
                pr=_number(s.pr.value),
                interval=_range(s.pr),
                games=played,
                decisions=decisions,
                agreement=round(100 * s.agreement),
            )
        )
    elif s.accuracy is not None:
        lines.append(
            tr(
                "stats.skill_accuracy",
                locale,
                accuracy=_number(s.accuracy.value),
                interval=_range(s.accuracy),
                games=played,
                decisions=decisions,
            )
        )
    if s.luck is not None and s.adjusted is not None:
        lines.append(
            tr(
                "stats.skill_luck",
                locale,
                luck=_number(s.luck.value, 2, signed=True),
                adjusted=_number(s.adjusted.value, 2, signed=True),
                interval=_range(s.adjusted, 2, signed=True),
            )
        )
    return "\n".join(lines)


def skill_board_embed(
    game: str, rows: Sequence[BoardRow], *, server: bool, min_decisions: int, locale: str | None
) -> discord.Embed:
    title = "skill.board_title_server" if server else "skill.board_title_global"
    embed = discord.Embed(
        title=tr(title, locale, game=games.get(game).title), colour=discord.Colour.gold()
    )
    needed = plural("count.decisions", min_decisions, locale)
    if not rows:
        embed.description = tr("skill.board_empty", locale, decisions=needed)
    else:
        embed.description = "\n".join(
            tr(
                "skill.board_row",
                locale,
                rank=r.rank,
                user=f"<@{r.user_id}>",
                pr=_number(r.pr),
                decisions=plural("count.decisions", r.decisions, locale),
                games=plural("count.games", r.games, locale),
            )
            for r in rows
        )
    embed.set_footer(text=tr("skill.board_footer", locale, decisions=needed))
    return embed


def cases_embed(game: str, cases: Sequence[Case], locale: str | None) -> discord.Embed:
    embed = discord.Embed(
        title=tr("fairplay.title", locale, game=games.get(game).title),
        colour=discord.Colour.dark_orange(),
    )
    if not cases:
        embed.description = tr(
            "fairplay.none",
            locale,
            game=games.get(game).title,
            decisions=plural("count.decisions", MIN_DECISIONS, locale),
        )
    else:
        embed.description = "\n".join(_case_line(c, locale) for c in cases[:15])[:4000]
    embed.set_footer(text=tr("fairplay.footer", locale))
    return embed


def _case_line(c: Case, locale: str | None) -> str:
    v = c.verdict
    return tr(
        "fairplay.case",
        locale,
        user=f"<@{c.user_id}>",
        games=plural("count.games", c.games, locale),
        decisions=plural("count.decisions", v.decisions, locale),
        rating=c.rating,
        pr=_number(v.pr),
        band_pr=_number(v.band_pr),
        band=f"{c.band[0]}–{c.band[1]}",
        agreement=round(100 * v.agreement),
        band_agreement=round(100 * v.band_agreement),
        z_pr=_number(v.z_loss),
        z_agree=_number(v.z_agree),
    )


def audit_embed(rows: Sequence[AuditRow], locale: str | None) -> discord.Embed:
    embed = discord.Embed(title=tr("fairplay.log_title", locale), colour=discord.Colour.dark_grey())
    if not rows:
        embed.description = tr("fairplay.log_empty", locale)
        return embed
    lines = []
    for r in rows:
        game = "" if r.game is None else games.get(r.game).title
        lines.append(
            tr(
                f"fairplay.log.{r.action}",
                locale,
                when=f"<t:{int(r.at)}:f>",
                moderator=f"<@{r.moderator_id}>",
                user="" if r.user_id is None else f"<@{r.user_id}>",
                game=game,
                detail=r.detail,
            )
        )
    embed.description = "\n".join(lines)[:4000]
    return embed
