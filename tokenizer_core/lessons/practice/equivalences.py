"""Rewrites that make two answers equal because of what the blank is for, not in general.

`list(zip(a, a[1:]))` and `zip(a, a[1:])` are different values, but in `for pair in __1__:`
the loop sees the same pairs in the same order. `max(d, key=d.get)` and
`max(d.items(), key=lambda kv: kv[1])[0]` are the same key only when `d` is a dict. So such
rewrites are named classes, and a blank in data/practice/exercises.json lists the ones that
hold where it sits (its `equivalences`); the checker applies them to the student's answer and
to every accepted answer alike, before comparing trees.

Like the checker, these only reshape parsed trees: nothing is compiled or run.

- `iterated`: the blank's value is looped over once, front to back, and nothing else. At the
  top of the answer, `list(x)`, `tuple(x)` and `iter(x)` are `x`; a list comprehension is the
  generator with the same parts; `(v for v in x)` (the loop variable itself, no `if`) is `x`.
  `sorted`, `set`, `reversed` change order or drop repeats: they stay.
- `dict_argmax`: `d` is a dict and the answer picks its key with the largest (or smallest)
  value, the first such key on a tie, as `max`/`min` do. `max(d.keys(), ...)` is
  `max(d, ...)`; the keys `lambda k: d[k]`, `lambda k: d.get(k)` and `d.__getitem__` are
  `d.get`; `max(d.items(), key=lambda kv: kv[1])[0]` (or `kv[-1]`) is `max(d, key=d.get)`.
  `sorted(d, key=d.get)[-1]` is not: on a tie it gives the last key, not the first.

Leaves out: proving a rewrite right (each is argued in its docstring and tried on real values
by tests/core/lessons/test_practice_data.py, which runs only this project's own answers).
"""

from __future__ import annotations

import ast
from typing import Callable

_MATERIALISE = frozenset({"list", "tuple", "iter"})
_ARGMAX = frozenset({"max", "min"})


def _same(a: ast.AST, b: ast.AST) -> bool:
    """The same code, whatever the load/store context (a loop target vs the same name read)."""
    return ast.unparse(a) == ast.unparse(b)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _is_plain(node: ast.AST) -> bool:
    """A name or a chain of attributes on one (`d`, `self.ranks`): reading it twice is reading
    the same object, so `d` in `max(d, key=d.get)` and in `d.items()` are one dict."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _call_of(node: ast.AST, names: frozenset[str]) -> str | None:
    """The builtin's name when `node` is `name(one positional argument, ...)`, else None."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in names and len(node.args) == 1
            and not isinstance(node.args[0], ast.Starred)):
        return node.func.id
    return None


def _only_param(node: ast.AST) -> str | None:
    """The parameter's name when `node` is a lambda of exactly one plain positional one."""
    if not isinstance(node, ast.Lambda):
        return None
    args = node.args
    if (len(args.args) == 1 and not args.posonlyargs and not args.kwonlyargs
            and args.vararg is None and args.kwarg is None and not args.defaults):
        return args.args[0].arg
    return None


# --- iterated ---------------------------------------------------------------------------


def _iterated_once(node: ast.AST) -> ast.AST:
    """Peel what does not change the sequence a single for-loop sees, until nothing peels."""
    while True:
        if _call_of(node, _MATERIALISE) and not node.keywords:  # type: ignore[attr-defined]
            node = node.args[0]  # type: ignore[attr-defined]
        elif isinstance(node, ast.ListComp):
            node = ast.GeneratorExp(elt=node.elt, generators=node.generators)
        elif (isinstance(node, ast.GeneratorExp) and len(node.generators) == 1
              and not node.generators[0].ifs and not node.generators[0].is_async
              and _same(node.elt, node.generators[0].target)):
            node = node.generators[0].iter
        else:
            return node


def iterated(tree: ast.AST) -> ast.AST:
    """The `iterated` class: applied at the top of an expression answer only."""
    if isinstance(tree, ast.Expression):
        tree.body = _iterated_once(tree.body)
    return tree


# --- dict_argmax ------------------------------------------------------------------------


def _value_of_key(key: ast.AST, d: ast.AST) -> bool:
    """Is `key` a function from a key k of `d` to d[k]? (`d.get`, `d.__getitem__`,
    `lambda k: d[k]`, `lambda k: d.get(k)`)"""
    if isinstance(key, ast.Attribute) and key.attr in ("get", "__getitem__"):
        return _same(key.value, d)
    param = _only_param(key)
    if param is None or param in _names(d):
        return False
    body = key.body  # type: ignore[attr-defined]
    if isinstance(body, ast.Subscript):
        return _same(body.value, d) and isinstance(body.slice, ast.Name) \
            and body.slice.id == param
    return (isinstance(body, ast.Call) and isinstance(body.func, ast.Attribute)
            and body.func.attr == "get" and _same(body.func.value, d) and not body.keywords
            and len(body.args) == 1 and isinstance(body.args[0], ast.Name)
            and body.args[0].id == param)


def _second_of_pair(key: ast.AST) -> bool:
    """Is `key` `lambda kv: kv[1]` (or `kv[-1]`), the value of a (key, value) item?"""
    param = _only_param(key)
    body = getattr(key, "body", None)
    if param is None or not isinstance(body, ast.Subscript):
        return False
    index = body.slice
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        index = index.operand  # kv[-1]: of two, the last is the second
    return (isinstance(body.value, ast.Name) and body.value.id == param
            and isinstance(index, ast.Constant) and type(index.value) is int
            and index.value == 1)


def _argmax_call(func: str, d: ast.AST) -> ast.Call:
    key = ast.keyword(arg="key", value=ast.Attribute(value=d, attr="get", ctx=ast.Load()))
    return ast.Call(func=ast.Name(id=func, ctx=ast.Load()), args=[d], keywords=[key])


def _only_key(node: ast.Call) -> ast.AST | None:
    if len(node.keywords) == 1 and node.keywords[0].arg == "key":
        return node.keywords[0].value
    return None


def _method_of(node: ast.AST, method: str) -> ast.AST | None:
    """`d` when `node` is `d.method()` on a plain `d`, else None."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == method and not node.args and not node.keywords
            and _is_plain(node.func.value)):
        return node.func.value
    return None


class _DictArgmax(ast.NodeTransformer):
    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        call = node.value
        func = _call_of(call, _ARGMAX)
        if (func is None or not isinstance(node.slice, ast.Constant)
                or type(node.slice.value) is not int or node.slice.value != 0):
            return node
        d = _method_of(call.args[0], "items")  # type: ignore[attr-defined]
        key = _only_key(call)  # type: ignore[arg-type]
        if d is not None and key is not None and _second_of_pair(key):
            return _argmax_call(func, d)  # max(d.items(), key=value)[0] is max(d, key=d.get)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = _call_of(node, _ARGMAX)
        key = _only_key(node)
        if func is None or key is None:
            return node
        d = _method_of(node.args[0], "keys") or node.args[0]
        if _is_plain(d) and _value_of_key(key, d):
            return _argmax_call(func, d)
        return node


def dict_argmax(tree: ast.AST) -> ast.AST:
    return _DictArgmax().visit(tree)


Rewrite = Callable[[ast.AST], ast.AST]
CLASSES: dict[str, Rewrite] = {"iterated": iterated, "dict_argmax": dict_argmax}


def apply_classes(tree: ast.AST, classes: tuple[str, ...]) -> ast.AST:
    """Apply the named classes in the order given (ValueError naming an unknown one)."""
    for name in classes:
        if name not in CLASSES:
            raise ValueError(f"unknown equivalence class {name!r}; choose from "
                             + ", ".join(sorted(CLASSES)))
        tree = CLASSES[name](tree)
    return tree
