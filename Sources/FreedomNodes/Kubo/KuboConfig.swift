import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// kubo's (go-ipfs) `config` file, read and edited without disturbing anything but the identity.
///
/// Editing replaces only the bytes of `Identity.PeerID` and `Identity.PrivKey`; every other byte
/// (field order, indentation, number spelling, fields this tool does not know) stays exactly as
/// it was. A member that is missing from `Identity` (kubo omits an empty `PrivKey`) is inserted
/// with the indentation of its neighbours.
package struct KuboConfig: Sendable {
  /// The file's bytes; they hold the node's private key.
  private let bytes: SecureBytes
  private let identity: JSONNode
  private let identityName: JSONMember
  private let peerIDMember: JSONMember?
  private let privKeyMember: JSONMember?

  /// `Identity.PeerID`, if present.
  package let peerID: String?
  /// `Identity.PrivKey` (base64 of the libp2p private key protobuf), if present.
  package let privateKey: SecureBytes?

  /// Parses a kubo config file.
  package init(json: some ContiguousBytes) throws(KuboConfigError) {
    let bytes = SecureBytes(json)
    typealias Parsed = (JSONNode, JSONMember, JSONMember?, JSONMember?, String?, SecureBytes?)
    let parsed: Result<Parsed, KuboConfigError> = bytes.withUnsafeBytes { raw in
      do throws(KuboConfigError) {
        return .success(try Self.locateIdentity(raw))
      } catch {
        return .failure(error)
      }
    }
    (identity, identityName, peerIDMember, privKeyMember, peerID, privateKey) = try parsed.get()
    self.bytes = bytes
  }

  private static func locateIdentity(_ raw: UnsafeRawBufferPointer) throws(KuboConfigError) -> (
    JSONNode, JSONMember, JSONMember?, JSONMember?, String?, SecureBytes?
  ) {
    let root: JSONNode
    do {
      root = try JSONText.parse(raw)
    } catch {
      throw .invalidJSON(error.description)
    }
    guard case .object = root.kind else { throw .notAnObject("the top level") }
    let identities = root.members(named: "Identity")
    guard identities.count <= 1 else { throw .duplicateField("Identity") }
    guard let identityMember = identities.first else { throw .missingIdentity }
    let identity = identityMember.value
    guard case .object = identity.kind else { throw .notAnObject("Identity") }

    func single(_ name: String) throws(KuboConfigError) -> JSONMember? {
      let found = identity.members(named: name)
      guard found.count <= 1 else { throw .duplicateField("Identity.\(name)") }
      if let member = found.first, !JSONText.isString(member.value) {
        throw .notAString("Identity.\(name)")
      }
      return found.first
    }
    let peerIDMember = try single("PeerID")
    let privKeyMember = try single("PrivKey")
    let peerID = peerIDMember.map { JSONText.string($0.value, in: raw) }
    let privateKey = privKeyMember.map { JSONText.secureString($0.value, in: raw) }
    return (identity, identityMember, peerIDMember, privKeyMember, peerID, privateKey)
  }

  /// The file with `Identity.PeerID = peerID` and `Identity.PrivKey = privateKey`, everything
  /// else byte-for-byte unchanged. `privateKey` is the base64 text kubo stores.
  package func settingIdentity(peerID: String, privateKey: SecureBytes) throws(KuboConfigError)
    -> SecureBytes
  {
    guard !peerID.isEmpty,
      peerID.unicodeScalars.allSatisfy({
        $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0)
      })
    else { throw .invalidPeerID }
    // Only base64 digits and padding: whitespace would break the JSON string.
    let onlyBase64Digits = privateKey.withUnsafeBytes { text in
      text.allSatisfy { char in
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
          UInt8(ascii: "="):
          true
        default: false
        }
      }
    }
    // kubo decodes with Go's padded StdEncoding, so the length must be a multiple of 4.
    guard privateKey.count > 0, privateKey.count % 4 == 0, onlyBase64Digits,
      SecureBase64.decode(privateKey) != nil
    else {
      throw .invalidPrivateKeyText
    }

    let peerIDLiteral = Array(JSONValue.quoted(peerID).utf8)
    let privKeyLiteral = SecureBytes(Array("\"".utf8)) + privateKey + SecureBytes(Array("\"".utf8))
    let edits: [(Range<Int>, SecureBytes)] = bytes.withUnsafeBytes { raw in
      plannedEdits(raw, peerID: SecureBytes(peerIDLiteral), privKey: privKeyLiteral)
    }
    return bytes.withUnsafeBytes { raw in
      var total = raw.count
      for (range, replacement) in edits { total += replacement.count - range.count }
      return SecureBytes(count: total) { out in
        var cursor = SecureByteCursor(out)
        var position = 0
        for (range, replacement) in edits.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
          cursor.append(UnsafeRawBufferPointer(rebasing: raw[position..<range.lowerBound]))
          cursor.append(replacement)
          position = range.upperBound
        }
        cursor.append(UnsafeRawBufferPointer(rebasing: raw[position...]))
      }
    }
  }

  /// Replacements (a byte range and its new content; an empty range inserts) that set both
  /// identity members. `peerID` and `privKey` are JSON string literals.
  private func plannedEdits(
    _ raw: UnsafeRawBufferPointer, peerID: SecureBytes, privKey: SecureBytes
  ) -> [(Range<Int>, SecureBytes)] {
    func text(_ string: String) -> SecureBytes { SecureBytes(Array(string.utf8)) }
    func member(_ name: String, _ literal: SecureBytes) -> SecureBytes {
      text("\"\(name)\": ") + literal
    }
    switch (peerIDMember, privKeyMember) {
    case (let peer?, let priv?):
      return [(peer.value.range, peerID), (priv.value.range, privKey)]
    case (let peer?, nil):
      let indent = indentation(before: peer.nameRange.lowerBound, in: raw)
      return [
        (peer.value.range, peerID),
        (
          peer.value.range.upperBound..<peer.value.range.upperBound,
          text(",") + indent + member("PrivKey", privKey)
        ),
      ]
    case (nil, let priv?):
      let indent = indentation(before: priv.nameRange.lowerBound, in: raw)
      let start = priv.nameRange.lowerBound
      return [
        (start..<start, member("PeerID", peerID) + text(",") + indent), (priv.value.range, privKey),
      ]
    case (nil, nil):
      if case .object(let members) = identity.kind, let first = members.first {
        let indent = indentation(before: first.nameRange.lowerBound, in: raw)
        let start = first.nameRange.lowerBound
        let inserted =
          member("PeerID", peerID) + text(",") + indent + member("PrivKey", privKey) + text(",")
          + indent
        return [(start..<start, inserted)]
      }
      // An empty `{}`: write the object out, indented one level below `Identity`.
      let outer = indentation(before: identityName.nameRange.lowerBound, in: raw)
      let multiLine = outer.withUnsafeBytes { $0.first == UInt8(ascii: "\n") }
      let inner = multiLine ? outer + text("  ") : text(" ")
      let object =
        text("{") + inner + member("PeerID", peerID) + text(",") + inner
        + member("PrivKey", privKey)
        + outer + text("}")
      return [(identity.range, object)]
    }
  }

  /// The line break and leading spaces before `offset` when it starts a line (a pretty-printed
  /// member); a single space for a one-line document. Whitespace, but kept with the secrets.
  private func indentation(before offset: Int, in raw: UnsafeRawBufferPointer) -> SecureBytes {
    SecureBytes(JSONText.indentation(before: offset, in: raw))
  }
}

/// Why a kubo config file could not be read or edited.
package enum KuboConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not valid JSON.
  case invalidJSON(String)
  /// The top level or `Identity` is not a JSON object.
  case notAnObject(String)
  /// `Identity.PeerID` or `Identity.PrivKey` is not a string.
  case notAString(String)
  /// A field appears twice, so it is unclear which one kubo would use.
  case duplicateField(String)
  /// There is no `Identity` section.
  case missingIdentity
  /// The peer ID to write is empty or not a base58/base32/base36 text.
  case invalidPeerID
  /// The private key to write is empty or not base64 text.
  case invalidPrivateKeyText

  package var description: String {
    switch self {
    case .invalidJSON(let detail): "the kubo config is not valid JSON (\(detail))"
    case .notAnObject(let what): "\(what) of the kubo config must be a JSON object"
    case .notAString(let field): "'\(field)' in the kubo config must be a string"
    case .duplicateField(let field):
      "the kubo config has '\(field)' twice; fix the file by hand first"
    case .missingIdentity:
      "the kubo config has no 'Identity' section; is it a kubo config? (create one with 'ipfs init')"
    case .invalidPeerID: "the peer ID to write must be non-empty letters and digits"
    case .invalidPrivateKeyText: "the private key to write must be non-empty base64 text"
    }
  }
}
