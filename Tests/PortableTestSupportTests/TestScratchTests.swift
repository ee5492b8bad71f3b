import Foundation
import Testing

@testable import PortableTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The run's one folder for the files tests write, and the sweep of the folders killed runs left.
@Suite("TestScratch: one folder per run, swept when a run was killed")
struct TestScratchTests {
    @Test("Each file is new, in this run's folder, named after what it holds")
    func files() throws {
        let first = TestScratch.file("places", suffix: "json")
        let second = TestScratch.file("places", suffix: "json")
        #expect(first != second)
        #expect(first.deletingLastPathComponent() == TestScratch.folder)
        #expect(TestScratch.folder.lastPathComponent == "\(TestScratch.prefix)\(getpid())")
        #expect(TestScratch.prefix == "poi-tests-")  // what CI's look for folders left behind searches
        #expect(first.lastPathComponent.hasPrefix("places-") && first.pathExtension == "json")
        #expect(TestScratch.file("comm").pathExtension.isEmpty)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: TestScratch.folder.path, isDirectory: &isFolder))
        #expect(isFolder.boolValue)
        let made = try TestScratch.directory("data")
        defer { try? FileManager.default.removeItem(at: made) }
        #expect(FileManager.default.fileExists(atPath: made.path))
    }

    @Test("The sweep removes the folders of runs whose process is gone, and nothing else")
    func sweep() throws {
        let temporary = try TestScratch.directory("sweep")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let gone = "poi-tests-999999999"  // no system gives a process this identifier
        let names = [gone, "poi-tests-\(getpid())", "poi-tests-1", "poi-tests-abc", "places-1.json"]
        for name in names {
            try FileManager.default.createDirectory(
                at: temporary.appendingPathComponent(name), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: temporary.appendingPathComponent(name).appendingPathComponent("file"))
        }
        #expect(kill(999_999_999, 0) == -1 && errno == ESRCH)
        #expect(TestScratch.sweep(in: temporary) == [gone])
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        #expect(left == names.filter { $0 != gone }.sorted())
    }
}
