"""Z3 terms compiled to Python: evaluate the *symbolic* relation on many concrete points.

The agreement check evaluates the relation by running its rule functions on concrete values
(``evaluate.py``). That is only the relation the proofs use if constant folding in ``ops.py``
means what Z3 means. This module checks that independently: it compiles the Z3 terms a kind's
relation is made of (guards, successor values, outputs) into one straight-line Python
function, one assignment per DAG node, and evaluates it on the same inputs. Asking Z3 itself
(``substitute`` + ``simplify``, or a model) costs about a second per point on the ``pass``
relation; the compiled function costs milliseconds after a one-off compilation (ANCHORS R7).

Only the operators the encoding emits are supported (Boolean connectives, ``If``, integer
``+ - *``, comparisons, numerals and constants); anything else raises ``ValueError`` rather
than being guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import z3

Term = Any  # z3.ExprRef
Compiled = Callable[[Sequence[int | bool]], list[int | bool]]

_NARY = {
    z3.Z3_OP_AND: " and ",
    z3.Z3_OP_OR: " or ",
    z3.Z3_OP_ADD: " + ",
    z3.Z3_OP_MUL: " * ",
}
_BINARY = {
    z3.Z3_OP_LE: "<=",
    z3.Z3_OP_LT: "<",
    z3.Z3_OP_GE: ">=",
    z3.Z3_OP_GT: ">",
    z3.Z3_OP_EQ: "==",
    z3.Z3_OP_IFF: "==",
    z3.Z3_OP_XOR: "!=",
}


def compile_terms(roots: Sequence[Term], inputs: Sequence[Term]) -> Compiled:
    """A function from values of ``inputs`` (in order) to the values of ``roots``.

    The DAG is walked through Z3's C API (ids, arguments, declaration kinds): the Python
    wrappers would create an object per visit, and the ``pass`` relation has 10^5 nodes."""
    ctx = roots[0].ctx.ref() if roots else z3.main_ctx().ref()
    index = {v.get_id(): k for k, v in enumerate(inputs)}
    names: dict[int, str] = {}
    lines: list[str] = []

    def emit(root: Any) -> str:
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            node, ready = stack.pop()
            nid = z3.Z3_get_ast_id(ctx, node)
            if nid in names:
                continue
            if not ready:
                stack.append((node, True))
                if nid not in index:
                    for k in range(z3.Z3_get_app_num_args(ctx, node)):
                        child = z3.Z3_get_app_arg(ctx, node, k)
                        if z3.Z3_get_ast_id(ctx, child) not in names:
                            stack.append((child, False))
                continue
            names[nid] = _define(ctx, node, nid, names, index, lines)
        return names[z3.Z3_get_ast_id(ctx, root)]

    outputs = [emit(r.as_ast()) for r in roots]
    body = "\n".join(f"    {line}" for line in lines)
    source = f"def _f(x):\n{body}\n    return [{', '.join(outputs)}]\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<compiled relation>", "exec"), namespace)
    fn: Compiled = namespace["_f"]
    return fn


def _define(
    ctx: Any, node: Any, nid: int, names: dict[int, str], index: dict[int, int], lines: list[str]
) -> str:
    if nid in index:
        return f"x[{index[nid]}]"
    op = z3.Z3_get_decl_kind(ctx, z3.Z3_get_app_decl(ctx, node))
    if op == z3.Z3_OP_TRUE:
        return "True"
    if op == z3.Z3_OP_FALSE:
        return "False"
    if op == z3.Z3_OP_ANUM:
        return repr(int(z3.Z3_get_numeral_string(ctx, node)))
    if op == z3.Z3_OP_UNINTERPRETED:
        raise ValueError(f"free constant {z3.Z3_ast_to_string(ctx, node)} is not an input")
    args = [
        names[z3.Z3_get_ast_id(ctx, z3.Z3_get_app_arg(ctx, node, k))]
        for k in range(z3.Z3_get_app_num_args(ctx, node))
    ]
    if op in (z3.Z3_OP_AND, z3.Z3_OP_OR):
        empty = "True" if op == z3.Z3_OP_AND else "False"
        expr = _NARY[op].join(f"bool({a})" for a in args) if args else empty
    elif op in _NARY:
        expr = _NARY[op].join(args)
    elif op in _BINARY:
        expr = f"{args[0]} {_BINARY[op]} {args[1]}"
    elif op == z3.Z3_OP_NOT:
        expr = f"not {args[0]}"
    elif op == z3.Z3_OP_IMPLIES:
        expr = f"(not {args[0]}) or bool({args[1]})"
    elif op == z3.Z3_OP_ITE:
        expr = f"{args[1]} if {args[0]} else {args[2]}"
    elif op == z3.Z3_OP_SUB:
        expr = " - ".join(args)
    elif op == z3.Z3_OP_UMINUS:
        expr = f"-{args[0]}"
    elif op == z3.Z3_OP_DISTINCT:
        expr = f"len({{{', '.join(args)}}}) == {len(args)}"
    else:
        raise ValueError(
            f"operator {z3.Z3_ast_to_string(ctx, node)[:60]} is not supported by the compiler"
        )
    name = f"v{nid}"
    lines.append(f"{name} = {expr}")
    return name
