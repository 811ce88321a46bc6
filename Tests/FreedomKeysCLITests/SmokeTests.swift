import Testing

@Test func binaryRuns() throws {
  let run = try CLI.run([])
  #expect(run.status == 0)
}
