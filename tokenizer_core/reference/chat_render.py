"""A chat template rendered as transformers' `apply_chat_template(tokenize=False)` renders it.

What it adds: `render(template, messages, specials, add_generation_prompt, max_chars)`, over the
environment transformers 5 builds in `chat_template_utils._cached_compile_jinja_template`:
jinja2's `ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)` with the
`loopcontrols` extension (`{% break %}`, `{% continue %}`) and a `{% generation %}` block (its
body rendered as it is: transformers uses the tag only to mark the assistant's tokens), the
filter `tojson` as `json.dumps(ensure_ascii=False, ...)` (jinja's own escapes HTML), and the
globals `raise_exception` (a TemplateError carrying the template's own message),
`strftime_now`, `dict` and a `namespace` that refuses `_`-names. The template sees `messages`
(keys whose value is None dropped), `add_generation_prompt`, `tools=None`, `documents=None` and
the named special tokens as strings (`bos_token` ...), as transformers passes them.

Run only inside chat_worker.py's bounded process: the template is the model file's code, the
sandbox keeps it from Python's internals, but not from looping or allocating for ever. The
output is gathered piece by piece and refused past `max_chars`.

Leaves out: tools, documents, `continue_final_message` and the assistant-token mask.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Mapping, Sequence

from ..messages import N_, Refusal

TOO_LONG = N_("the chat template wrote more than {bound} characters for this conversation, "
              "so it was stopped")
SYNTAX = N_("the chat template is not valid Jinja (line {line}: {error})")
RAISED = N_("the chat template refused this conversation with its own message: {error}")
UNSAFE = N_("the chat template tried something the sandbox forbids ({error})")
FAILED = N_("the chat template could not render this conversation ({kind}: {error})")


def _environment() -> Any:
    import jinja2
    import jinja2.ext
    import jinja2.nodes
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class Generation(jinja2.ext.Extension):
        """`{% generation %}...{% endgeneration %}`: the body, as it is."""

        tags = {"generation"}

        def parse(self, parser: Any) -> Any:
            lineno = next(parser.stream).lineno
            body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
            return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(
                lineno)

        def _body(self, caller: Any) -> str:
            return caller()

    def raise_exception(message: Any) -> None:
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x: Any, ensure_ascii: bool = False, indent: Any = None, separators: Any = None,
               sort_keys: bool = False) -> str:
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                          sort_keys=sort_keys)

    def strftime_now(format: str) -> str:
        return datetime.now().strftime(format)

    class TemplateDict:
        """`dict(...)` and `dict.fromkeys(...)`, and nothing of the type itself."""

        def __call__(self, *args: Any, **kwargs: Any) -> dict:
            return dict(*args, **kwargs)

        def fromkeys(self, *args: Any, **kwargs: Any) -> dict:
            return dict.fromkeys(*args, **kwargs)

    class TemplateNamespace(jinja2.utils.Namespace):
        """jinja's namespace, refusing `_`-names (the way to CPython's internals)."""

        def __init__(*args: Any, **kwargs: Any) -> None:  # noqa: N805 (jinja's own trick)
            self, rest = args[0], args[1:]
            attrs = dict(*rest, **kwargs)
            for name in attrs:
                TemplateNamespace._check_name(name)
            jinja2.utils.Namespace.__init__(self, attrs)

        def __setitem__(self, name: str, value: Any) -> None:
            TemplateNamespace._check_name(name)
            jinja2.utils.Namespace.__setitem__(self, name, value)

        @staticmethod
        def _check_name(name: Any) -> None:
            if isinstance(name, str) and name.startswith("_"):
                raise jinja2.exceptions.SecurityError(
                    f"a namespace cannot hold the underscore name {name!r}")

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[Generation, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals.update(raise_exception=raise_exception, strftime_now=strftime_now,
                       dict=TemplateDict(), namespace=TemplateNamespace)
    return env


def _plain(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The messages as transformers hands them over: plain dicts, None-valued keys dropped."""
    return [{str(k): v for k, v in m.items() if v is not None} for m in messages]


def render(template: str, messages: Sequence[Mapping[str, Any]], specials: Mapping[str, str],
           add_generation_prompt: bool, max_chars: int) -> str:
    """The rendered conversation; a Refusal saying why it could not be rendered."""
    import jinja2

    env = _environment()
    try:
        compiled = env.from_string(template)
    except jinja2.TemplateSyntaxError as error:
        raise Refusal(SYNTAX, line=error.lineno, error=error.message or str(error)) from None
    # subtle: the special tokens first, then the call's own values, as transformers merges them
    values = {**specials, "messages": _plain(messages), "tools": None, "documents": None,
              "add_generation_prompt": add_generation_prompt}
    pieces, written = [], 0
    try:
        for piece in compiled.generate(**values):  # the pieces render() would join
            written += len(piece)
            if written > max_chars:
                raise Refusal(TOO_LONG, bound=max_chars)
            pieces.append(piece)
    except Refusal:
        raise
    except jinja2.exceptions.SecurityError as error:
        raise Refusal(UNSAFE, error=str(error)) from None
    except jinja2.exceptions.TemplateError as error:  # raise_exception's, or an undefined name
        if type(error) is jinja2.exceptions.TemplateError:
            raise Refusal(RAISED, error=str(error)) from None
        raise Refusal(FAILED, kind=type(error).__name__, error=str(error)) from None
    except MemoryError:
        raise
    except Exception as error:  # a template's TypeError, ZeroDivisionError...: said, not lost
        raise Refusal(FAILED, kind=type(error).__name__, error=str(error)) from None
    return "".join(pieces)
