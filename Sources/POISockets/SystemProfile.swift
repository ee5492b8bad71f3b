#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whose documented socket behaviour the system calls follow: the running system's own, or Darwin's, put on Linux on
/// purpose so that the Mac's path is tried where there is no Mac.
///
/// `POI_SYSTEM=darwin` in a process's environment turns Darwin's behaviour on for every socket of the process, and of
/// the programs it launches, which inherit the variable. Under it, on Linux, the calls the package depends on behave as
/// Apple's headers and XNU document them, where Linux differs (docs/macos.md lists each with its source):
///
/// - `shutdown` of a listening socket fails with `ENOTCONN` and wakes no thread blocked on it (XNU's `soshutdown`
///   refuses a socket that is neither connected nor connecting; Linux's disconnects the listener and wakes `accept`);
/// - `fstat` of a socket gives no device and no inode (XNU's `soo_stat` fills neither);
/// - an accepted socket inherits the listener's `O_NONBLOCK` (BSD's `accept(2)`; Linux's man page says it does not);
/// - there is no `MSG_NOSIGNAL`: a write to a peer that hung up raises SIGPIPE, and kills the process, unless the
///   socket was given `SO_NOSIGPIPE` (Darwin's `setsockopt(2)`), which the emulation records per descriptor;
/// - `poll` watches a descriptor for the events asked only (none: nothing, not even a hang-up), reports the end of a
///   stream as `POLLHUP`, and a socket's error as no `POLLERR` (XNU's `poll_nocancel`, `poll_callback`);
/// - after a reset, a read at the end of the stream says `ECONNRESET` and a send says `EPIPE` (XNU's `soreceive`,
///   `sosendcheck`);
/// - the C library's words for `ENOTCONN` and the resolver's for `EAI_NONAME` are Darwin's.
///
/// On Darwin itself both profiles are the system's own behaviour. The variable takes `darwin`, or nothing (unset or
/// empty: the running system's own); any other value is a mistake the programs report (`init(environmentValue:)`).
public enum SystemProfile: String, Sendable, CaseIterable {
    /// The running system's own behaviour.
    case native
    /// Darwin's documented behaviour, on any system.
    case darwin

    /// The environment variable that chooses the profile.
    public static let variable = "POI_SYSTEM"
    /// What the variable does, as the programs' help says it.
    public static let summary = "darwin: the sockets behave as Darwin documents, on any system (to try the macOS path)"

    /// Why a value of `POI_SYSTEM` chooses no profile.
    public struct UnknownProfile: Error, Equatable, CustomStringConvertible {
        /// The value as it was given.
        public let value: String

        /// The refusal of `value`.
        public init(value: String) {
            self.value = value
        }

        /// Says what the variable takes.
        public var description: String {
            "\(SystemProfile.variable): '\(value)' is not a system whose sockets can be followed (use darwin, or leave "
                + "it unset)"
        }
    }

    /// The profile `value` (the variable's value, `nil` when it is not set) chooses: `darwin`, or the running
    /// system's own when it is unset or empty; any other value throws.
    public init(environmentValue value: String?) throws(UnknownProfile) {
        switch value {
        case nil, "": self = .native
        case "darwin": self = .darwin
        case let other?: throw UnknownProfile(value: other)
        }
    }

    /// The profile of this process, from its environment when it started; read once.
    ///
    /// A value it does not know stops the process with the reason: a run meant to try Darwin's behaviour must never
    /// pass while following another's. The programs check the variable first and report it as a usage error.
    public static let current: SystemProfile = {
        let value = getenv(variable).map { String(cString: $0) }
        let profile = try? SystemProfile(environmentValue: value)
        // A precondition every process runs, rather than a stop in a branch only the stopped process reaches.
        precondition(profile != nil, UnknownProfile(value: value ?? "").description)
        return profile ?? .native
    }()

    /// What `fstat` tells of `descriptor` as the profile has it: its type (`isSocket`), device and inode (under
    /// Darwin's, a socket has neither: 0 and 0); `nil` when the call fails.
    public func fileStatus(of descriptor: Int32) -> (isSocket: Bool, device: UInt64, inode: UInt64)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        if emulatesDarwin { status = DarwinEmulation.status(status) }
        return ((status.st_mode & S_IFMT) == S_IFSOCK, UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// Whether Darwin's behaviour is put on this system, which has its own: the profile is `darwin` and the system
    /// is not Darwin.
    var emulatesDarwin: Bool {
        #if canImport(Darwin)
            false
        #else
            self == .darwin
        #endif
    }
}
