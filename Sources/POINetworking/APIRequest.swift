public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A request to the server, split into two pure steps so that each can be unit-tested without a network.
///
/// The talk's protocol (WWDC 2018 session 417, "Testing network requests"): `makeRequest(from:)` turns input
/// values into a `URLRequest`, `parseResponse(data:)` turns the body back into values; `APIRequestLoader` does
/// the I/O in between. Swift 6: the protocol refines `Sendable` and the response type is `Sendable`, because the
/// loader uses the request and hands its result across threads in `URLSession`'s completion handler.
public protocol APIRequest: Sendable {
    /// The values a request is made from, for example a coordinate.
    associatedtype RequestDataType
    /// The values a response body is parsed into.
    associatedtype ResponseDataType: Sendable

    /// Builds the `URLRequest` for `data`, or throws when `data` cannot make a valid request.
    func makeRequest(from data: RequestDataType) throws -> URLRequest

    /// Parses a successful response's body, or throws when it is not what the server promised.
    func parseResponse(data: Data) throws -> ResponseDataType
}
