import POILock
import POITestSupport
import PortableTestSupport
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
///
/// Each test runs the code under test on a thread of its own, waited for with a bound (`boundedBlockingCall`), as the
/// Swift Testing twins do: a lock never released, or a thread left waiting for another, fails the test naming the
/// wait in at most 10 s, and plain `swift test` goes on, where on XCTest's own thread it would hang the whole run.
final class SocketDescriptorXCTests: XCTestCase {
    /// The pipe ends a test keeps, closed at its end.
    private let openEnds = Lock<[Int32]>([])

    override func tearDown() {
        for end in openEnds.withLock({ $0 }) { _ = close(end) }
        openEnds.withLock { $0 = [] }
        super.tearDown()
    }

    /// A new pipe; the test closes the ends it keeps (`openEnds`), the descriptor under test the other.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        return (ends[0], ends[1])
    }

    /// Whether every write end of the pipe whose read end is `read` is closed: the read end hangs up (asked for
    /// `POLLIN`, through the seam: Darwin reports a hang-up only of a descriptor watched for an event, and its profile
    /// here reports it as Darwin does).
    private static func writeEndClosed(_ read: Int32) -> Bool {
        var pollers = [pollfd(fd: read, events: Int16(POLLIN), revents: 0)]
        return systemPoll(&pollers, 0) == 1 && pollers[0].revents & Int16(POLLHUP) != 0
    }

    func testCloseWithNoUserClosesAtOnce() throws {
        try boundedBlockingCall("a close with no user") { [openEnds] in
            let (read, write) = try Self.makePipe()
            openEnds.withLock { $0.append(read) }
            let descriptor = SocketDescriptor(write)
            XCTAssertFalse(Self.writeEndClosed(read))
            descriptor.close()
            XCTAssertTrue(Self.writeEndClosed(read))
            XCTAssertTrue(descriptor.isClosed)
        }
    }

    func testCloseDuringUseClosesWhenTheUserReturns() throws {
        try boundedBlockingCall("a close during a use, and the use's return") { [openEnds] in
            let (read, write) = try Self.makePipe()
            openEnds.withLock { $0.append(read) }
            let descriptor = SocketDescriptor(write)
            try descriptor.use { _ in
                descriptor.close()
                XCTAssertFalse(Self.writeEndClosed(read), "closed under a thread still using it")
            }
            XCTAssertTrue(Self.writeEndClosed(read), "not closed when its last user returned")
            XCTAssertThrowsError(try descriptor.use { _ in })
        }
    }

    func testNeverClosesANumberItNoLongerOwns() throws {
        try boundedBlockingCall("a close in a use, then the descriptor's end") { [openEnds] in
            let (read, write) = try Self.makePipe()
            openEnds.withLock { $0.append(read) }
            var descriptor: SocketDescriptor? = SocketDescriptor(write)
            try descriptor?.use { _ in descriptor?.close() }
            // The number is free again: the next pipe gets the lowest free numbers, so one of its ends now has it.
            let (reusedRead, reusedWrite) = try Self.makePipe()
            openEnds.withLock { $0 += [reusedRead, reusedWrite] }
            let reused = [reusedRead, reusedWrite].first { $0 == write }
            try XCTSkipIf(reused == nil, "the system gave the number \(write) to something else")
            descriptor = nil
            XCTAssertNotEqual(
                fcntl(write, F_GETFD), -1, "the descriptor closed \(write) again, which it no longer owned")
        }
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

    /// A connected socket (one end of a socket pair), or a listener's with its wake pipe, that a thread is using when
    /// the test closes it: the use waits for the test's word to leave, and its leaving closes the number.
    final class SocketInUse: Sendable {
        let injector = FaultInjector()
        let descriptor: SocketDescriptor
        /// The other end of the pair, and a listener's wake pipe's ends: the test closes them.
        let ends: [Int32]
        /// Both ends of each socket pair made after the use left, to take the numbers it freed.
        let reused = Lock<[Int32]>([])
        private let leave = DispatchSemaphore(value: 0)
        private let left = DispatchSemaphore(value: 0)
        private let gone = Lock(false)

        init(listener: Bool) throws {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, systemStreamSocketType, 0, &pair) == 0 else { throw POSIXError(.EMFILE) }
            var wake: SocketDescriptor.Wake?
            if listener {
                var pipeEnds: [Int32] = [0, 0]
                guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
                wake = SocketDescriptor.Wake(read: pipeEnds[0], write: pipeEnds[1])
            }
            descriptor = SocketDescriptor(pair[0], faults: injector.faults, wake: wake)
            ends = [pair[1]]
            let entered = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [descriptor, leave, left] in
                _ = try? descriptor.use { _ in
                    entered.signal()
                    try? leave.waitBounded("the test's word to leave the use")
                }
                left.signal()
            }
            try entered.waitBounded("the use's start")
        }

        /// The use leaves, and new socket pairs take the lowest free numbers; once only.
        ///
        /// Once `close()` was called, the use's leaving closes the socket, so the new pairs take the numbers it freed.
        func leaveAndReuse() {
            let first = gone.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            leave.signal()
            try? left.waitBounded("the use's return")
            for _ in 0..<2 {
                var pair: [Int32] = [0, 0]
                if socketpair(AF_UNIX, systemStreamSocketType, 0, &pair) == 0 { reused.withLock { $0 += pair } }
            }
        }

        /// The numbers the new pairs took that something shut down or wrote to: their other end can read.
        func touchedSinceReused() -> [Int32] {
            let numbers = reused.withLock { $0 }
            return numbers.filter { number in
                var pollers = [pollfd(fd: number, events: Int16(POLLIN), revents: 0)]
                return systemPoll(&pollers, 0) == 1
            }
        }

        func closeEverything() {
            leaveAndReuse()
            descriptor.close()
            for end in ends + reused.withLock({ $0 }) { _ = close(end) }
        }
    }

    /// Every effect of a close under a use (the wake, the shutdown) made while the number is still the socket's:
    /// at the close's sync point the use leaves, which closes the number, and new socket pairs take it; a wake or a
    /// shutdown made after the close's lock section would land on them (another connection cut, in a server).
    func testCloseUnderAUseMakesEveryEffectBeforeTheNumberIsFreed() throws {
        try boundedBlockingCall("a close at each point of a use, a connection's and a listener's") {
            try Self.closeUnderAUse()
        }
    }

    private static func closeUnderAUse() throws {
        for listener in [false, true] {
            try Interleavings.each(
                { try SocketInUse(listener: listener) },
                on: ["SocketDescriptor.state"], operation: { $0.descriptor.close() },
                competing: { $0.leaveAndReuse() },
                check: { socket, trial in
                    let name = "\(listener ? "a listener" : "a connection"), \(trial)"
                    XCTAssertTrue(trial.point == nil || trial.competed, "\(name): not reached again")
                    socket.leaveAndReuse()
                    XCTAssertEqual(socket.injector.strayEffects, [], "\(name): an effect after the number was closed")
                    XCTAssertEqual(socket.touchedSinceReused(), [], "\(name): a number reused since was touched")
                    XCTAssertEqual(socket.injector.count(of: .close), listener ? 3 : 1, "\(name)")
                    socket.closeEverything()
                })
        }
    }

    func testCloseAnywhereInAUseClosesOnceAndNeverUnderIt() throws {
        try boundedBlockingCall("a close at each point of a use") { [openEnds] in
            try Interleavings.each(
                {
                    let (read, write) = try Self.makePipe()
                    openEnds.withLock { $0.append(read) }
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
}
