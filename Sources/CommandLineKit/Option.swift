/// What a shell offers when completing an option's value.
package enum ValueCompletion: Sendable, Hashable {
  /// Free text (a number, a hex string): nothing to offer.
  case none
  /// A file name.
  case file
  /// A directory name.
  case directory
  /// One of these words.
  case choices([String])

  /// The default for a value placeholder: `<path>` and `<file>` are files, `<dir>` directories.
  static func inferred(from valueName: String) -> ValueCompletion {
    switch valueName {
    case "path", "file": .file
    case "dir": .directory
    default: .none
    }
  }
}

/// One option a command understands: a flag (`--json`) or an option with a value
/// (`--wallets N`, also written `--wallets=N`).
package struct Option: Sendable, Hashable {
  /// The long name without the leading dashes.
  package let name: String
  /// The placeholder shown in help (`<path>`); nil for a flag.
  package let valueName: String?
  /// One line for the help text.
  package let help: String
  /// What shell completion offers for the value.
  package var completion: ValueCompletion = .none
  /// Other names it is also given by (`--user-data` for `--freedom-dir`); giving two of them
  /// is a usage error, and help lists each as "The same as --name.".
  package var aliases: [String] = []

  /// A flag: present or absent.
  package static func flag(_ name: String, help: String) -> Option {
    Option(name: name, valueName: nil, help: help)
  }

  /// An option that takes one value; completion offers files for `<path>` and `<file>`,
  /// directories for `<dir>`, `choices` when given, else nothing.
  package static func value(
    _ name: String, _ valueName: String, help: String, choices: [String]? = nil
  ) -> Option {
    Option(
      name: name, valueName: valueName, help: help,
      completion: choices.map(ValueCompletion.choices) ?? .inferred(from: valueName))
  }

  /// The option, also given by each of `names`.
  package func aliased(_ names: String...) -> Option {
    var option = self
    option.aliases += names
    return option
  }

  /// The rows help, man pages and completion list: the option, then each alias.
  var listed: [Option] {
    [self]
      + aliases.map {
        Option(
          name: $0, valueName: valueName, help: "The same as --\(name).", completion: completion)
      }
  }

  /// Whether `--spelling` gives this option.
  func isNamed(_ spelling: String) -> Bool { name == spelling || aliases.contains(spelling) }

  /// `--name` or `--name <value>`, as help and messages show it.
  package var synopsis: String {
    valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
  }
}

/// An option whose value is read as a `Value`: declared once with its name, help and parser, so
/// every command that takes it reads and refuses it the same way (`arguments.value(option)`,
/// `arguments.required(option)`).
package struct TypedOption<Value>: Sendable {
  /// The option as help, completion and the parser see it.
  package let option: Option
  /// The value of the text given, or nil when it is not one.
  package let parse: @Sendable (String) -> Value?
  /// What the value must be, for the usage error: "must be zero or derived".
  package let requirement: String

  package init(
    option: Option, parse: @escaping @Sendable (String) -> Value?, requirement: String
  ) {
    self.option = option
    self.parse = parse
    self.requirement = requirement
  }

  /// One of `choices` (word and value), which completion offers.
  package static func choice(
    _ name: String, _ valueName: String, help: String, _ choices: [(String, Value)]
  ) -> TypedOption where Value: Sendable {
    let words = choices.map(\.0)
    return TypedOption(
      option: .value(name, valueName, help: help, choices: words),
      parse: { text in choices.first { $0.0 == text }?.1 },
      requirement: "must be " + Self.list(words))
  }

  /// A whole number in `range`: digits only, no sign, no spaces, no "0x".
  package static func integer(
    _ name: String, _ valueName: String, help: String, in range: ClosedRange<Value>
  ) -> TypedOption where Value: FixedWidthInteger & Sendable {
    TypedOption(
      option: .value(name, valueName, help: help),
      parse: { text in
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
          let number = Value(text, radix: 10), range.contains(number)
        else { return nil }
        return number
      },
      requirement: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
  }

  /// "a", "a or b", "a, b or c".
  package static func list(_ words: [String]) -> String {
    words.count < 2
      ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
  }
}
