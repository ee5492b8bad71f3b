// A stand-in for Darwin, Apple's C library module, for the package compiled as a Mac compiles it (`scripts/tool
// apple-compile`): the POSIX calls are Glibc's, which this module re-exports (their signatures are POSIX's on both), and
// the names only Darwin has are declared here as Darwin's headers give them to Swift. It is never run.
@_exported import Glibc

/// Darwin's socket option that makes a write to a peer that hung up fail with EPIPE instead of raising SIGPIPE.
///
/// `#define SO_NOSIGPIPE 0x1022` in sys/socket.h; Linux has no such option.
public var SO_NOSIGPIPE: Int32 { 0x1022 }
