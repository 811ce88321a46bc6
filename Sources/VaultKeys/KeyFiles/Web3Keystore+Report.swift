import CryptoPrimitives

extension Web3Keystore {
  /// What the key file says (address, id, cipher, KDF and its parameters) and, when it was
  /// opened, the address of the key it holds, as JSON and as a summary; never the key itself.
  /// `keyAddress` is the decrypted key's address (nil: the password was not checked, which the
  /// summary words as `uncheckedPassword`).
  public func report(keyAddress: EthereumAddress?, uncheckedPassword: String = "not checked")
    -> (json: JSONObject, text: TextReport)
  {
    var object: JSONObject = [:]
    var text = TextReport()
    text.section("")
    func add(_ key: String, _ label: String, _ value: JSONValue) {
      object.append(key, value)
      text.row(label, value.plainText)
    }
    if let address {
      add("address", "Address", .string(address.checksummed))
    } else {
      text.row("Address", "(none stated)")
    }
    if let id { add("id", "ID", .string(id)) }
    add("cipher", "Cipher", .string("aes-128-ctr"))
    add("kdf", "KDF", .string(kdfName))
    var parameters: JSONObject = [:]
    switch kdf {
    case .scrypt(let n, let r, let p):
      parameters = ["n": .number(n), "r": .number(UInt64(r)), "p": .number(UInt64(p))]
      text.row("KDF parameters", "n=\(n) (2^\(n.trailingZeroBitCount)), r=\(r), p=\(p)")
    case .pbkdf2(let iterations):
      parameters = ["prf": .string("hmac-sha256"), "c": .number(UInt64(iterations))]
      text.row("KDF parameters", "prf=hmac-sha256, c=\(iterations)")
    }
    parameters.append("dklen", .number(UInt64(Self.derivedKeyByteCount)))
    parameters.append("salt", .string(Hex.encode(salt)))
    object.append("kdfparams", .object(parameters))
    text.row("Salt", Hex.encode(salt))
    object.append("passwordChecked", .bool(keyAddress != nil))
    if let keyAddress {
      // decrypt() refuses a key whose address differs from a stated one, so here they agree.
      text.row("Password", "correct (the MAC matches)")
      add("keyAddress", "Key address", .string(keyAddress.checksummed))
      if address != nil {
        object.append("addressMatches", .bool(true))
        text.row("", "the same as the file's address")
      }
    } else {
      text.row("Password", uncheckedPassword)
    }
    return (object, text)
  }
}
