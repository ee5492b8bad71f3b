"""Tests of scripts/tools/check_waits.py: one planted wait of each kind is found on its line, the bounded forms and
the marked ones are not, words in strings and comments are not code, a call over two lines is one call, and this
repository's Tests/ hold none."""

import unittest

from tools import check_waits

PLANTED = '''import Foundation

func unbounded(server: StubServer, process: Process, semaphore: DispatchSemaphore) async {
    let answer = await withCheckedContinuation { continuation in
        fetch { continuation.resume(returning: $0) }
    }
    semaphore.wait()
    process.waitUntilExit()
    server.waitUntilStopped()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
}

func bounded(server: StubServer, semaphore: DispatchSemaphore, gate: Gate) async throws {
    let answer = try await boundedContinuation("the fetch's answer") { continuation in
        fetch { continuation.resume(returning: $0) }
    }
    try await withBoundedWait(.seconds(2)) {
        await withCheckedContinuation { continuation in
            fetch { _ in continuation.resume() }
        }
    }
    try boundedWait("the server's stop") { server.waitUntilStopped() }
    _ = semaphore.wait(timeout: .now() + 10)
    try semaphore.waitBounded("the signal")
    await gate.wait()
    // semaphore.wait() in a comment, and process.waitUntilExit() too
    let said = "withCheckedContinuation and semaphore.wait() in a string"
    semaphore.wait()  // bounded: the test's own gate, which it opens
    // bounded: the test's own thread
    Thread.detachNewThread {
        server.waitUntilStopped()
    }
}
'''


class CheckWaitsTests(unittest.TestCase):
    def test_each_kind_is_found_on_its_line_and_the_bounded_forms_are_not(self):
        found = check_waits.waits_in("Tests/Unit/PlantedTests.swift", PLANTED)
        unbounded = [(wait.line, wait.kind) for wait in found if not wait.said]
        self.assertEqual(unbounded, [(4, "continuation"), (7, "wait"), (8, "blocking"), (9, "blocking"),
                                     (10, "blocking")])
        self.assertEqual([(wait.line, wait.kind) for wait in found if wait.said], [(28, "wait"), (31, "blocking")])
        self.assertIn("Tests/Unit/PlantedTests.swift:7: an unbounded wait: semaphore.wait() (use a wait with a "
                      "timeout", str(next(wait for wait in found if wait.line == 7)))

    def test_a_tasks_value_and_an_iterators_next_count_only_for_a_task_or_iterator_the_file_makes(self):
        text = """let load = Task { try await loader.load() }
var arrivals = stream.makeAsyncIterator()
await arrivals.next()
let result = try await load.value
let bounded = try await load.boundedValue("the load's end")
try await arrivals.boundedNext("an arrival")
let other = await model.value
let worker = Task.detached { 1 }
_ = await worker.value
"""
        found = [(wait.line, wait.kind) for wait in check_waits.waits_in("T.swift", text)]
        self.assertEqual(found, [(3, "stream element"), (4, "task value"), (9, "task value")])
        self.assertIn('(use task.boundedValue("what it waits for"))',
                      str(next(wait for wait in check_waits.waits_in("T.swift", text) if wait.line == 4)))

    def test_a_for_await_loop_counts_only_over_a_stream_the_file_makes(self):
        text = """let (events, record) = AsyncStream.makeStream(of: String.self)
for await event in events { seen.append(event) }
for try await line in process.lines { print(line) }
for await _ in events {}  // bounded: the test finished the stream above
var iterator = events.makeAsyncIterator()
"""
        found = [(wait.line, wait.kind, wait.said) for wait in check_waits.waits_in("T.swift", text)]
        self.assertEqual(found, [(2, "stream loop", False), (4, "stream loop", True)])
        self.assertIn("boundedNext", str(next(wait for wait in check_waits.waits_in("T.swift", text))))

    def test_a_blocking_call_and_a_spin_count_unless_a_bounded_helper_holds_them(self):
        text = """async let accepted = BlockingCall.run { listener.accept() == nil }
while injector.count(of: .accept) < 1 { await Task.yield() }
while wrote.withLock({ $0 }) == nil { await Task.yield() }
async let bounded = boundedBlockingCall("the accept") { listener.accept() == nil }
try await boundedUntil("the first accept") { injector.count(of: .accept) >= 1 }
while received < size {
    received += 1
}
"""
        found = [(wait.line, wait.kind) for wait in check_waits.waits_in("T.swift", text)]
        self.assertEqual(found, [(1, "blocking call"), (2, "spin"), (3, "spin")])

    def test_a_wait_is_read_as_the_compiler_reads_it_over_lines_and_past_comments(self):
        text = """semaphore
    .wait()
boundedWait("the stop") /* { */ {
    process.waitUntilExit()
}
let task = Task { 1 }
_ = await task
    .value
"""
        found = [(wait.line, wait.kind) for wait in check_waits.waits_in("T.swift", text)]
        self.assertEqual(found, [(2, "wait"), (7, "task value")])

    def test_a_marker_more_than_three_lines_above_does_not_count(self):
        text = "// bounded: far away\n\n\n\nsemaphore.wait()\n"
        self.assertEqual([wait.said for wait in check_waits.waits_in("T.swift", text)], [False])

    def test_this_repositorys_tests_hold_no_unbounded_wait(self):
        self.assertEqual([str(wait) for wait in check_waits.all_waits() if not wait.said], [])


if __name__ == "__main__":
    unittest.main()
