// Every way the check must recognise an import. The self-test compares the imports it finds here
// with the `expects:` markers (in comments, which the scan itself ignores). Odd on purpose, so
// not formatted: CI lints only Sources, Tests and Examples.
@preconcurrency import DepKit  // expects: DepKit
@_exported import struct Lib.Thing  // expects: Lib
public import Lib; import Lib  // expects: Lib Lib
internal import class Foundation.JSONDecoder  // expects: Foundation

#if false
    import Lib.Submodule  // expects: Lib (a submodule path: the module is its first component)
#endif

// A conditional import is still an import: it must be declared or be a system module.
#if canImport(Lib)
    import Lib  // expects: Lib
#endif

#if canImport(Glibc)
    import Glibc  // expects: Glibc
#elseif canImport(Darwin)
    import Darwin  // expects: Darwin
#endif

// Not imports: comments (block comments nest) and string literals.
/*
import NotAModule
    /* a nested comment */
import NotAModule
*/
let notImports = """
    import NotAModule
    \(["a", "b"].joined(separator: "\"")) import NotAModule
    """
let rawNotImport = #"\(not interpolation)" import NotAModule"#
let afterStrings = "// not a comment"; import Lib  // expects: Lib

// Uses the `public import` of Lib in a public declaration.
public typealias FixtureThing = Thing
