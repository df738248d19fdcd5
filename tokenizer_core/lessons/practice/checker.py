"""Checking a student's answer to a blank without running it: parse, normalise, compare.

An answer is only ever *parsed* (`ast.parse`, mode `eval` for an expression blank, `exec` for a
statement blank), never compiled or evaluated: `__import__('os').system(...)` is a tree like any
other, and it simply does not match. The tree is normalised, then dumped without positions, and
the dump is compared with the accepted answers' dumps. What normalising makes equal:
- spacing, line breaks, redundant parentheses, quote style and number spelling (`0x80` is
  `128`): the tree has none of them;
- names the answer binds itself (a comprehension's or a lambda's variables): `[f(s) for s in xs]`
  is `[f(x) for x in xs]`, because such names cannot be seen outside the answer;
- `x += y` and `x = x + y` when x is a plain name (for a name the two differ only when x is a
  shared mutable object, which no blank here holds);
- `not a == b` and `a != b`, `not a is b` and `a is not b`, `not a in b` and `a not in b`;
- `a > b` and `b < a`, `a >= b` and `b <= a` (one comparison, not chains), and the two sides of
  `==` / `!=`;
- a lambda that only passes its one argument on, `lambda s: len(s)`, and the function it calls,
  `len` (when that function is a name or an attribute of one, not built from the argument);
- the order of keyword arguments: `sorted(x, reverse=True, key=len)` is
  `sorted(x, key=len, reverse=True)`.
What is the same only because of where the blank sits (a value that is just looped over, a
dict's argmax) is a named class in equivalences.py that the blank lists.
Anything else that is also right (`count + pair_counts.get(pair, 0)`) is listed in the exercise
data as an accepted answer; a known wrong answer can be listed with the reason it is wrong.

Leaves out: deciding equivalence in general (impossible), and running tests on the answer.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Literal, Sequence

from ...messages import N_, english
from .equivalences import apply_classes

Mode = Literal["expression", "statement"]
Status = Literal["correct", "not_yet", "syntax_error", "empty", "too_long"]

MAX_ANSWER_CHARS = 400  # one blank's answer; the longest accepted answer is under 100
_PARSE_MODE = {"expression": "eval", "statement": "exec"}
_NEGATED = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
            ast.In: ast.NotIn, ast.NotIn: ast.In}
_FLIPPED = {ast.Gt: ast.Lt, ast.GtE: ast.LtE}
_SYMMETRIC = (ast.Eq, ast.NotEq)


@dataclass(frozen=True)
class Verdict:
    """What the page tells the student. `line`/`column` (1-based) point at a syntax error.

    `message` is the English; `template` and `values` are the same sentence apart from its
    values, for the page to say in the reader's language (its gettext message id; `why` is a
    sentence of the exercise data, translated too). For a syntax error the template is the
    header, and the student's line with its `^` follows in `message` after ":\n"."""

    status: Status
    message: str
    line: int | None = None
    column: int | None = None
    template: str = ""
    values: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def correct(self) -> bool:
        return self.status == "correct"


def _said(status: Status, template: str, /, at: tuple[int | None, int | None] = (None, None),
          after: str = "", **values: object) -> Verdict:
    """A verdict whose English message is `template` filled (and `after` appended); `at` is
    the (line, column) of a syntax error."""
    filled = template.format_map({k: english(v) for k, v in values.items()})
    return Verdict(status, filled + after, *at, template, values)


@dataclass(frozen=True)
class WrongAnswer:
    """A listed wrong answer and why it is wrong (said to the student who gives it)."""

    answer: str
    why: str


class _BoundNames(ast.NodeTransformer):
    """Rename the names an answer binds inside itself (comprehension and lambda variables) to
    `_bound0`, `_bound1`, ... in the order they are bound.

    subtle: a comprehension's first `iter` is evaluated outside it, so it keeps the outer
    names; everything else inside the comprehension sees the renamed ones.
    """

    def __init__(self) -> None:
        self.scopes: list[dict[str, str]] = []
        self.count = 0

    def _fresh(self, scope: dict[str, str], name: str) -> None:
        if name not in scope:
            scope[name] = f"_bound{self.count}"
            self.count += 1

    def _lookup(self, name: str) -> str:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return name

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.copy_location(ast.Name(id=self._lookup(node.id), ctx=node.ctx), node)

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        node.args.defaults = [self.visit(d) for d in node.args.defaults]
        scope: dict[str, str] = {}
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            self._fresh(scope, arg.arg)
        for arg in (node.args.vararg, node.args.kwarg):
            if arg is not None:
                self._fresh(scope, arg.arg)
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                    node.args.vararg, node.args.kwarg]:
            if arg is not None:
                arg.arg = scope[arg.arg]
        self.scopes.append(scope)
        node.body = self.visit(node.body)
        self.scopes.pop()
        return node

    def _comprehension(self, node: ast.AST, parts: Sequence[str]) -> ast.AST:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        generators[0].iter = self.visit(generators[0].iter)  # outside the comprehension
        scope: dict[str, str] = {}
        self.scopes.append(scope)
        for i, gen in enumerate(generators):
            if i:
                gen.iter = self.visit(gen.iter)
            for target in ast.walk(gen.target):
                if isinstance(target, ast.Name):
                    self._fresh(scope, target.id)
            gen.target = self.visit(gen.target)
            gen.ifs = [self.visit(cond) for cond in gen.ifs]
        for part in parts:
            setattr(node, part, self.visit(getattr(node, part)))
        self.scopes.pop()
        return node

    def visit_ListComp(self, node: ast.ListComp) -> ast.AST:
        return self._comprehension(node, ["elt"])

    def visit_SetComp(self, node: ast.SetComp) -> ast.AST:
        return self._comprehension(node, ["elt"])

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> ast.AST:
        return self._comprehension(node, ["elt"])

    def visit_DictComp(self, node: ast.DictComp) -> ast.AST:
        return self._comprehension(node, ["key", "value"])


class _PassOn(ast.NodeTransformer):
    """`lambda x: f(x)` is `f` when `f` is a name or attributes on one, without `x` in it.

    subtle: run before the bound names are renamed, so that a removed lambda does not shift
    the numbers the later bound names get."""

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        self.generic_visit(node)
        args, body = node.args, node.body
        if (len(args.args) != 1 or args.posonlyargs or args.kwonlyargs or args.vararg
                or args.kwarg or args.defaults or not isinstance(body, ast.Call)
                or body.keywords or len(body.args) != 1):
            return node
        param, func = args.args[0].arg, body.func
        passed = body.args[0]
        plain = func
        while isinstance(plain, ast.Attribute):
            plain = plain.value
        if (isinstance(passed, ast.Name) and passed.id == param and isinstance(plain, ast.Name)
                and param not in {n.id for n in ast.walk(func) if isinstance(n, ast.Name)}):
            return func
        return node


class _Equivalences(ast.NodeTransformer):
    """The rewrites of the module docstring that hold for any operands."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if all(k.arg is not None for k in node.keywords):  # `**kwargs` keeps its place
            node.keywords.sort(key=lambda k: str(k.arg))
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name):
            return node
        value = ast.BinOp(left=ast.Name(id=node.target.id, ctx=ast.Load()), op=node.op,
                          right=node.value)
        return ast.Assign(targets=[node.target], value=value, lineno=0)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        operand = node.operand
        if (isinstance(node.op, ast.Not) and isinstance(operand, ast.Compare)
                and len(operand.ops) == 1 and type(operand.ops[0]) in _NEGATED):
            negated = _NEGATED[type(operand.ops[0])]()
            return self.visit_Compare(ast.Compare(operand.left, [negated], operand.comparators))
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        op, left, right = node.ops[0], node.left, node.comparators[0]
        if type(op) in _FLIPPED:
            return ast.Compare(right, [_FLIPPED[type(op)]()], [left])
        if isinstance(op, _SYMMETRIC) and _dump(right) < _dump(left):
            return ast.Compare(right, [op], [left])
        return node


def _dump(node: ast.AST) -> str:
    return ast.dump(node, annotate_fields=False, include_attributes=False)


def parse_answer(text: str, mode: Mode) -> ast.AST:
    """The answer's tree (SyntaxError if it is not Python of that kind). Never executed."""
    return ast.parse(text.strip(), mode=_PARSE_MODE[mode])  # type: ignore[call-overload]


def normal_form(text: str, mode: Mode, classes: Sequence[str] = ()) -> str:
    """The answer's normalised tree as a string: equal strings, equal answers. `classes` names
    the blank's own equivalences (equivalences.py)."""
    tree = parse_answer(text, mode)
    tree = _PassOn().visit(tree)
    tree = apply_classes(tree, tuple(classes))
    tree = _BoundNames().visit(tree)
    tree = _Equivalences().visit(tree)
    body = tree.body if isinstance(tree, (ast.Expression, ast.Module)) else tree
    if isinstance(body, list):
        return "\n".join(_dump(statement) for statement in body)
    return _dump(body)


def syntax_message(text: str, error: SyntaxError) -> Verdict:
    """A friendly verdict that points at the line and column Python stopped at."""
    lines = text.strip().splitlines() or [""]
    line = min(max(error.lineno or 1, 1), len(lines))
    shown = lines[line - 1]
    column = error.offset or 0
    if not 1 <= column <= len(shown):  # Python stopped at the end: point just past it
        column = len(shown) + 1
    pointer = " " * max(column - 1, 0) + "^"
    reason = (error.msg or "invalid syntax").rstrip(".")  # Python's own words, as it says them
    return _said("syntax_error", SYNTAX, at=(line, column), after=f":\n{shown}\n{pointer}",
                 reason=reason, line=line, column=column)


SYNTAX = N_("Python cannot read this yet ({reason}), at line {line}, column {column}")
NOT_A_STATEMENT = N_("This blank takes an expression (a value), not a statement such as an "
                     "assignment. Python cannot read this yet ({reason}), at line {line}, "
                     "column {column}")


def _is_statement(text: str) -> bool:
    try:
        parse_answer(text, "statement")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def check_answer(
    text: str,
    mode: Mode,
    accepted: Sequence[str],
    wrong: Sequence[WrongAnswer] = (),
    classes: Sequence[str] = (),
) -> Verdict:
    """Compare a student's answer with the accepted ones; nothing the student typed is run.
    `classes` are the blank's equivalence classes, applied to every side alike."""
    if not text.strip():
        return _said("empty", N_("Type an answer first."))
    if len(text) > MAX_ANSWER_CHARS:
        return _said("too_long", N_("This answer has {length} characters; a blank takes at most "
                                    "{bound}. The answer is much shorter."),
                     length=len(text), bound=MAX_ANSWER_CHARS)
    try:
        answer = normal_form(text, mode, classes)
    except SyntaxError as error:
        verdict = syntax_message(text, error)
        if mode == "expression" and _is_statement(text):
            pointed = verdict.message.partition(":\n")[2]  # the student's line and its ^
            return _said(verdict.status, NOT_A_STATEMENT, at=(verdict.line, verdict.column),
                         after=":\n" + pointed, **verdict.values)
        return verdict
    except (ValueError, RecursionError, MemoryError):  # a null byte; absurd nesting
        return _said("syntax_error", N_("Python cannot read this answer; write it more simply."))
    if any(answer == normal_form(a, mode, classes) for a in accepted):
        return _said("correct", N_("Correct!"))
    for known in wrong:
        if answer == normal_form(known.answer, mode, classes):
            return _said("not_yet", N_("Not yet: {why}"), why=known.why)
    return _said("not_yet", N_("Not yet: that is not what this line needs. Try the hint."))
