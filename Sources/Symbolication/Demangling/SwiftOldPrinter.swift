/// What ``SwiftOldDemangler`` reads from a Swift 1–3 mangling: only what the simplified form prints.
indirect enum OldNode {
    case module(String)
    /// A class, struct, enum, protocol or type alias in its context; `kind` is its mangling's letter (`C`, `V`, `O`,
    /// `P`, `a`).
    case nominal(context: OldNode, name: OldDeclName, kind: UInt8)
    case boundGeneric(OldNode, [OldNode])
    case tuple([(String?, OldNode)], variadic: Bool)
    case function(prefix: String, arguments: OldNode)
    /// A generic function type: the parameter count of each depth, then the type.
    case generic([Int], OldNode)
    case composition([OldNode])
    case genericParameter(depth: Int, index: Int)
    case text(String)
    case prefixed(String, OldNode)
    case suffixed(OldNode, String)
    case entity(kind: OldEntityKind, context: OldNode, name: OldDeclName?, type: OldNode?)
    /// A getter, setter, observer or addressor of the variable or subscript entity.
    case accessor(String, OldNode)
    case closure(implicit: Bool, number: Int, context: OldNode, type: OldNode)
    case defaultArgument(Int, OldNode)
    case variableInitializer(OldNode)
    /// A protocol witness: the requirement's entity and the conforming type.
    case witness(OldNode, OldNode)
}

enum OldEntityKind {
    case function, variable, `subscript`
    /// An initializer (`init`, `__allocating_init`): printed with its argument labels.
    case initializer(String)
    /// A deinitializer or ivar initializer or destroyer: a fixed name, no labels.
    case named(String)
}

/// A declaration's name; `local` is the discriminator of a name local to a function (`Collection #2`).
struct OldDeclName {
    let text: String
    let local: Int?
}

/// Prints an ``OldNode`` as `swift-demangle --simplified` does: no module names, argument labels without types,
/// no return types, type sugar (`[Int]`, `Int?`), contexts that are functions or local names after ` in `.
struct SwiftOldPrinter {
    private(set) var text = ""
    private(set) var overflowed = false
    private let limit: Int
    private var depth = 0

    init(limit: Int) {
        self.limit = limit
    }

    private mutating func emit(_ piece: String) {
        guard !overflowed else { return }
        text += piece
        if text.utf8.count > limit { overflowed = true }
    }

    mutating func printTop(_ node: OldNode) {
        print(node)
    }

    /// Prints `node`; as a prefix context, returns instead the node to print after ` in ` (a function-like or
    /// local entity cannot be a dotted prefix).
    @discardableResult
    private mutating func print(_ node: OldNode, asPrefixContext: Bool = false) -> OldNode? {
        guard !overflowed, depth < SwiftOldDemangler.maxDepth * 2 else {
            overflowed = true
            return nil
        }
        depth += 1
        defer { depth -= 1 }
        switch node {
        case .module:
            return nil
        case .nominal(let context, let name, _):
            if asPrefixContext, name.local != nil { return node }
            if let text = Self.sugarlessSwiftName(node) {
                emit(text)
                return nil
            }
            printEntityName(context: context, name: name, multiWord: name.local != nil, after: nil)
        case .boundGeneric(let base, let arguments):
            printBoundGeneric(base, arguments)
        case .tuple(let elements, let variadic):
            emit("(")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { emit(", ") }
                if let label = element.0 { emit(label + ": ") }
                print(element.1)
                if variadic, offset == elements.count - 1 { emit("...") }
            }
            emit(")")
        case .function(let prefix, let arguments):
            emit(prefix)
            emit(Self.labels(arguments))
        case .generic(let counts, let inner):
            emit(Self.signature(counts))
            if case .function = inner {} else { emit(" ") }
            print(inner)
        case .composition(let protocols):
            if protocols.isEmpty { emit("Any") }
            for (offset, proto) in protocols.enumerated() {
                if offset > 0 { emit(" & ") }
                print(proto)
            }
        case .genericParameter(let depth, let index):
            emit(Self.parameterName(depth: depth, index: index))
        case .text(let string):
            emit(string)
        case .prefixed(let prefix, let inner):
            emit(prefix)
            print(inner)
        case .suffixed(let inner, let suffix):
            printWrapped(inner)
            emit(suffix)
        case .entity(let kind, let context, let name, let type):
            if asPrefixContext, Self.isFunctionLike(kind) || name?.local != nil { return node }
            printEntity(kind: kind, context: context, name: name, type: type)
        case .accessor(let suffix, let entity):
            if asPrefixContext { return node }
            guard case .entity(_, let context, let name, _) = entity else { return nil }
            if let name, name.local != nil {
                // A local variable's accessor: `willset of items #2 in View`.
                emit(String(suffix.dropFirst()) + " of ")
                printEntityName(context: context, name: name, multiWord: true, after: nil)
            } else {
                let shown = name ?? OldDeclName(text: "subscript", local: nil)
                printEntityName(context: context, name: shown, multiWord: false, after: nil, suffix: suffix)
            }
        case .closure(let implicit, let number, let context, _):
            if asPrefixContext { return node }
            emit((implicit ? "implicit closure #" : "closure #") + String(number + 1) + " in ")
            print(context)
        case .defaultArgument(let number, let entity):
            if asPrefixContext { return node }
            emit("default argument \(number) of ")
            print(entity)
        case .variableInitializer(let entity):
            if asPrefixContext { return node }
            emit("variable initialization expression of ")
            print(entity)
        case .witness(let entity, let conforming):
            emit("protocol witness for ")
            print(entity)
            emit(" in conformance ")
            print(conforming)
        }
        return nil
    }

    /// `node` before a postfix (`?`, `!`, `.Type`), in parentheses where the postfix would bind to a part of it.
    private mutating func printWrapped(_ node: OldNode) {
        var wrap = false
        switch node {
        case .function, .generic: wrap = true
        case .composition(let protocols): wrap = protocols.count > 1
        default: break
        }
        if wrap { emit("(") }
        print(node)
        if wrap { emit(")") }
    }

    private static func isFunctionLike(_ kind: OldEntityKind) -> Bool {
        switch kind {
        case .function, .variable, .subscript, .initializer: true
        case .named: false
        }
    }

    private mutating func printEntity(kind: OldEntityKind, context: OldNode, name: OldDeclName?, type: OldNode?) {
        switch kind {
        case .named(let fixed):
            printEntityName(context: context, name: OldDeclName(text: fixed, local: nil), multiWord: false, after: nil)
        case .initializer(let word):
            printEntityName(
                context: context,
                name: OldDeclName(text: word, local: nil),
                multiWord: false,
                after: type
            )
        case .function, .subscript:
            printEntityName(
                context: context,
                name: name ?? OldDeclName(text: "subscript", local: nil),
                multiWord: name?.local != nil,
                after: type
            )
        case .variable:
            printEntityName(
                context: context,
                name: name ?? OldDeclName(text: "", local: nil),
                multiWord: name?.local != nil,
                after: nil
            )
        }
    }

    /// `Context.name<A>(labels:)`, or `name #N (labels:) in Context` for a local name or a function-like context.
    private mutating func printEntityName(
        context: OldNode,
        name: OldDeclName,
        multiWord: Bool,
        after type: OldNode?,
        suffix: String = ""
    ) {
        var postfix: OldNode?
        if Self.printsAsContext(context) {
            if multiWord {
                postfix = context
            } else {
                let before = text.utf8.count
                postfix = print(context, asPrefixContext: true)
                if text.utf8.count != before { emit(".") }
            }
        }
        emit(name.text)
        if let local = name.local { emit(" #\(local + 1)") }
        if let type {
            let labels = Self.functionLabels(type)
            if multiWord, !labels.isEmpty, !labels.hasPrefix(" ") { emit(" ") }
            emit(labels)
        }
        emit(suffix)
        if let postfix {
            emit(" in ")
            print(postfix)
        }
    }

    private static func printsAsContext(_ node: OldNode) -> Bool {
        if case .module = node { return false }
        return true
    }

    private mutating func printBoundGeneric(_ base: OldNode, _ arguments: [OldNode]) {
        if case .nominal(.module("Swift"), let name, _) = base, name.local == nil {
            switch (name.text, arguments.count) {
            case ("Array", 1):
                emit("[")
                print(arguments[0])
                emit("]")
                return
            case ("Optional", 1), ("ImplicitlyUnwrappedOptional", 1):
                printWrapped(arguments[0])
                emit(name.text == "Optional" ? "?" : "!")
                return
            case ("Dictionary", 2):
                emit("[")
                print(arguments[0])
                emit(" : ")
                print(arguments[1])
                emit("]")
                return
            default: break
            }
        }
        print(base)
        emit("<")
        for (offset, argument) in arguments.enumerated() {
            if offset > 0 { emit(", ") }
            print(argument)
        }
        emit(">")
    }

    /// The name of a standard type printed bare (`Int`), nil for others.
    private static func sugarlessSwiftName(_ node: OldNode) -> String? {
        guard case .nominal(.module("Swift"), let name, _) = node, name.local == nil else { return nil }
        return name.text
    }

    /// A function entity's `<A>(x:y:)`: its generic signature, then the labels of its arguments.
    private static func functionLabels(_ type: OldNode) -> String {
        if case .generic(let counts, let inner) = type {
            // A signature is printed only before a function's labels.
            guard case .function = inner else { return "" }
            return signature(counts) + functionLabels(inner)
        }
        // A C function's or block's convention is printed after the name: `render @convention(c) ()`.
        if case .function(let prefix, let arguments) = type {
            return (prefix.isEmpty ? "" : " " + prefix) + labels(arguments)
        }
        return ""
    }

    /// `(x:_:)` from an argument type: a tuple's labels, `(_:)` for a single argument.
    private static func labels(_ arguments: OldNode) -> String {
        guard case .tuple(let elements, _) = arguments else { return "(_:)" }
        return "(" + elements.map { ($0.0 ?? "_") + ":" }.joined() + ")"
    }

    private static func signature(_ counts: [Int]) -> String {
        counts.enumerated().map { depth, count in
            "<" + (0..<count).map { parameterName(depth: depth, index: $0) }.joined(separator: ", ") + ">"
        }.joined()
    }

    /// `A`…`Z`, then two letters; a depth past the first adds its number (`A1`).
    static func parameterName(depth: Int, index: Int) -> String {
        var name = ""
        var rest = max(index, 0)
        repeat {
            name.append(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(rest % 26))))
            rest /= 26
        } while rest > 0
        return depth == 0 ? name : name + String(depth)
    }
}
