import Foundation
import POIApp
import POILock
import Testing

/// `NotificationCenter` as the package's `NotificationChannel`: what the observers are given in the programs, held to
/// the center's own behaviour (the spy center, `SpyNotificationCenter`, holds the observers to their promises).
@Suite("NotificationChannel")
struct NotificationChannelTests {
    static let name = Notification.Name("NotificationChannelTests.name")

    @Test("A center's observe adds a block that it runs on each post; stopObserving removes that block")
    func centerAddsAndRemoves() {
        let center = NotificationCenter()
        let heard = Lock(0)
        let token = center.observe(Self.name, queue: nil) { _ in heard.withLock { $0 += 1 } }
        center.post(name: Self.name, object: nil)
        #expect(heard.withLock { $0 } == 1)
        center.stopObserving(token)
        center.post(name: Self.name, object: nil)
        #expect(heard.withLock { $0 } == 1, "the block ran after it was removed")
    }
}
