import SystemCalls

/// Why a secret (mnemonic, passphrase, password) could not be read. Messages name where it came
/// from, never what it contains.
public enum SecretInputError: Error, CustomStringConvertible, Sendable {
  /// The file could not be opened or read; `reason` is the system's explanation.
  case unreadable(SecretSource, reason: String)
  /// The path names a directory.
  case directory(SecretSource)
  /// More than `limit` bytes (`SecretInput.maximumByteCount` for a secret): not the right file.
  case tooLarge(SecretSource, limit: Int)
  /// The bytes are not UTF-8; `byte` is the 1-based offset of the first bad byte.
  case invalidUTF8(SecretSource, byte: Int)
  /// A control character other than tab, line feed or carriage return at 1-based offset `byte`.
  case controlCharacter(SecretSource, scalar: UInt32, byte: Int)
  /// The prompt reached end of input before a line was entered.
  case nothingEntered(SecretSource)
  /// A new secret typed twice at the hidden prompt did not match.
  case mismatch(SecretSource)
  /// The secret could not be written to standard output; `reason` is the system's explanation.
  case unwritable(SecretSource, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let source, let reason): "cannot read \(source): \(reason)"
    case .directory(let source): "\(source) is a directory, not a file"
    case .tooLarge(let source, let limit) where limit == SecretInput.maximumByteCount:
      "\(source) is larger than \(size(limit)); it should hold only the secret"
    case .tooLarge(let source, let limit):
      "\(source) is larger than \(size(limit)); check that it is the right file"
    case .invalidUTF8(let source, let byte): "\(source) is not valid UTF-8 (byte \(byte))"
    case .controlCharacter(let source, let scalar, let byte):
      "\(source) contains a control character (U+\(hex4(scalar))) at byte \(byte)"
    case .nothingEntered(let source): "no \(source.role) was entered"
    case .mismatch(let source):
      "the two \(source.role)s entered differ; nothing was written (type the same one twice)"
    case .unwritable(let source, let reason): "cannot write the \(source.role): \(reason)"
    }
  }

  /// "64 KiB", "1 MiB".
  private func size(_ byteCount: Int) -> String {
    byteCount % (1 << 20) == 0 ? "\(byteCount >> 20) MiB" : "\(byteCount >> 10) KiB"
  }

  private func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// Where a secret comes from, as messages name it: "mnemonic file 'words.txt'".
public struct SecretSource: CustomStringConvertible, Sendable {
  /// What the secret is: "mnemonic", "passphrase", "password".
  public let role: String
  /// The path given on the command line; "-" is standard input, nil the terminal prompt.
  public let path: String?
  /// Whether the secret is a new one (a password the command encrypts with), which the
  /// hidden prompt asks for twice: an export's passwords, but not in its dry run.
  public var isNew: Bool

  public init(role: String, path: String?, isNew: Bool = false) {
    (self.role, self.path, self.isNew) = (role, path, isNew)
  }

  public var description: String {
    switch path {
    case nil: "\(role) entered at the prompt"
    case "-": "\(role) on standard input"
    case let path?: "\(role) file '\(path)'"
    }
  }
}

/// Reads secrets straight into `SecureBytes` (no `Data` or `String` copies), from a file,
/// standard input or a prompt with echo off, and checks they are sane UTF-8 text.
public enum SecretInput {
  /// A secret file larger than this is refused before it is read.
  public static let maximumByteCount = 64 * 1024

  /// Whether standard input is a terminal a person could type into.
  public static var standardInputIsTerminal: Bool { Platform.isTerminal(Platform.standardInput) }

  /// The content of the file at `source.path` ("-" reads standard input), without a leading
  /// byte order mark unless `keepsByteOrderMark` (for a reader that takes it as part of the
  /// secret), refused unread if larger than `limit`. A file readable by other users is
  /// named to `warning` (pass nil for an encrypted file, which is meant to sit on disk).
  /// On a terminal, a password given as "-" is answered at a hidden prompt (twice for a new
  /// one), never read with echo on. (A vault given as "-" is read to its end: it is a file's
  /// content, not a line.)
  public static func read(
    _ source: SecretSource, limit: Int = maximumByteCount, keepsByteOrderMark: Bool = false,
    warning: ((String) -> Void)?
  ) throws(SecretInputError) -> SecureBytes {
    let path = source.path ?? "-"
    if path == "-", standardInputIsTerminal, source.role.hasSuffix("password") {
      let prompted = SecretSource(role: source.role, path: nil, isNew: source.isNew)
      return try prompt("Enter the \(source.role) (input hidden): ", for: prompted)
    }
    let standardInput = Platform.standardInput
    let descriptor = path == "-" ? standardInput : Platform.open(path: path, Platform.readOnly)
    guard descriptor >= 0 else { throw .unreadable(source, reason: systemError()) }
    defer { if descriptor != standardInput { _ = Platform.close(descriptor) } }

    guard let info = Platform.info(descriptor) else {
      throw .unreadable(source, reason: systemError())
    }
    var capacity = limit + 1
    switch info.type {
    case Platform.directoryType:
      throw .directory(source)
    case Platform.regularFileType:
      guard info.size <= limit else { throw .tooLarge(source, limit: limit) }
      capacity = Int(info.size) + 1  // one more, to notice a file that grew meanwhile
      if path != "-", let warning, let shared = sharedNotice(path: path, mode: info.mode) {
        warning(shared)
      }
    default:
      break  // pipes and devices: their size is unknown until read
    }
    let bytes = try readBounded(descriptor, capacity: capacity, source: source)
    guard bytes.count <= limit else { throw .tooLarge(source, limit: limit) }
    return try validated(bytes, source: source, keepsByteOrderMark: keepsByteOrderMark)
  }

  /// One line typed at the terminal with echo off (`prompt` goes to standard error); a new
  /// secret (`source.isNew`) is asked for a second time and must match.
  public static func prompt(_ prompt: String, for source: SecretSource) throws(SecretInputError)
    -> SecureBytes
  {
    let first = try promptOnce(prompt, for: source)
    guard source.isNew else { return first }
    let again = try promptOnce("Enter the \(source.role) again to confirm: ", for: source)
    guard again == first else { throw .mismatch(source) }
    return first
  }

  private static func promptOnce(_ prompt: String, for source: SecretSource)
    throws(SecretInputError) -> SecureBytes
  {
    let line = readHiddenLine(prompt: prompt, capacity: maximumByteCount + 1)
    guard let line else { throw .nothingEntered(source) }
    guard line.count <= maximumByteCount else {
      throw .tooLarge(source, limit: maximumByteCount)
    }
    return try validated(droppingLineEnding(line), source: source)
  }

  /// Writes `secret` to standard output straight from its buffer, without a `String` copy;
  /// `.unwritable` with the system's reason when it could not.
  public static func writeToStandardOutput(_ secret: SecureBytes, as source: SecretSource)
    throws(SecretInputError)
  {
    if let failure = secret.withUnsafeBytes({ Platform.writeAll(Platform.standardOutput, $0) }) {
      throw .unwritable(source, reason: SystemError(code: failure).description)
    }
  }

  /// `bytes` without ONE trailing "\n" or "\r\n"; nothing else is stripped.
  public static func droppingLineEnding(_ bytes: SecureBytes) -> SecureBytes {
    let ending = bytes.withUnsafeBytes { raw -> Int in
      guard raw.last == UInt8(ascii: "\n") else { return 0 }
      return raw.count >= 2 && raw[raw.count - 2] == UInt8(ascii: "\r") ? 2 : 1
    }
    return ending == 0 ? bytes : bytes[0..<(bytes.count - ending)]
  }

  // MARK: - Reading

  /// Reading a line from the terminal without showing it, like `ssh` asks for a passphrase:
  /// shows `prompt` on standard error, turns echo off, reads one line from standard input and
  /// restores the terminal on every path (also on Ctrl-C). Returns the line with its line ending,
  /// or nil if input ended before anything was typed. Reads at most `capacity` bytes.
  private static func readHiddenLine(prompt: String, capacity: Int) -> SecureBytes? {
    Platform.withEchoOff { isTerminal in
      defer {
        if isTerminal { writeToStandardError("\n") }  // the Enter the user pressed was not echoed
      }
      writeToStandardError(prompt)

      var filled = 0
      let line = SecureBytes(count: capacity) { raw in
        while filled < raw.count {
          let count = Platform.read(
            Platform.standardInput, UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
          if count <= 0 { return }
          filled += count
          if raw[filled - 1] == UInt8(ascii: "\n") { return }
        }
      }
      return filled == 0 ? nil : line[0..<filled]
    }
  }

  private static func writeToStandardError(_ text: String) {
    var text = text
    _ = text.withUTF8 { Platform.writeAll(Platform.standardError, UnsafeRawBufferPointer($0)) }
  }

  private static func readBounded(_ descriptor: Int32, capacity: Int, source: SecretSource)
    throws(SecretInputError) -> SecureBytes
  {
    switch readAll(descriptor, capacity: capacity) {
    case .success(let bytes): bytes
    case .failure(let error): throw .unreadable(source, reason: error.description)
    }
  }

  /// Reads `descriptor` until its end or `capacity` bytes into zeroizing memory (the package's
  /// one read loop, `Platform.readAll`).
  private static func readAll(_ descriptor: Int32, capacity: Int) -> Result<
    SecureBytes, SystemError
  > {
    var filled = 0
    var failure: Int32 = 0
    let bytes = SecureBytes(count: capacity) { raw in
      (filled, failure) = Platform.readAll(descriptor, into: raw)
    }
    return failure == 0 ? .success(bytes[0..<filled]) : .failure(SystemError(code: failure))
  }

  /// "words.txt is readable by other users (mode 0644); run chmod 600 words.txt", or nil.
  package static func sharedNotice(path: String, mode: UInt32) -> String? {
    guard mode & 0o044 != 0 else { return nil }
    let digits = String(mode & 0o7777, radix: 8)
    let octal = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    return "\(path) is readable by other users (mode \(octal)); run chmod 600 \(path)"
  }

  private static func systemError(_ code: Int32 = Platform.errno) -> String {
    SystemError(code: code).description
  }

  // MARK: - Checking

  /// `bytes` without a leading UTF-8 byte order mark (unless `keepsByteOrderMark`), if they
  /// are UTF-8 free of control characters other than tab, line feed and carriage return.
  private static func validated(
    _ bytes: SecureBytes, source: SecretSource, keepsByteOrderMark: Bool = false
  ) throws(SecretInputError) -> SecureBytes {
    let bomLength = bytes.withUnsafeBytes { $0.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0 }
    let problem = bytes.withUnsafeBytes { raw in firstProblem(in: raw, from: bomLength) }
    if let problem {
      switch problem {
      case .invalid(let offset): throw .invalidUTF8(source, byte: offset + 1)
      case .control(let scalar, let offset):
        throw .controlCharacter(source, scalar: scalar, byte: offset + 1)
      }
    }
    return bomLength == 0 || keepsByteOrderMark ? bytes : bytes[bomLength..<bytes.count]
  }

  /// Where `raw` first stops being text a secret may hold, as `read` checks it: the 0-based
  /// offset of the first byte that is not UTF-8 or begins a control character other than tab,
  /// line feed and carriage return (`isControl`); nil when there is none.
  package static func firstProblem(in raw: UnsafeRawBufferPointer) -> (
    offset: Int, isControl: Bool
  )? {
    switch firstProblem(in: raw, from: 0) {
    case nil: nil
    case .invalid(let offset): (offset, false)
    case .control(_, let offset): (offset, true)
    }
  }

  private enum Problem {
    case invalid(offset: Int)
    case control(UInt32, offset: Int)
  }

  private static func firstProblem(in raw: UnsafeRawBufferPointer, from start: Int) -> Problem? {
    var iterator = raw[start...].makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = start
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        let value = Unicode.UTF8.decode(encoded).value
        let allowedWhitespace = value == 0x09 || value == 0x0A || value == 0x0D
        if (value < 0x20 && !allowedWhitespace) || (0x7F...0x9F).contains(value) {
          return .control(value, offset: offset)
        }
        offset += encoded.count
      case .emptyInput:
        return nil
      case .error:
        return .invalid(offset: offset)
      }
    }
  }
}

/// An `errno` value, described as `strerror` does.
private struct SystemError: Error, CustomStringConvertible {
  let code: Int32
  var description: String { Platform.message(code) }
}
