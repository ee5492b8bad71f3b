import Testing

@testable import POIServerCommand

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `poi-server`'s wait for SIGINT or SIGTERM: which returns of `sigwait` end it.
@Suite("StopSignals")
struct StopSignalsTests {
    @Test(
        "The wait ends on one of its signals, or on a failure waiting again would not mend; not on an interrupted call",
        arguments: [
            (Int32(0), SIGTERM, true), (0, SIGINT, true),
            (0, 0, false),  // Darwin's interrupted sigwait: 0, and no signal (libpthread turns EINTR into 0)
            (EINTR, 0, false),  // interrupted, as a C library that says so says it
            (0, SIGHUP, false),  // a signal the wait is not for
            (EINVAL, 0, true),  // a failure: waiting again would fail again
        ])
    func ends(status: Int32, received: Int32, ends: Bool) {
        #expect(StopSignals(signals: [SIGINT, SIGTERM]).ends(status: status, received: received) == ends)
    }
}
