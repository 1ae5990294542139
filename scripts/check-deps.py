#!/usr/bin/env python3
"""Checks that dependencies point one way: down the layers docs/architecture.md draws.

The layers are read from docs/architecture.md, from the fenced block marked
```layers under "The layers, as checked": one line per layer, the highest
first; a line names one or more folders (paths from the repository's root).
A folder may use the folders on the lines below its own, never one on its
own line (siblings) or above it. A folder owns every file under it, except
the files of a folder named on a line of its own (Sources/Rulebench/Fuzz owns
its subfolders). Every Swift file under Sources/ must lie in a folder of the
layers: a new folder needs a line.

"Uses" means: a Swift file of the folder names a type (class, struct, enum,
protocol, actor, typealias) declared at the top level of another folder's
files, outside comments and string literals, or imports another folder's
module (a target). The known exceptions of today are listed, each with its
reason, in scripts/check-deps-allowlist.txt as `FROM -> TO: TYPE`. The list
can only shrink: a use not listed fails, and so does a listed one that no
longer occurs (remove its line).

Usage: scripts/check-deps.py [--root DIR] [--graph]
  --root DIR  the repository to check (default: the one holding this script)
  --graph     print every use between folders (FROM -> TO: TYPES) and exit 0
Exits 0 when every use points down or is listed, 1 otherwise (each
problem on a line of its own, with a file and line that shows it), 2 when
the layers or the allowlist cannot be read.
"""
import os
import re
import sys

LAYERS_MARKER = "```layers"
ALLOWLIST = "scripts/check-deps-allowlist.txt"
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|private|fileprivate|internal|open|package|final|indirect|nonisolated)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z]\w*)")
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:class|struct|enum|func|var|let|protocol|typealias)\s+)?(\w+)")
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")
ALLOWED = re.compile(r"^(\S+)\s*->\s*(\S+)\s*:\s*(\w+)$")


def fail_setup(message):
    print(f"check-deps: {message}", file=sys.stderr)
    sys.exit(2)


def read_layers(root):
    """The layers, highest first: a list of lists of folder paths."""
    path = os.path.join(root, "docs", "architecture.md")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as error:
        fail_setup(f"cannot read {path}: {error.strerror}")
    start = text.find("\n" + LAYERS_MARKER + "\n")
    if start < 0:
        fail_setup(f"{path} has no {LAYERS_MARKER} block (the layers this script checks)")
    body = text[start + len(LAYERS_MARKER) + 2:]
    end = body.find("\n```")
    if end < 0:
        fail_setup(f"{path}: the {LAYERS_MARKER} block is not closed")
    layers = []
    for line in body[:end].splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            layers.append(line.split())
    return layers


def read_allowlist(root):
    """The known exceptions: a set of (from, to, type), with each entry's line."""
    path = os.path.join(root, ALLOWLIST)
    allowed = {}
    if not os.path.exists(path):
        return allowed
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            entry = line.split("#", 1)[0].strip()
            if not entry:
                continue
            match = ALLOWED.match(entry)
            if not match:
                fail_setup(f"{ALLOWLIST}:{number}: write `FROM -> TO: TYPE`, not {entry!r}")
            allowed[match.groups()] = number
    return allowed


def code_of(text):
    """The text with comments and string literals blanked out, lines kept."""
    out = []
    i, n = 0, len(text)
    depth = 0
    while i < n:
        if depth:
            if text.startswith("*/", i):
                depth -= 1
                i += 2
            elif text.startswith("/*", i):
                depth += 1
                i += 2
            else:
                out.append("\n" if text[i] == "\n" else " ")
                i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            depth = 1
            i += 2
        elif text.startswith('"""', i):
            close = text.find('"""', i + 3)
            close = n if close < 0 else close + 3
            out.append("".join("\n" if c == "\n" else " " for c in text[i:close]))
            i = close
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def module_of(folder):
    """The module (target) a folder's files are compiled in: the folder under Sources/, Tests/ or Benchmarks/."""
    return folder.split("/")[1]


def owner(path, folders):
    """The folder of the layers that owns a file: the longest that holds it."""
    best = None
    for folder in folders:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def swift_files(root, folders):
    """Every Swift file under the folders, as (relative path, owning folder)."""
    seen = set()
    for folder in sorted(folders):
        for base, dirs, files in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                relative = os.path.relpath(os.path.join(base, name), root)
                if relative not in seen:
                    seen.add(relative)
                    yield relative, owner(relative, folders)


def declarations(root, files):
    """Each type name declared at the top level, with the folders declaring it."""
    declared = {}
    for relative, folder in files:
        with open(os.path.join(root, relative), encoding="utf-8") as f:
            code = code_of(f.read())
        for line in code.splitlines():
            match = DECLARATION.match(line)
            if match:
                declared.setdefault(match.group(1), set()).add(folder)
    return declared


def uses(root, files, declared, modules):
    """Every use of another folder: (from, to, name) -> (file, line) of its first use."""
    found = {}
    for relative, folder in files:
        with open(os.path.join(root, relative), encoding="utf-8") as f:
            code = code_of(f.read())
        imports = {match.group(1) for match in map(IMPORT.match, code.splitlines()) if match}
        for number, line in enumerate(code.splitlines(), 1):
            imported = IMPORT.match(line)
            if imported and imported.group(1) in modules:
                names = [(imported.group(1), {modules[imported.group(1)]})]
            else:
                names = [(name, declared.get(name, ())) for name in IDENTIFIER.findall(line)]
            for name, homes in names:
                if folder in homes:
                    continue
                for home in homes:
                    # Another target's type is visible only to a file that imports it.
                    if module_of(home) != module_of(folder) and module_of(home) not in imports:
                        continue
                    found.setdefault((folder, home, name), f"{relative}:{number}")
    return found


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    graph = False
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--root" and args:
            root = args.pop(0)
        elif arg == "--graph":
            graph = True
        else:
            fail_setup(f"unknown argument {arg!r} (see the header of scripts/check-deps.py)")
    layers = read_layers(root)
    level = {folder: depth for depth, line in enumerate(layers) for folder in line}
    for folder in level:
        if not os.path.isdir(os.path.join(root, folder)):
            fail_setup(f"docs/architecture.md names {folder} in its layers, and it is not a folder")
    files = list(swift_files(root, level))
    # Every Swift file of Sources/ must lie in a folder of the layers, or it
    # would go unchecked (a new folder under Sources/ or Sources/Rulebench/).
    for base, dirs, names in os.walk(os.path.join(root, "Sources")):
        dirs.sort()
        for name in sorted(names):
            relative = os.path.relpath(os.path.join(base, name), root)
            if name.endswith(".swift") and owner(relative, level) is None:
                print(f"check-deps: {relative} lies in no folder of the layers in docs/architecture.md: "
                      "give its folder a line there")
                return 1
    modules = {folder.rsplit("/", 1)[-1]: folder for folder in level if folder.count("/") == 1}
    found = uses(root, files, declarations(root, files), modules)
    if graph:
        pairs = {}
        for (source, target, name) in found:
            pairs.setdefault((source, target), set()).add(name)
        for (source, target), names in sorted(pairs.items()):
            print(f"{source} -> {target}: {', '.join(sorted(names))}")
        return 0
    allowed = read_allowlist(root)
    problems = []
    for (source, target, name), place in sorted(found.items()):
        if level[target] > level[source]:
            continue
        if (source, target, name) in allowed:
            continue
        side = "beside it" if level[target] == level[source] else "above it"
        problems.append(f"{place}: {source} uses {name} of {target}, a folder {side} in the layers of docs/architecture.md")
    for (source, target, name), number in sorted(allowed.items(), key=lambda item: item[1]):
        if (source, target, name) not in found:
            problems.append(f"{ALLOWLIST}:{number}: {source} no longer uses {name} of {target}: remove this line")
        elif source in level and target in level and level[target] > level[source]:
            problems.append(f"{ALLOWLIST}:{number}: {source} -> {target} points down: remove this line")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-deps: {len(problems)} problem(s); a folder may use only the folders below it")
        return 1
    print(f"check-deps: {len(files)} Swift files, every use points down ({len(allowed)} known exceptions)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
