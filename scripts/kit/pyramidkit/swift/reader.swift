// The kit's one reader of Swift: the toolchain's own SwiftSyntax, SwiftParser and SwiftIfConfig (the host modules
// every swift.org toolchain ships in usr/lib/swift/host), compiled once per toolchain by pyramidkit/swift/reader.py.
//
// Reads the files named on standard input (one path a line) as the compiler reads them and writes one JSON object a
// line, per file, in their order. What the kit's tools ask of Swift:
//   compiled   the lines the build at hand compiles: `#if` evaluated by the compiler's rules for the configuration
//              given in the first argument (a JSON object, below); a directive's own lines are not compiled
//   unknown    [first line, last line, why] of each `#if` whose condition this configuration cannot settle (a
//              feature, an attribute, a module version): none of its lines is counted compiled, none guessed
//   inactive   [first line, last line, condition] of each `#if` branch this build leaves out (an `#else`'s
//              condition: the others' negated)
//   branches   [line, condition, imports only] of each `#if` and `#elseif` branch, taken or not: its condition as
//              written, and whether it holds imports and nothing else
//   tests      [line, what] of each declaration of tests: `XCTestCase` (a class that inherits it), `func test`
//              (a function named test…), `@Test`, `@Suite`
//   types      [name, kind, empty init] of each struct, class, enum, actor and extension: whether `.init()` makes
//              one (an `init()` of its own; a struct, or a class that inherits nothing, without initializers whose
//              stored properties all have values)
//   properties [name, type] of each variable declared with its type (stored properties and locals)
//   strings    [line, text, whole] of each string literal that starts with text: its first segment as written, and
//              whether that is the whole literal (no interpolation after it)
//   errors     [line, message] of what the parser could not read (a region the tools leave alone)
//   noncode    [start, end) UTF-8 offsets of comments, string literals (their interpolations with them) and regex
//              literals
//   imports    [line, module, attributes] of every `import` (compiled or not: `compiled` says)
//   inlined    lines of declarations marked @_transparent, @inlinable or @_alwaysEmitIntoClient (their bodies are
//              compiled into the modules that call them)
//   statements [first line, last line, kind, needed, alone, column, end column, sets] of every statement: kind
//              `call` (a call, nothing around it), `try` (a call under try or await), `assign` (`sets`: the names
//              of its left side), `discard` (`_ = ...`), `throw`, `return`, `defer`, `other`; needed: removed,
//              the code no longer type-checks, as the compiler's rules say without types: its value is the value of
//              the body around it (a single-expression function or getter that returns a value, a branch of an if
//              or switch expression), or it ends a path that must end (the last statement of a guard's else or of a
//              body that returns a value: a return, a throw, a call that never returns), or it is `self.init(…)` or
//              `super.init(…)`, an initializer's `self = …`, or sets a local declared above it without a value
//   bodies     [line, column, kind, returns, generics, text, last line, parameters] of each function, initializer or
//              computed property with a body: the line and UTF-8 column just after its `{`, `returns` its declared
//              type (null: none), `generics` its generic parameters' names, `text` its statements as written, the
//              line of its `}`, its parameters as [name inside the body, declared type], its name (`init` for an
//              initializer), the line its declaration starts on (attributes included), and whether its signature
//              holds `some` (an opaque type: the body decides it), and [name, type, default as written or "", line,
//              column] of the first read of each parameter in the body (none where it is shadowed or set first), and
//              what its return type is for an empty value (`shape`: optional, array, dictionary, none, or the type
//              as written; null: none), and where its one expression starts, [line, column], when it returns
//              that value without `return` (null otherwise). Also, with kind `deinit`, `subscript` and `accessors` (a typed property's
//              `get`/`set` block), the bodies of those declarations
//   calls      [line, callee, arguments, awaited, around, labels] of every call and macro expansion (`#expect`): the
//              name it is made by as written, without generic arguments or spaces (`Task`,
//              `stream.makeAsyncIterator`), on the line of its last part; how many arguments it is given (trailing
//              closures counted); whether an `await` covers it; the callees of the calls whose arguments or closures
//              hold it, innermost first; the labels of its arguments in parentheses ("" for none); and their
//              values as [line, column, last line, end column, kind, text] (kind: name, integer, decimal, other);
//              the column of its callee's last token
//   awaits     [line, awaited, around, form] of every `await` (form ""), every `for await` loop (form "for": its
//              sequence, on the loop's line) and every `await` that is a `while` loop's only statement (form
//              "while", on the loop's line): what is awaited as written, spaces collapsed, and the calls around it
//   bindings   [line, names, callee] of every `let` or `var` whose value is a call (under `try` or `await` too): the
//              names its pattern binds, in order, and the call's callee as in `calls`
//   comments   [line, text] of every comment, on the line it starts
//   declarations [line, last line, kind, name, inherits, depth, modifiers, functions] of every struct, class, enum,
//              actor, protocol, extension and typealias: an extension's name is its type's as written; what it
//              inherits or conforms to, as written, in order; how many type declarations hold it (0: top level); its
//              modifiers; its own functions as [name, modifiers]; its own variables as [name, modifiers, value as
//              written or ""]
//   references the names the file's expressions refer to (`FIONBIO` in `UInt(FIONBIO)`), each once, sorted
//   operators  [line, column, operator, left, right] of every infix operator between two operands of an expression
//              (not a generic clause's `<`, a same-type requirement's `==`, nor one in an attribute), its UTF-8 column
//              0-based, and what its neighbours are: `string` (a string literal), `array` (an array literal), `other`
//   literals   [line, column, text, kind, after] of every Boolean and integer literal outside attributes: kind
//              `boolean` or `integer`, and the text of the token before it
//   members    [line, column, name, base, call, label, last line, end column] of every member read from a base
//              (`items.first`, `list.filter { … }`): the column of its `.`, the base as written, how it is called
//              ("" not called, `parens`, `trailing`, `both`), its first argument's label, and where the member, or
//              the call of it, ends
//   entries    [first line, last line, elements] of every array and dictionary literal outside attributes: each
//              element as [line, column, last line, end column, starts, ends], its span without its comma, whether
//              no code is before it on its first line, and none after it (and its comma) on its last; then the
//              line and UTF-8 column just after its closing `]`, and a dictionary's keys as written ([] for an array)
//   guards     [line, column, last line, end column, conditions, binds, else line] of every `guard`: where its
//              conditions start and end (UTF-8 columns, 0-based), each condition as written, whether one of them
//              binds or matches (`let`, `var`, `case`, `#available`), the line of its `else`, and each
//              condition's [line, column, last line, end column]
//   choices    [first line, last line] of every `if` or `switch` expression whose value is used (its branches'
//              values must have one type)
//
// The configuration: {"os": ["Linux"], "arch": ["x86_64"], "environment": ["gnu"], "runtime": ["_Native"],
// "objectFormat": ["ELF"], "pointerBitWidth": 64, "endianness": "little", "language": [6], "compiler": [6, 3, 1],
// "conditions": ["DEBUG"], "importable": ["Foundation", ...], "features": ["ExistentialAny"]}. A `canImport` of a
// module not listed is false (the compiler finds no such module), with a version it is unknown; `hasFeature` of a
// feature not listed and `hasAttribute` are unknown.

import SwiftDiagnostics
import SwiftIfConfig
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A question this configuration leaves open: the `#if` that asks it is reported, not guessed.
struct Unknown: Error, CustomStringConvertible {
    let description: String
}

/// The build at hand, as the kit found it: what `#if` asks of the platform, the compiler and the package.
struct Configuration: BuildConfiguration {
    var fields: [String: JSON]

    func strings(_ key: String) -> Set<String> { Set(fields[key]?.array?.compactMap(\.string) ?? []) }
    func version(_ key: String) -> VersionTuple {
        VersionTuple(components: fields[key]?.array?.compactMap(\.int) ?? [6])
    }

    func isCustomConditionSet(name: String) throws -> Bool { strings("conditions").contains(name) }
    func hasFeature(name: String) throws -> Bool {
        if strings("features").contains(name) { return true }
        throw Unknown(description: "hasFeature(\(name))")
    }
    func hasAttribute(name: String) throws -> Bool { throw Unknown(description: "hasAttribute(\(name))") }
    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) throws -> Bool {
        let name = importPath.map(\.1).joined(separator: ".")
        if case .unversioned = version {
            return strings("importable").contains(importPath.first?.1 ?? "")
        }
        throw Unknown(description: "canImport(\(name)) of a version")
    }
    func isActiveTargetOS(name: String) throws -> Bool { strings("os").contains(name) }
    func isActiveTargetArchitecture(name: String) throws -> Bool { strings("arch").contains(name) }
    func isActiveTargetEnvironment(name: String) throws -> Bool { strings("environment").contains(name) }
    func isActiveTargetRuntime(name: String) throws -> Bool { strings("runtime").contains(name) }
    func isActiveTargetPointerAuthentication(name: String) throws -> Bool { false }
    func isActiveTargetObjectFormat(name: String) throws -> Bool { strings("objectFormat").contains(name) }
    var targetPointerBitWidth: Int { fields["pointerBitWidth"]?.int ?? 64 }
    var targetAtomicBitWidths: [Int] { [8, 16, 32, 64] }
    var endianness: Endianness { fields["endianness"]?.string == "big" ? .big : .little }
    var languageVersion: VersionTuple { version("language") }
    var compilerVersion: VersionTuple { version("compiler") }
}

/// Every fact of one file, gathered in one walk of its tree.
final class FileReader: SyntaxVisitor {
    let tree: SourceFileSyntax
    let converter: SourceLocationConverter
    let configuration: Configuration
    var notCompiled = Set<Int>()
    var unknown: [JSON] = []
    var inactive: [JSON] = []
    var branches: [JSON] = []
    var tests: [JSON] = []
    var types: [JSON] = []
    var strings: [JSON] = []
    var properties: [JSON] = []
    var noncode: [JSON] = []
    var imports: [JSON] = []
    var inlined: [JSON] = []
    var statements: [JSON] = []
    var bodies: [JSON] = []
    var calls: [JSON] = []
    var awaits: [JSON] = []
    var bindings: [JSON] = []
    var comments: [JSON] = []
    var declarations: [JSON] = []
    var references = Set<String>()
    var operators: [JSON] = []
    var guards: [JSON] = []
    var choices: [JSON] = []
    var members: [JSON] = []
    var entries: [JSON] = []
    var literals: [JSON] = []

    init(tree: SourceFileSyntax, path: String, configuration: Configuration) {
        self.tree = tree
        self.converter = SourceLocationConverter(fileName: path, tree: tree)
        self.configuration = configuration
        super.init(viewMode: .sourceAccurate)
    }

    func line(_ position: AbsolutePosition) -> Int { converter.location(for: position).line }
    func firstLine(_ node: some SyntaxProtocol) -> Int { line(node.positionAfterSkippingLeadingTrivia) }
    func lastLine(_ node: some SyntaxProtocol) -> Int { line(node.endPositionBeforeTrailingTrivia) }

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        let (active, diagnostics) = node.activeClause(in: configuration)
        if let problem = diagnostics.first(where: { $0.diagMessage.severity == .error }) {
            unknown.append(.array([.int(firstLine(node)), .int(lastLine(node)), .string(problem.message)]))
            notCompiled.formUnion(firstLine(node)...lastLine(node))
            return .visitChildren
        }
        let clauses = Array(node.clauses)
        for clause in clauses {
            guard let condition = clause.condition else { continue }
            let items: [Syntax] = clause.elements.map { Array(Syntax($0).children(viewMode: .sourceAccurate)) } ?? []
            let importsOnly =
                !items.isEmpty
                && items.allSatisfy { item in
                    item.as(CodeBlockItemSyntax.self)?.item.is(ImportDeclSyntax.self)
                        ?? item.as(MemberBlockItemSyntax.self)?.decl.is(ImportDeclSyntax.self) ?? false
                }
            branches.append(
                .array([.int(firstLine(clause)), .string(condition.trimmedDescription), .bool(importsOnly)]))
        }
        for (index, clause) in clauses.enumerated() {
            let start = firstLine(clause)
            let bodyStart = clause.condition.map { lastLine($0) + 1 } ?? start + 1
            let end = index + 1 < clauses.count ? firstLine(clauses[index + 1]) - 1 : lastLine(node) - 1
            notCompiled.formUnion(start..<bodyStart)
            if clause.id != active?.id, bodyStart <= end {
                notCompiled.formUnion(bodyStart...end)
                let condition =
                    clause.condition?.trimmedDescription
                    ?? "!(" + clauses.compactMap { $0.condition?.trimmedDescription }.joined(separator: " || ") + ")"
                inactive.append(.array([.int(bodyStart), .int(end), .string(condition)]))
            }
        }
        notCompiled.insert(lastLine(node))  // #endif
        return .visitChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        var offset = token.position.utf8Offset
        for piece in token.leadingTrivia { offset = comment(piece, at: offset) }
        offset = token.endPositionBeforeTrailingTrivia.utf8Offset
        for piece in token.trailingTrivia { offset = comment(piece, at: offset) }
        return .skipChildren
    }

    func comment(_ piece: TriviaPiece, at offset: Int) -> Int {
        let end = offset + piece.sourceLength.utf8Length
        switch piece {
        case .lineComment(let text), .blockComment(let text), .docLineComment(let text), .docBlockComment(let text):
            noncode.append(.array([.int(offset), .int(end)]))
            comments.append(.array([.int(line(AbsolutePosition(utf8Offset: offset))), .string(text)]))
        default: break
        }
        return end
    }

    func literal(_ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
        noncode.append(
            .array([
                .int(node.positionAfterSkippingLeadingTrivia.utf8Offset),
                .int(node.endPositionBeforeTrailingTrivia.utf8Offset),
            ]))
        // Comments before and after the literal are the first and last tokens' trivia.
        if let first = node.firstToken(viewMode: .sourceAccurate) {
            var offset = first.position.utf8Offset
            for piece in first.leadingTrivia { offset = comment(piece, at: offset) }
        }
        if let last = node.lastToken(viewMode: .sourceAccurate) {
            var offset = last.endPositionBeforeTrailingTrivia.utf8Offset
            for piece in last.trailingTrivia { offset = comment(piece, at: offset) }
        }
        return .skipChildren
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        if let first = node.segments.first?.as(StringSegmentSyntax.self) {
            strings.append(
                .array([.int(firstLine(node)), .string(first.content.text), .bool(node.segments.count == 1)])
            )
        }
        return literal(node)
    }
    override func visit(_ node: RegexLiteralExprSyntax) -> SyntaxVisitorContinueKind { literal(node) }
    override func visit(_ node: SimpleStringLiteralExprSyntax) -> SyntaxVisitorContinueKind { literal(node) }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        let module = node.path.map(\.name.text).joined(separator: ".")
        let attributes = node.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
        imports.append(.array([.int(firstLine(node)), .string(module), .array(attributes.map(JSON.string))]))
        return .visitChildren
    }

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        let name = node.attributeName.trimmedDescription
        if ["_transparent", "inlinable", "_alwaysEmitIntoClient"].contains(name) {
            inlined.append(.int(firstLine(node)))
        }
        if name == "Test" || name == "Suite" || name == "Testing.Test" || name == "Testing.Suite" {
            tests.append(.array([.int(firstLine(node)), .string("@" + name.replacingPrefix("Testing."))]))
        }
        return .visitChildren
    }

    /// A type declared here, and whether `.init()` makes one: an `init()` of its own (not failable), or, for a
    /// struct without initializers, stored properties that all have a value or are optional `var`s.
    func declared(_ name: TokenSyntax, kind: String, members: MemberBlockSyntax, inherits: Bool) {
        var emptyInit = false
        var initializers = 0
        var allSet = true
        for member in members.members {
            if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                initializers += 1
                if initializer.signature.parameterClause.parameters.isEmpty, initializer.optionalMark == nil {
                    emptyInit = true
                }
            } else if let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
            {
                for binding in variable.bindings where binding.accessorBlock == nil && binding.initializer == nil {
                    let optional = binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) ?? false
                    if !(optional && variable.bindingSpecifier.tokenKind == .keyword(.var)) { allSet = false }
                }
            }
        }
        if initializers == 0, allSet, kind == "struct" || (kind == "class" && !inherits) { emptyInit = true }
        types.append(.array([.string(name.text), .string(kind), .bool(emptyInit)]))
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        declaration(
            node, kind: "struct", name: node.name.text, inherits: node.inheritanceClause, modifiers: node.modifiers,
            members: node.memberBlock)
        declared(node.name, kind: "struct", members: node.memberBlock, inherits: false)
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        declaration(
            node, kind: "enum", name: node.name.text, inherits: node.inheritanceClause, modifiers: node.modifiers,
            members: node.memberBlock)
        declared(node.name, kind: "enum", members: node.memberBlock, inherits: false)
        return .visitChildren
    }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        declaration(
            node, kind: "actor", name: node.name.text, inherits: node.inheritanceClause, modifiers: node.modifiers,
            members: node.memberBlock)
        declared(node.name, kind: "actor", members: node.memberBlock, inherits: false)
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        declaration(
            node, kind: "extension", name: node.extendedType.trimmedDescription, inherits: node.inheritanceClause,
            modifiers: node.modifiers, members: node.memberBlock)
        let name = TokenSyntax.identifier(node.extendedType.trimmedDescription)
        declared(name, kind: "extension", members: node.memberBlock, inherits: true)
        return .visitChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        // A stored property's or a local's declared type, by its name: what an argument that names it holds.
        for binding in node.bindings where binding.accessorBlock == nil {
            if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                let type = binding.typeAnnotation?.type
            {
                properties.append(.array([.string(name), .string(type.trimmedDescription)]))
            }
        }
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        declaration(
            node, kind: "class", name: node.name.text, inherits: node.inheritanceClause, modifiers: node.modifiers,
            members: node.memberBlock)
        declared(node.name, kind: "class", members: node.memberBlock, inherits: node.inheritanceClause != nil)
        let inherited = node.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        if inherited.contains("XCTestCase") || inherited.contains("XCTest.XCTestCase") {
            tests.append(.array([.int(firstLine(node.name)), .string("XCTestCase")]))
        }
        return .visitChildren
    }

    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        statements.append(
            .array([
                .int(firstLine(node)), .int(lastLine(node)), .string(kind(of: node.item)),
                .bool(
                    valueUsed(node) || mustEnd(node) || initializes(node) || setsWhatMustBeSet(node)
                        || onlyTryOfADo(node)
                ),
                .bool(alone(node)), .int(place(node.firstToken(viewMode: .sourceAccurate) ?? .endOfFileToken()).1),
                .int(converter.location(for: node.endPositionBeforeTrailingTrivia).column - 1),
                .array(assignedNames(node.item)),
            ]))
        return .visitChildren
    }

    /// The names an assignment sets: each identifier of its left side (`self.count = 0`: self, count).
    func assignedNames(_ item: CodeBlockItemSyntax.Item) -> [JSON] {
        guard kind(of: item) == "assign", let expression = item.as(ExprSyntax.self) else { return [] }
        let left =
            expression.as(InfixOperatorExprSyntax.self)?.leftOperand
            ?? expression.as(SequenceExprSyntax.self)?.elements.first
        return left?.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .identifier(let name) = token.tokenKind { return JSON.string(name) } else { return nil }
        } ?? []
    }

    override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
        if node.parent?.is(IfExprSyntax.self) != true, expressionUsed(node) {  // an `else if` is its chain's
            choices.append(.array([.int(firstLine(node)), .int(lastLine(node))]))
        }
        return .visitChildren
    }

    override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
        if expressionUsed(node) { choices.append(.array([.int(firstLine(node)), .int(lastLine(node))])) }
        return .visitChildren
    }

    /// Whether `node`'s code is the only code on its lines: the token before it ends on a line above, the token
    /// after it starts on a line below (comments are no tokens).
    func alone(_ node: some SyntaxProtocol) -> Bool {
        guard let first = node.firstToken(viewMode: .sourceAccurate),
            let last = node.lastToken(viewMode: .sourceAccurate)
        else { return false }
        let before = first.previousToken(viewMode: .sourceAccurate).map { line($0.endPositionBeforeTrailingTrivia) }
        let after = last.nextToken(viewMode: .sourceAccurate).flatMap {
            $0.tokenKind == .endOfFile ? nil : firstLine($0)
        }
        return (before ?? 0) < firstLine(node) && (after ?? Int.max) > lastLine(node)
    }

    override func visit(_ node: GuardStmtSyntax) -> SyntaxVisitorContinueKind {
        let binds = node.conditions.contains { !$0.condition.is(ExprSyntax.self) }
        let (line, start) = place(node.conditions.firstToken(viewMode: .sourceAccurate) ?? node.guardKeyword)
        let end = converter.location(for: node.conditions.endPositionBeforeTrailingTrivia)
        let conditions = node.conditions.map { JSON.string($0.condition.trimmedDescription) }
        let spans: [JSON] = node.conditions.map { element in
            let (first, column) = place(element.condition.firstToken(viewMode: .sourceAccurate) ?? node.guardKeyword)
            let last = converter.location(for: element.condition.endPositionBeforeTrailingTrivia)
            return .array([.int(first), .int(column), .int(last.line), .int(last.column - 1)])
        }
        guards.append(
            .array([
                .int(line), .int(start), .int(end.line), .int(end.column - 1), .array(conditions), .bool(binds),
                .int(firstLine(node.elseKeyword)), .array(spans),
            ]))
        return .visitChildren
    }

    func kind(of item: CodeBlockItemSyntax.Item) -> String {
        if let expression = item.as(ExprSyntax.self) {
            if expression.is(FunctionCallExprSyntax.self) || expression.is(MacroExpansionExprSyntax.self) {
                return "call"
            }
            if expression.is(TryExprSyntax.self) || expression.is(AwaitExprSyntax.self) { return "try" }
            if let infix = expression.as(InfixOperatorExprSyntax.self) {
                if infix.operator.is(AssignmentExprSyntax.self) {
                    return infix.leftOperand.is(DiscardAssignmentExprSyntax.self)
                        ? discarded(infix.rightOperand) : "assign"
                }
                if let name = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
                    ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="].contains(name)
                {
                    return "assign"
                }
            }
            if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count >= 3 {
                let elements = Array(sequence.elements)
                if elements[1].is(AssignmentExprSyntax.self) {
                    return elements[0].is(DiscardAssignmentExprSyntax.self) ? discarded(elements[2]) : "assign"
                }
                if let name = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text, name.hasSuffix("="),
                    !["==", "!=", "<=", ">=", "===", "!=="].contains(name)
                {
                    return "assign"
                }
            }
        }
        if item.as(StmtSyntax.self)?.is(ThrowStmtSyntax.self) == true { return "throw" }
        if item.as(StmtSyntax.self)?.is(ReturnStmtSyntax.self) == true { return "return" }
        if item.as(StmtSyntax.self)?.is(DeferStmtSyntax.self) == true { return "defer" }
        return "other"
    }

    /// `discard` for `_ = value` where the value makes a call (its effect is what the statement is for), `other`
    /// where it does not (deleting `_ = name` changes nothing).
    func discarded(_ value: ExprSyntax) -> String {
        if value.is(FunctionCallExprSyntax.self) || value.is(MacroExpansionExprSyntax.self) { return "discard" }
        let calls = value.tokens(viewMode: .sourceAccurate).contains { token in
            token.parent?.is(FunctionCallExprSyntax.self) == true
                || token.parent?.parent?.is(FunctionCallExprSyntax.self) == true
        }
        return calls ? "discard" : "other"
    }

    /// Whether the statement's value is the value of what holds it: the one statement of a function's or getter's
    /// body that returns a value, or of a branch of an `if` or `switch` used as an expression.
    func valueUsed(_ item: CodeBlockItemSyntax) -> Bool {
        guard item.item.is(ExprSyntax.self) || item.item.as(StmtSyntax.self)?.is(ExpressionStmtSyntax.self) == true,
            let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1, let holder = list.parent
        else { return false }
        if holder.is(AccessorBlockSyntax.self) { return true }
        if let closure = holder.as(ClosureExprSyntax.self) { return closureValueTaken(closure) }
        if holder.is(SwitchCaseSyntax.self) {
            return holder.parent?.parent.flatMap { $0.as(SwitchExprSyntax.self) }.map(expressionUsed) ?? false
        }
        guard let block = holder.as(CodeBlockSyntax.self), let owner = block.parent else { return false }
        if let function = owner.as(FunctionDeclSyntax.self) {
            return function.signature.returnClause.map { !isVoid($0.type) } ?? false
        }
        if let accessor = owner.as(AccessorDeclSyntax.self) {
            return accessor.accessorSpecifier.tokenKind == .keyword(.get)
        }
        if owner.is(SubscriptDeclSyntax.self) { return true }
        if let condition = owner.as(IfExprSyntax.self) { return expressionUsed(condition) }
        return false
    }

    /// Whether a closure's value is taken.
    ///
    /// It is when the closure is an argument of a call (through `try`, `await`) whose own value is used, or stands
    /// anywhere else (bound, returned, an operand). A closure handed to a call that is a statement
    /// of its own (`queue.async { … }`, `lock.withLock { … }` on a line of its own) gives a value nothing reads.
    func closureValueTaken(_ closure: ClosureExprSyntax) -> Bool {
        var node = Syntax(closure)
        while let parent = node.parent {
            if parent.is(LabeledExprSyntax.self) || parent.is(LabeledExprListSyntax.self)
                || parent.is(MultipleTrailingClosureElementSyntax.self)
                || parent.is(MultipleTrailingClosureElementListSyntax.self) || parent.is(TryExprSyntax.self)
                || parent.is(AwaitExprSyntax.self)
            {
                node = parent
                continue
            }
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != node.id {
                node = parent
                continue
            }
            if let item = parent.as(CodeBlockItemSyntax.self) { return valueUsed(item) }
            return true
        }
        return true
    }

    /// Whether the statement holds the only `try` of a `do` that catches: removed, the `catch` catches what nothing
    /// throws, and the type its `error` had (a typed throw's) is gone with it.
    func onlyTryOfADo(_ item: CodeBlockItemSyntax) -> Bool {
        func tries(_ node: some SyntaxProtocol) -> Bool {
            node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.try) }
        }
        guard tries(item), let list = item.parent?.as(CodeBlockItemListSyntax.self),
            let doStatement = list.parent?.parent?.as(DoStmtSyntax.self), !doStatement.catchClauses.isEmpty
        else { return false }
        return list.filter { tries($0) }.count == 1
    }

    /// Whether the statement is an assignment the code cannot do without.
    ///
    /// That is the assignment of `self` in an initializer (an enum's, a struct's), or of a local declared above it
    /// with no value (`let line: String`, set in each branch): removed, the compiler finds it used before it is set.
    func setsWhatMustBeSet(_ item: CodeBlockItemSyntax) -> Bool {
        guard let expression = item.item.as(ExprSyntax.self) else { return false }
        var target: ExprSyntax?
        if let infix = expression.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self) {
            target = infix.leftOperand
        } else if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count >= 3 {
            let elements = Array(sequence.elements)
            if elements[1].is(AssignmentExprSyntax.self) { target = elements[0] }
        }
        guard let target else { return false }
        // `(descriptor, self.port) = …`: each element is set.
        let targets = target.as(TupleExprSyntax.self).map { $0.elements.map(\.expression) } ?? [target]
        return targets.contains { sets($0, in: item) }
    }

    /// Whether setting `target` in the statement `item` is what must be set (`setsWhatMustBeSet`).
    func sets(_ target: ExprSyntax, in item: CodeBlockItemSyntax) -> Bool {
        let initializer = item.ancestorOrSelf(mapping: { $0.as(InitializerDeclSyntax.self) }) != nil
        if let member = target.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self), initializer
        {
            return storedWithoutValue(member.declName.baseName.text, around: item)
        }
        guard let name = target.as(DeclReferenceExprSyntax.self)?.baseName else { return false }
        if name.tokenKind == .keyword(.self) { return initializer }
        var scope: Syntax? = item.parent
        while let current = scope {
            if let list = current.as(CodeBlockItemListSyntax.self) {
                for earlier in list {
                    if earlier.position >= item.position { break }
                    guard let variable = earlier.item.as(DeclSyntax.self)?.as(VariableDeclSyntax.self) else { continue }
                    for binding in variable.bindings {
                        if binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name.text {
                            return binding.initializer == nil && binding.accessorBlock == nil
                        }
                    }
                }
            }
            if current.is(InitializerDeclSyntax.self) { return storedWithoutValue(name.text, around: current) }
            if current.is(FunctionDeclSyntax.self) || current.is(ClosureExprSyntax.self)
                || current.is(AccessorDeclSyntax.self)
            {
                return false
            }
            scope = current.parent
        }
        return false
    }

    /// Whether the type around `node` declares a stored property `name` that has no value until an initializer sets
    /// it: a `let` without one, or a `var` without one whose type is not optional.
    func storedWithoutValue(_ name: String, around node: some SyntaxProtocol) -> Bool {
        guard let members = node.ancestorOrSelf(mapping: { $0.asProtocol((any DeclGroupSyntax).self)?.memberBlock })
        else { return false }
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings
            where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                let optional = binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) ?? false
                return binding.initializer == nil && binding.accessorBlock == nil
                    && !(optional && variable.bindingSpecifier.tokenKind == .keyword(.var))
            }
        }
        return false
    }

    /// Whether the statement is an initializer's call of another (`self.init(…)`, `super.init(…)`), which a
    /// delegating or subclass initializer must make: removed, its properties are never set.
    func initializes(_ item: CodeBlockItemSyntax) -> Bool {
        var expression = item.item.as(ExprSyntax.self)
        while let wrapped = expression?.as(TryExprSyntax.self)?.expression
            ?? expression?.as(AwaitExprSyntax.self)?.expression
        {
            expression = wrapped
        }
        guard let called = expression?.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)
        else { return false }
        return called.declName.baseName.tokenKind == .keyword(.`init`)
    }

    /// Whether the statement ends a path that must not go on.
    ///
    /// That is the last statement of a `guard`'s `else`, or of a body that returns a value (or of a branch, a `do`
    /// or a `catch` that ends such a body). There it can only be a
    /// `return`, a `throw` or a call that never returns (`fatalError()`); removed, the path falls through, which the
    /// compiler rejects ("missing return", "guard body must not fall through").
    func mustEnd(_ item: CodeBlockItemSyntax) -> Bool {
        guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.last?.id == item.id,
            let holder = list.parent
        else { return false }
        if holder.is(AccessorBlockSyntax.self) { return true }
        if holder.is(SwitchCaseSyntax.self) {
            return holder.parent?.parent.flatMap { $0.as(SwitchExprSyntax.self) }.map(endsABody) ?? false
        }
        guard let block = holder.as(CodeBlockSyntax.self), let owner = block.parent else { return false }
        if owner.is(GuardStmtSyntax.self) || owner.is(SubscriptDeclSyntax.self) { return true }
        if let function = owner.as(FunctionDeclSyntax.self) {
            return function.signature.returnClause.map { !isVoid($0.type) } ?? false
        }
        if let accessor = owner.as(AccessorDeclSyntax.self) {
            return accessor.accessorSpecifier.tokenKind == .keyword(.get)
        }
        if let condition = owner.as(IfExprSyntax.self) { return endsABody(condition) }
        if owner.is(DoStmtSyntax.self) || owner.is(CatchClauseSyntax.self) {
            let statement = owner.is(CatchClauseSyntax.self) ? owner.parent?.parent : owner
            return statement.flatMap { $0.parent?.as(CodeBlockItemSyntax.self) }.map(mustEnd) ?? false
        }
        return false
    }

    /// Whether an `if` or `switch` is the last statement of a path that must end (`mustEnd`).
    func endsABody(_ expression: some ExprSyntaxProtocol) -> Bool {
        guard let parent = expression.parent else { return false }
        if let chain = parent.as(IfExprSyntax.self) { return endsABody(chain) }
        if let statement = parent.as(ExpressionStmtSyntax.self),
            let item = statement.parent?.as(CodeBlockItemSyntax.self)
        {
            return mustEnd(item)
        }
        if let item = parent.as(CodeBlockItemSyntax.self) { return mustEnd(item) }
        return false
    }

    /// Whether an `if` or `switch` is an expression whose value is taken (not a statement of its own).
    func expressionUsed(_ expression: some ExprSyntaxProtocol) -> Bool {
        guard let parent = expression.parent else { return false }
        if let chain = parent.as(IfExprSyntax.self) { return expressionUsed(chain) }
        if let statement = parent.as(ExpressionStmtSyntax.self),
            let item = statement.parent?.as(CodeBlockItemSyntax.self)
        {
            return valueUsed(item)
        }
        if let item = parent.as(CodeBlockItemSyntax.self) { return valueUsed(item) }
        return true
    }

    func isVoid(_ type: TypeSyntax) -> Bool {
        let text = type.trimmedDescription
        return text == "Void" || text == "()" || text == "Swift.Void"
    }

    /// Where the one expression of `statements` starts ([line, UTF-8 column]), or null.
    ///
    /// Only when the expression is all the body holds and the body returns its value without `return` (an
    /// implicit return): a schema holds such a body's default by writing `return ` there, after its own.
    func implicitReturn(_ statements: CodeBlockItemListSyntax?) -> JSON {
        guard let statements, statements.count == 1, let only = statements.first,
            only.item.is(ExprSyntax.self) || only.item.as(StmtSyntax.self)?.is(ExpressionStmtSyntax.self) == true,
            !returnsItself(only), let token = only.item.firstToken(viewMode: .sourceAccurate)
        else { return .null }
        let (line, column) = place(token)
        return .array([.int(line), .int(column)])
    }

    /// Whether `item` holds a `return` of the body it is in, outside every closure and nested declaration.
    ///
    /// Such an item (an `if` or `switch` statement whose branches return) is a statement, not the body's value.
    func returnsItself(_ item: CodeBlockItemSyntax) -> Bool {
        item.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.tokenKind == .keyword(.return) else { return false }
            var parent = token.parent
            while let current = parent, current.id != item.id {
                if current.is(ClosureExprSyntax.self) || current.is(DeclSyntax.self) { return false }
                parent = current.parent
            }
            return true
        }
    }

    /// What a declared return type is, for a body's empty value: "optional", "array" (also a set, an array slice),
    /// "dictionary", "none" where no empty value is written simply (a tuple, a function, `some` or `any`, a metatype,
    /// a pack), or else the type as written (`String`, `Logger.Level`, `Box<Int>`).
    func shape(of type: TypeSyntax) -> String {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return "optional"
        }
        if type.is(ArrayTypeSyntax.self) { return "array" }
        if type.is(DictionaryTypeSyntax.self) { return "dictionary" }
        if let attributed = type.as(AttributedTypeSyntax.self) { return shape(of: attributed.baseType) }
        if let named = type.as(IdentifierTypeSyntax.self) {
            if named.genericArgumentClause != nil {
                switch named.name.text {
                case "Optional": return "optional"
                case "Array", "Set", "ArraySlice", "ContiguousArray": return "array"
                case "Dictionary": return "dictionary"
                default: break
                }
            }
            return named.trimmedDescription
        }
        if type.is(MemberTypeSyntax.self) { return type.trimmedDescription }
        return "none"
    }

    /// Where the parameter `name` is first read in `body`: a reference to it (not a member's name, not a label),
    /// unless a declaration or a closure's parameter shadows it, or it is set, first (then none).
    func firstRead(of name: String, in body: some SyntaxProtocol) -> TokenSyntax? {
        for token in body.tokens(viewMode: .sourceAccurate) where token.text == name {
            guard let parent = token.parent else { continue }
            if parent.is(IdentifierPatternSyntax.self) || parent.is(ClosureShorthandParameterSyntax.self)
                || parent.is(ClosureParameterSyntax.self)
            {
                return nil
            }
            guard let reference = parent.as(DeclReferenceExprSyntax.self) else { continue }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                continue
            }
            if let list = reference.parent?.as(ExprListSyntax.self) {
                let elements = Array(list)
                if let at = elements.firstIndex(where: { $0.id == ExprSyntax(reference).id }), at + 1 < elements.count,
                    elements[at + 1].is(AssignmentExprSyntax.self)
                {
                    return nil
                }
            }
            return token
        }
        return nil
    }

    /// A body for `bodies`: `block` (a code block or an accessor block) of the declaration `declaration`.
    func body(
        _ block: (some SyntaxProtocol)?, of declaration: some SyntaxProtocol, kind: String, name: String,
        returns: TypeSyntax?, generics: GenericParameterClauseSyntax?, parameters: FunctionParameterListSyntax? = nil,
        signature: (some SyntaxProtocol)?
    ) {
        guard let block, let brace = block.firstToken(viewMode: .sourceAccurate)?.endPositionBeforeTrailingTrivia
        else { return }
        if case .accessors(let list)? = block.as(AccessorBlockSyntax.self)?.accessors,
            list.allSatisfy({ $0.body == nil })
        {
            return  // a requirement's `{ get set }`: no body
        }
        let statements =
            block.as(CodeBlockSyntax.self)?.statements.trimmedDescription
            ?? block.as(AccessorBlockSyntax.self).map { accessors in
                accessors.trimmedDescription.dropFirst().dropLast().trimmingSpaces()
            } ?? ""
        let opaque =
            signature?.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.some) } ?? false
        let location = converter.location(for: brace)
        let names = generics?.parameters.map { JSON.string($0.name.text) } ?? []
        let returned: JSON = returns.map { isVoid($0) ? .null : .string($0.trimmedDescription) } ?? .null
        let shaped: JSON = returns.map { isVoid($0) ? .null : .string(shape(of: $0)) } ?? .null
        let getter: CodeBlockItemListSyntax? =
            if case .getter(let list)? = block.as(AccessorBlockSyntax.self)?.accessors { list } else { nil }
        let statementsOnly = block.as(CodeBlockSyntax.self)?.statements ?? getter
        let implicit = returns.map(isVoid) ?? true ? .null : implicitReturn(statementsOnly)
        let typed: [JSON] =
            parameters?.map { parameter in
                let name = (parameter.secondName ?? parameter.firstName).text
                return .array([.string(name), .string(parameter.type.trimmedDescription)])
            } ?? []
        let reads: [JSON] =
            parameters?.compactMap { parameter in
                let name = (parameter.secondName ?? parameter.firstName).text
                guard name != "_", let read = firstRead(of: name, in: block) else { return nil }
                let (line, column) = place(read)
                return .array([
                    .string(name), .string(parameter.type.trimmedDescription),
                    .string(parameter.defaultValue?.value.trimmedDescription ?? ""), .int(line), .int(column),
                ])
            } ?? []
        bodies.append(
            .array([
                .int(location.line), .int(location.column - 1), .string(kind), returned,
                .array(names), .string(statements), .int(lastLine(block)), .array(typed), .string(name),
                .array(reads),
                .int(firstLine(declaration)), .bool(opaque), shaped, implicit,
            ]))
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.name.text.hasPrefix("test") {
            tests.append(.array([.int(firstLine(node.name)), .string("func test")]))
        }
        body(
            node.body, of: node, kind: "func", name: node.name.text, returns: node.signature.returnClause?.type,
            generics: node.genericParameterClause, parameters: node.signature.parameterClause.parameters,
            signature: node.signature)
        return .visitChildren
    }

    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        body(
            node.body, of: node, kind: "deinit", name: "deinit", returns: nil, generics: nil,
            signature: Optional<TokenSyntax>.none)
        return .visitChildren
    }

    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
        body(
            node.accessorBlock, of: node, kind: "subscript", name: "subscript", returns: node.returnClause.type,
            generics: node.genericParameterClause, parameters: node.parameterClause.parameters,
            signature: node.returnClause)
        return .visitChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        body(
            node.body, of: node, kind: "init", name: "init", returns: nil, generics: node.genericParameterClause,
            parameters: node.signature.parameterClause.parameters, signature: node.signature)
        return .visitChildren
    }

    /// The name a call is made by, as written: its tokens without generic arguments or spaces.
    func callee(_ expression: ExprSyntax) -> String {
        expression.tokens(viewMode: .sourceAccurate).filter { token in
            var parent = token.parent
            while let current = parent, current.id != expression.id {
                if current.is(GenericArgumentClauseSyntax.self) { return false }
                parent = current.parent
            }
            return true
        }.map(\.text).joined()
    }

    /// `node`'s tokens as written, one space where trivia (spaces, newlines, comments) parts two, none before a `.`.
    func spaced(_ node: some SyntaxProtocol) -> String {
        var text = ""
        var parted = false
        for token in node.tokens(viewMode: .sourceAccurate) {
            if !text.isEmpty, parted || !token.leadingTrivia.isEmpty, token.tokenKind != .period { text += " " }
            text += token.text
            parted = !token.trailingTrivia.isEmpty
        }
        return text
    }

    /// The callees of the calls whose arguments or closures hold `node`, innermost first.
    func around(_ node: some SyntaxProtocol) -> JSON {
        var names: [JSON] = []
        var child = Syntax(node)
        while let parent = child.parent {
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != child.id {
                names.append(.string(callee(call.calledExpression)))
            }
            child = parent
        }
        return .array(names)
    }

    /// Whether an `await` covers `node`: one around it in the same expression (a closure is an expression of its own).
    func awaited(_ node: some SyntaxProtocol) -> Bool {
        var parent = node.parent
        while let current = parent, !current.is(ClosureExprSyntax.self), !current.is(CodeBlockItemSyntax.self) {
            if current.is(AwaitExprSyntax.self) { return true }
            parent = current.parent
        }
        return false
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let named = node.calledExpression.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) }
        let count =
            node.arguments.count + (node.trailingClosure == nil ? 0 : 1) + node.additionalTrailingClosures.count
        calls.append(
            .array([
                .int(firstLine(named ?? Syntax(node))), .string(callee(node.calledExpression)), .int(count),
                .bool(awaited(node)), around(node), .array(node.arguments.map { .string($0.label?.text ?? "") }),
                .array(node.arguments.map { value($0.expression) }),
                .int(place(node.calledExpression.lastToken(viewMode: .sourceAccurate) ?? .endOfFileToken()).1),
            ]))
        return .visitChildren
    }

    /// An argument's value for `calls`: [line, column, last line, end column, kind, text]: kind `name` (a name, or
    /// names joined by dots: `self.x`), `integer`, `decimal` (a number, negative too), `other`.
    func value(_ expression: ExprSyntax) -> JSON {
        let first = expression.firstToken(viewMode: .sourceAccurate) ?? .endOfFileToken()
        let (line, column) = place(first)
        let end = converter.location(for: expression.endPositionBeforeTrailingTrivia)
        var number: ExprSyntax? = expression
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            number = prefix.expression
        }
        var kind = "other"
        if number?.is(IntegerLiteralExprSyntax.self) == true {
            kind = "integer"
        } else if number?.is(FloatLiteralExprSyntax.self) == true {
            kind = "decimal"
        } else if names(expression) {
            kind = "name"
        }
        return .array([
            .int(line), .int(column), .int(end.line), .int(end.column - 1), .string(kind),
            .string(expression.trimmedDescription),
        ])
    }

    /// Whether `expression` is a name or names joined by dots (`x`, `self.x`, `a.b`), no call, no keyword but `self`.
    func names(_ expression: ExprSyntax) -> Bool {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            if case .identifier = reference.baseName.tokenKind { return reference.argumentNames == nil }
            return reference.baseName.tokenKind == .keyword(.self)
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            if case .identifier = member.declName.baseName.tokenKind { return names(base) }
        }
        return false
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        let count =
            node.arguments.count + (node.trailingClosure == nil ? 0 : 1) + node.additionalTrailingClosures.count
        calls.append(
            .array([
                .int(firstLine(node)), .string("#" + node.macroName.text), .int(count), .bool(awaited(node)),
                around(node), .array(node.arguments.map { .string($0.label?.text ?? "") }),
                .array(node.arguments.map { value($0.expression) }), .int(place(node.macroName).1),
            ]))
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        guard let base = node.base, !inAttribute(node) else { return .visitChildren }
        let call = node.parent?.as(FunctionCallExprSyntax.self).flatMap { $0.calledExpression.id == node.id ? $0 : nil }
        var form = ""
        if let call {
            let parens = call.leftParen != nil
            let trailing = call.trailingClosure != nil
            form = parens && trailing ? "both" : trailing ? "trailing" : "parens"
        }
        let (line, column) = place(node.period)
        let end = converter.location(for: (call.map(Syntax.init) ?? Syntax(node)).endPositionBeforeTrailingTrivia)
        members.append(
            .array([
                .int(line), .int(column), .string(node.declName.baseName.text), .string(base.trimmedDescription),
                .string(form), .string(call?.arguments.first?.label?.text ?? ""), .int(end.line), .int(end.column - 1),
            ]))
        return .visitChildren
    }

    /// A literal's elements for `entries`: each from its first node to its last, and its comma; where the literal
    /// ends (just after its `]`) and, for a dictionary, each element's key as written.
    func literal(
        _ node: some ExprSyntaxProtocol, elements: [(Syntax, Syntax, TokenSyntax?)], keys: [String] = []
    ) {
        guard !inAttribute(node) else { return }
        let spans: [JSON] = elements.map { first, last, comma in
            let (line, column) = place(first.firstToken(viewMode: .sourceAccurate) ?? .endOfFileToken())
            let end = converter.location(for: last.endPositionBeforeTrailingTrivia)
            let before = first.firstToken(viewMode: .sourceAccurate)?.previousToken(viewMode: .sourceAccurate)
            let after = (comma ?? last.lastToken(viewMode: .sourceAccurate))?.nextToken(viewMode: .sourceAccurate)
            let startsLine = (before.map { self.line($0.endPositionBeforeTrailingTrivia) } ?? 0) < line
            let endsLine = (after.map { firstLine($0) } ?? Int.max) > end.line
            return .array([
                .int(line), .int(column), .int(end.line), .int(end.column - 1), .bool(startsLine), .bool(endsLine),
            ])
        }
        let closing = converter.location(for: node.endPositionBeforeTrailingTrivia)
        entries.append(
            .array([
                .int(firstLine(node)), .int(lastLine(node)), .array(spans), .int(closing.line),
                .int(closing.column - 1), .array(keys.map(JSON.string)),
            ]))
    }

    override func visit(_ node: ArrayExprSyntax) -> SyntaxVisitorContinueKind {
        literal(node, elements: node.elements.map { (Syntax($0.expression), Syntax($0.expression), $0.trailingComma) })
        return .visitChildren
    }

    override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind {
        if case .elements(let list) = node.content {
            literal(
                node, elements: list.map { (Syntax($0.key), Syntax($0.value), $0.trailingComma) },
                keys: list.map(\.key.trimmedDescription))
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        references.insert(node.baseName.text)
        return .visitChildren
    }

    /// Whether `node` is part of an attribute (`@available(macOS 10.15, *)`, `@Option(name: .long)`).
    func inAttribute(_ node: some SyntaxProtocol) -> Bool {
        var parent = node.parent
        while let current = parent {
            if current.is(AttributeSyntax.self) { return true }
            parent = current.parent
        }
        return false
    }

    /// The line and 0-based UTF-8 column of a token.
    func place(_ token: TokenSyntax) -> (Int, Int) {
        let location = converter.location(for: token.positionAfterSkippingLeadingTrivia)
        return (location.line, location.column - 1)
    }

    override func visit(_ node: BinaryOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        guard !inAttribute(node), let list = node.parent?.as(ExprListSyntax.self) else { return .visitChildren }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == ExprSyntax(node).id }) else { return .visitChildren }
        func neighbour(_ at: Int) -> JSON {
            guard elements.indices.contains(at) else { return .string("other") }
            if elements[at].is(StringLiteralExprSyntax.self) { return .string("string") }
            if elements[at].is(ArrayExprSyntax.self) { return .string("array") }
            return .string("other")
        }
        let (line, column) = place(node.operator)
        operators.append(
            .array([.int(line), .int(column), .string(node.operator.text), neighbour(index - 1), neighbour(index + 1)]))
        return .visitChildren
    }

    func literal(_ token: TokenSyntax, kind: String, of node: some SyntaxProtocol) {
        guard !inAttribute(node) else { return }
        let (line, column) = place(token)
        let before = token.previousToken(viewMode: .sourceAccurate)?.text ?? ""
        literals.append(.array([.int(line), .int(column), .string(token.text), .string(kind), .string(before)]))
    }

    override func visit(_ node: BooleanLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        literal(node.literal, kind: "boolean", of: node)
        return .visitChildren
    }

    override func visit(_ node: IntegerLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        literal(node.literal, kind: "integer", of: node)
        return .visitChildren
    }

    /// A type's declaration (or an extension's) for `declarations`.
    func declaration(
        _ node: some SyntaxProtocol, kind: String, name: String, inherits: InheritanceClauseSyntax?,
        modifiers: DeclModifierListSyntax, members: MemberBlockSyntax?
    ) {
        var depth = 0
        var parent = node.parent
        while let current = parent {
            if current.isProtocol((any DeclGroupSyntax).self) { depth += 1 }
            parent = current.parent
        }
        let functions: [JSON] =
            members?.members.compactMap { member in
                member.decl.as(FunctionDeclSyntax.self).map { function in
                    .array([.string(function.name.text), .array(function.modifiers.map { .string($0.name.text) })])
                }
            } ?? []
        var variables: [JSON] = []
        for member in members?.members ?? [] {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                variables.append(
                    .array([
                        .string(name), .array(variable.modifiers.map { .string($0.name.text) }),
                        .string(binding.initializer?.value.trimmedDescription ?? ""),
                    ]))
            }
        }
        declarations.append(
            .array([
                .int(firstLine(node)), .int(lastLine(node)), .string(kind), .string(name),
                .array(inherits?.inheritedTypes.map { .string($0.type.trimmedDescription) } ?? []), .int(depth),
                .array(modifiers.map { .string($0.name.text) }), .array(functions), .array(variables),
            ]))
    }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        declaration(
            node, kind: "protocol", name: node.name.text, inherits: node.inheritanceClause, modifiers: node.modifiers,
            members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        declaration(
            node, kind: "typealias", name: node.name.text, inherits: nil, modifiers: node.modifiers, members: nil)
        return .visitChildren
    }

    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
        let item =
            node.parent?.as(CodeBlockItemSyntax.self)
            ?? node.parent?.as(ExpressionStmtSyntax.self)?.parent?.as(CodeBlockItemSyntax.self)
        let list = item?.parent?.as(CodeBlockItemListSyntax.self)
        let loop = list?.count == 1 ? list?.parent?.parent?.as(WhileStmtSyntax.self) : nil
        awaits.append(
            .array([
                .int(firstLine(loop.map(Syntax.init) ?? Syntax(node))), .string(spaced(node.expression)), around(node),
                .string(loop == nil ? "" : "while"),
            ]))
        return .visitChildren
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if node.awaitKeyword != nil {
            awaits.append(
                .array([.int(firstLine(node)), .string(spaced(node.sequence)), around(node), .string("for")]))
        }
        return .visitChildren
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        var value = node.initializer?.value
        while let wrapped = value?.as(TryExprSyntax.self)?.expression ?? value?.as(AwaitExprSyntax.self)?.expression {
            value = wrapped
        }
        if let call = value?.as(FunctionCallExprSyntax.self) {
            let names = node.pattern.tokens(viewMode: .sourceAccurate).filter {
                if case .identifier = $0.tokenKind { return true } else { return false }
            }
            bindings.append(
                .array([
                    .int(firstLine(node)), .array(names.map { .string($0.text) }),
                    .string(callee(call.calledExpression)),
                ]))
        }
        return computedProperty(node)
    }

    func computedProperty(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        // A computed property written with its statements directly in braces (no `get`/`set`).
        if case .getter(let statements)? = node.accessorBlock?.accessors, let type = node.typeAnnotation?.type,
            let block = node.accessorBlock
        {
            let brace = block.leftBrace.endPositionBeforeTrailingTrivia
            let location = converter.location(for: brace)
            bodies.append(
                .array([
                    .int(location.line), .int(location.column - 1), .string("var"),
                    .string(type.trimmedDescription), .array([]), .string(statements.trimmedDescription),
                    .int(lastLine(block)), .array([]), .string(node.pattern.trimmedDescription), .array([]),
                    .int(firstLine(node.parent?.parent ?? Syntax(node))), .bool(type.is(SomeOrAnyTypeSyntax.self)),
                    .string(shape(of: type)), implicitReturn(statements),
                ]))
        } else if case .accessors? = node.accessorBlock?.accessors, let type = node.typeAnnotation?.type {
            body(
                node.accessorBlock, of: node.parent?.parent ?? Syntax(node), kind: "accessors",
                name: node.pattern.trimmedDescription, returns: type, generics: nil, signature: type)
        }
        return .visitChildren
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

extension String {
    func replacingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}

/// A JSON value, written by hand: the reader links nothing but the toolchain's syntax modules and the C library.
indirect enum JSON {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    var array: [JSON]? { if case .array(let items) = self { return items } else { return nil } }
    var string: String? { if case .string(let text) = self { return text } else { return nil } }
    var int: Int? { if case .int(let number) = self { return number } else { return nil } }

    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let number): return String(number)
        case .string(let value): return JSON.quoted(value)
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { JSON.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// The configuration's JSON: one flat object of strings, numbers and arrays of them (all the kit writes).
    static func parse(_ text: String) -> JSON? {
        var scanner = Scanner(bytes: Array(text.utf8))
        return scanner.value()
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func skip() { while index < bytes.count, [32, 9, 10, 13].contains(bytes[index]) { index += 1 } }

        mutating func value() -> JSON? {
            skip()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var pairs: [(String, JSON)] = []
                skip()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(pairs)
                }
                while true {
                    guard case .string(let key)? = value() else { return nil }
                    skip()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let item = value() else { return nil }
                    pairs.append((key, item))
                    skip()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        return .object(pairs)
                    }
                    guard bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSON] = []
                skip()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                while true {
                    guard let item = value() else { return nil }
                    items.append(item)
                    skip()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        return .array(items)
                    }
                    guard bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
            case UInt8(ascii: "\""):
                index += 1
                var scalars: [UInt8] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                    scalars.append(bytes[index])
                    index += 1
                }
                index += 1
                return .string(String(decoding: scalars, as: UTF8.self))
            default:
                let start = index
                while index < bytes.count, !",]} \n\t\r".utf8.contains(bytes[index]) { index += 1 }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                if word == "true" || word == "false" { return .bool(word == "true") }
                if word == "null" { return .null }
                return Int(word).map(JSON.int)
            }
        }
    }
}

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func facts(of path: String, configuration: Configuration) -> JSON {
    guard let source = readFile(path) else {
        return .object([("path", .string(path)), ("unreadable", .string("cannot open the file"))])
    }
    let tree = Parser.parse(source: source)
    let reader = FileReader(tree: tree, path: path, configuration: configuration)
    reader.walk(tree)
    var errors: [JSON] = []
    if tree.hasError {
        for diagnostic in ParseDiagnosticsGenerator.diagnostics(for: tree) {
            errors.append(
                .array([.int(diagnostic.location(converter: reader.converter).line), .string(diagnostic.message)]))
        }
    }
    let lines = reader.converter.location(for: tree.endPosition).line
    var compiled: [JSON] = []
    for number in 1...max(lines, 1) where !reader.notCompiled.contains(number) { compiled.append(.int(number)) }
    return .object([
        ("path", .string(path)), ("compiled", .array(compiled)), ("unknown", .array(reader.unknown)),
        ("inactive", .array(reader.inactive)), ("branches", .array(reader.branches)), ("tests", .array(reader.tests)),
        ("types", .array(reader.types)),
        ("properties", .array(reader.properties)), ("strings", .array(reader.strings)),
        ("errors", .array(errors)), ("noncode", .array(reader.noncode)), ("imports", .array(reader.imports)),
        ("inlined", .array(reader.inlined)), ("statements", .array(reader.statements)),
        ("bodies", .array(reader.bodies)), ("calls", .array(reader.calls)), ("awaits", .array(reader.awaits)),
        ("bindings", .array(reader.bindings)), ("comments", .array(reader.comments)),
        ("declarations", .array(reader.declarations)),
        ("references", .array(reader.references.sorted().map(JSON.string))),
        ("operators", .array(reader.operators)), ("literals", .array(reader.literals)),
        ("guards", .array(reader.guards)), ("members", .array(reader.members)), ("entries", .array(reader.entries)),
        ("choices", .array(reader.choices)),
    ])
}

let arguments = CommandLine.arguments
guard arguments.count == 2, case .object(let pairs)? = JSON.parse(arguments[1]) else {
    fputs("usage: reader CONFIGURATION-JSON < paths (one a line)\n", stderr)
    exit(2)
}
let configuration = Configuration(fields: Dictionary(pairs, uniquingKeysWith: { $1 }))
while let line = readLine(strippingNewline: true) {
    guard !line.isEmpty else { continue }
    print(facts(of: line, configuration: configuration).text)
    fflush(stdout)
}
