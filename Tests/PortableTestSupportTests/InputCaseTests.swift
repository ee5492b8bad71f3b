import PortableTestSupport
import Testing

/// `InputCase`: the name Swift Testing shows for a case, which a table of inputs reads back.
@Suite("InputCase")
struct InputCaseTests {
    @Test("A case reads ⟨INPUT⟩ KIND: LABEL, whatever its value")
    func description() {
        let limit = InputCase("poi nearby --limit", .boundary, "1, the least", value: ["--limit", "1"])
        #expect(limit.testDescription == "⟨poi nearby --limit⟩ boundary: 1, the least")
        #expect(limit.value == ["--limit", "1"])
        #expect(limit.input == "poi nearby --limit" && limit.kind == .boundary && limit.label == "1, the least")
        let empty = InputCase("POI_GPSD_HOST", .empty, "set to nothing", value: "")
        #expect(empty.testDescription == "⟨POI_GPSD_HOST⟩ empty: set to nothing")
    }

    @Test("Every kind is named by its own word, as the table of inputs spells it")
    func kinds() {
        #expect(
            InputCase<Int>.Kind.allCases.map(\.rawValue)
                == ["valid", "invalid", "boundary", "separator", "empty", "huge", "pair", "state"])
    }
}
