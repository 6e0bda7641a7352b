"""Tab in the login shells (bash, zsh, fish): the scripts `companion completion SHELL` prints,
and the companion's side of what they ask.

Click's own bash and fish scripts break values the data folder holds (issue 29): bash put
``Mölkky Ünïcödé 李雷`` on the line unquoted (three words), and fish cut ``Catan, Big Box`` at
its comma. So bash and fish get scripts of their own, and all three ask under new protocol
names (``bash2``, ``zsh2``, ``fish2``): a script installed from an older version still asks
``bash_complete`` and gets Click's answer, as before. zsh quotes what it inserts itself, so
Click's zsh script stays (only its name for the question changes).

bash hands the function the line and the cursor, and takes back words it puts on the line as
they are: the quoting is done here, the way bash's own readline would read it back (a space
after a backslash, inside double quotes, or inside single quotes, as the word was begun), and
only for the part after the last of bash's word breaks (``:`` and ``=`` among them), since
bash replaces only that part.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import os

from click.shell_completion import BashComplete, CompletionItem, FishComplete, ZshComplete, add_completion_class

# What bash reads as something else than a letter of a word when it is not quoted.
BASH_SPECIAL = frozenset(" \t\n\"'\\$`!&;|()<>*?[]{}#~^")
DEFAULT_BREAKS = " \t\n\"'><=;|&(:"

BASH_SOURCE = """\
%(complete_func)s() {
    local line kind
    local -a response
    mapfile -t response < <(env COMP_LINE="${COMP_LINE:0:COMP_POINT}" COMP_WORDBREAKS="$COMP_WORDBREAKS" \\
        %(complete_var)s=bash2_complete "$1" 2>/dev/null)
    COMPREPLY=()
    for line in "${response[@]}"; do
        kind=${line%%%%$'\\t'*}
        if [[ $kind == plain ]]; then
            COMPREPLY+=("${line#*$'\\t'}")
        elif [[ $kind == dir ]]; then
            COMPREPLY=(); compopt -o dirnames; return 0
        elif [[ $kind == file ]]; then
            COMPREPLY=(); compopt -o default; return 0
        fi
    done
    return 0
}

complete -o nosort -F %(complete_func)s %(prog_name)s
"""

FISH_SOURCE = """\
function %(complete_func)s
    set -l response (env %(complete_var)s=fish2_complete COMP_WORDS=(commandline -cp) \\
        COMP_CWORD=(commandline -t) %(prog_name)s)
    for completion in $response
        # the kind, then the value and its description whole (a comma is part of them)
        set -l metadata (string split --max 1 "," -- $completion)
        if test "$metadata[1]" = dir
            __fish_complete_directories $metadata[2]
        else if test "$metadata[1]" = file
            __fish_complete_path $metadata[2]
        else if test "$metadata[1]" = plain
            printf '%%s\\n' $metadata[2]
        end
    end
end

complete --no-files --command %(prog_name)s --arguments "(%(complete_func)s)"
"""


def read_line(line: str, breaks: str) -> tuple[list[str], str, str, str]:
    """The line up to the cursor, read as bash reads it: (the words before the one being
    typed, that word's value, the part of its value before bash's last word break in it, and
    the quote open there: ``"``, ``'`` or nothing). Bash replaces only what follows the break."""
    words: list[str] = []
    value: list[str] = []
    started = False  # a word is begun (even an empty one: '')
    quote = ""
    before = 0  # the length of the value before the last break
    i = 0
    while i < len(line):
        c = line[i]
        if quote == "'":
            if c == "'":
                quote = ""
            else:
                value.append(c)
        elif quote == '"':
            if c == '"':
                quote = ""
            elif c == "\\" and i + 1 < len(line) and line[i + 1] in '"\\$`':
                i += 1
                value.append(line[i])
            else:
                value.append(c)
        elif c == "\\":
            if i + 1 < len(line):
                i += 1
                if line[i] != "\n":
                    value.append(line[i])
            started = True
        elif c in " \t\n":
            if started:
                words.append("".join(value))
            value, started, before = [], False, 0
        elif c in "'\"":
            quote, started, before = c, True, len(value)
        else:
            value.append(c)
            started = True
            if c in breaks:
                before = len(value)
        i += 1
    return words, "".join(value), "".join(value[:before]), quote


def bash_quote(text: str, quote: str) -> str:
    """``text`` as it must be written for bash to read it back, inside ``quote`` (a quote
    already open on the line, which bash then closes) or with backslashes."""
    if quote == "'":
        return text.replace("'", "'\\''")
    if quote == '"':
        return "".join("\\" + c if c in '"\\$`' else c for c in text)
    return "".join("\\" + c if c in BASH_SPECIAL else c for c in text)


class Bash(BashComplete):
    """bash: the line and the cursor in, the rest of each word quoted out."""

    name = "bash2"
    source_template = BASH_SOURCE

    def get_completion_args(self) -> tuple[list[str], str]:
        words, self.current, self.before, self.quote = read_line(
            os.environ.get("COMP_LINE", ""), os.environ.get("COMP_WORDBREAKS", DEFAULT_BREAKS))
        return words[1:], self.current

    def format_completion(self, item) -> str:
        value = str(item.value)
        if "\n" in value:
            return ""  # a line break cannot come back through the script (names never hold one)
        if not value.startswith(self.before) and self.current.startswith("-") and "=" in self.current:
            value = self.current.partition("=")[0] + "=" + value  # --player=Bj: Click answers the value alone
        rest = value[len(self.before):] if value[:len(self.before)].casefold() == self.before.casefold() else value
        return f"{item.type}\t{bash_quote(rest, self.quote)}"

    def complete(self) -> str:
        return "\n".join(line for line in super().complete().split("\n") if line)


class WholeWord:
    """zsh and fish replace the whole word typed with the answer: a value typed after an
    option and ``=`` (``--player=Bj``) comes back with its option, which Click leaves out."""

    def get_completion_args(self) -> tuple[list[str], str]:
        args, self.current = super().get_completion_args()
        return args, self.current

    def format_completion(self, item) -> str:
        option, equals, _rest = self.current.partition("=")
        if item.type == "plain" and option.startswith("-") and equals and not str(item.value).startswith(option + "="):
            item = CompletionItem(f"{option}={item.value}", type=item.type, help=item.help)
        return super().format_completion(item)


class Zsh(WholeWord, ZshComplete):
    """zsh: Click's script (zsh quotes what it inserts), asking under a name of its own."""

    name = "zsh2"
    source_template = ZshComplete.source_template.replace("=zsh_complete", "=zsh2_complete")


class Fish(WholeWord, FishComplete):
    """fish: Click's protocol, with a script that splits each answer at its first comma only."""

    name = "fish2"
    source_template = FISH_SOURCE


SCRIPTS = {"bash": Bash, "zsh": Zsh, "fish": Fish}


def register() -> None:
    """Let Click answer the new scripts' questions (``_COMPANION_COMPLETE=bash2_complete``)."""
    for cls in SCRIPTS.values():
        add_completion_class(cls)


def source(root, shell: str) -> str:
    """The script for ``shell`` (the README says where to put it)."""
    return SCRIPTS[shell](root, {}, "companion", "_COMPANION_COMPLETE").source()
