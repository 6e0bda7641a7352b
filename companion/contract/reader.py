"""The one reader of a move's values, whatever the surface (issue 27).

A typed command line, the shell's answer to a question and a phone's posted form all give a
move's parameters as strings; :func:`read_move` reads them, and nothing else does. Before, the
terminal and the phones each had their own rules: a phone posting the one-choice rail field four
times built four rails in one turn, and a private number on a phone was refused with another
game's words. Here one set of rules holds everywhere:

- each value is read by its parameter's kind (``Kind.read``), with the kind's own bounds and
  words: a typed value, an answer and a posted field are refused alike, in the game's words;
- a parameter that takes one value (not ``many``) is given one: several posted values, or an
  option typed several times, are refused; the words of a typed line make one value of an
  argument whose kind ``joins`` them (``build Ann San Diego-D11``), read by ``Kind.read_words``;
- a parameter that takes several (``many``) gets each value read; how many the game allows is
  the rules' to say, in their own words, on every surface alike (``Kind.limit`` only says how
  many a page draws to choose at once);
- a field left blank is no value (a form posts its empty fields): a required parameter given
  none is ``missing`` (the shell asks for it, a command line or a page refuses it), an optional
  one takes its default; a blank typed on purpose (`--sheet ""`) is a value, for the kind to
  read;
- a private parameter is read as any other: the rules judge it, on the owner's own screen.

What the values mean for the game (a rail already built, a card not in a hand, a turn's
allowance) is the rules' to judge: the reader reads, the rules refuse.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from companion.contract.language import _
from companion.contract.declare import At, Flag, Move, Param, Screen
from companion.contract.errors import CompanionError


def read_move(decl: Move | Screen, at: At, given: Mapping[str, Sequence[str]], *, words: bool = False,
              fixed: Mapping[str, Any] | None = None, missing: Callable[[Param], Any] | None = None) -> dict:
    """Read every parameter of ``decl`` into ``at.args``, in the order declared (a kind may look
    at the values read before it: the builder of a path), and return ``at.args``.

    ``given`` maps a parameter's name to the strings given to it: the words of a typed line
    (``words``: several words of a ``joins`` kind are one value), or whole values (an answer, a
    posted field: a blank one is a field left empty). A page's several number fields for one
    parameter (``Kind.fields``) come as ``NAME.key``. ``fixed`` holds values that are not read
    (a page's own player as the actor, the laptop's options a page leaves at their default).
    ``missing(param)`` gives the value of a required parameter given none (the shell asks) or
    refuses; without it the refusal is :class:`Missing`."""
    fixed = fixed or {}
    for p in decl.params:
        if p.name in fixed:
            at.args[p.name] = fixed[p.name]
            continue
        values = [str(v) for v in given.get(p.name) or () if words or str(v).strip()]
        fields = None if values or isinstance(p.kind, Flag) else p.kind.fields(at, p)
        if fields:
            posted = {key: str((given.get(f"{p.name}.{key}") or [""])[0]) for key, _text in fields}
            if any(v.strip() for v in posted.values()):
                at.args[p.name] = p.kind.from_fields(posted, at, p)
                continue
        if isinstance(p.kind, Flag):
            at.args[p.name] = bool(values)
        elif values:
            at.args[p.name] = read_param(p, values, at, words=words)
        elif not p.required:
            at.args[p.name] = p.default if not p.many else list(p.default or [])
        elif missing is not None:
            at.args[p.name] = missing(p)
        else:
            raise Missing(p)
    return at.args


def read_param(p: Param, values: Sequence[str], at: At, *, words: bool = False) -> Any:
    """The value of one parameter from the strings given to it (see :func:`read_move`): what
    completion reads of a half-typed line and what the shell's question reads of an answer, too.
    A kind's ``read`` gets one whole value and ``read_words`` the words of a typed argument; the
    two agree (``Pairs.read`` splits a whole value as the shell splits a line)."""
    values = [str(v) for v in values]
    if isinstance(p.kind, Flag):
        return bool(values)
    if p.kind.joins and words and not p.option:  # an option's value is whole, quoted on the line
        return p.kind.read_words(values, at, p)
    if p.kind.joins and p.many:  # whole values of a kind that joins: one is read whole (`Ann=12 Bob=7`)
        return p.kind.read(values[0], at, p) if len(values) == 1 else p.kind.read_words(values, at, p)
    if p.many:
        return [p.kind.read(v, at, p) for v in values]
    if len(values) > 1:
        raise CompanionError(_("{label}{label2} takes one value, and {count} were given: give one.")
                               .format(label=p.label[:1].upper(), label2=p.label[1:], count=len(values)))
    return p.kind.read(values[0], at, p)


def answer(p: Param, text: str, at: At) -> Any:
    """The value of an answer to the shell's question for ``p`` (one whole value, as a posted
    field is)."""
    if not str(text).strip():
        return p.kind.read(str(text), at, p)  # the kind says what to type
    return read_param(p, [text], at)


class Missing(CompanionError):
    """A required parameter was given no value (each surface says it its own way: the shell
    asks, a command line names its usage, a page asks to fill in its form)."""

    def __init__(self, param: Param):
        super().__init__(_("Give {label}: fill in the form and send it again.").format(label=param.label))

        self.param = param
