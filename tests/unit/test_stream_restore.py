"""StreamRestorer: placeholders split across streamed pieces are restored only once complete."""

from __future__ import annotations

import pytest

from pipelines.ports import PiiSpan
from pipelines.safety.placeholders import PlaceholderVault
from pipelines.streaming import MAX_PLACEHOLDER_CHARS, StreamRestorer


def vault() -> PlaceholderVault:
    """<PERSON_1> = Asha Rao, <EMAIL_ADDRESS_1> = asha@example.org."""
    v = PlaceholderVault()
    text = "Asha Rao asha@example.org"
    v.mask(text, [PiiSpan(0, 8, "PERSON"), PiiSpan(9, len(text), "EMAIL_ADDRESS")])
    return v


def run(pieces: list[str]) -> list[str]:
    """What the user is sent for each piece, then the flush at the end."""
    restorer = StreamRestorer(vault().restore)
    return [restorer.feed(piece) for piece in pieces] + [restorer.flush()]


CASES = [
    # (pieces, what each feed returns, then flush)
    (["Hello ", "<PERSON_1>", "."], ["Hello ", "Asha Rao", ".", ""]),
    (["Hi <PER", "SON_1>, ok"], ["Hi ", "Asha Rao, ok", ""]),
    (["Hi <", "PERSON", "_", "1", ">!"], ["Hi ", "", "", "", "Asha Rao!", ""]),
    (["Mail <EMAIL_ADDRESS_1", "> now"], ["Mail ", "asha@example.org now", ""]),
    (["<PERSON_1 ", ">"], ["", "Asha Rao", ""]),  # the vault allows spaces inside < >
    (["< person_1>"], ["Asha Rao", ""]),  # any case, as `restore` does
    (["a < 3", " c"], ["a < 3", " c", ""]),  # a comparison, not a placeholder: not held
    (["a < b", " c"], ["a ", "< b c", ""]),  # `< b` might still become `< b_1>`: held
    (["x<y and y>x"], ["x<y and y>x", ""]),
    (["<b>bold</b>"], ["<b>bold</b>", ""]),  # `</b>` can never become one: not held
    (["<b", ">bold", "</b>"], ["", "<b>bold", "</b>", ""]),  # `<b` is held until `>`
    (["ends with <PERS"], ["ends with ", "<PERS"]),  # never completed: flushed as it was
    (["<UNKNOWN_9>", " stays"], ["<UNKNOWN_9>", " stays", ""]),  # not this vault's
    (["<PERSON_1><EMAIL_", "ADDRESS_1>"], ["Asha Rao", "asha@example.org", ""]),
    (["", "<", "", "PERSON_1>"], ["", "", "", "Asha Rao", ""]),
]


@pytest.mark.parametrize(("pieces", "expected"), CASES)
def test_pieces_are_restored_once_complete(pieces: list[str], expected: list[str]) -> None:
    assert run(pieces) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Dear <PERSON_1>, write to <EMAIL_ADDRESS_1> or <PERSON_2>; 3 < 4 > 2 <b>x</b>",
        "<<PERSON_1>> and < PERSON_1 > and <person_1>",
    ],
)
def test_every_split_gives_the_same_text_as_restoring_the_whole(text: str) -> None:
    whole = vault().restore(text)
    for cut in range(len(text) + 1):
        for second in range(cut, len(text) + 1):
            pieces = [text[:cut], text[cut:second], text[second:]]
            assert "".join(run(pieces)) == whole, pieces
    assert "".join(run(list(text))) == whole  # one character at a time


def test_a_long_unclosed_bracket_is_not_held_forever() -> None:
    restorer = StreamRestorer(vault().restore)
    assert restorer.feed("<" + "A" * (MAX_PLACEHOLDER_CHARS - 1)) == ""
    assert restorer.feed("A") == "<" + "A" * MAX_PLACEHOLDER_CHARS
