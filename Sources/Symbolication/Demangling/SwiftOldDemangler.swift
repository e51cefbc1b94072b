/// Swift 1–3 manglings (`_T` not followed by `0`: `_TFC3foo3BarcfT_S0_`, `_TtC3foo3Bar`), read in Swift and printed
/// as `swift-demangle --simplified` prints them (`Bar.init()`, `Bar`).
///
/// The Swift runtime's demangler reads only the manglings of Swift 4 and later, yet crash logs of apps built with
/// Swift 1–3 still name their frames in the old mangling, and only the toolchain's `swift-demangle` reads those. This
/// reader covers what such frames hold (functions, methods, accessors, initializers, closures, types, metadata,
/// specializations, thunks); anything else gives nil, so the name is shown as it is rather than guessed at.
/// Every name is hostile: nesting is bounded by ``maxDepth``, printing by ``Demangler/maxDemangledLength`` (a
/// substitution can print a large type many times over), and the parse reads each byte at most once.
struct SwiftOldDemangler {
    /// Deepest nesting of types, contexts and entities read (two levels for each nested type), and of printing; real
    /// names stay under a few dozen.
    static let maxDepth = 256

    /// The simplified form of `bytes` (no Mach-O underscore, starting with `_T`), or nil.
    static func simplified(_ bytes: [UInt8]) -> String? {
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "_"), bytes[1] == UInt8(ascii: "T"),
            bytes[2] != UInt8(ascii: "0")
        else { return nil }
        var reader = SwiftOldDemangler(bytes: bytes, position: 2)
        guard let node = reader.global() else { return nil }
        var printer = SwiftOldPrinter(limit: Demangler.maxDemangledLength)
        printer.printTop(node)
        guard !printer.overflowed, !printer.text.isEmpty else { return nil }
        return printer.text
    }

    private let bytes: [UInt8]
    private var position: Int
    private var substitutions: [OldNode] = []
    private var depth = 0

    private init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    // MARK: Reading bytes

    private var atEnd: Bool { position >= bytes.count }

    private func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private mutating func next(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, peek() == ascii else { return false }
        position += 1
        return true
    }

    private mutating func nextByte() -> UInt8? {
        guard let byte = peek() else { return nil }
        position += 1
        return byte
    }

    private static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A decimal number of at most 9 digits (a length or an index: no name comes near that).
    private mutating func natural() -> Int? {
        guard Self.isDigit(peek()) else { return nil }
        var value = 0
        var digits = 0
        while Self.isDigit(peek()), let byte = nextByte() {
            digits += 1
            guard digits <= 9 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `_` is 0, `N_` is N + 1.
    private mutating func index() -> Int? {
        if next("_") { return 0 }
        guard let value = natural(), next("_") else { return nil }
        return value + 1
    }

    /// Runs `body` one level deeper; nil past ``maxDepth``.
    private mutating func nested<T>(_ body: (inout SwiftOldDemangler) -> T?) -> T? {
        guard depth < Self.maxDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        return body(&self)
    }

    // MARK: Globals

    mutating func global() -> OldNode? {
        nested { $0.globalBody() }
    }

    private mutating func globalBody() -> OldNode? {
        if next("T") {
            if next("o") { return global().map { .prefixed("@objc ", $0) } }
            if next("O") { return global().map { .prefixed("@nonobjc ", $0) } }
            if next("D") { return global().map { .prefixed("dynamic ", $0) } }
            if next("S") { return specialization() }
            if next("W") {
                guard let conformance = protocolConformance(), let entity = entity() else { return nil }
                return .witness(entity, conformance.type)
            }
            return nil
        }
        if next("P") {
            guard next("A") else { return nil }
            let objc = next("o")
            guard next("_"), let inner = mangledName() else { return nil }
            return .prefixed(objc ? "partial apply ObjC forwarder for " : "partial apply for ", inner)
        }
        if next("M") {
            let labels: [Character: String] = [
                "P": "generic type metadata pattern for ", "a": "type metadata accessor for ",
                "L": "lazy cache variable for type metadata for ", "m": "metaclass for ",
                "n": "nominal type descriptor for ",
                "f": "full type metadata for ",
            ]
            if next("p") { return protocolName().map { .prefixed("protocol descriptor for ", $0) } }
            for (code, label) in labels where next(code) { return type().map { .prefixed(label, $0) } }
            return type().map { .prefixed("type metadata for ", $0) }
        }
        if next("W") {
            if next("V") { return type().map { .prefixed("value witness table for ", $0) } }
            if next("v") {
                let label = next("d") ? "direct field offset for " : next("i") ? "indirect field offset for " : nil
                guard let label, let entity = entity() else { return nil }
                return .prefixed(label, entity)
            }
            return nil
        }
        if next("t") { return type() }
        return entity()
    }

    /// `_T` and a global, as inside a partial application or specialization.
    private mutating func mangledName() -> OldNode? {
        guard next("_"), next("T") else { return nil }
        return global()
    }

    /// `TSg`, `TSr` (generic), `TSf` (function signature): the parameters are skipped and printed as `specialized`.
    private mutating func specialization() -> OldNode? {
        if next("g") || next("r") {
            _ = next("q")
            guard Self.isDigit(peek()) else { return nil }
            position += 1
            // Each argument: a type, its conformances, `_`; then `_` ends the list.
            var arguments = 0
            while !next("_") {
                arguments += 1
                guard arguments <= 64, type() != nil else { return nil }
                while !next("_") {
                    guard arguments <= 64, protocolConformance() != nil else { return nil }
                    arguments += 1
                }
            }
        } else if next("f") {
            // Function signature specializations hold free-form parameters: the next `__T` is the specialized name.
            // A pass number and at least one parameter before it.
            guard Self.isDigit(peek()), let end = Self.find(Array("___T".utf8), in: bytes, from: position + 1),
                end >= position + 2
            else { return nil }
            position = end + 2
        } else {
            return nil
        }
        guard let inner = mangledName() else { return nil }
        return .prefixed("specialized ", inner)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start >= 0, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }

    private mutating func protocolConformance() -> (type: OldNode, protocol: OldNode)? {
        guard let conforming = type(), let proto = protocolName(), context() != nil else { return nil }
        return (conforming, proto)
    }

    // MARK: Entities and contexts

    private mutating func entity() -> OldNode? {
        nested { $0.entityBody() }
    }

    private mutating func entityBody() -> OldNode? {
        let isStatic = next("Z")
        let kind: UInt8
        if let byte = peek(),
            [UInt8(ascii: "F"), UInt8(ascii: "v"), UInt8(ascii: "I"), UInt8(ascii: "i")].contains(byte)
        {
            kind = byte
            position += 1
        } else {
            guard !isStatic else { return nil }
            return nominalType()
        }
        guard let context = context() else { return nil }
        var node: OldNode
        switch kind {
        case UInt8(ascii: "F"):
            guard let function = functionEntity(context) else { return nil }
            node = function
        case UInt8(ascii: "I"):
            if next("A") {
                guard let number = index() else { return nil }
                node = .defaultArgument(number, context)
            } else if next("i") {
                node = .variableInitializer(context)
            } else {
                return nil
            }
        default:
            // A variable (`v`) or a subscript (`i`): a name and a type.
            guard var name = declName(), let type = type() else { return nil }
            // A subscript prints as `subscript` whatever name its mangling holds.
            if kind == UInt8(ascii: "i") { name = OldDeclName(text: "subscript", local: nil) }
            node = .entity(
                kind: kind == UInt8(ascii: "v") ? .variable : .subscript,
                context: context,
                name: name,
                type: type
            )
        }
        return isStatic ? .prefixed("static ", node) : node
    }

    private mutating func functionEntity(_ context: OldNode) -> OldNode? {
        var isClass = false
        if case .nominal(_, _, UInt8(ascii: "C")) = context { isClass = true }
        // Only a class's deallocating deinitializer and allocating initializer are printed as such.
        let plain: [Character: OldEntityKind] = [
            "D": .named(isClass ? "__deallocating_deinit" : "deinit"), "d": .named("deinit"),
            "e": .named("__ivar_initializer"), "E": .named("__ivar_destroyer"),
        ]
        for (code, kind) in plain where next(code) {
            return .entity(kind: kind, context: context, name: nil, type: nil)
        }
        if next("C") {
            let word = isClass ? "__allocating_init" : "init"
            return type().map { .entity(kind: .initializer(word), context: context, name: nil, type: $0) }
        }
        if next("c") {
            return type().map { .entity(kind: .initializer("init"), context: context, name: nil, type: $0) }
        }
        if next("U") || next("u") {
            let implicit = bytes[position - 1] == UInt8(ascii: "u")
            guard let number = index(), let type = type() else { return nil }
            return .closure(implicit: implicit, number: number, context: context, type: type)
        }
        let addressors: [Character: String] = ["O": "owning", "o": "nativeOwning", "p": "nativePinning", "u": "unsafe"]
        for (mutability, prefix) in [("a", "MutableAddressor"), ("l", "Addressor")] where next(Character(mutability)) {
            for (code, word) in addressors where next(code) {
                guard let name = declName(), let type = type() else { return nil }
                return .accessor(
                    ".\(word)\(prefix)",
                    .entity(kind: .variable, context: context, name: name, type: type)
                )
            }
            return nil
        }
        let accessors: [Character: String] = [
            "g": ".getter", "s": ".setter", "m": ".materializeForSet", "w": ".willset", "W": ".didset",
        ]
        for (code, suffix) in accessors where next(code) {
            guard let name = declName(), let type = type() else { return nil }
            let isSubscript = name.text == "subscript" && name.local == nil
            return .accessor(
                suffix,
                .entity(kind: isSubscript ? .subscript : .variable, context: context, name: name, type: type)
            )
        }
        guard let name = declName(), let type = type() else { return nil }
        return .entity(kind: .function, context: context, name: name, type: type)
    }

    private mutating func context() -> OldNode? {
        nested { $0.contextBody() }
    }

    private mutating func contextBody() -> OldNode? {
        if next("E") {
            guard module() != nil else { return nil }
            return context()
        }
        if next("S") { return substitution() }
        if next("s") { return .module("Swift") }
        if let byte = peek(), Self.entityStarts.contains(byte) { return entity() }
        return module()
    }

    private static let entityStarts: Set<UInt8> = Set("FIvPZCVOi".utf8)

    private mutating func module() -> OldNode? {
        if next("S") { return substitution() }
        if next("s") { return .module("Swift") }
        guard let name = identifier() else { return nil }
        let node = OldNode.module(name)
        substitutions.append(node)
        return node
    }

    private mutating func nominalType() -> OldNode? {
        if next("S") { return substitution() }
        let kinds: [Character] = ["C", "V", "O", "P"]
        for kind in kinds where next(kind) {
            guard let context = context(), let name = declName() else { return nil }
            let node = OldNode.nominal(context: context, name: name, kind: kind.asciiValue ?? 0)
            substitutions.append(node)
            return node
        }
        return nil
    }

    /// A protocol: a substitution of one, or a context (a substituted module too) and a name.
    private mutating func protocolName() -> OldNode? {
        var context: OldNode?
        if next("S") {
            guard let substituted = substitution() else { return nil }
            if case .nominal(_, _, UInt8(ascii: "P")) = substituted { return substituted }
            guard case .module = substituted else { return nil }
            context = substituted
        } else {
            context = self.context()
        }
        guard let context, let name = declName() else { return nil }
        let node = OldNode.nominal(context: context, name: name, kind: UInt8(ascii: "P"))
        substitutions.append(node)
        return node
    }

    private mutating func substitution() -> OldNode? {
        let known: [Character: String] = [
            "a": "Array", "b": "Bool", "c": "UnicodeScalar", "d": "Double", "f": "Float", "i": "Int",
            "V": "UnsafeRawPointer", "v": "UnsafeMutableRawPointer", "P": "UnsafePointer",
            "p": "UnsafeMutablePointer", "q": "Optional", "Q": "ImplicitlyUnwrappedOptional",
            "R": "UnsafeBufferPointer", "r": "UnsafeMutableBufferPointer", "S": "String", "u": "UInt",
        ]
        // `s` alone is the Swift module; swift-demangle reads no `Ss`.
        if next("o") { return .module("__C") }
        if next("C") { return .module("__C_Synthesized") }
        for (code, name) in known where next(code) {
            return .nominal(
                context: .module("Swift"),
                name: OldDeclName(text: name, local: nil),
                kind: UInt8(ascii: "V")
            )
        }
        guard let number = index(), number < substitutions.count else { return nil }
        return substitutions[number]
    }

    // MARK: Names

    private mutating func declName() -> OldDeclName? {
        if next("L") {
            guard let number = index(), let name = identifier() else { return nil }
            return OldDeclName(text: name, local: number)
        }
        if next("P") {
            // A private name: the file's discriminator, then the name (the simplified form shows the name alone).
            guard identifier() != nil, let name = identifier() else { return nil }
            return OldDeclName(text: name, local: nil)
        }
        return identifier().map { OldDeclName(text: $0, local: nil) }
    }

    private mutating func identifier() -> String? {
        if next("o") {
            let fixity: String
            if next("p") {
                fixity = " prefix"
            } else if next("P") {
                fixity = " postfix"
            } else if next("i") {
                fixity = " infix"
            } else {
                return nil
            }
            guard let length = natural(), length > 0, length <= bytes.count - position else { return nil }
            var text = ""
            for byte in bytes[position..<(position + length)] {
                guard let character = Self.operatorCharacters[byte] else { return nil }
                text.append(character)
            }
            position += length
            return text + fixity
        }
        guard let length = natural(), length > 0, length <= bytes.count - position else { return nil }
        let text = String(decoding: bytes[position..<(position + length)], as: UTF8.self)
        position += length
        return text
    }

    private static let operatorCharacters: [UInt8: Character] = {
        let pairs: [(Character, Character)] = [
            ("a", "&"), ("c", "@"), ("d", "/"), ("e", "="), ("g", ">"), ("l", "<"), ("m", "*"), ("n", "!"),
            ("o", "|"), ("p", "+"), ("q", "?"), ("r", "%"), ("s", "-"), ("t", "~"), ("x", "^"), ("z", "."),
        ]
        var table: [UInt8: Character] = [:]
        for (code, character) in pairs { if let ascii = code.asciiValue { table[ascii] = character } }
        return table
    }()

    // MARK: Types

    private mutating func type() -> OldNode? {
        nested { $0.typeBody() }
    }

    private mutating func typeBody() -> OldNode? {
        guard let byte = nextByte() else { return nil }
        switch byte {
        case UInt8(ascii: "B"): return builtin()
        case UInt8(ascii: "a"):
            guard let context = context(), let name = identifier() else { return nil }
            return .nominal(context: context, name: OldDeclName(text: name, local: nil), kind: UInt8(ascii: "a"))
        case UInt8(ascii: "b"): return functionType(prefix: "@convention(block) ")
        case UInt8(ascii: "c"): return functionType(prefix: "@convention(c) ")
        case UInt8(ascii: "K"): return functionType(prefix: "@autoclosure ")
        case UInt8(ascii: "F"), UInt8(ascii: "f"): return functionType(prefix: "")
        case UInt8(ascii: "D"):
            // Dynamic `Self`, of a class only.
            guard let inner = type(), case .nominal(_, _, UInt8(ascii: "C")) = inner else { return nil }
            return .text("Self")
        case UInt8(ascii: "G"):
            // Only a class, struct or enum takes generic arguments.
            guard let base = type(), case .nominal(_, _, let kind) = base,
                [UInt8(ascii: "C"), UInt8(ascii: "V"), UInt8(ascii: "O")].contains(kind)
            else { return nil }
            var arguments: [OldNode] = []
            while !next("_") {
                guard arguments.count < 64, let argument = type() else { return nil }
                arguments.append(argument)
            }
            guard !arguments.isEmpty else { return nil }
            return .boundGeneric(base, arguments)
        case UInt8(ascii: "M"): return type().map { .suffixed($0, ".Type") }
        case UInt8(ascii: "P"):
            if next("M") { return type().map { .suffixed($0, ".Type") } }
            var protocols: [OldNode] = []
            while !next("_") {
                guard protocols.count < 64, let proto = protocolName() else { return nil }
                protocols.append(proto)
            }
            return .composition(protocols)
        case UInt8(ascii: "R"): return type().map { .prefixed("inout ", $0) }
        case UInt8(ascii: "S"): return substitution()
        case UInt8(ascii: "T"), UInt8(ascii: "t"): return tuple(variadic: byte == UInt8(ascii: "t"))
        case UInt8(ascii: "x"): return .genericParameter(depth: 0, index: 0)
        case UInt8(ascii: "q"):
            if next("d") {
                guard let depth = index(), let number = index() else { return nil }
                return .genericParameter(depth: depth + 1, index: number)
            }
            return index().map { .genericParameter(depth: 0, index: $0 + 1) }
        case UInt8(ascii: "u"):
            guard let counts = genericSignature(), let inner = type() else { return nil }
            return .generic(counts, inner)
        case UInt8(ascii: "X"):
            if next("w") { return type().map { .prefixed("weak ", $0) } }
            if next("o") { return type().map { .prefixed("unowned ", $0) } }
            return nil
        case UInt8(ascii: "C"), UInt8(ascii: "V"), UInt8(ascii: "O"):
            position -= 1
            return nominalType()
        default: return nil
        }
    }

    private mutating func builtin() -> OldNode? {
        if next("f") || next("i") {
            let isFloat = bytes[position - 1] == UInt8(ascii: "f")
            guard let bits = natural(), next("_") else { return nil }
            return .text(isFloat ? "Builtin.FPIEEE\(bits)" : "Builtin.Int\(bits)")
        }
        let simple: [Character: String] = [
            "O": "UnknownObject", "o": "NativeObject", "b": "BridgeObject", "p": "RawPointer", "w": "Word",
            "B": "UnsafeValueBuffer", "t": "SILToken",
        ]
        for (code, name) in simple where next(code) { return .text("Builtin." + name) }
        return nil
    }

    private mutating func functionType(prefix: String) -> OldNode? {
        _ = next("z")
        guard let arguments = type(), type() != nil else { return nil }
        return .function(prefix: prefix, arguments: arguments)
    }

    private mutating func tuple(variadic: Bool) -> OldNode? {
        var elements: [(String?, OldNode)] = []
        while !next("_") {
            guard elements.count < 256 else { return nil }
            var label: String?
            if Self.isDigit(peek()) || peek() == UInt8(ascii: "o") {
                guard let name = identifier() else { return nil }
                label = name
            }
            guard let element = type() else { return nil }
            elements.append((label, element))
        }
        return .tuple(elements, variadic: variadic)
    }

    /// The parameter counts of each depth of a generic signature.
    ///
    /// `ur` is one parameter, `u0_r` two, `u__r` one at each of two depths, `z` none. Requirements (`R…`) are not
    /// read: a name with them gives nil.
    private mutating func genericSignature() -> [Int]? {
        var counts: [Int] = []
        while !next("r") {
            guard counts.count < 16 else { return nil }
            if next("z") {
                counts.append(0)
            } else {
                guard let number = index(), number < 256 else { return nil }
                counts.append(number + 1)
            }
        }
        return counts.isEmpty ? [1] : counts
    }
}
