import POISockets
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `SystemProfile.current`, read once from `POI_SYSTEM`: a value it does not know stops the process, since a run meant
/// to try Darwin's behaviour must never pass while following another's.
@Suite("SystemProfile")
struct SystemProfileTests {
    @Test("A POI_SYSTEM the process does not know stops it the first time the profile is read, saying why")
    func unknownProfileStops() async {
        // In a child process, where the profile has not been read yet: the variable is set there, before the read.
        let ended = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv(SystemProfile.variable, "linux", 1)
            _ = SystemProfile.current
        }
        let said = String(decoding: ended?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains(SystemProfile.UnknownProfile(value: "linux").description), "\(said)")
    }
}
