"""Edge validation (``cardhall.web.validate``), as properties: whatever text, id or options
a client sends, the answer is the value itself or a 4xx ``WebError`` naming the field —
never another exception — and what is accepted is exactly what the rules allow."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from cardhall.errors import CardhallError
from cardhall.registry import game_class, game_names, make_game
from cardhall.web import models, validate
from cardhall.web.errors import WebError

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

# every code point, lone surrogates included, weighted towards the awkward ones
awkward = st.sampled_from(["\x00", "\ud800", "\udfff", "\x1b", "\x7f", "\x9f", "é", "🂡", " "])
texts = st.lists(st.one_of(st.characters(), awkward), max_size=80).map("".join)


def acceptable(value: str, max_len: int) -> bool:
    if len(value) > max_len or CONTROL.search(value):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(value=st.one_of(texts, st.integers(), st.none(), st.lists(st.text(max_size=3))))
def test_text_accepts_exactly_short_clean_unicode(value: Any) -> None:
    try:
        out = validate.text(value, "a name", 40)
    except WebError as exc:
        assert exc.status == 422 and exc.code == "bad_text" and str(exc).startswith("a name")
        assert not (isinstance(value, str) and acceptable(value, 40))
    else:
        assert out == value and acceptable(value, 40)


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(texts, st.integers(), st.none()))
def test_notation_and_action_ids_answer_4xx_or_the_value(value: Any) -> None:
    for check, code in ((validate.notation, "bad_action"), (validate.action_id, "bad_id")):
        try:
            out = check(value)
        except WebError as exc:
            assert exc.status == 422 and exc.code == code
        else:
            assert out == value
            assert value is None or acceptable(value, 200)


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(texts, st.from_regex(r"[0-9a-f]{16}", fullmatch=True), st.integers()))
def test_table_ids_are_sixteen_hex_digits_or_no_table(value: Any) -> None:
    try:
        assert validate.table_id(value) == value
    except WebError as exc:
        assert (exc.status, exc.code) == (404, "no_table")
        assert not (isinstance(value, str) and re.fullmatch(r"[0-9a-f]{16}", value))


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(texts, st.from_regex(r"[A-Za-z0-9_-]{1,60}", fullmatch=True)))
def test_tokens_are_url_safe_or_refused(value: Any) -> None:
    try:
        assert validate.token(value) == value
    except WebError as exc:
        assert (exc.status, exc.code) == (401, "bad_token")


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), texts)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(texts, inner, max_size=3)),
    max_leaves=6,
)


@pytest.mark.parametrize("game", game_names())
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_options_are_refused_clearly_or_make_a_bounded_game(game: str, data: Any) -> None:
    cls = game_class(game)
    names = [o.name for o in cls.option_specs]
    keys = st.one_of(st.sampled_from(names or ["x"]), st.sampled_from(["players", "name"]), texts)
    values = st.one_of(
        json_values,
        st.integers(min_value=-(10**12), max_value=10**12),
        st.integers().map(str),
    )
    given_options = data.draw(st.dictionaries(keys, values, max_size=4))
    try:
        checked = validate.options(cls, given_options)
    except WebError as exc:
        assert exc.status == 422 and exc.code == "bad_option"
        return
    assert set(checked) <= set(names)
    try:
        made = make_game(game, None, **checked)
    except CardhallError:
        return  # the engine names what is wrong (a 422 too, see the lobby)
    for spec in cls.option_specs:
        value = made.options.get(spec.name)
        if spec.kind == "int" and isinstance(value, int) and spec.name in checked:
            low, high = validate.option_bounds(cls, spec.name)
            assert value <= high and (low is None or value >= low)


@settings(max_examples=200, deadline=None)
@given(
    name=texts, invite=st.one_of(st.none(), texts), action=texts, ident=st.one_of(st.none(), texts)
)
def test_request_bodies_accept_only_clean_text(
    name: str, invite: str | None, action: str, ident: str | None
) -> None:
    try:
        join = models.Join(name=name, invite=invite)
    except ValidationError:
        assert not (acceptable(name, 40) and (invite is None or acceptable(invite, 64)))
    else:
        assert acceptable(join.name, 40)
    try:
        act = models.ActionIn(action=action, id=ident)
    except ValidationError:
        assert not (action and acceptable(action, 200) and (ident is None or acceptable(ident, 64)))
    else:
        assert acceptable(act.action, 200) and act.action
