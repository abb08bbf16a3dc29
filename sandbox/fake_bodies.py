"""Message bodies as Discord checks them: limits, components, files, and how edits merge."""

from __future__ import annotations

import mimetypes
import time
from dataclasses import dataclass
from typing import Any

from sandbox.fake_model import (
    ApiError,
    Attachment,
    Json,
    Message,
    MessageFlag,
    invalid_form,
    png_size,
    walk_components,
)
from sandbox.fake_world import World

CONTENT_LIMIT = 2000
EMBED_LIMIT = 10
EMBED_TOTAL_LIMIT = 6000
ROW_LIMIT = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID_LIMIT = 100
LABEL_LIMIT = 80
SELECT_TYPES = {3, 5, 6, 7, 8}
TEXT_DISPLAY = 10
V2_COMPONENT_LIMIT = 40
V2_TEXT_LIMIT = 4000
CREATE_FLAGS = (
    MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS | MessageFlag.IS_COMPONENTS_V2
)
EDIT_FLAGS = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2


@dataclass(frozen=True, slots=True)
class Upload:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    data: bytes

    @property
    def index(self) -> int:
        return int(self.field.removeprefix("files[").removesuffix("]"))


def check_body(body: Json) -> None:
    """Raise 50035 for what Discord's form validation rejects in a message body."""
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        raise invalid_form(["content"], "STRING_TYPE_CONVERT", "Could not interpret as string.")
    if isinstance(content, str) and len(content) > CONTENT_LIMIT:
        raise invalid_form(
            ["content"], "BASE_TYPE_MAX_LENGTH", f"Must be {CONTENT_LIMIT} or fewer in length."
        )
    embeds = body.get("embeds") or []
    if len(embeds) > EMBED_LIMIT:
        raise invalid_form(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for index, embed in enumerate(embeds):
        total += _check_embed(index, embed)
    if total > EMBED_TOTAL_LIMIT:
        raise invalid_form(
            ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    flags = int(body.get("flags") or 0)
    if flags & MessageFlag.IS_COMPONENTS_V2:
        if content or embeds:
            raise legacy_fields()
        check_layout(body.get("components") or [])
    else:
        check_components(body.get("components") or [])


def legacy_fields() -> ApiError:
    return invalid_form(
        ["content"],
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2",
    )


def check_layout(components: list[Json]) -> None:
    """A Components V2 message: at most 40 components in all (nested ones count), 4,000
    characters of text displays, 5 buttons an action row, unique custom_ids."""
    every = list(walk_components(components))
    if len(every) > V2_COMPONENT_LIMIT:
        raise invalid_form(
            ["components"],
            "MESSAGE_COMPONENTS_TOO_MANY",
            f"A message can have at most {V2_COMPONENT_LIMIT} components.",
        )
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
    if text > V2_TEXT_LIMIT:
        raise invalid_form(
            ["components"],
            "MESSAGE_TEXT_DISPLAY_TOO_LONG",
            f"Text displays can hold at most {V2_TEXT_LIMIT} characters in all.",
        )
    seen: set[str] = set()
    for number, component in enumerate(every):
        if component.get("type") == 1:
            _check_row(["components", number], component, seen)


def resolve_media(components: list[Json], attachments: list[Attachment]) -> None:
    """Discord answers a V2 message's ``attachment://name`` with the file's own URL (and
    refuses a name that no file of the message has)."""
    by_name = {a.filename: a for a in attachments}
    for component in walk_components(components):
        medias = [i.get("media") for i in component.get("items") or []]
        medias.append(component.get("media") if component.get("type") == 11 else None)
        for media in medias:
            if not isinstance(media, dict):
                continue
            url = str(media.get("url") or "")
            if not url.startswith("attachment://"):
                continue
            found = by_name.get(url.removeprefix("attachment://"))
            if found is None:
                raise invalid_form(
                    ["components"],
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                    f"No attachment named {url!r} in this message.",
                )
            media.update(
                url=found.url,
                proxy_url=found.url,
                content_type=found.content_type,
                attachment_id=str(found.id),
            )
            size = png_size(found.data)
            if size is not None:
                media["width"], media["height"] = size


def _check_embed(index: int, embed: Json) -> int:
    limits = {"title": 256, "description": 4096}
    size = 0
    for key, limit in limits.items():
        text = embed.get(key) or ""
        if len(text) > limit:
            raise invalid_form(
                ["embeds", index, key],
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {limit} or fewer in length.",
            )
        size += len(text)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise invalid_form(
            ["embeds", index, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
        )
    for number, item in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            text = item.get(key) or ""
            if not text or len(text) > limit:
                raise invalid_form(
                    ["embeds", index, "fields", number, key],
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {limit} in length.",
                )
            size += len(text)
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    return size + len(footer) + len(author)


def check_components(rows: list[Json]) -> None:
    """The classic layout: up to 5 action rows of 5 buttons or one select, unique custom_ids."""
    if len(rows) > ROW_LIMIT:
        raise invalid_form(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            raise invalid_form(
                ["components", r, "type"],
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
        _check_row(["components", r], row, seen)


def _check_row(path: list[str | int], row: Json, seen: set[str]) -> None:
    """An action row, in either layout: 1 to 5 buttons, or one select alone (it takes the
    row's whole width)."""
    children = row.get("components") or []
    if not 1 <= len(children) <= BUTTONS_PER_ROW:
        raise invalid_form(
            [*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    has_select = any(c.get("type") in SELECT_TYPES for c in children)
    if has_select and len(children) > 1:
        raise invalid_form(
            [*path, "components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for c, child in enumerate(children):
        _check_child([*path, "components", c], child, seen)


def _check_child(path: list[str | int], child: Json, seen: set[str]) -> None:
    kind = child.get("type")
    if kind == 2:
        style = child.get("style")
        label = child.get("label") or ""
        if len(label) > LABEL_LIMIT:
            raise invalid_form(
                [*path, "label"], "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."
            )
        if style == 5:
            if not child.get("url") or "custom_id" in child:
                raise invalid_form(
                    path,
                    "BUTTON_COMPONENT_INVALID_URL",
                    "A link button needs a url and no custom_id.",
                )
            return
        if style == 6:
            return
    elif kind not in SELECT_TYPES:
        raise invalid_form(
            [*path, "type"], "COMPONENT_TYPE_INVALID", f"Component type {kind} is not allowed here."
        )
    custom_id = child.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID_LIMIT:
        raise invalid_form(
            [*path, "custom_id"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    if custom_id in seen:
        raise invalid_form(
            [*path, "custom_id"],
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(custom_id)
    if kind == 3:
        options = child.get("options") or []
        if not 1 <= len(options) <= 25:
            raise invalid_form(
                [*path, "options"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
            )


def number_components(world: World, components: list[Json]) -> list[Json]:
    """Discord gives every component a numeric ``id`` when the sender did not."""
    result = []
    for component in components:
        copy: dict[str, Any] = dict(component)
        copy.setdefault("id", world.next_component_id())
        if "components" in copy:
            copy["components"] = number_components(world, copy["components"])
        if isinstance(copy.get("component"), dict):
            copy["component"] = number_components(world, [copy["component"]])[0]
        if isinstance(copy.get("accessory"), dict):
            copy["accessory"] = number_components(world, [copy["accessory"]])[0]
        result.append(copy)
    return result


def _attachment(world: World, channel_id: int, upload: Upload, spec: Json | None) -> Attachment:
    content_type = mimetypes.guess_type(upload.filename)[0] or "application/octet-stream"
    filename = (spec or {}).get("filename") or upload.filename
    attachment = Attachment(
        id=world.ids.next(),
        channel_id=channel_id,
        filename=filename,
        data=upload.data,
        content_type=content_type,
        base_url=world.base_url,
        description=(spec or {}).get("description"),
    )
    world.add_attachment(attachment)
    return attachment


def merge_attachments(
    world: World, message: Message, body: Json, uploads: list[Upload], *, editing: bool
) -> list[Attachment]:
    """Discord v10: ``attachments`` lists what to keep (old ids) and names new ``files[n]``.

    Without an ``attachments`` field an edit keeps the old files and appends the uploads.
    """
    by_index = {u.index: u for u in uploads}
    specs = body.get("attachments")
    if specs is None:
        kept = list(message.attachments) if editing else []
        return kept + [_attachment(world, message.channel_id, u, None) for u in uploads]
    old = {a.id: a for a in message.attachments}
    result: list[Attachment] = []
    used: set[int] = set()
    for number, spec in enumerate(specs):
        raw = int(spec.get("id", -1))
        if raw in old:
            result.append(old[raw])
        elif raw in by_index:
            result.append(_attachment(world, message.channel_id, by_index[raw], spec))
            used.add(raw)
        else:
            raise invalid_form(
                ["attachments", number, "id"], "ATTACHMENT_NOT_FOUND", "Unknown attachment."
            )
    # Files sent without a matching attachments entry are still attached by Discord.
    result += [
        _attachment(world, message.channel_id, u, None)
        for i, u in by_index.items()
        if i not in used
    ]
    return result


def fill_message(
    world: World,
    message: Message,
    body: Json,
    uploads: list[Upload],
    *,
    editing: bool,
    allowed_flags: int,
) -> None:
    """Write ``body`` into ``message`` (a new one or an edit), as Discord would store it.

    Everything is checked before anything changes, so a rejected edit leaves the message as it was.
    """
    check_body(body)
    fresh = not editing
    content = (body.get("content") or "") if "content" in body or fresh else message.content
    embeds = list(body.get("embeds") or []) if "embeds" in body or fresh else message.embeds
    components = (
        number_components(world, list(body.get("components") or []))
        if "components" in body or fresh
        else message.components
    )
    attachments = (
        merge_attachments(world, message, body, uploads, editing=editing)
        if "attachments" in body or uploads or fresh
        else message.attachments
    )
    flags = message.flags
    if body.get("flags") is not None:
        flags = (flags & ~allowed_flags) | (int(body["flags"]) & allowed_flags)
    # Once a message is V2 it stays V2 (Discord's docs of the flag); an edit may make a
    # classic message V2 if it clears the content and embeds.
    flags |= message.flags & MessageFlag.IS_COMPONENTS_V2
    if flags & MessageFlag.IS_COMPONENTS_V2:
        if content or embeds:
            raise legacy_fields()
        check_layout(components)
        resolve_media(components, attachments)
    if not (content or embeds or attachments or components):
        raise ApiError(400, 50006, "Cannot send an empty message")
    if editing:
        message.edited_at.append(time.monotonic())
    if editing and not message.loading:
        message.versions.append(message.snapshot())
        message.edited_timestamp = world.edit_stamp(message.id, message.edited_timestamp)
    message.content = content
    message.embeds = embeds
    message.components = components
    world.replace_attachments(message.attachments, attachments)
    message.attachments = attachments
    message.flags = flags & ~MessageFlag.LOADING if editing else flags
    if fresh:
        message.tts = bool(body.get("tts", False))
        nonce = body.get("nonce")
        message.nonce = None if nonce is None else str(nonce)
    if "content" in body or "allowed_mentions" in body or fresh:
        world.resolve_mentions(message, body.get("allowed_mentions"))
