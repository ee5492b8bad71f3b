public import POIDomain

/// Why a request could not be built from its input, before anything was sent.
public enum RequestError: Error, Sendable, CustomStringConvertible {
    /// The coordinate is not a position on Earth; the error says which value is wrong.
    case invalidCoordinate(CoordinateError)

    /// A sentence that says what was wrong with the input.
    public var description: String {
        switch self {
        case .invalidCoordinate(let error):
            error.message
        }
    }
}
