import Foundation
import Testing

@testable import PortableTestSupport

/// What a bounded wait writes when `POI_WAIT_TIMES` names a file: a line per wait, its bound, how long it took, how it
/// ended and what it waited for; a wait's own time-out told apart from one passed on from a wait inside it.
@Suite("WaitTimes: the record the bounds are measured from")
struct WaitTimesTests {
    /// A file of its own in the temporary folder, removed after `body`.
    static func withRecord(_ body: (String) async throws -> Void) async throws {
        let path = TestScratch.file("wait-times", suffix: "tsv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }

    static func lines(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test("A wait that came, one that timed out and one that failed: a line each, in order")
    func outcomes() async throws {
        try await Self.withRecord { path in
            #expect(try await WaitTimes.timing("the answer", limit: .seconds(2), into: path) { 42 } == 42)
            await #expect(throws: WaitTimedOut.self) {
                try await WaitTimes.timing("the stop", limit: .seconds(1), into: path) {
                    throw WaitTimedOut(limit: .seconds(1), what: "the stop")
                }
            }
            // A time-out of a wait inside, with another bound: this wait failed, it did not time out.
            #expect(throws: WaitTimedOut.self) {
                try WaitTimes.timingSync("the outer\twait\n", limit: .seconds(10), into: path) {
                    throw WaitTimedOut(limit: .seconds(1), what: "the stop")
                }
            }
            let lines = try Self.lines(path)
            #expect(lines.map { $0.count } == [4, 4, 4])
            #expect(lines.map { $0[0] } == ["2.000000", "1.000000", "10.000000"])
            #expect(lines.map { $0[2] } == ["came", "timed-out", "failed"])
            #expect(lines.map { $0[3] } == ["the answer", "the stop", "the outer wait "])
            #expect(lines.allSatisfy { Double($0[1]).map { $0 >= 0 && $0 < 5 } ?? false })
        }
    }

    @Test("No file, no line: the wait runs as it would")
    func off() async throws {
        #expect(try await WaitTimes.timing("the answer", limit: .seconds(2), into: nil) { 7 } == 7)
    }

    @Test("Seconds to the microsecond")
    func seconds() {
        #expect(WaitTimes.seconds(.milliseconds(1500)) == "1.500000")
        #expect(WaitTimes.seconds(.microseconds(3)) == "0.000003")
        #expect(WaitTimes.seconds(.zero) == "0.000000")
    }
}
