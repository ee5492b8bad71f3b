import POILock
import POITestSupport
import XCTest

@testable import POISockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `SocketDescriptor`'s promise, shown on a pipe: a descriptor is closed exactly once, and never under a thread that
/// is using it.
///
/// A pipe tells closed from shut down: its read end sees the end of the stream only once the write end is closed,
/// and shutting a pipe down does nothing. XCTest runs one test at a time in its process, so the descriptor numbers
/// the system hands out here are not taken by another test meanwhile.
final class SocketDescriptorXCTests: XCTestCase {
    private var openEnds: [Int32] = []

    override func tearDown() {
        for end in openEnds { _ = close(end) }
        openEnds = []
        super.tearDown()
    }

    /// A new pipe; the test closes the ends it keeps (`openEnds`), the descriptor under test the other.
    private func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        return (ends[0], ends[1])
    }

    /// Whether every write end of the pipe whose read end is `read` is closed: the read end hangs up (asked for
    /// `POLLIN`, through the seam: Darwin reports a hang-up only of a descriptor watched for an event, and its profile
    /// here reports it as Darwin does).
    private func writeEndClosed(_ read: Int32) -> Bool {
        var pollers = [pollfd(fd: read, events: Int16(POLLIN), revents: 0)]
        return systemPoll(&pollers, 0) == 1 && pollers[0].revents & Int16(POLLHUP) != 0
    }

    func testCloseWithNoUserClosesAtOnce() throws {
        let (read, write) = try makePipe()
        openEnds.append(read)
        let descriptor = SocketDescriptor(write)
        XCTAssertFalse(writeEndClosed(read))
        descriptor.close()
        XCTAssertTrue(writeEndClosed(read))
        XCTAssertTrue(descriptor.isClosed)
    }

    func testCloseDuringUseClosesWhenTheUserReturns() throws {
        let (read, write) = try makePipe()
        openEnds.append(read)
        let descriptor = SocketDescriptor(write)
        try descriptor.use { _ in
            descriptor.close()
            XCTAssertFalse(writeEndClosed(read), "closed under a thread still using it")
        }
        XCTAssertTrue(writeEndClosed(read), "not closed when its last user returned")
        XCTAssertThrowsError(try descriptor.use { _ in })
    }

    func testNeverClosesANumberItNoLongerOwns() throws {
        let (read, write) = try makePipe()
        openEnds.append(read)
        var descriptor: SocketDescriptor? = SocketDescriptor(write)
        try descriptor?.use { _ in descriptor?.close() }
        // The number is free again: the next pipe gets the lowest free numbers, so one of its ends now has it.
        let (reusedRead, reusedWrite) = try makePipe()
        openEnds += [reusedRead, reusedWrite]
        let reused = [reusedRead, reusedWrite].first { $0 == write }
        try XCTSkipIf(reused == nil, "the system gave the number \(write) to something else")
        descriptor = nil
        XCTAssertNotEqual(fcntl(write, F_GETFD), -1, "the descriptor closed \(write) again, which it no longer owned")
    }

    /// The write end of a pipe as a descriptor whose closes are counted, and what a use's body saw of it.
    final class CountedPipe: Sendable {
        let injector = FaultInjector()
        let read: Int32
        let descriptor: SocketDescriptor
        let closedUnderTheBody = Lock(false)

        init(read: Int32, write: Int32) {
            self.read = read
            descriptor = SocketDescriptor(write, faults: injector.faults)
        }

        /// A use whose body looks whether the write end was closed under it: the read end would hang up.
        func use() {
            _ = try? descriptor.use { _ in
                var pollers = [pollfd(fd: read, events: Int16(POLLIN), revents: 0)]
                let hungUp = systemPoll(&pollers, 0) == 1 && pollers[0].revents & Int16(POLLHUP) != 0
                closedUnderTheBody.withLock { $0 = $0 || hungUp }
            }
        }
    }

    func testCloseAnywhereInAUseClosesOnceAndNeverUnderIt() throws {
        try Interleavings.each(
            {
                let (read, write) = try makePipe()
                openEnds.append(read)
                return CountedPipe(read: read, write: write)
            },
            on: ["SocketDescriptor.state"], operation: { $0.use() }, competing: { $0.descriptor.close() },
            check: { pipe, trial in
                XCTAssertTrue(trial.point == nil || trial.competed, "\(trial): not reached again")
                XCTAssertEqual(pipe.injector.count(of: .close), trial.point == nil ? 0 : 1, "\(trial)")
                XCTAssertFalse(pipe.closedUnderTheBody.withLock { $0 }, "\(trial): closed under the use's body")
                pipe.descriptor.close()
            })
    }
}
