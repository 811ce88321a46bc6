import Testing
import Wording

/// A library's message with typed remedies in it: the text is the library's, each remedy is
/// worded by whoever renders it.
@Suite struct RemedyMessageTests {
  enum Remedy: Sendable, Equatable {
    case again
    case option(String)
  }

  typealias Message = RemedyMessage<Remedy>

  @Test func remediesAreWordedWhereTheyStand() {
    let message: Message = "it failed: \(remedy: .option("x")), or \(remedy: .again)"
    #expect(message.remedies == [.option("x"), .again])
    #expect(
      message.rendered {
        switch $0 {
        case .again: "try again"
        case .option(let name): "give --\(name)"
        }
      } == "it failed: give --x, or try again")
    #expect(message.rendered { _ in "" } == "it failed: , or ")
  }

  /// Text read from a file is made one line; what the tool words for a remedy is its own.
  @Test func oneLineEscapesTextNotRemedies() {
    let message: Message = "\("a\nb"): \(remedy: .again)"
    #expect(message.oneLine.rendered { _ in "\u{1B}" } == "a?b: \u{1B}")
    #expect(message.oneLine.remedies == [.again])
  }

  @Test func messagesJoin() {
    var message: Message = "a"
    message += " \(remedy: .again)" as Message
    message += "."
    #expect(("<" + message + ">").rendered { _ in "R" } == "<a R.>")
    #expect(!message.isEmpty)
    #expect(Message("").isEmpty)
  }
}
