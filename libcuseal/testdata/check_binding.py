#!/usr/bin/env python3
"""check_binding.py — keeps the Python side of the C ABI in step with
include/cuseal_porep.h. Run by libcuseal/header_test.go (TestPythonBindingMatchesHeader).

usage: check_binding.py LIBCUSEAL_SO HEADER BINDING_DIR DOC

Checks, printing one FAIL line per mismatch:
  - examples/cuseal_porep.py's load() declares every function of the header,
    each with as many argtypes as the header has parameters, and nothing else;
  - in the ```python blocks of docs/c-abi.md, every cp.NAME exists in the
    binding, every c.NAME is a method of cp.Call, and every
    lib.cuseal_porep_NAME(...) call is a header function given as many
    arguments as it takes (*c.bytes_out() counts 3).
Ends with OK when there is none.
"""
import ast
import re
import sys


def header_functions(path):
    """{name: number of parameters} of the header's function declarations."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = {}
    for m in re.finditer(r"^(?:int|void|uint32_t|cuseal_porep_cancel\*)\s+(cuseal_porep_\w+)\((.*?)\);", text, re.S | re.M):
        params = " ".join(m.group(2).split())
        out[m.group(1)] = 0 if params in ("", "void") else params.count(",") + 1
    return out


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    lib_path, header, binding_dir, doc = argv[1:]
    sys.path.insert(0, binding_dir)
    import cuseal_porep as cp

    fails = []
    funcs = header_functions(header)
    if len(funcs) < 20:
        fails.append("only %d functions found in %s" % (len(funcs), header))
    lib = cp.load(lib_path)
    declared = {name for name in funcs if getattr(lib, name).argtypes is not None}
    for name, n in sorted(funcs.items()):
        f = getattr(lib, name)
        if f.argtypes is None:
            fails.append("cuseal_porep.py does not declare %s" % name)
        elif len(f.argtypes) != n:
            fails.append("cuseal_porep.py declares %s with %d arguments, the header %d" % (name, len(f.argtypes), n))
    print("DECLARED=%d" % len(declared))

    blocks = re.findall(r"```python\n(.*?)```", open(doc).read(), re.S)
    if not blocks:
        fails.append("no ```python block in %s" % doc)
    calls = 0
    for i, src in enumerate(blocks):
        tree = ast.parse(src, "%s block %d" % (doc, i))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                owner, attr = node.value.id, node.attr
                if owner == "cp" and not hasattr(cp, attr):
                    fails.append("block %d: cp.%s is not in cuseal_porep.py" % (i, attr))
                if owner == "c" and not hasattr(cp.Call, attr):
                    fails.append("block %d: c.%s is not a method of cuseal_porep.Call" % (i, attr))
                if owner == "lib" and attr.startswith("cuseal_porep_") and attr not in funcs:
                    fails.append("block %d: lib.%s is not in the header" % (i, attr))
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "lib" and node.func.attr in funcs):
                n = 0
                for a in node.args:
                    starred = isinstance(a, ast.Starred)
                    if starred and isinstance(a.value, ast.Call) and getattr(a.value.func, "attr", "") == "bytes_out":
                        n += 3
                    elif starred:
                        n = -1
                        break
                    else:
                        n += 1
                want = funcs[node.func.attr]
                calls += 1
                if n >= 0 and n != want:
                    fails.append("block %d line %d: %s(...) with %d arguments, the header takes %d" % (
                        i, node.lineno, node.func.attr, n, want))
    print("DOC_CALLS=%d" % calls)
    for f in fails:
        print("FAIL: " + f, file=sys.stderr)
    if fails:
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
