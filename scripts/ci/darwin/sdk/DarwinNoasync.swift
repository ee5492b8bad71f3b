// Darwin's `noasync` marks, put on Linux: the calls that Apple's SDK marks unavailable from asynchronous contexts
// (`@available(*, noasync)` in Dispatch and Darwin's C library; an error in the Swift 6 language mode on a Mac:
// "instance method 'wait' is unavailable from asynchronous contexts"), which Linux's libdispatch and Glibc do not mark.
//
// `scripts/tool apple-compile` builds the package with this module imported into every file (`-import-module`). Each
// declaration below is an `async` twin of the real call, with the same name and arguments: in an asynchronous body the
// compiler prefers an `async` overload, so a direct call there resolves to the twin and is reported, as deprecated
// with the reason, and as an async call without `await`, both errors in that build; in a synchronous body (a closure
// handed to a thread, a function that is not async) the twin cannot be called, so the real call is chosen and nothing
// is reported. That is the rule Darwin's compiler applies, found by the type checker rather than by reading text.
// Nothing here is ever run. Foundation's `Thread.sleep` is not here: Linux's Foundation marks it noasync already.
// Foundation's `NSLocking` `lock()` and `unlock()` are (NSLock, NSRecursiveLock, NSCondition, NSConditionLock): Apple's
// header marks them unavailable from async ("Use async-safe scoped locking instead"), Linux's Foundation does not.
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension DispatchSemaphore {
    @available(
        *, deprecated,
        message: "Darwin marks DispatchSemaphore.wait noasync: an error in an async body on a Mac; await instead"
    )
    public func wait() async { fatalError("a stand-in, never run") }
    @available(
        *, deprecated,
        message: "Darwin marks DispatchSemaphore.wait noasync: an error in an async body on a Mac; await instead"
    )
    public func wait(timeout: DispatchTime) async -> DispatchTimeoutResult { fatalError("a stand-in, never run") }
    @available(
        *, deprecated,
        message: "Darwin marks DispatchSemaphore.wait noasync: an error in an async body on a Mac; await instead"
    )
    public func wait(wallTimeout: DispatchWallTime) async -> DispatchTimeoutResult {
        fatalError("a stand-in, never run")
    }
}

extension DispatchGroup {
    @available(
        *, deprecated,
        message: "Darwin marks DispatchGroup.wait noasync: an error in an async body on a Mac; await instead"
    )
    public func wait() async { fatalError("a stand-in, never run") }
    @available(
        *, deprecated,
        message: "Darwin marks DispatchGroup.wait noasync: an error in an async body on a Mac; await instead"
    )
    public func wait(timeout: DispatchTime) async -> DispatchTimeoutResult { fatalError("a stand-in, never run") }
    @available(
        *, deprecated,
        message: "Darwin marks DispatchGroup.wait noasync: an error in an async body on a Mac; await instead"
    )
    public func wait(wallTimeout: DispatchWallTime) async -> DispatchTimeoutResult {
        fatalError("a stand-in, never run")
    }
}

extension DispatchWorkItem {
    @available(
        *, deprecated,
        message: "Darwin marks DispatchWorkItem.wait noasync: an error in an async body on a Mac; await instead"
    )
    public func wait() async { fatalError("a stand-in, never run") }
    @available(
        *, deprecated,
        message: "Darwin marks DispatchWorkItem.wait noasync: an error in an async body on a Mac; await instead"
    )
    public func wait(timeout: DispatchTime) async -> DispatchTimeoutResult { fatalError("a stand-in, never run") }
}

@available(
    *, deprecated,
    message: "Darwin marks sleep noasync: an error in an async body on a Mac; use Task.sleep or a clock"
)
public func sleep(_ seconds: UInt32) async -> UInt32 { fatalError("a stand-in, never run") }
@available(
    *, deprecated,
    message: "Darwin marks usleep noasync: an error in an async body on a Mac; use Task.sleep or a clock"
)
public func usleep(_ microseconds: useconds_t) async -> Int32 { fatalError("a stand-in, never run") }
@available(
    *, deprecated,
    message: "Darwin marks nanosleep noasync: an error in an async body on a Mac; use Task.sleep or a clock"
)
public func nanosleep(
    _ requested: UnsafePointer<timespec>!, _ remaining: UnsafeMutablePointer<timespec>!
) async -> Int32 {
    fatalError("a stand-in, never run")
}

extension NSLocking {
    @available(
        *, deprecated,
        message: "Darwin marks NSLocking.lock noasync: an error in an async body on a Mac; use withLock"
    )
    public func lock() async { fatalError("a stand-in, never run") }
    @available(
        *, deprecated,
        message: "Darwin marks NSLocking.unlock noasync: an error in an async body on a Mac; use withLock"
    )
    public func unlock() async { fatalError("a stand-in, never run") }
}
