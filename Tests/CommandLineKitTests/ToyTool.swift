import CommandLineKit

/// A small tool of the framework's own, so its rules are tested apart from freedom-keys: a
/// root group (`toy`), a command with typed options and a secret's file option (`toy seal`),
/// a group that runs itself (`toy queue`, with `toy queue drain`), and `toy help`.
struct Toy: Command {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "toy", abstract: "A tool for the framework's tests.",
      subcommands: [Seal.self, Queue.self, Help.self])
  }

  static var tool: CommandLineTool {
    CommandLineTool(
      root: Toy.self, version: "9.8.7", help: Help.self, secretOptions: ["key"],
      positionalSecret: "key", exitStatus: "0 on success.")
  }

  init(_ arguments: ParsedArguments) {}
  func run() {}
}

enum Colour: Sendable, Equatable { case red, green }

struct Seal: Command {
  static let keyFile = Option.value("key-file", "path", help: "Read the key from <path>.")
  static let rounds = TypedOption<UInt8>.integer(
    "rounds", "n", help: "How many rounds.", in: 1...20)
  static let colour = TypedOption<Colour>.choice(
    "colour", "name", help: "The colour.", [("red", .red), ("green", .green)])
  static let outDir = Option.value("out-dir", "dir", help: "Where to write.").aliased("output")
  static let json = Option.flag("json", help: "Print JSON.")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "seal", abstract: "Seal something.", discussion: "First paragraph\nwraps.\n\nSecond.",
      options: [keyFile, rounds.option, colour.option, outDir, json])
  }

  let rounds: UInt8?
  let colour: Colour
  let outDir: String?
  let json: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    rounds = try arguments.value(Self.rounds)
    colour = try arguments.value(Self.colour) ?? .red
    outDir = try arguments.nonEmpty(Self.outDir)
    json = arguments.flag(Self.json)
  }

  func run() {}
}

struct Queue: Command {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "queue", abstract: "Show the queue.", options: [.flag("all", help: "Everything.")],
      subcommands: [Drain.self], runsWithoutSubcommand: true)
  }

  init(_ arguments: ParsedArguments) {}
  func run() {}
}

struct Drain: Command {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "drain", abstract: "Empty the queue.",
      argument: .value("name", "name", help: "The queue."))
  }

  let name: String

  init(_ arguments: ParsedArguments) throws(CLIError) {
    name = try arguments.required(Self.definition.argument!)
  }

  func run() {}
}

struct Help: Command {
  static var definition: CommandDefinition {
    CommandDefinition(name: "help", abstract: "Show help.", usage: "[<command> ...]")
  }

  init(_ arguments: ParsedArguments) {}
  func run() {}
}
