import Foundation
import POIDomain
import POINetworking
import POITestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exercise `retry` (chapter 3, the URLProtocol stub).
///
/// when the server answers 503 Service Unavailable, the loader
/// tries once more before it gives up. `MockURLProtocol` plays a server that is busy once.
@Suite(
    "Exercise: retry", .enabled(if: WorkshopSwitch.isOn("retry"), WorkshopSwitch.reason("retry")),
    .timeLimit(.minutes(1)))
struct RetryExerciseTests {
    /// Answers 503 for the first `busyAnswers` requests, then the list.
    static func busy(_ busyAnswers: Int) -> MockURLProtocol.RequestHandler {
        let count = Mutex(0)
        return { request in
            let number = count.withLock { value in
                value += 1
                return value
            }
            let status = number <= busyAnswers ? 503 : 200
            let body = status == 200 ? #"[{"name": "SAP Center"}]"# : "busy"
            return (
                HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: nil, headerFields: nil)!,
                Data(body.utf8)
            )
        }
    }

    static func load(_ stub: MockURLProtocol.Stub) async -> Result<[PointOfInterest], any Error> {
        let loader = APIRequestLoader(
            apiRequest: PointsOfInterestRequest(baseURL: stub.baseURL), urlSession: stub.session)
        do {
            return .success(
                try await loader.loadAPIRequest(requestData: Coordinate(latitude: 37.3293, longitude: -121.8893)))
        } catch {
            return .failure(error)
        }
    }

    @Test("One 503, then the list: the load succeeds after two requests")
    func retriesOnce() async throws {
        try await MockURLProtocol.withStub(Self.busy(1)) { stub in
            let places = try await Self.load(stub).get()
            #expect(places == [PointOfInterest(name: "SAP Center")])
            #expect(stub.requests.count == 2)
        }
    }

    @Test("Two 503s: the load fails with the status after two requests, not more")
    func retriesOnlyOnce() async {
        await MockURLProtocol.withStub(Self.busy(2)) { stub in
            let result = await Self.load(stub)
            #expect((try? result.get()) == nil)
            if case .failure(let error) = result {
                #expect((error as? APIError)?.statusCode == 503)
            }
            #expect(stub.requests.count == 2)
        }
    }
}
