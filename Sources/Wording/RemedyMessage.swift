/// Tool-neutral text with typed remedies in it, as a library result or error words itself: the
/// library names what can be done (`Remedy`, its own enum), the tool renders each remedy as its
/// own option or command (`rendered(_:)`), so no library text names a flag or the tool, and
/// each remedy is worded once, by the tool.
package struct RemedyMessage<Remedy: Sendable & Equatable>: Sendable, Equatable,
  ExpressibleByStringInterpolation
{
  package enum Part: Sendable, Equatable {
    case text(String)
    case remedy(Remedy)
  }

  package private(set) var parts: [Part]

  package init(_ parts: [Part]) { self.parts = parts }

  package init(stringLiteral value: String) { parts = [.text(value)] }

  package init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

  package struct StringInterpolation: StringInterpolationProtocol {
    var parts: [Part] = []

    package init(literalCapacity: Int, interpolationCount: Int) {}

    package mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

    package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
      parts.append(.text(value.description))
    }

    package mutating func appendInterpolation(remedy: Remedy) { parts.append(.remedy(remedy)) }

    package mutating func appendInterpolation(_ message: RemedyMessage) {
      parts += message.parts
    }
  }

  /// Whether there is no text at all.
  package var isEmpty: Bool { parts.allSatisfy { $0 == .text("") } }

  /// The remedies named, in order.
  package var remedies: [Remedy] {
    parts.compactMap { if case .remedy(let remedy) = $0 { remedy } else { nil } }
  }

  /// The message made one line: each control character of its text (read from a file, say)
  /// shown as '?' (`TerminalText.oneLine`); remedies, worded by the tool, are left as they are.
  package var oneLine: RemedyMessage {
    RemedyMessage(
      parts.map {
        if case .text(let text) = $0 { .text(TerminalText.oneLine(text)) } else { $0 }
      })
  }

  /// The text with each remedy worded by `word`.
  package func rendered(_ word: (Remedy) -> String) -> String {
    parts.map {
      switch $0 {
      case .text(let text): text
      case .remedy(let remedy): word(remedy)
      }
    }.joined()
  }

  package static func + (lhs: RemedyMessage, rhs: RemedyMessage) -> RemedyMessage {
    RemedyMessage(lhs.parts + rhs.parts)
  }

  // Text joined to a message: disfavoured, so that two literals joined make one message (not
  // a String and a message, or a message and a String, equally good).
  @_disfavoredOverload
  package static func + (lhs: RemedyMessage, rhs: String) -> RemedyMessage {
    RemedyMessage(lhs.parts + [.text(rhs)])
  }

  @_disfavoredOverload
  package static func + (lhs: String, rhs: RemedyMessage) -> RemedyMessage {
    RemedyMessage([.text(lhs)] + rhs.parts)
  }

  package static func += (lhs: inout RemedyMessage, rhs: RemedyMessage) { lhs.parts += rhs.parts }

  @_disfavoredOverload
  package static func += (lhs: inout RemedyMessage, rhs: String) { lhs.parts.append(.text(rhs)) }
}
