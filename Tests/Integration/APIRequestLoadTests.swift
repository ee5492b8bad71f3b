import Foundation
import POILock
import POITestSupport
import PortableTestSupport
import Testing

@testable import POINetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `APIRequestLoad`, the handle a load returns: cancelling it reaches whichever request the load has out, also one
/// it starts after the first is over (a retry), and one it starts after the cancel.
@Suite("APIRequestLoad over MockURLProtocol", .timeLimit(.minutes(1)))
struct APIRequestLoadTests {
    /// Answers `/done` at once and leaves every other request open until it is cancelled, telling `opened`.
    static func doneOrUnanswered(opened: AsyncStream<Void>.Continuation? = nil) -> MockURLProtocol.RequestHandler {
        { request in
            guard request.url?.path == "/done" else {
                opened?.yield()
                throw MockURLProtocol.Unanswered()
            }
            return (HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!, Data())
        }
    }

    /// Starts a data task for `path`, attaches it to `load`, and returns the error it completes with.
    static func run(_ path: String, on stub: MockURLProtocol.Stub, in load: APIRequestLoad) async throws -> (any Error)?
    {
        try await boundedContinuation("the data task's completion") { continuation in
            let task = stub.session.dataTask(with: stub.baseURL.appending(path: path)) { _, _, error in
                continuation.resume(returning: error)
            }
            task.resume()
            load.attach(task)
        }
    }

    @Test("Cancel reaches the request attached last, after an earlier one is over")
    func cancelReachesTheLastRequest() async throws {
        let (openings, opened) = AsyncStream.makeStream(of: Void.self)
        try await MockURLProtocol.withStub(Self.doneOrUnanswered(opened: opened)) { stub in
            let load = APIRequestLoad()
            #expect(try await Self.run("done", on: stub, in: load) == nil)
            let second = Task { try await Self.run("open", on: stub, in: load) }
            // Cancel once the second request is out (attached already, or attached after the cancel).
            var iterator = openings.makeAsyncIterator()
            try await iterator.boundedNext("the second request's arrival at the stub")
            load.cancel()
            let error = try await second.boundedValue("the end of the cancelled second load")
            #expect((error as? URLError)?.code == .cancelled, "\(String(describing: error))")
            #expect(load.isCancelled)
            try #require(stub.cancelledRequests.count == 1)
            #expect(stub.cancelledRequests[0].url?.path == "/open")
        }
    }

    @Test("A request attached after the cancel is cancelled at once")
    func attachedAfterCancel() async throws {
        try await MockURLProtocol.withStub(Self.doneOrUnanswered()) { stub in
            let load = APIRequestLoad()
            load.cancel()
            let error = try await Self.run("open", on: stub, in: load)
            #expect((error as? URLError)?.code == .cancelled, "\(String(describing: error))")
            #expect(load.currentTask != nil)
        }
    }

    /// A load whose cancels are counted, task by task, instead of sent, and a task to attach to it (never resumed).
    final class CountedLoad: Sendable {
        let cancels = Lock<[ObjectIdentifier: Int]>([:])
        let load: APIRequestLoad
        let task: URLSessionDataTask

        init(session: URLSession, url: URL) {
            let cancels = cancels
            load = APIRequestLoad { task in cancels.withLock { $0[ObjectIdentifier(task), default: 0] += 1 } }
            task = session.dataTask(with: url)
        }

        /// How many cancels the task was sent.
        var cancelsOfTheTask: Int {
            cancels.withLock { $0[ObjectIdentifier(task), default: 0] }
        }
    }

    @Test(
        "A cancel that lands anywhere in attach, or an attach anywhere in a cancel, cancels the task once",
        arguments: [true, false])
    func attachAndCancelInterleaved(attachFirst: Bool) throws {
        let session = MockURLProtocol.makeSession()
        let url = URL(string: "https://attach.mock.invalid/locations")!
        try Interleavings.each(
            { CountedLoad(session: session, url: url) }, on: ["APIRequestLoad.state"],
            operation: { attachFirst ? $0.load.attach($0.task) : $0.load.cancel() },
            competing: { attachFirst ? $0.load.cancel() : $0.load.attach($0.task) },
            check: { counted, trial in
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                // Alone, an attach cancels nothing and a cancel with nothing attached has nothing to cancel; with the other
                // call anywhere in it, the task is cancelled exactly once: none lost, none twice.
                #expect(counted.cancelsOfTheTask == (trial.point == nil ? 0 : 1), "\(trial)")
                #expect(counted.load.isCancelled == (trial.point != nil || !attachFirst), "\(trial)")
            })
    }
}
