import Foundation
import Synchronization
import XCTest

/// Chapter 7's first step (scripts/tool steps 7): mock an external class by subclassing it. On Linux the class's
/// method cannot be overridden, so this file does not compile; the replay expects exactly that error.
final class ObserverCountingCenter: NotificationCenter, @unchecked Sendable {
    let removed = Mutex(0)

    override func removeObserver(_ observer: Any) {
        removed.withLock { $0 += 1 }
        super.removeObserver(observer)
    }
}
