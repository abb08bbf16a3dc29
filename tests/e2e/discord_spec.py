"""Requests checked against Discord's own description of its API, and its documented limits.

``openapi.json`` is Discord's published OpenAPI 3.1 description (discord/discord-api-spec),
kept beside the checkout in ``shared/discord-api-spec/`` and never copied into the project.
Every request body (or a multipart request's ``payload_json``) is validated against its
operation's ``requestBody`` schema with ``jsonschema`` (Draft 2020-12, ``$ref``s resolved inside
the file through a ``referencing`` registry), following the spec README's conventions:

* ``anyOf``/``oneOf`` mean "one of these formats", so ``oneOf`` is read as ``anyOf``;
* fields typed integer accept int-parseable strings (the API does);
* ``attachments[].id`` may be the integer index of a ``files[n]`` part (the docs' upload
  example), where the spec types it as a snowflake string;
* optional query parameters are typed nullable.

Then the limits the file leaves out (``message_limits``) and the order of an interaction's
answers (``check_traffic``): a callback type valid for the interaction, webhook calls only after
the callback.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from sandbox.fake_rest import RequestRecord

REPO_ROOT = Path(__file__).resolve().parents[2]
SPEC_RELATIVE = Path("shared/discord-api-spec/openapi.json")
SPEC_URI = "urn:discord-api-spec:openapi.json"
INT_STRING = re.compile(r"-?[0-9]+")
# The User-Agent of a test's own raw requests (the ``http`` fixture), deliberately wrong ones
# among them: not the bot's, so not judged. (discord.py's webhook calls carry aiohttp's.)
RAW_TEST_AGENT = "tabula-e2e-raw"

# Discord developer docs, "Message Resource" (Create Message): content up to 2000 characters;
# "Embed Limits": up to 10 embeds, 6000 characters in all of a message's embeds' titles,
# descriptions, field names and values, footer texts and author names.
CONTENT_LIMIT = 2000
EMBEDS_LIMIT = 10
EMBED_TOTAL_LIMIT = 6000
# Docs, "Component Reference": up to 5 action rows of up to 5 buttons or a single select;
# custom_id up to 100 characters and unique in a message; button labels up to 80 characters,
# select option labels up to 100; a Components V2 message (flag IS_COMPONENTS_V2, 1 << 15)
# holds up to 40 components in all, nested ones included, and cannot use content or embeds.
ROWS_LIMIT = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID_LIMIT = 100
BUTTON_LABEL_LIMIT = 80
OPTION_LABEL_LIMIT = 100
V2_COMPONENTS_LIMIT = 40
IS_COMPONENTS_V2 = 1 << 15
SELECTS = frozenset({3, 5, 6, 7, 8})
# Docs, "Receiving and Responding", interaction callback types by interaction type
# (2 command, 3 component, 4 autocomplete, 5 modal submit): 4 message, 5 deferred message,
# 6 deferred update, 7 update, 8 autocomplete result, 9 modal. 6 and 7 answer a modal only when
# it was opened from a component (it has a message).
CALLBACK_TYPES: Mapping[int, frozenset[int]] = {
    1: frozenset({1}),
    2: frozenset({4, 5, 9}),
    3: frozenset({4, 5, 6, 7, 9}),
    4: frozenset({8}),
    5: frozenset({4, 5, 6, 7}),
}
MODAL_WITHOUT_MESSAGE = frozenset({4, 5})
MESSAGE_CALLBACKS = frozenset({4, 7})


def spec_path() -> Path | None:
    """Where CI keeps the spec: ``shared/`` beside the checkout (or beside a folder above it,
    as for a git worktree); ``DISCORD_API_SPEC`` names another file."""
    named = os.environ.get("DISCORD_API_SPEC")
    if named:
        return Path(named) if Path(named).is_file() else None
    for folder in REPO_ROOT.parents:
        candidate = folder / SPEC_RELATIVE
        if candidate.is_file():
            return candidate
    return None


def _is_integer(checker: Any, instance: object) -> bool:
    if isinstance(instance, str):
        return INT_STRING.fullmatch(instance) is not None
    return bool(Draft202012Validator.TYPE_CHECKER.is_type(instance, "integer"))


_ANY_OF = Draft202012Validator.VALIDATORS["anyOf"]
# Each union of a spec whose branches are objects told apart by their ``type`` (the message
# components, command options, ...): the list itself (its id may be reused once it is gone)
# and, per branch, the ``type`` values it admits (None where it names none).
_UNIONS: dict[int, tuple[list[Any], tuple[frozenset[object] | None, ...]]] = {}
# The unions that are enumerations (every branch a titled ``const``: the spec's enum types):
# the list and its values.
_ENUMS: dict[int, tuple[list[Any], frozenset[int | str]]] = {}
_ENUM_BRANCH_KEYS = frozenset({"const", "title", "description"})


def _union(validator: Validator, branches: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """``anyOf`` (and ``oneOf``, read the same way), trying first only the branches whose
    ``type`` the instance has: a branch naming another type cannot match, and trying each one
    cost most of the check. When none of those matches, every branch is tried, so that the
    errors told are exactly the full union's."""
    enum = _ENUMS.get(id(branches))
    if enum is not None and enum[0] is branches and _plain_value(instance) in enum[1]:
        return
    known = _UNIONS.get(id(branches))
    kind = instance.get("type") if isinstance(instance, dict) else None
    if known is not None and known[0] is branches and isinstance(kind, int | str):
        picked = zip(branches, known[1], strict=True)
        if any(
            validator.evolve(schema=b).is_valid(instance)
            for b, kinds in picked
            if kinds is None or kind in kinds
        ):
            return
    yield from _ANY_OF(validator, branches, instance, schema)


SpecValidator = validators.extend(
    Draft202012Validator,
    # The spec README: a union means "one of these formats", not "exactly one of them".
    validators={"anyOf": _union, "oneOf": _union},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def _plain_value(value: object) -> int | str | None:
    """An int (not a bool: JSON Schema tells ``true`` from ``1``) or a string, else None."""
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


def _enum_values(branches: list[Any]) -> frozenset[int | str] | None:
    values: set[int | str] = set()
    for branch in branches:
        if not (isinstance(branch, Mapping) and "const" in branch):
            return None
        value = _plain_value(branch["const"])
        if value is None or not _ENUM_BRANCH_KEYS.issuperset(branch):
            return None
        values.add(value)
    return frozenset(values)


def _branch_kinds(document: Mapping[str, Any], branch: Any) -> frozenset[object] | None:
    """The ``type`` values an object branch admits (its ``const`` or ``enum``), following the
    document's own ``$ref``s; None where it names none."""
    for _ in range(8):  # a chain of references, never a loop in Discord's file
        if not (isinstance(branch, Mapping) and isinstance(branch.get("$ref"), str)):
            break
        ref: str = branch["$ref"]
        if not ref.startswith("#/"):
            return None
        branch = document
        for token in ref[2:].split("/"):
            branch = branch[token.replace("~1", "/").replace("~0", "~")]
    if not isinstance(branch, Mapping):
        return None
    field = branch.get("properties", {}).get("type")
    if not isinstance(field, Mapping):
        return None
    if "const" in field:
        return frozenset([field["const"]])
    if isinstance(field.get("enum"), list):
        return frozenset(field["enum"])
    return None


def _index_unions(document: Mapping[str, Any]) -> None:
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            for keyword in ("anyOf", "oneOf"):
                branches = node.get(keyword)
                if isinstance(branches, list):
                    values = _enum_values(branches)
                    if values is not None:
                        _ENUMS[id(branches)] = (branches, values)
                    kinds = tuple(_branch_kinds(document, b) for b in branches)
                    if any(k is not None for k in kinds):
                        _UNIONS[id(branches)] = (branches, kinds)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


@dataclass(frozen=True, slots=True)
class Operation:
    template: str
    method: str
    pattern: re.Pattern[str]
    literals: int
    pointer: str  # JSON pointer of the operation in the spec
    query: Mapping[str, str]  # name -> JSON pointer of its schema


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class DiscordSpec:
    """Discord's OpenAPI description: finds a request's operation and validates it."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.registry: Registry[Any] = Registry().with_resource(
            SPEC_URI, Resource(contents=document, specification=DRAFT202012)
        )
        _index_unions(document)
        self.operations: list[Operation] = []
        for template, item in document["paths"].items():
            shared = item.get("parameters", [])
            segments = template.strip("/").split("/")
            regex = "/".join("[^/]+" if s.startswith("{") else re.escape(s) for s in segments)
            base = f"/paths/{_escape(template)}"
            for method, operation in item.items():
                if method == "parameters":
                    continue
                query = {
                    p["name"]: f"{where}/{index}/schema"
                    for where, listed in (
                        (f"{base}/parameters", shared),
                        (f"{base}/{method}/parameters", operation.get("parameters", [])),
                    )
                    for index, p in enumerate(listed)
                    if p.get("in") == "query"
                }
                self.operations.append(
                    Operation(
                        template=template,
                        method=method.upper(),
                        pattern=re.compile(f"/{regex}"),
                        literals=sum(not s.startswith("{") for s in segments),
                        pointer=f"{base}/{method}",
                        query=query,
                    )
                )
        # Literal segments first: /messages/@original before /messages/{message_id}.
        self.operations.sort(key=lambda o: -o.literals)
        self._validators: dict[str, Validator] = {}
        # Bodies repeat (defers, refusals, boards re-sent after a 429): judged once.
        self._verdicts: dict[tuple[str, str], str] = {}

    @classmethod
    def load(cls, path: Path) -> DiscordSpec:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def operation(self, method: str, path: str) -> Operation | None:
        for operation in self.operations:
            if operation.method == method and operation.pattern.fullmatch(path):
                return operation
        return None

    def _validator(self, pointer: str) -> Validator:
        found = self._validators.get(pointer)
        if found is None:
            schema = {"$ref": f"{SPEC_URI}#{pointer}"}
            found = self._validators[pointer] = SpecValidator(schema, registry=self.registry)
        return found

    def check(
        self, method: str, path: str, query: Mapping[str, str], body: Any, *, multipart: bool
    ) -> list[str]:
        """What is wrong with one request by the spec (an empty list if nothing)."""
        operation = self.operation(method, path)
        if operation is None:
            return [f"no operation {method} {path} in Discord's spec"]
        problems: list[str] = []
        for name, raw in query.items():
            schema = operation.query.get(name)
            if schema is None:
                problems.append(f"query parameter {name!r} is not one of {sorted(operation.query)}")
                continue
            validator = self._validator(schema)
            if any(validator.is_valid(value) for value in _query_readings(raw)):
                continue
            error = best_match(validator.iter_errors(raw))
            if error is not None:
                problems.append(f"query parameter {name}={raw!r}: {error.message}")
        request_body = self.document_at(operation.pointer).get("requestBody", {})
        content = request_body.get("content", {})
        if body is None:
            # Files alone are a body too (a message of attachments).
            if request_body.get("required") and not multipart:
                problems.append(f"{operation.template} needs a body, none was sent")
            return problems
        kind = "application/json" if "application/json" in content else "multipart/form-data"
        if kind not in content:
            return [*problems, f"{operation.template} takes no body, got {_short(body)}"]
        pointer = f"{operation.pointer}/requestBody/content/{_escape(kind)}/schema"
        key = (pointer, json.dumps(body, sort_keys=True))
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = self._judge(pointer, body)
        if verdict:
            problems.append(verdict + (" [payload_json]" if multipart else ""))
        return problems

    def _judge(self, pointer: str, body: Any) -> str:
        errors = list(self._validator(pointer).iter_errors(_spec_conventions(body)))
        if not errors:
            return ""
        error = deepest_error(errors)
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return f"body{error.json_path.removeprefix('$')}: {_short(error.message)}{more}"

    def document_at(self, pointer: str) -> Mapping[str, Any]:
        node: Any = self.document
        for token in pointer.strip("/").split("/"):
            node = node[token.replace("~1", "/").replace("~0", "~")]
        return dict(node)


def deepest_error(errors: Sequence[ValidationError]) -> ValidationError:
    """The most telling error: in a union ("not valid under any of the given schemas"), the
    one deepest into the body, from the branch that matched it furthest."""
    leaves: list[ValidationError] = []
    stack = list(errors)
    while stack:
        error = stack.pop()
        if error.context:
            stack.extend(error.context)
        else:
            leaves.append(error)
    chosen = max(leaves, key=lambda e: len(e.absolute_path), default=None)
    found = best_match(errors) if chosen is None else chosen
    assert found is not None
    return found


def _query_readings(raw: str) -> list[object]:
    """What a query string may stand for: Discord reads booleans from true/false or 1/0."""
    readings: list[object] = [raw]
    if raw.lower() in ("true", "1", "false", "0"):
        readings.append(raw.lower() in ("true", "1"))
    if INT_STRING.fullmatch(raw):
        readings.append(int(raw))
    return readings


def _spec_conventions(body: Any) -> Any:
    """``attachments[].id`` as a file index: the docs' upload example, a string in the spec."""
    if isinstance(body, dict):
        fixed = {key: _spec_conventions(value) for key, value in body.items()}
        attachments = fixed.get("attachments")
        if isinstance(attachments, list):
            fixed["attachments"] = [
                {**a, "id": str(a["id"])}
                if isinstance(a, dict) and isinstance(a.get("id"), int)
                else a
                for a in attachments
            ]
        return fixed
    if isinstance(body, list):
        return [_spec_conventions(item) for item in body]
    return body


def _short(value: object, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- the documented limits the spec leaves out -------------------------------------------------


def _walk(components: Iterable[Any]) -> Iterator[Mapping[str, Any]]:
    for component in components:
        if not isinstance(component, Mapping):
            continue
        yield component
        yield from _walk(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), Mapping):
                yield from _walk([component[key]])


def message_limits(body: Any) -> list[str]:
    """What a message body (create, edit, callback data, followup) breaks of Discord's
    documented limits, in words."""
    if not isinstance(body, Mapping):
        return []
    problems: list[str] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_LIMIT:
        problems.append(f"content has {len(content)} characters (at most {CONTENT_LIMIT})")
    embeds = [e for e in body.get("embeds") or [] if isinstance(e, Mapping)]
    if len(embeds) > EMBEDS_LIMIT:
        problems.append(f"{len(embeds)} embeds (at most {EMBEDS_LIMIT})")
    total = sum(_embed_size(e) for e in embeds)
    if total > EMBED_TOTAL_LIMIT:
        problems.append(f"embeds hold {total} characters (at most {EMBED_TOTAL_LIMIT} in all)")
    components = [c for c in body.get("components") or [] if isinstance(c, Mapping)]
    every = list(_walk(components))
    flags = body.get("flags")
    if isinstance(flags, int) and flags & IS_COMPONENTS_V2:
        if content or embeds:
            problems.append("a Components V2 message carries content or embeds")
        if len(every) > V2_COMPONENTS_LIMIT:
            problems.append(f"{len(every)} components (at most {V2_COMPONENTS_LIMIT} in V2)")
    else:
        problems.extend(_legacy_rows(components))
    custom_ids = [str(c["custom_id"]) for c in every if "custom_id" in c]
    for custom_id in custom_ids:
        if len(custom_id) > CUSTOM_ID_LIMIT:
            problems.append(f"custom_id {custom_id[:30]!r}… is {len(custom_id)} characters long")
    doubled = sorted({c for c in custom_ids if custom_ids.count(c) > 1})
    if doubled:
        problems.append(f"custom_id used twice in one message: {doubled}")
    for component in every:
        label = component.get("label")
        if (
            component.get("type") == 2
            and isinstance(label, str)
            and len(label) > BUTTON_LABEL_LIMIT
        ):
            problems.append(f"button label {label[:30]!r}… over {BUTTON_LABEL_LIMIT}")
        for option in component.get("options") or []:
            text = option.get("label") if isinstance(option, Mapping) else None
            if isinstance(text, str) and len(text) > OPTION_LABEL_LIMIT:
                problems.append(f"select option label {text[:30]!r}… over {OPTION_LABEL_LIMIT}")
    return problems


# Docs, "Component Reference": a modal holds 1 to 5 top-level components, each a label (its
# text at most 45 characters, its description 100), a text display, or (the older way) an
# action row with a text input; its title is at most 45 characters.
MODAL_COMPONENTS_LIMIT = 5
MODAL_TOP_LEVEL = frozenset({1, 10, 18})
MODAL_TITLE_LIMIT = LABEL_TEXT_LIMIT = 45
LABEL_DESCRIPTION_LIMIT = 100


def modal_limits(body: Any) -> list[str]:
    """What a modal (a type 9 callback's data) breaks of Discord's documented limits."""
    if not isinstance(body, Mapping):
        return []
    problems: list[str] = []
    title = body.get("title")
    if isinstance(title, str) and len(title) > MODAL_TITLE_LIMIT:
        problems.append(f"modal title has {len(title)} characters (at most {MODAL_TITLE_LIMIT})")
    components = [c for c in body.get("components") or [] if isinstance(c, Mapping)]
    if not 1 <= len(components) <= MODAL_COMPONENTS_LIMIT:
        problems.append(f"a modal of {len(components)} components (1 to {MODAL_COMPONENTS_LIMIT})")
    for index, component in enumerate(components):
        kind = component.get("type")
        if kind not in MODAL_TOP_LEVEL:
            problems.append(f"modal component {index} is type {kind}, not a label or text")
        if kind == 18:
            text, about = component.get("label") or "", component.get("description") or ""
            if len(text) > LABEL_TEXT_LIMIT or len(about) > LABEL_DESCRIPTION_LIMIT:
                problems.append(f"label {index} over {LABEL_TEXT_LIMIT}/{LABEL_DESCRIPTION_LIMIT}")
    custom_ids = [str(c["custom_id"]) for c in _walk(components) if "custom_id" in c]
    doubled = sorted({c for c in custom_ids if custom_ids.count(c) > 1})
    if doubled:
        problems.append(f"custom_id used twice in one modal: {doubled}")
    return problems


def _embed_size(embed: Mapping[str, Any]) -> int:
    size = len(str(embed.get("title") or "")) + len(str(embed.get("description") or ""))
    for item in embed.get("fields") or []:
        size += len(str(item.get("name") or "")) + len(str(item.get("value") or ""))
    for key in ("footer", "author"):
        part = embed.get(key)
        if isinstance(part, Mapping):
            size += len(str(part.get("text" if key == "footer" else "name") or ""))
    return size


def _legacy_rows(components: Sequence[Mapping[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(components) > ROWS_LIMIT:
        problems.append(f"{len(components)} action rows (at most {ROWS_LIMIT})")
    for index, row in enumerate(components):
        if row.get("type") != 1:
            problems.append(f"component {index} is type {row.get('type')}, not an action row")
            continue
        inner = [c for c in row.get("components") or [] if isinstance(c, Mapping)]
        kinds = [c.get("type") for c in inner]
        selects = sum(k in SELECTS for k in kinds)
        if selects and len(inner) > 1:
            problems.append(f"row {index} holds a select and {len(inner) - 1} more components")
        elif len(inner) > BUTTONS_PER_ROW:
            problems.append(f"row {index} holds {len(inner)} buttons (at most {BUTTONS_PER_ROW})")
        elif not inner:
            problems.append(f"row {index} is empty")
    return problems


# -- a whole conversation: bodies, limits, and the order of an interaction's answers -----------

CALLBACK = re.compile(r"/interactions/(?P<id>[0-9]+)/(?P<token>[^/]+)/callback")
WEBHOOK = re.compile(r"/webhooks/[0-9]+/(?P<token>[^/]+)(?P<rest>/.*)?")
MESSAGE_ROUTES = frozenset(
    {
        ("POST", "/channels/{channel_id}/messages"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ("POST", "/webhooks/{app_id}/{token}"),
        ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}"),
    }
)


@dataclass(frozen=True, slots=True)
class Violation:
    index: int  # in the fake's request log
    request: str
    problem: str

    def __str__(self) -> str:
        return f"#{self.index} {self.request}: {self.problem}"


InteractionKinds = Callable[[int], tuple[int, bool] | None]


def check_traffic(
    spec: DiscordSpec,
    records: Sequence[RequestRecord],
    interaction: InteractionKinds,
    *,
    since: int = 0,
    everyone: bool = False,
    answered: set[str] | None = None,
) -> list[Violation]:
    """Violations in ``records[since:]``: the bot's requests, and the tests' own raw ones too
    when ``everyone``.

    ``interaction(id)`` gives an interaction's type and whether it came with a message. The
    records before ``since`` are read too, for the callbacks the later requests follow;
    unless ``answered`` is given: the tokens whose callbacks those records held, which this
    call adds to (so a log checked piece by piece is read once).
    """
    start = 0 if answered is None else since
    answered = set() if answered is None else answered
    found: list[Violation] = []
    seen: set[tuple[str, str]] = set()
    for index in range(start, len(records)):
        record = records[index]
        callback = CALLBACK.fullmatch(record.path)
        webhook = WEBHOOK.fullmatch(record.path)
        # A request cut off as its sender died never reached Discord whole: nothing to judge.
        mine = (everyone or not record.user_agent.startswith(RAW_TEST_AGENT)) and not record.cut_off
        problems: list[str] = []
        if index >= since and mine:
            problems = _problems(spec, record, callback, interaction)
            if webhook is not None and webhook["token"] not in answered:
                problems.append("an interaction webhook call before the interaction's callback")
        if callback is not None and 200 <= record.status < 300:
            answered.add(callback["token"])
        for problem in problems:
            what = f"{record.method} {record.route}"
            if (what, problem) not in seen:  # a request retried after a 429 is told once
                seen.add((what, problem))
                found.append(Violation(index, f"{record.method} {record.path}", problem))
    return found


def _problems(
    spec: DiscordSpec,
    record: RequestRecord,
    callback: re.Match[str] | None,
    interaction: InteractionKinds,
) -> list[str]:
    problems = spec.check(
        record.method, record.path, record.query, record.json, multipart=bool(record.files)
    )
    body = record.json
    if (record.method, record.route) in MESSAGE_ROUTES:
        problems.extend(message_limits(body))
    if callback is not None and isinstance(body, Mapping):
        kind = body.get("type")
        if kind in MESSAGE_CALLBACKS:
            problems.extend(message_limits(body.get("data")))
        elif kind == 9:
            problems.extend(modal_limits(body.get("data")))
        known = interaction(int(callback["id"]))
        if known is not None:
            ix_type, has_message = known
            allowed = CALLBACK_TYPES.get(ix_type, frozenset())
            if ix_type == 5 and not has_message:
                allowed = MODAL_WITHOUT_MESSAGE
            if kind not in allowed:
                problems.append(
                    f"callback type {kind} answers no interaction of type {ix_type} "
                    f"(allowed: {sorted(allowed)})"
                )
    return problems


@cache
def load_spec() -> DiscordSpec | None:
    """The spec, read once per test process; None where the file is absent."""
    path = spec_path()
    return DiscordSpec.load(path) if path is not None else None
