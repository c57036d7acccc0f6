// Writes every form of DependencyStore that passes one to nine arguments to a factory, and the
// tests that run each of them, from the one description below: `register`, `resolve`,
// `tryResolve`, `resolveAsync`, `Provider`'s calls and `SampleArguments`.
//
//     swift Scripts/generate-arities.swift        (from the package's root, or from anywhere)
//
// Overloads rather than parameter packs: a stored factory closure whose type has a pack
// expansion, and the tuples made of packs, need runtime support that iOS 13 to 16 lack. The
// example in each form's documentation is the code its test runs, so an example cannot go wrong
// without a test failing. CI runs this and fails when the committed files differ from what it
// writes. What it writes is already as swift-format formats it: the lines are broken here where
// the formatter would break them.

import Foundation

let highestArity = 9
let width = 120

/// One argument of the examples: `Profile`'s initialiser takes all nine, each optional, and a
/// factory that takes N arguments passes the first N.
struct Sample {
    let label: String
    let type: String
    /// The value the examples pass, as Swift source.
    let value: String
    /// The value as `"\(value)"` prints it: what the test expects `Profile` to have kept.
    let printed: String
}

let samples = [
    Sample(label: "name", type: "String", value: "\"Ada\"", printed: "Ada"),
    Sample(label: "age", type: "Int", value: "36", printed: "36"),
    Sample(label: "city", type: "String", value: "\"London\"", printed: "London"),
    Sample(label: "admin", type: "Bool", value: "true", printed: "true"),
    Sample(label: "rank", type: "Int", value: "1", printed: "1"),
    Sample(label: "team", type: "String", value: "\"Engines\"", printed: "Engines"),
    Sample(label: "year", type: "Int", value: "1843", printed: "1843"),
    Sample(label: "score", type: "Double", value: "9.5", printed: "9.5"),
    Sample(label: "topic", type: "String", value: "\"math\"", printed: "math"),
]

let cardinals = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
let ordinals = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]

// MARK: - Text

func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }

/// `1...n` as `A1, A2` and the like.
func list(_ n: Int, _ item: (Int) -> String) -> String {
    (1...n).map(item).joined(separator: ", ")
}

/// `n` things: `one argument`, `two arguments`.
func count(_ n: Int, _ noun: String) -> String {
    "\(cardinals[n]) \(noun)\(n == 1 ? "" : "s")"
}

/// The values `a1, a2` gathered into the one value a factory's arguments travel as: the tuple, or
/// the single value.
func tuple(_ n: Int, _ item: (Int) -> String) -> String {
    n == 1 ? item(1) : "(" + list(n, item) + ")"
}

/// `items`, packed into lines of at most `width` columns at `indent`, as swift-format packs the
/// arguments of a call it breaks: as many on a line as fit, `close` after the last.
func pack(_ items: [String], indent: Int, close: String) -> [String] {
    var lines: [String] = []
    var line = ""
    for (index, item) in items.enumerated() {
        let piece = item + (index == items.count - 1 ? close : ",")
        if line.isEmpty {
            line = piece
        } else if indent + line.count + 1 + piece.count <= width {
            line += " " + piece
        } else {
            lines.append(spaces(indent) + line)
            line = piece
        }
    }
    lines.append(spaces(indent) + line)
    return lines
}

/// `head` (which ends with the opening parenthesis), `items` and `close`: on one line when it fits,
/// else broken after the parenthesis, with the items packed one level in.
func call(_ head: String, _ items: [String], close: String = ")", indent: Int) -> [String] {
    let line = head + items.joined(separator: ", ") + close
    if indent + line.count <= width { return [spaces(indent) + line] }
    return [spaces(indent) + head] + pack(items, indent: indent + 4, close: close)
}

/// A declaration: `head` (which ends with the opening parenthesis), its parameters, and `tail`
/// (the closing parenthesis and what follows it), on one line when it fits; else the parameters
/// packed on lines of their own and `tail` on its own line.
func declaration(_ head: String, _ parameters: [String], _ tail: String, indent: Int) -> [String] {
    let line = head + parameters.joined(separator: ", ") + tail
    if indent + line.count <= width { return [spaces(indent) + line] }
    return [spaces(indent) + head] + pack(parameters, indent: indent + 4, close: "") + [spaces(indent) + tail]
}

/// Prose as `///` lines of at most 100 columns: the first starts with `first`, the others with
/// `rest`.
func prose(_ text: String, first: String = "    /// ", rest: String? = nil) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
        let prefix = lines.isEmpty ? first : rest ?? first
        if !line.isEmpty, prefix.count + line.count + 1 + word.count > 100 {
            lines.append(prefix + line)
            line = ""
        }
        line += (line.isEmpty ? "" : " ") + word
    }
    lines.append((lines.isEmpty ? first : rest ?? first) + line)
    return lines
}

/// A callout: `> Important: ...`.
func callout(_ text: String) -> [String] { prose(text, first: "    /// > ") }

/// An item of a symbol's reference: `- Returns: ...`, its further lines indented under it.
func field(_ text: String) -> [String] { prose(text, first: "    /// ", rest: "    ///   ") }

/// Code as the lines of a documentation comment at indent 4: the example a form documents is the
/// code its test runs, where it stands at `indent` (8 in a test's body, 12 in a `do` block in it).
/// Its lines fit in the same width there as here.
func example(_ code: [String], indent: Int = 12) -> [String] {
    ["    ///", "    /// ```swift"] + code.map { "    /// " + $0.dropFirst(indent) } + ["    /// ```", "    ///"]
}

func parameters(_ entries: [(String, String)]) -> [String] {
    ["    /// - Parameters:"]
        + entries.flatMap { name, text in prose("- \(name): \(text)", first: "    ///   ", rest: "    ///     ") }
}

func argumentParameters(_ n: Int, _ text: (Int) -> String) -> [(String, String)] {
    (1...n).map { ("a\($0)", text($0)) }
}

// MARK: - The examples, which are also the tests' code

/// The first `n` sample values, as a resolve passes them.
func values(_ n: Int) -> [String] { samples.prefix(n).map(\.value) }

func registerExample(_ n: Int, indent: Int = 8) -> [String] {
    let used = samples.prefix(n)
    let signature = "(store, " + used.map { "\($0.label): \($0.type)" }.joined(separator: ", ") + ") in"
    let head = "store.register(Profile.self) {"
    var lines: [String]
    if indent + head.count + 1 + signature.count <= width {
        lines = [spaces(indent) + head + " " + signature]
    } else if indent + 4 + signature.count <= width {
        lines = [spaces(indent) + head, spaces(indent + 4) + signature]
    } else {
        let names = ["store"] + used.map { "\($0.label): \($0.type)" }
        lines = [spaces(indent) + head, spaces(indent + 4) + "("]
        lines += pack(names, indent: indent + 8, close: "")
        lines.append(spaces(indent + 4) + ") in")
    }
    let arguments = used.map { "\($0.label): \($0.label)" } + ["directory: store.resolve()"]
    lines += call("Profile(", arguments, indent: indent + 4)
    lines.append(spaces(indent) + "}")
    return lines
}

func resolveExample(
    _ n: Int, _ head: String = "let profile = store.resolve(", type: String = "Profile.self", indent: Int = 12
) -> [String] {
    call(head, [type, "arguments: " + values(n)[0]] + values(n).dropFirst(), indent: indent)
}

func tryResolveExample(_ n: Int) -> [String] { resolveExample(n, "let profile = try store.tryResolve(") }

func resolveAsyncExample(_ n: Int) -> [String] {
    resolveExample(n, "let profile = try await store.resolveAsync(")
}

func providerExample(_ n: Int, indent: Int = 12) -> [String] {
    [spaces(indent) + "let makeProfile = store.resolve(Provider<Profile>.self)"]
        + call("let profile = makeProfile(", ["arguments: " + values(n)[0]] + values(n).dropFirst(), indent: indent)
}

func sampleExample(_ n: Int, indent: Int = 12) -> [String] {
    call("let sample = SampleArguments(", ["for: Profile.self"] + values(n), indent: indent)
        + [spaces(indent) + "let report = store.verify(sampleArguments: [sample])"]
}

// MARK: - DependencyStore+Arities.generated.swift

func header(_ about: [String]) -> [String] {
    [
        "// Generated by Scripts/generate-arities.swift: do not edit by hand. To change these forms,",
        "// change the generator and run `swift Scripts/generate-arities.swift`; CI fails when the",
        "// committed file differs from what it writes.",
        "//",
    ] + about.map { "// " + $0 } + [""]
}

/// The generic parameters of the arguments: `A1, A2`.
func argumentTypes(_ n: Int) -> String { list(n) { "A\($0)" } }

func register(_ n: Int) -> [String] {
    var lines = prose("Registers a factory for `type` that takes \(count(n, "argument")) from the caller.")
    lines += example(
        registerExample(n).map { String($0.dropFirst(8)) } + resolveExample(n).map { String($0.dropFirst(12)) },
        indent: 0)
    lines += prose(
        "A resolve passes \(n == 1 ? "one value that casts" : "\(cardinals[n]) values, in this order, each of which casts") "
            + "to \(n == 1 ? "the argument's type" : "its argument's type") (a subclass, or a value for an optional, "
            + "will do). Values of other types, another number of them (a tuple is one value), or none trap "
            + "with the expected and the given types. With a cached scope, the arguments of the resolve that "
            + "builds the instance are the ones it keeps.")
    if n == 1 {
        lines.append("    ///")
        lines += prose(
            "A factory that takes one tuple, `{ (store, pair: (Int, String)) in ... }`, is resolved with one "
                + "tuple, `arguments: (1, \"a\")`; `arguments: 1, \"a\"` are two arguments, and trap.")
    }
    lines.append("    ///")
    lines += parameters([
        ("type", "The type that callers will ask for."),
        ("name", "Tells apart several registrations of one type; `nil` for the unnamed one."),
        ("scope", "How long a built instance lives; see ``Scope``."),
        ("fileID", "Where the registration is made, for diagnostics. Leave the default."),
        ("line", "The line of the registration. Leave the default."),
        ("factory", "Builds the value from the resolving store and the \(count(n, "argument"))."),
    ])
    lines += field(
        "- Returns: The registration, on which `closing { }` says how the store closes its instances (see "
            + "``RegistrationEntry``); you may ignore it.")
    lines.append("    @discardableResult")
    lines += declaration(
        "public func register<T, \(argumentTypes(n))>(",
        [
            "_ type: T.Type", "name: String? = nil", "scope: Scope = .unique", "fileID: StaticString = #fileID",
            "line: UInt = #line", "factory: @escaping (DependencyStore, \(argumentTypes(n))) -> T",
        ],
        ") -> RegistrationEntry<T> {", indent: 4)
    lines.append("        let types: [Any.Type] = [\(list(n) { "A\($0).self" })]")
    let opening = "return addFactory(name, scope, fileID, line, types) { (store, a: \(tuple(n) { "A\($0)" })) in"
    let body = "factory(store, \(n == 1 ? "a" : list(n) { "a.\($0 - 1)" }))"
    if 8 + opening.count + body.count + 3 <= width {
        lines.append("        \(opening) \(body) }")
    } else {
        lines += ["        \(opening)", "            \(body)", "        }"]
    }
    lines.append("    }")
    return lines
}

/// The parameters of a form that passes `n` arguments, after `type` and `name`.
func argumentDeclarations(_ n: Int) -> [String] {
    ["arguments a1: A1"] + (1...n).dropFirst().map { "_ a\($0): A\($0)" }
}

func resolveFamily(_ n: Int, form: String) -> [String] {
    let arguments = count(n, "argument")
    var lines: [String]
    let what: String
    let call: String
    var effects = ""
    switch form {
    case "resolve":
        lines = prose(
            "Builds the dependency registered for `type` with a factory that takes \(arguments), or returns "
                + "the instance its scope keeps.")
        lines += example(resolveExample(n))
        lines += callout(
            "Important: Values that do not cast to the factory's argument types in order, a factory that takes "
                + "another number of arguments (a tuple is one argument), or one that takes none trap with the "
                + "expected and the given types; `tryResolve` throws the same diagnostic instead.")
        what = "resolve"
        call = "return resolve(type, name: name, arguments: given, requester: .caller(fileID, line))"
    case "tryResolve":
        lines = prose(
            "Builds the dependency registered for `type` with a factory that takes \(arguments), or throws "
                + "when it cannot: `resolve(_:name:arguments:...)` with the trap turned into an error that "
                + "carries the same diagnostic.")
        lines += example(tryResolveExample(n))
        lines += prose(
            "Only this resolution is checked: when a factory it runs calls `resolve` for something that is "
                + "missing, that nested call still traps.")
        what = "tryResolve"
        effects = " throws(ResolutionError)"
        call = "return try resolveChecked(type, name: name, arguments: given, requester: .caller(fileID, line))"
    default:
        lines = prose(
            "Resolves `type` with \(arguments) from an `async` context, as `resolve(_:name:arguments:...)` does.")
        lines += example(resolveAsyncExample(n))
        lines += prose(
            "Only a plain factory takes arguments: a main-actor or `async` factory takes none. So this resolves "
                + "the registration it finds as the synchronous `resolve` does, on the calling task; a main-actor "
                + "or `async` registration asked for with arguments traps with the wrong-arguments diagnostic, "
                + "as do a missing registration and a cycle.")
        what = "resolveAsync"
        effects = " async throws"
        call = "return try await resolveAsync(type, name: name, arguments: given, requester: .caller(fileID, line))"
    }
    lines.append("    ///")
    lines += parameters(
        [
            ("type", "The type that was registered."),
            ("name", "The name it was registered under; `nil` for the unnamed one."),
        ] + argumentParameters(n) { "The factory's \(ordinals[$0]) argument." } + [
            ("fileID", "The caller's file, for diagnostics. Leave the default."),
            ("line", "The caller's line, for diagnostics. Leave the default."),
        ])
    lines += field("- Returns: What the registration's factory built, or the instance its scope keeps.")
    switch form {
    case "tryResolve":
        lines += field(
            "- Throws: ``ResolutionError`` when `type` is not registered, is already being built further up "
                + "this resolution chain, or its factory does not take these arguments "
                + "(see ``ResolutionError/Kind``).")
    case "resolveAsync":
        lines += field(
            "- Throws: Nothing of its own, since a factory that takes arguments is not `async`; but inside an "
                + "`async` factory that `verifyAsync()` runs, a problem of this resolve ends that factory by "
                + "throwing.")
    default:
        break
    }
    lines += declaration(
        "public func \(what)<T, \(argumentTypes(n))>(",
        ["_ type: T.Type = T.self", "name: String? = nil"] + argumentDeclarations(n) + [
            "fileID: StaticString = #fileID", "line: UInt = #line",
        ],
        ")\(effects) -> T {", indent: 4)
    lines.append("        let given = GivenArguments.of(\(tuple(n) { "a\($0)" }), count: \(n))")
    lines.append("        " + call)
    lines.append("    }")
    return lines
}

func storeFile() -> [String] {
    var lines = header([
        "The forms of `register`, `resolve`, `tryResolve` and `resolveAsync` that pass one to nine",
        "arguments to a factory (the forms without arguments are written by hand, with the rest of",
        "registration and resolution). Each gathers its arguments into one tuple and calls what",
        "DependencyStore+Arities.swift has once for all of them.",
    ])
    lines.append("extension DependencyStore {")
    var forms: [[String]] = []
    for n in 1...highestArity {
        forms.append(register(n))
    }
    for form in ["resolve", "tryResolve", "resolveAsync"] {
        for n in 1...highestArity {
            forms.append(resolveFamily(n, form: form))
        }
    }
    lines += forms.joined(separator: [""])
    lines.append("}")
    return lines
}

// MARK: - Provider+Arities.generated.swift

func providerFile() -> [String] {
    var lines = header([
        "The calls of a `Provider` that pass one to nine arguments to its value's factory (the call",
        "without arguments is written by hand, in Provider.swift).",
    ])
    lines.append("extension Provider {")
    var forms: [[String]] = []
    for n in 1...highestArity {
        var form = prose(
            "Resolves a `Value` whose factory takes \(count(n, "argument")), passing \(n == 1 ? "it" : "them").")
        form += example(providerExample(n))
        form += prose(
            "Each call is a resolve, as the registration's scope says. A provider resolved with arguments "
                + "carries them, and traps when it is called with more, rather than dropping either.")
        form.append("    ///")
        form += parameters(argumentParameters(n) { "The factory's \(ordinals[$0]) argument." })
        form += field("- Returns: What the registration's factory built, or the instance its scope keeps.")
        form += declaration(
            "public func callAsFunction<\(argumentTypes(n))>(", argumentDeclarations(n), ") -> Value {", indent: 4)
        form.append("        call(with: .of(\(tuple(n) { "a\($0)" }), count: \(n)))")
        form.append("    }")
        forms.append(form)
    }
    lines += forms.joined(separator: [""])
    lines.append("}")
    return lines
}

// MARK: - SampleArguments+Arities.generated.swift

func sampleArgumentsFile() -> [String] {
    var lines = header([
        "The initialisers of `SampleArguments` for a factory that takes one to nine arguments."
    ])
    lines.append("extension SampleArguments {")
    var forms: [[String]] = []
    for n in 1...highestArity {
        var form = prose(
            "Sample arguments for the registration of `type` (with `name`) whose factory takes "
                + "\(count(n, "argument")).")
        form += example(sampleExample(n))
        form += prose(
            "`verify()` builds the registration with these values. Values that its factory does not take are "
                + "reported as the wrong-arguments problem a resolve with them would trap with.")
        form.append("    ///")
        form += parameters(
            [
                ("type", "The type that was registered."),
                ("name", "The name it was registered under; `nil` for the unnamed one."),
            ] + argumentParameters(n) { "A value for the factory's \(ordinals[$0]) argument." })
        form += declaration(
            "public init<T, \(argumentTypes(n))>(",
            ["for type: T.Type", "name: String? = nil"] + (1...n).map { "_ a\($0): A\($0)" }, ") {", indent: 4)
        form.append("        self.init(type, name, .of(\(tuple(n) { "a\($0)" }), count: \(n)))")
        form.append("    }")
        forms.append(form)
    }
    lines += forms.joined(separator: [""])
    lines.append("}")
    return lines
}

// MARK: - EveryArityTests.generated.swift

func testFile() -> [String] {
    var lines = header([
        "Each number of arguments, one to nine, through every form that passes them: the examples of",
        "the forms' documentation, run as they are written, and what each builds checked against the",
        "values it was given.",
    ])
    lines += ["import DependencyStore", "import Foundation", "import Testing", ""]
    lines += [
        "/// What the examples build: a profile of the values its factory was given, which lists itself",
        "/// in the directory it is made with.",
        "final class Profile {",
        "    /// The values it was given, in order, as `\"\\(value)\"` prints them.",
        "    let fields: [String]",
        "",
    ]
    lines += declaration(
        "init(",
        samples.map { "\($0.label): \($0.type)? = nil" } + ["directory: ProfileDirectory"], ") {", indent: 4)
    lines += call("let given: [Any?] = [", samples.map(\.label), close: "]", indent: 8)
    lines += [
        "        fields = given.compactMap { $0.map { \"\\($0)\" } }",
        "        directory.made.update { $0.append(fields) }",
        "    }",
        "}",
        "",
        "/// Every profile made, as the fields it was given.",
        "final class ProfileDirectory: Sendable {",
        "    let made = Recorded<[[String]]>([])",
        "}",
        "",
        "@Suite struct EveryArityTests {",
    ]
    var tests: [[String]] = []
    for n in 1...highestArity {
        let expected = "[" + samples.prefix(n).map { "\"\($0.printed)\"" }.joined(separator: ", ") + "]"
        var test = [
            "    @Test func \(cardinals[n])Argument\(n == 1 ? "" : "s")() async throws {",
            "        let directory = ProfileDirectory()",
            "        let store = DependencyStore()",
            "        store.register(directory, for: ProfileDirectory.self)",
        ]
        test += registerExample(n)
        test.append("        let expected = \(expected)")
        for code in [resolveExample(n), tryResolveExample(n), resolveAsyncExample(n), providerExample(n)] {
            test += ["        do {"] + code + ["            #expect(profile.fields == expected)", "        }"]
        }
        test += ["        do {"]
        test += resolveExample(n, "let provider = store.resolve(", type: "Provider<Profile>.self", indent: 12)
        test += resolveExample(n, "let lazy = store.resolve(", type: "Lazy<Profile>.self", indent: 12)
        test += [
            "            #expect(provider().fields == expected, \"a provider resolved with arguments passes them\")",
            "            #expect(lazy.value.fields == expected, \"so does a lazy handle\")",
            "        }",
            "        let builtBefore = directory.made.value.count",
            "        do {",
        ]
        test += sampleExample(n)
        test += [
            "            #expect(report.isClean, \"\\(report)\")",
            "            #expect(report.skipped.isEmpty, \"the sample builds it\")",
            "        }",
            "        let builtByVerify = directory.made.value.dropFirst(builtBefore)",
            "        #expect(!builtByVerify.isEmpty && builtByVerify.allSatisfy { $0 == expected }, \"\\(builtByVerify)\")",
        ]
        // Another number of arguments, one fewer and one more, is refused.
        for other in [n - 1, n + 1] where other <= highestArity {
            let name = other > n ? "errorWithMore" : "errorWithFewer"
            // thrownError (in Fixtures.swift), not #require(throws:), which returns the error only
            // from Swift 6.1 on: Package.swift admits 6.0. Laid out as swift-format lays it out:
            // on one line when it fits, else the call to thrownError on lines of its own.
            let opening = "        let \(name) = try #require("
            let thrown = "thrownError(ResolutionError.self) {"
            let resolve =
                other == 0
                ? ["                try store.tryResolve(Profile.self)"]
                : resolveExample(other, "try store.tryResolve(", indent: 16)
            if resolve.count == 1, opening.count + thrown.count + resolve[0].count - 16 + 4 <= width {
                test.append(opening + thrown + " " + resolve[0].dropFirst(16) + " })")
            } else {
                test += [opening, "            " + thrown] + resolve + ["            })"]
            }
            test.append("        #expect(\(name).kind == .wrongArguments)")
        }
        test.append("    }")
        tests.append(test)
    }
    lines += tests.joined(separator: [""])
    lines.append("}")
    return lines
}

// MARK: - Writing

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let outputs: [(String, [String])] = [
    ("Sources/DependencyStore/Registration/DependencyStore+Arities.generated.swift", storeFile()),
    ("Sources/DependencyStore/Injection/Provider+Arities.generated.swift", providerFile()),
    ("Sources/DependencyStore/Verification/SampleArguments+Arities.generated.swift", sampleArgumentsFile()),
    ("Tests/DependencyStoreTests/EveryArityTests.generated.swift", testFile()),
]
for (path, lines) in outputs {
    let text = lines.joined(separator: "\n") + "\n"
    let url = root.appendingPathComponent(path)
    let old = try? String(contentsOf: url, encoding: .utf8)
    if old != text {
        try text.write(to: url, atomically: true, encoding: .utf8)
        print("wrote \(path)")
    } else {
        print("unchanged \(path)")
    }
}
