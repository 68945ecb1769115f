#!/usr/bin/env python3
"""Checks that every module a target imports is one of the target's declared dependencies.

    python3 Tools/check-imports.py [--package-path DIR]   # check the package (default: this repository)
    python3 Tools/check-imports.py --self-test            # prove the check fails on undeclared imports

A target may import:
  - a target of its own package that it lists in `dependencies:` (by name or `.target(name:)`);
  - a module that a product it lists (`.product(name:package:)`) exposes, i.e. a target in that
    product's `targets:` in the dependency's own manifest;
  - a system module (SYSTEM_MODULES below).
Anything else is reported: a module that only comes in transitively (it can vanish when another
package changes) and a module of a dependency that no product of it exposes (the dependency does
not promise it to anyone). `swift build --explicit-target-dependency-import-check error` is meant to
catch the first case but misses some imports; this script reads the manifests and the sources.

How: `swift package dump-package` gives the manifest as JSON; each dependency's manifest is dumped
from its checkout in .build/checkouts (or its path, for a local package), after a
`swift package resolve` when the checkouts are missing. Every `.swift` file under a target's
directory is scanned, with comments and string literals blanked out, for `import` declarations in
every spelling (attributes, access levels, `import struct M.T`, `import M.Sub`), including those in
`#if` blocks: a conditional import is still an import.

Output: one `path:line: error: ...` line per undeclared import (with a `note:` saying what to
declare, when the module is found) and exit status 1, or a one-line summary and exit status 0.
Known violations (KNOWN_VIOLATIONS) are printed as warnings and do not fail the check.
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Modules that come with the toolchain or the operating system, which no manifest declares.
# The toolchain's: the standard library and its companions, Foundation (and its Linux parts), the
# C libraries of each platform, and the test frameworks.
TOOLCHAIN_MODULES = {
    "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Synchronization", "Distributed",
    "Observation", "Foundation", "FoundationEssentials", "FoundationInternationalization",
    "FoundationNetworking", "FoundationXML", "CoreFoundation", "Dispatch", "Glibc", "Musl",
    "Android", "Bionic", "WASILibc", "WinSDK", "ucrt", "CRT", "Darwin", "ObjectiveC", "XCTest",
    "Testing",
}
# Apple's SDK frameworks, imported on Apple platforms only (the iOS SDK and its example app, usually
# behind `#if canImport(...)`). SwiftPM cannot declare them, so they are allowed by name: an explicit
# list, not "anything with a capital letter", so that a misspelt or new module still gets a look.
APPLE_FRAMEWORKS = {
    "os", "OSLog", "System", "AppKit", "UIKit", "SwiftUI", "Combine", "PassKit",
    "LocalAuthentication", "Security", "AuthenticationServices", "CryptoKit", "Network",
    "CFNetwork", "SystemConfiguration", "CoreGraphics", "CoreImage", "CoreText", "QuartzCore",
    "ImageIO", "UniformTypeIdentifiers", "SafariServices", "WebKit", "StoreKit", "UserNotifications",
    "DeviceCheck", "WatchConnectivity", "CoreNFC", "Contacts", "CoreLocation", "MapKit",
}
SYSTEM_MODULES = TOOLCHAIN_MODULES | APPLE_FRAMEWORKS
# Only a plugin target may import PackagePlugin (SwiftPM provides it to plugins).
PLUGIN_MODULES = {"PackagePlugin"}

# Imports of this repository that are known to be wrong and are tracked elsewhere, as
# (target, module): reason. Each is printed as a warning on every run, so it stays visible, and an
# entry that no longer matches any import is an error, so the list only ever shrinks.
KNOWN_VIOLATIONS = {}

# The target types whose sources are checked. System library and binary targets have no Swift sources.
CHECKED_TARGET_TYPES = {"regular", "executable", "test", "plugin", "macro"}

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPOSITORY, "Tools", "ImportCheckFixture")


class CheckError(Exception):
    """A problem that stops the check (a manifest that cannot be read, a missing checkout)."""


# MARK: - Reading the sources


def blank_comments_and_strings(text):
    """Returns `text` with comments and string literals' contents replaced by spaces.

    Newlines are kept, so line numbers stay right. Handles nested block comments, multi-line
    (\"\"\") and raw (#\"...\"#) string literals, escapes, and interpolations (code again, which
    may hold strings of its own).
    """
    out = []
    # What the scanner is inside, innermost last: ("string", hashes, multiline) or
    # ("interpolation", open parentheses). Empty: top-level code.
    stack = []
    i, n = 0, len(text)

    def blank(start, end):
        out.append("".join("\n" if c == "\n" else " " for c in text[start:end]))

    while i < n:
        in_code = not stack or stack[-1][0] == "interpolation"
        if in_code:
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                blank(i, end)
                i = end
            elif text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                blank(i, j)
                i = j
            elif text[i] in "#\"":
                quote = i
                while quote < n and text[quote] == "#":
                    quote += 1
                hashes = quote - i
                if text.startswith('"', quote):
                    multiline = text.startswith('"""', quote)
                    end = quote + (3 if multiline else 1)
                    stack.append(("string", hashes, multiline))
                    blank(i, end)
                    i = end
                else:  # `#if`, `#available`, ...: code
                    out.append(text[i : quote + 1])
                    i = quote + 1
            elif stack and text[i] in "()":
                kind, depth = stack.pop()
                depth += 1 if text[i] == "(" else -1
                if depth:
                    stack.append((kind, depth))
                    out.append(text[i])
                else:  # the interpolation's closing parenthesis: back in the string
                    out.append(" ")
                i += 1
            else:
                out.append(text[i])
                i += 1
        else:
            _, hashes, multiline = stack[-1]
            closing = ('"""' if multiline else '"') + "#" * hashes
            escape = "\\" + "#" * hashes
            if text.startswith(escape, i):
                after = i + len(escape)
                if text.startswith("(", after):
                    stack.append(("interpolation", 1))
                    blank(i, after + 1)
                    i = after + 1
                else:  # an escaped character (or a line continuation)
                    blank(i, after + 1)
                    i = after + 1
            elif text.startswith(closing, i):
                stack.pop()
                blank(i, i + len(closing))
                i += len(closing)
            elif text[i] == "\n" and not multiline:
                stack.pop()  # an unterminated one-line string: the compiler would stop here
                out.append("\n")
                i += 1
            else:
                blank(i, i + 1)
                i += 1
    return "".join(out)


# An import declaration: attributes (`@testable`, `@preconcurrency`, `@_spi(X)`, `@_exported`) and
# access levels in any order, an optional kind (`import struct M.T`), then the module path, whose
# first component is the module.
IMPORT = re.compile(
    r"""^\s*
    (?: (?: @\w+ (?:\([^)]*\))? | public | package | internal | fileprivate | private | open ) \s+ )*
    import \s+
    (?: (?: typealias | struct | class | enum | protocol | let | var | func ) \s+ )?
    `?(?P<module>[A-Za-z_]\w*)`?""",
    re.VERBOSE,
)


def imports_in(text):
    """Yields (line number, module) for every import declaration in Swift source `text`."""
    code = blank_comments_and_strings(text)
    for number, line in enumerate(code.split("\n"), start=1):
        for statement in line.split(";"):  # `import A; import B`
            match = IMPORT.match(statement)
            if match:
                yield number, match.group("module")


def swift_files(directory):
    """Every .swift file under `directory`, sorted (nothing is excluded: an excluded file is still
    source of this repository, and its imports must still make sense)."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d != ".build")
        found += [os.path.join(root, f) for f in sorted(files) if f.endswith(".swift")]
    return found


# MARK: - Reading the manifests


def module_name(target_name):
    """The module a target builds: its name with characters a C identifier cannot hold replaced
    by `_` (SwiftPM's `c99name`: target `provisio-fuzz` is module `provisio_fuzz`)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", target_name)
    return "_" + name if name[:1].isdigit() else name


class Manifests:
    """`swift package dump-package`, run once per package directory."""

    def __init__(self):
        self.cache = {}

    def dump(self, package_path):
        key = os.path.realpath(package_path)
        if key not in self.cache:
            result = subprocess.run(
                ["swift", "package", "dump-package", "--package-path", key],
                capture_output=True, text=True,
            )
            if result.returncode != 0:
                raise CheckError(f"swift package dump-package --package-path {key} failed:\n{result.stderr}")
            self.cache[key] = json.loads(result.stdout)
        return self.cache[key]

    def dump_all(self, package_paths):
        """Dumps several packages in parallel (each run mostly waits for the manifest's compiler)."""
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            return list(pool.map(self.dump, package_paths))


class Package:
    """A dependency package: its identity (what `.product(package:)` names), its products' modules
    and all its modules."""

    def __init__(self, identity, manifest):
        self.identity = identity
        self.name = manifest["name"]
        # product name -> the modules it exposes (its targets)
        self.products = {p["name"]: [module_name(t) for t in p["targets"]] for p in manifest["products"]}
        self.exposed = {m for modules in self.products.values() for m in modules}
        self.modules = {module_name(t["name"]) for t in manifest["targets"] if t["type"] not in ("test", "plugin")}

    def is_named(self, name):
        return name.lower() in (self.identity.lower(), self.name.lower())

    def product_of(self, module):
        """The name of a product that exposes `module`, preferring one named like it."""
        names = [p for p, modules in self.products.items() if module in modules]
        return module if module in names else (names[0] if names else None)


def checkout_name(location):
    """The directory of .build/checkouts a source-control dependency is checked out in: the last
    component of its URL, without `.git`."""
    base = location.rstrip("/").rsplit("/", 1)[-1]
    return base[: -len(".git")] if base.endswith(".git") else base


def dependency_paths(package_path, manifest):
    """identity -> directory of each dependency's manifest, resolving first if needed."""
    checkouts = os.path.join(package_path, ".build", "checkouts")
    paths, missing = {}, []
    for dependency in manifest["dependencies"]:
        (kind, (entry, *_)), = dependency.items()
        identity = entry["identity"]
        if kind == "fileSystem":
            paths[identity] = os.path.join(package_path, entry["path"])
        elif kind == "sourceControl":
            location = entry["location"]
            url = location["remote"][0]["urlString"] if "remote" in location else location["local"][0]
            paths[identity] = os.path.join(checkouts, checkout_name(url))
            if not os.path.isfile(os.path.join(paths[identity], "Package.swift")):
                missing.append(identity)
        else:
            raise CheckError(f"dependency {identity}: {kind} dependencies are not supported by this check")
    if missing:
        print(f"check-imports: no checkout of {', '.join(missing)}: swift package resolve", file=sys.stderr)
        subprocess.run(["swift", "package", "resolve", "--package-path", package_path], check=True)
        for identity in missing:
            if not os.path.isfile(os.path.join(paths[identity], "Package.swift")):
                raise CheckError(f"no checkout of {identity} at {paths[identity]} after swift package resolve")
    return paths


def target_directory(package_path, target):
    """Where a target's sources are: its `path:`, or SwiftPM's default for its type."""
    if target.get("path"):
        return os.path.join(package_path, target["path"])
    if target["type"] == "test":
        parents = ["Tests", "Sources", "Source", "src", "srcs"]
    elif target["type"] == "plugin":
        parents = ["Plugins"]
    else:
        parents = ["Sources", "Source", "src", "srcs"]
    for parent in parents:
        directory = os.path.join(package_path, parent, target["name"])
        if os.path.isdir(directory):
            return directory
    raise CheckError(f"target {target['name']}: no directory {parents[0]}/{target['name']}")


# MARK: - The check


def check(package_path, known_violations, manifests=None):
    """Checks the package at `package_path`; returns (exit status, lines to print)."""
    manifests = manifests or Manifests()
    package_path = os.path.abspath(package_path)
    root = manifests.dump(package_path)
    local_targets = {t["name"]: t for t in root["targets"]}

    paths = dependency_paths(package_path, root)
    identities = list(paths)
    packages = [Package(i, m) for i, m in zip(identities, manifests.dump_all([paths[i] for i in identities]))]

    def package_named(name):
        for package in packages:
            if package.is_named(name):
                return package
        raise CheckError(f"no dependency named {name}")

    # Packages found in .build/checkouts that the root does not depend on directly (loaded only to
    # explain an undeclared import of one of their modules).
    transitive = None

    def owner_of(module):
        """(package, is it a direct dependency) for a module of some package in the graph, or None."""
        nonlocal transitive
        for package in packages:
            if module in package.modules:
                return package, True
        if transitive is None:
            checkouts = os.path.join(package_path, ".build", "checkouts")
            known = {os.path.realpath(p) for p in paths.values()}
            others = sorted(
                os.path.join(checkouts, d) for d in (os.listdir(checkouts) if os.path.isdir(checkouts) else [])
                if os.path.isfile(os.path.join(checkouts, d, "Package.swift"))
                and os.path.realpath(os.path.join(checkouts, d)) not in known
            )
            transitive = [Package(os.path.basename(p).lower(), m) for p, m in zip(others, manifests.dump_all(others))]
        for package in transitive:
            if module in package.modules:
                return package, False
        return None

    errors, warnings, used_known = [], [], set()
    files_count = imports_count = 0
    checked = [t for t in root["targets"] if t["type"] in CHECKED_TARGET_TYPES]
    for target in checked:
        name = target["name"]
        declared = set(SYSTEM_MODULES) | (PLUGIN_MODULES if target["type"] == "plugin" else set())
        declared.add(module_name(name))
        for dependency in target.get("dependencies", []):
            (kind, value), = dependency.items()
            if kind in ("byName", "target") and value[0] in local_targets:
                declared.add(module_name(value[0]))
            elif kind == "byName":  # a dependency's product, by its name alone: `"Yams"`
                owners = [p for p in packages if value[0] in p.products]
                if not owners:
                    raise CheckError(f"target {name}: no target or product named {value[0]}")
                declared.update(owners[0].products[value[0]])
            elif kind == "product":
                product, package_name, aliases = value[0], value[1] or value[0], value[2] or {}
                package = package_named(package_name)
                if product not in package.products:
                    raise CheckError(f"target {name}: package {package_name} has no product {product}")
                declared.update(aliases.get(m, m) for m in package.products[product])

        for path in swift_files(target_directory(package_path, target)):
            files_count += 1
            shown = os.path.relpath(path, package_path)
            with open(path, encoding="utf-8") as source:
                text = source.read()
            for line, module in imports_in(text):
                imports_count += 1
                if module in declared:
                    continue
                owner = owner_of(module)
                if owner and module not in owner[0].exposed:
                    message = f"target '{name}' imports '{module}', a module of package {owner[0].identity} that no product exposes"
                    note = None
                else:
                    message = f"target '{name}' imports '{module}', which is not one of its declared dependencies"
                    if module in local_targets:
                        note = f'declare "{module}" in its dependencies'
                    elif owner:
                        package, direct = owner
                        note = f'declare .product(name: "{package.product_of(module)}", package: "{package.identity}")'
                        if not direct:
                            note += f" (and add package {package.identity} to the package's dependencies)"
                    else:
                        note = None
                if (name, module) in known_violations:
                    used_known.add((name, module))
                    warnings.append(f"{shown}:{line}: warning: {message} (known: {known_violations[(name, module)]})")
                else:
                    errors.append(f"{shown}:{line}: error: {message}")
                    if note:
                        errors.append(f"{shown}:{line}: note: {note}")

    for target, module in sorted(set(known_violations) - used_known):
        errors.append(
            f"error: KNOWN_VIOLATIONS lists target '{target}' importing '{module}', which no longer "
            "happens: remove the entry from Tools/check-imports.py"
        )
    if errors:
        return 1, warnings + errors
    summary = f"check-imports: {imports_count} imports in {files_count} files of {len(checked)} targets, all declared"
    if warnings:
        summary += f" but {len(warnings)} known violations (the warnings above)"
    return 0, warnings + [summary]


# MARK: - Self-test


def self_test():
    """Runs the check on copies of Tools/ImportCheckFixture, as committed and edited, and fails
    unless every case reports exactly what it should. Returns the exit status."""
    manifests = Manifests()
    failures = []

    def expect(condition, what):
        print(f"  {'ok  ' if condition else 'FAIL'} {what}")
        if not condition:
            failures.append(what)

    # The scanner finds exactly the imports marked `expects:` in the fixture's Spellings.swift.
    spellings = os.path.join(FIXTURE, "Sources", "App", "Spellings.swift")
    with open(spellings, encoding="utf-8") as source:
        text = source.read()
    marked = []
    for number, line in enumerate(text.split("\n"), start=1):
        match = re.search(r"// expects: ((?:[A-Za-z_]\w* ?)+)", line)
        if match:
            marked += [(number, module) for module in match.group(1).split()]
    found = list(imports_in(text))
    print("scanner: every spelling of an import, none in comments or strings")
    expect(found == marked, f"imports found {found} == marked {marked}")

    def case(title, edit=None, known=None, command_line=False):
        """Copies the fixture, applies `edit(directory)`, checks it (in this process, or by running
        this script as CI does); returns (exit status, lines printed)."""
        print(title)
        with tempfile.TemporaryDirectory() as temporary:
            copy = os.path.join(temporary, "ImportCheckFixture")
            shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns(".build", ".swiftpm"))
            if edit:
                edit(copy)
            if command_line:
                run = subprocess.run(
                    [sys.executable, os.path.abspath(__file__), "--package-path", copy],
                    capture_output=True, text=True,
                )
                status, lines = run.returncode, run.stdout.splitlines() + run.stderr.splitlines()
            else:
                status, lines = check(copy, known or {}, manifests)
        for line in lines:
            print(f"    | {line}")
        return status, lines

    def replace(directory, relative, old, new):
        path = os.path.join(directory, relative)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if text.count(old) != 1:
            raise CheckError(f"self-test: {relative} of the fixture does not hold {old!r} exactly once")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))

    def write(directory, relative, text):
        with open(os.path.join(directory, relative), "w", encoding="utf-8") as f:
            f.write(text)

    # 1. As committed, everything is declared.
    status, lines = case("declared: the fixture as committed passes")
    expect(status == 0, "exit status 0")
    expect(len(lines) == 1 and "all declared" in lines[0], "one summary line")

    # 2. App's imports of Lib, a target of the same package, become undeclared.
    def undeclare_lib(directory):
        replace(directory, "Package.swift", 'dependencies: ["Lib", .product', "dependencies: [.product")

    status, lines = case("undeclared target: App imports Lib without declaring it", undeclare_lib)
    lib_lines = sorted({n for n, m in marked if m == "Lib"})
    expected = [
        f"Sources/App/App.swift:1: error: target 'App' imports 'Lib', which is not one of its declared dependencies"
    ] + [
        f"Sources/App/Spellings.swift:{n}: error: target 'App' imports 'Lib', which is not one of its declared dependencies"
        for n, m in marked if m == "Lib"
    ]
    expect(status == 1, "exit status 1")
    expect([l for l in lines if ": error: " in l] == expected, f"an error for each of the {len(expected)} imports of Lib")
    expect(any('note: declare "Lib"' in l for l in lines), "a note saying what to declare")
    expect(len(lib_lines) >= 4, "Lib imported in several spellings")

    # 3. App imports DepExtra, a product of a declared package that App does not declare.
    def import_dep_extra(directory):
        write(directory, "Sources/App/Extra.swift", "import Foundation\nimport DepExtra\n")

    status, lines = case("undeclared product: App imports DepExtra of package dep", import_dep_extra)
    expect(status == 1, "exit status 1")
    expect(
        "Sources/App/Extra.swift:2: error: target 'App' imports 'DepExtra', which is not one of its declared dependencies" in lines,
        "the error names the file, line, target and module",
    )
    expect(
        'Sources/App/Extra.swift:2: note: declare .product(name: "DepExtra", package: "dep")' in lines,
        "the note names the product to declare",
    )

    # 4. App imports DepInternal, a module of package dep that no product exposes.
    def import_dep_internal(directory):
        write(directory, "Sources/App/Internal.swift", "#if canImport(DepInternal)\n    import DepInternal\n#endif\n")

    status, lines = case("non-product module: App imports DepInternal (in an #if canImport block)", import_dep_internal)
    expect(status == 1, "exit status 1")
    expect(
        lines == ["Sources/App/Internal.swift:2: error: target 'App' imports 'DepInternal', a module of package dep that no product exposes"],
        "exactly one error, naming the package",
    )

    # 5. The same, listed as a known violation: passes, with a warning.
    known = {("App", "DepInternal"): "fixture"}
    status, lines = case("known violation: the same, allowed by name", import_dep_internal, known)
    expect(status == 0, "exit status 0")
    expect(
        lines[0] == "Sources/App/Internal.swift:2: warning: target 'App' imports 'DepInternal', a module of package dep that no product exposes (known: fixture)",
        "printed as a warning",
    )

    # 6. A known violation that no longer happens fails, so the list cannot outlive its reason.
    status, lines = case("stale known violation: listed but not imported", known=known)
    expect(status == 1, "exit status 1")
    expect(any("no longer happens" in l for l in lines), "says to remove the entry")

    # 7. A test target's undeclared import is reported too.
    def test_imports_lib(directory):
        write(directory, "Tests/AppTests/LibTests.swift", "@testable import Lib\n")

    status, lines = case("test target: AppTests imports Lib, not declared", test_imports_lib)
    expect(status == 1, "exit status 1")
    expect(
        "Tests/AppTests/LibTests.swift:1: error: target 'AppTests' imports 'Lib', which is not one of its declared dependencies" in lines,
        "the error names the test target",
    )

    # 8. The same as 3, through the command line CI runs: the exit status is what fails CI.
    status, lines = case("command line: an undeclared import exits 1", import_dep_extra, command_line=True)
    expect(status == 1, "exit status 1")
    expect(any("imports 'DepExtra', which is not one of its declared dependencies" in l for l in lines), "the error printed")

    if failures:
        print(f"check-imports self-test: {len(failures)} failed")
        return 1
    print("check-imports self-test: all cases passed")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package-path", default=REPOSITORY, help="the package to check (default: this repository)")
    parser.add_argument("--self-test", action="store_true", help="check the checker on Tools/ImportCheckFixture")
    arguments = parser.parse_args()
    try:
        if arguments.self_test:
            return self_test()
        same = os.path.realpath(arguments.package_path) == os.path.realpath(REPOSITORY)
        status, lines = check(arguments.package_path, KNOWN_VIOLATIONS if same else {})
    except CheckError as error:
        print(f"check-imports: error: {error}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
