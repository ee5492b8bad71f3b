/// What a test makes its sockets' system calls do instead of their usual: the seam for fault injection.
///
/// Every socket call of the package goes through `Socket`, which asks the faults of the socket at hand, before each
/// call, whether the call goes to the C library as usual or does something else: fails with an error number, moves
/// fewer bytes, or (`connect`) completes at once. The programs run with `.none`, whose answer is always "as usual":
/// one comparison a call, next to a system call's cost.
///
/// The faults travel with the objects a test makes: a `SocketListener` made with faults gives them to every
/// connection it accepts, a connection made with them keeps them, a `StubServer` configured with them gives them to
/// its listener. So a test's faults reach its own sockets only, and the tests stay parallel. POITestSupport's
/// `FaultInjector` makes them from rules, such as "the 2nd `accept` fails with `EMFILE`".
public struct SystemCallFaults: Sendable {
    /// A system call the sockets make.
    public enum Call: String, Sendable, CaseIterable {
        /// `getaddrinfo`, which resolves a host name; its failure is an `EAI_…` code, not an `errno`.
        case resolve
        /// `socket`, which makes a descriptor.
        case socket
        /// `connect`.
        case connect
        /// `bind`.
        case bind
        /// `listen`.
        case listen
        /// `pipe`, which makes a listening socket's wake pipe (`SocketDescriptor.close()` writes to it to wake every
        /// thread waiting on the listener, on either system). Its failure fails the listen, and frees the socket.
        case pipe
        /// `accept`, which takes a connection from the listen queue.
        case accept
        /// `send`, which writes bytes.
        case send
        /// `read`, which reads bytes.
        case receive
        /// `poll`, which waits for a connection's socket to be ready.
        case poll
        /// `poll` of a listening socket and its wake pipe: the wait before each `accept`, and `waitForConnection`'s.
        case pollListener
        /// `shutdown` of the sending side, the first step of a lingering close (`Socket.closeLingering`).
        case shutdown
        /// `freeaddrinfo`, which gives back what `resolve` returned. It cannot fail, so no action changes it: a test
        /// counts it, to see that every address list `resolve` gave is given back.
        case freeAddresses
        /// `close` of a descriptor the package made (a socket, a wake pipe's end). Counted only, as `freeAddresses`:
        /// a test compares it with what `socket`, `accept` and `pipe` gave, to see that a path frees what it took.
        case close
    }

    /// What a call does instead of its usual.
    public enum Action: Sendable, Equatable {
        /// The call fails with this error number (an `EAI_…` code for `resolve`), as the C library reports a failure.
        case fail(Int32)
        /// A `send` or `receive` moves at most this many bytes (at least one): a short write or read.
        case atMost(Int)
        /// A non-blocking `connect` completes at once instead of reporting that it is in progress.
        case completeAtOnce
        /// An `accept` behaves as Darwin's, in any process: the client inherits the listener's `O_NONBLOCK`
        /// (`DarwinEmulation`), as the whole process's does under `POI_SYSTEM=darwin`.
        case asOnDarwin
    }

    /// What a call took from the system or gave back to it: what a test counts to see that a path, failing or not,
    /// gives back everything it took.
    public enum Resource: Sendable, Equatable {
        /// A descriptor was made: by `socket`, `accept`, or `pipe` (one for each end).
        case opened(Int32)
        /// A descriptor the package made was closed.
        case closed(Int32)
        /// A `SocketDescriptor` went with its descriptor still open: its owner let go of it without closing it, and
        /// its deinit closes it (told next, as `closed`). A safety net, not a path: every path closes what it owns.
        case dropped(Int32)
        /// A connection's descriptor was shut down by `SocketDescriptor.close()`, to wake the threads blocked on it.
        /// An effect on the number, not a resource: told so that a test sees it land on a number still owned, never
        /// on one closed already (which the system may have given to another connection since).
        case shutDown(Int32)
        /// A listening socket's wake pipe was written to by `SocketDescriptor.close()` (the number of its write end),
        /// to wake the threads waiting on the listener. Told as `shutDown` is, for the same reason.
        case woken(Int32)
        /// An address list was given by `resolve`.
        case resolved
        /// An address list was given back (`freeaddrinfo`).
        case freed
    }

    private let decide: (@Sendable (Call) -> Action?)?
    private let record: (@Sendable (Resource) -> Void)?

    /// Faults that `decide` chooses, told what each call took when `record` is given.
    ///
    /// `decide` is called before every system call of the sockets that carry them, on the thread that makes the
    /// call, with the call; `nil` lets the call go to the C library as usual. `record`, when given, hears each
    /// resource a call took or gave back, after the call.
    public init(
        _ decide: @escaping @Sendable (Call) -> Action?, recording record: (@Sendable (Resource) -> Void)? = nil
    ) {
        self.decide = decide
        self.record = record
    }

    private init() {
        decide = nil
        record = nil
    }

    /// No fault: every call goes to the C library, what the programs run with.
    public static let none = SystemCallFaults()

    /// What `call` does this time: `nil` when it goes to the C library as usual.
    func action(for call: Call) -> Action? {
        guard let decide else { return nil }
        return decide(call)
    }

    /// Tells the test what a call took or gave back.
    func took(_ resource: Resource) {
        record?(resource)
    }
}
