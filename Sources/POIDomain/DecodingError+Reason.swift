extension DecodingError {
    /// A one-line account of what `JSONDecoder` found wrong, with the path to it ("missing key 'name' at [0]").
    public var reason: String {
        switch self {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)'\(Self.location(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "expected \(Self.describe(type))\(Self.location(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "expected \(Self.describe(type)) but found null\(Self.location(context.codingPath))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return "not valid JSON: \(context.debugDescription)"
            }
            return "\(context.debugDescription)\(Self.location(context.codingPath))"
        @unknown default:
            return String(describing: self)
        }
    }

    private static func location(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "" }
        let rendered = path.map { key in
            key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
        }.joined()
        return " at \(rendered.hasPrefix(".") ? String(rendered.dropFirst()) : rendered)"
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Float.Type, is Int.Type: "a number"
        case is Bool.Type: "a boolean"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
