import Foundation
import POILock
import PortableTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stub transport with the talk's shared slot set, as an XCTest test sets it: the shared handler is the
/// process's one slot, so only XCTest, one test at a time, sets it (its observer clears it after each test).
final class MockURLProtocolXCTests: XCTestCase {
    /// A handler that answers `word`, counting its calls.
    static func answering(_ word: String, counted calls: Lock<Int>) -> MockURLProtocol.RequestHandler {
        { request in
            calls.withLock { $0 += 1 }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            return (response, Data(word.utf8))
        }
    }

    /// The body `session` brings back for `url`, bounded.
    static func body(of url: URL, through session: URLSession) async throws -> String {
        try await boundedContinuation("the data task's completion for \(url)") { continuation in
            session.dataTask(with: url) { data, _, error in
                continuation.resume(returning: data.map { String(decoding: $0, as: UTF8.self) } ?? "\(error as Any)")
            }.resume()
        }
    }

    func testAStubsHostIsAnsweredByItsStubWhileTheSharedHandlerIsSet() async throws {
        let sharedCalls = Lock(0)
        let stubCalls = Lock(0)
        MockURLProtocol.requestHandler = Self.answering("shared", counted: sharedCalls)
        try await MockURLProtocol.withStub(Self.answering("stub", counted: stubCalls)) { stub in
            let own = stub.baseURL.appendingPathComponent("locations")
            let fromTheStub = try await Self.body(of: own, through: stub.session)
            XCTAssertEqual(fromTheStub, "stub", "the stub's own host went to the shared handler")
            XCTAssertEqual(stub.requests.map(\.url), [own], "the stub records its request")
            // Any other host still reaches the shared slot, through the same session.
            let elsewhere = try XCTUnwrap(URL(string: "http://shared.invalid/locations"))
            let fromTheSlot = try await Self.body(of: elsewhere, through: stub.session)
            XCTAssertEqual(fromTheSlot, "shared")
            XCTAssertEqual(stub.requests.map(\.url), [own], "a request for another host is not the stub's")
        }
        XCTAssertEqual(stubCalls.withLock { $0 }, 1)
        XCTAssertEqual(sharedCalls.withLock { $0 }, 1)
    }
}
