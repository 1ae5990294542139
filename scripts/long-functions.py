#!/usr/bin/env python3
"""Lists the Swift functions longer than a limit (80 lines by default).

A function's length counts from the line that declares it (`func`, `init`,
`deinit`, `subscript`, or a computed property: a `var` whose line opens a
brace) to the line of its closing brace, both included. Braces inside
string literals and comments are skipped, so the count follows the code.

Usage: scripts/long-functions.py [--limit N] [PATH ...]
(default paths: Sources Benchmarks/RulebenchBench). Prints
"LINES FILE:LINE NAME", longest first; exits 1 when any is listed.
"""
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|private|fileprivate|internal|open|package|static|class|final|override|"
    r"mutating|nonmutating|nonisolated|convenience|required|lazy|dynamic)(?:\([^)]*\))?\s+)*"
    r"(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<]|var\s+\w+[^=]*\{\s*$)")


def code_of(lines):
    """Each line with string literals and comments blanked out (braces in them do not count)."""
    out = []
    in_block = 0
    in_multiline = False
    for line in lines:
        text = []
        i = 0
        in_string = False
        while i < len(line):
            c = line[i]
            if in_block:
                if line.startswith("*/", i):
                    in_block -= 1
                    i += 2
                    continue
                if line.startswith("/*", i):
                    in_block += 1
                    i += 2
                    continue
                i += 1
                continue
            if in_multiline:
                if line.startswith('"""', i):
                    in_multiline = False
                    i += 3
                    continue
                i += 1
                continue
            if in_string:
                if c == "\\":
                    i += 2
                    continue
                if c == '"':
                    in_string = False
                i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block += 1
                i += 2
                continue
            if line.startswith('"""', i):
                in_multiline = True
                i += 3
                continue
            if c == '"':
                in_string = True
                i += 1
                continue
            text.append(c)
            i += 1
        out.append("".join(text))
    return out


def long_functions(path, limit):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    code = code_of(lines)
    found = []
    for start, line in enumerate(lines):
        match = DECLARATION.match(code[start])
        if not match:
            continue
        depth = 0        # braces, counted from the body's opening brace
        parens = 0       # parentheses and brackets of the signature (default closures sit inside them)
        opened = False
        for end in range(start, len(code)):
            for c in code[end]:
                if not opened:
                    if c in "([":
                        parens += 1
                    elif c in ")]":
                        parens -= 1
                    elif c == "{" and parens == 0:
                        opened = True
                        depth = 1
                    continue
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        break
            if opened and depth == 0:
                break
            if not opened and end > start and (code[end].strip() == "" or DECLARATION.match(code[end])):
                break   # a declaration without a body (a protocol requirement)
        if not opened:
            continue
        length = end - start + 1
        if length > limit:
            found.append((length, f"{path}:{start + 1}", match.group(1).strip()))
    return found


def main(argv):
    limit = 80
    if len(argv) >= 2 and argv[0] == "--limit":
        limit = int(argv[1])
        argv = argv[2:]
    paths = argv or ["Sources", "Benchmarks/RulebenchBench"]
    found = []
    for root in paths:
        files = [root] if root.endswith(".swift") else [
            os.path.join(folder, name) for folder, _, names in os.walk(root) for name in names
            if name.endswith(".swift")]
        for path in sorted(files):
            found += long_functions(path, limit)
    for length, place, name in sorted(found, key=lambda f: (-f[0], f[1])):
        print(f"{length:4d} {place} {name}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
