import POISockets
import POITestSupport
import PortableTestSupport
import Testing

/// The stand-in for gpsd itself: its script, then its repetition.
@Suite("FakeGPSD", .timeLimit(.minutes(1)))
struct FakeGPSDTests {
    static let version = #"{"class":"VERSION","release":"3.22"}"#
    static let devices = #"{"class":"DEVICES","devices":[]}"#
    static let sky = #"{"class":"SKY","device":"/dev/ttyUSB0"}"#

    static func deadline() -> ContinuousClock.Instant { .now.advanced(by: .seconds(10)) }

    /// The lines `gpsd` sends a client that sends `command` after the greeting and then reads, to the end of the
    /// connection, or only `reading` of them and hangs up.
    static func lines(from gpsd: FakeGPSD, command: String, reading: Int = .max) throws -> [String] {
        let connection = try LineConnection(host: "127.0.0.1", port: gpsd.port, deadline: deadline())
        var lines = [try connection.readLine(deadline: deadline())]
        try connection.send(command + "\n")
        while lines.count < reading {
            do throws(SocketError) {
                lines.append(try connection.readLine(deadline: deadline()))
            } catch .closed {
                break
            }
        }
        return lines
    }

    @Test("A repetition keeps its line, its interval and its count: the line is sent that many times, then the end")
    func repetition() async throws {
        let repetition = FakeGPSD.Repetition(line: Self.sky, every: .milliseconds(1), times: 3)
        #expect(repetition.line == Self.sky)
        #expect(repetition.interval == .milliseconds(1))
        #expect(repetition.count == 3)
        let gpsd = try FakeGPSD(script: [Self.version, Self.devices], thenRepeating: repetition)
        defer { gpsd.stop() }
        let lines = try await boundedBlockingCall("the fake's lines, to the end of its connection") {
            try Self.lines(from: gpsd, command: "?WATCH;")
        }
        #expect(lines == [Self.version, Self.devices, Self.sky, Self.sky, Self.sky])
        #expect(gpsd.receivedCommands == ["?WATCH;"])
    }

    @Test("The interval is a wait on the client's connection: a client that hangs up ends the repetition at once")
    func repetitionEndsWhenTheClientHangsUp() async throws {
        // A minute between lines, a thousand lines: the next client, served once this one's repetition has ended, is
        // answered within the bound only if the hang-up ended it.
        let gpsd = try FakeGPSD(
            script: [Self.version], thenRepeating: FakeGPSD.Repetition(line: Self.sky, every: .seconds(60), times: 1000)
        )
        defer { gpsd.stop() }
        let first = try await boundedBlockingCall("the first client's greeting") {
            try Self.lines(from: gpsd, command: "?WATCH;", reading: 1)
        }
        #expect(first == [Self.version])
        let second = try await boundedBlockingCall("the second client's greeting, the first one's repetition ended") {
            try Self.lines(from: gpsd, command: "?POLL;", reading: 1)
        }
        #expect(second == [Self.version])
    }
}
