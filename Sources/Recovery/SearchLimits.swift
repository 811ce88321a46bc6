import Dispatch

/// How long a search may run before it stops by itself (resumably, as an interrupt does),
/// read from hours as a user writes them: "1.5".
package struct SearchTimeLimit: Sendable, Equatable {
  /// Above 0, at most a million.
  package let hours: Double
  /// The hours as written when they are digits and a point, else the number read: what a
  /// message repeats.
  package let text: String

  /// Nil unless `hours` is a number of hours above 0 and at most 1,000,000.
  package init?(hours text: String) {
    guard let hours = Double(text), hours.isFinite, hours > 0, hours <= 1_000_000 else {
      return nil
    }
    self.hours = hours
    self.text = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } ? text : "\(hours)"
  }

  /// The instant the search stops when it starts at `start`.
  package func deadline(from start: DispatchTime = .now()) -> DispatchTime {
    start + .nanoseconds(Int(hours * 3.6e12))
  }
}

/// How often a search reports its progress.
package enum ProgressInterval {
  /// The seconds `text` gives, when a number above 0 and at most a day (86,400).
  package static func seconds(_ text: String) -> Double? {
    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
      return nil
    }
    return seconds
  }

  /// Without one given: every second where the line is redrawn in place (a terminal), else
  /// every 30 s (a log).
  package static func standard(redrawn: Bool) -> Double { redrawn ? 1 : 30 }
}
