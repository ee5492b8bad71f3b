import POICommandLine
import POICommands
public import PortableTestSupport

extension ProgramUnderTest {
    /// `poi`, run in `mode` as a test runner launches the app: with `IS_UNIT_TESTING=1` (the talk's launch
    /// shortcut) unless a run sets the variable otherwise or removes it (`nil`).
    ///
    /// In process it is what the executable's `main` does: `POICommand` with the run's environment, its output and
    /// errors written a line at a time to the run's streams.
    public static func poi(_ mode: Mode) -> ProgramUnderTest {
        ProgramUnderTest(
            executable: BuiltProduct.product("poi"),
            variables: Set(POICommand.environmentVariables.map(\.name)),
            environment: ["IS_UNIT_TESTING": "1"],
            mode: mode
        ) { invocation in
            let command = POICommand(
                environment: invocation.environment,
                output: StandardStreams.lines(invocation.standardOutput),
                errorOutput: StandardStreams.lines(invocation.standardError)
            )
            return await command.run(invocation.arguments).rawValue
        }
    }
}
