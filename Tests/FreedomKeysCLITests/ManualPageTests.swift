import Foundation
import TestSupport
import Testing

/// `freedom-keys --generate-manual DIR`: one page per command, rendered by man-db without
/// warnings, listing what the command's --help lists.
@Suite("Man pages")
struct ManualPageTests {
  /// Pages the packaging installs by name; the tree walk below finds the rest.
  static let knownPages = [
    "freedom-keys", "freedom-keys-derive", "freedom-keys-export", "freedom-keys-export-bee",
    "freedom-keys-export-kubo", "freedom-keys-export-ant", "freedom-keys-export-radicle",
    "freedom-keys-mnemonic", "freedom-keys-mnemonic-generate", "freedom-keys-mnemonic-check",
    "freedom-keys-verify", "freedom-keys-keystore", "freedom-keys-keystore-inspect",
  ]

  /// Writes the pages into a fresh directory below a scratch directory and lists them.
  static func generate(into scratch: TemporaryDirectory) throws -> (String, [String]) {
    let directory = scratch.url.appendingPathComponent("share/man/man1").path
    let run = try CLI.run(["--generate-manual", directory])
    #expect(run.status == 0)
    #expect(run.stdout == "")
    #expect(run.stderr == "")
    return (directory, try FileManager.default.contentsOfDirectory(atPath: directory).sorted())
  }

  /// man-db's rendering of one page file: plain text, 80 columns, with groff's warnings.
  static func render(_ path: String) throws -> CLIRun {
    let man = try #require(Program.find("man"), "man is missing: apt-get install -y man-db")
    return try Program.run(
      man, ["--warnings", "-l", "-P", "cat", path],
      environment: ["MANWIDTH": "80", "LC_ALL": "C.UTF-8", "MAN_KEEP_FORMATTING": ""])
  }

  @Test func onePagePerCommand() throws {
    let scratch = try TemporaryDirectory()
    let (_, files) = try Self.generate(into: scratch)
    let expected = try CommandTree.allCommands().map {
      (["freedom-keys"] + $0).joined(separator: "-") + ".1"
    }
    #expect(files == expected.sorted())
    for page in Self.knownPages { #expect(files.contains(page + ".1"), "\(page).1") }
  }

  @Test func everyPageRendersAndListsItsOptions() throws {
    let scratch = try TemporaryDirectory()
    let (directory, _) = try Self.generate(into: scratch)
    for words in try CommandTree.allCommands() {
      let name = (["freedom-keys"] + words).joined(separator: "-")
      let rendered = try Self.render(directory + "/" + name + ".1")
      #expect(rendered.status == 0, "\(name)")
      #expect(rendered.stderr == "", "\(name): \(rendered.stderr)")
      let text = rendered.stdout
      #expect(text.hasPrefix(name.uppercased() + "(1)"), "\(name)")
      let abstract = try #require(
        CLI.run(words + ["--help"]).stdout.split(separator: "\n").first?
          .dropFirst("OVERVIEW: ".count))
      // NAME: "freedom-keys-export-bee - Write bee's …", as apropos and whatis read it.
      let nameLine = text.components(separatedBy: "NAME\n").dropFirst().first?
        .components(separatedBy: "\n\n").first?
        .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: " ")
      #expect(nameLine == "\(name) - \(abstract)", "\(name)")
      #expect(
        text.contains("SYNOPSIS\n       " + (["freedom-keys"] + words).joined(separator: " ")))
      for option in try CommandTree.options(of: words) {
        let entry = option == "--help" ? "-h, --help" : option
        #expect(text.contains("\n       " + entry), "\(name) lacks \(option)")
      }
      for subcommand in try CommandTree.subcommands(of: words) where subcommand != "help" {
        #expect(
          text.contains("\(name)-\(subcommand)(1)"), "\(name) does not refer to \(subcommand)")
      }
      #expect(text.contains("EXIT STATUS"), "\(name)")
      // Every status the CLI exits with (issue 16 item 9: 4 and 130 were missing).
      let source = try String(contentsOfFile: directory + "/" + name + ".1", encoding: .utf8)
      #expect(source.contains("finds a mismatch; 4 when\n.B recover\n"), "\(name)")
      #expect(source.contains("none matched; 130 when interrupted (Ctrl-C or SIGINT)."), "\(name)")
      let status = text.components(separatedBy: "EXIT STATUS").dropFirst().first ?? ""
      let flat = status.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(flat.contains("; 4 when recover has tried"), "\(name)")
      #expect(flat.contains("; 130 when"), "\(name)")
      for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(name): \(line)") }
    }
  }

  /// Options and paths must survive rendering as typed: ASCII hyphens and straight quotes.
  @Test func textIsRenderedAsTyped() throws {
    let scratch = try TemporaryDirectory()
    let (directory, _) = try Self.generate(into: scratch)
    let rendered = try Self.render(directory + "/freedom-keys-derive.1").stdout
    let text = rendered.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("--mnemonic-file path"))
    #expect(text.contains("m/44'/60'/i'/0/0"))
    #expect(!text.contains("\u{2010}") && !text.contains("\u{2019}"))
    #expect(text.contains("Wordlists: english, japanese"))
  }

  @Test(arguments: [
    ["--generate-manual"], ["--generate-manual="], ["--generate-manual", "a", "b"],
    ["--generate-manual", "--json"],
  ])
  func usageErrors(_ arguments: [String]) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("freedom-keys: error: "))
    #expect(run.stderr.hasSuffix(" (see 'freedom-keys --help')\n"))
  }

  @Test func aFileWhereTheDirectoryShouldBeFailsCleanly() throws {
    let scratch = try TemporaryDirectory()
    let file = try scratch.file("plain", "not a directory\n")
    let run = try CLI.run(["--generate-manual", file])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("freedom-keys: error: "))
    #expect(run.stderr.split(separator: "\n").count == 1)
  }
}
