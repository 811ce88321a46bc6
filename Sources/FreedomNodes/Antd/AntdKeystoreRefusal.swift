/// Why antd would refuse a keystore bee reads (antd's `crates/antd/src/keystore.rs`).
package enum AntdKeystoreRefusal: Sendable, Equatable, CustomStringConvertible {
  /// The MAC is bee's old SHA3-256, not Keccak-256.
  case sha3MAC
  /// `version` is the string "3", not the number 3.
  case versionNotANumber
  /// A field antd needs is named in another case (`CRYPTO`, `MAC`, `kdfparams.N`): antd's
  /// serde reads exact names, where bee's Go reader ignores case. `written` is the name as the
  /// file spells it, made printable.
  case fieldNameCase(field: String, written: String)
  /// scrypt parameters antd's scrypt (RustCrypto's) rejects: n must be below 2^(16·r).
  case scryptParameters(n: UInt64, r: UInt32)

  package var description: String {
    switch self {
    case .sha3MAC: "its MAC is SHA3-256 (bee's old files); antd accepts only Keccak-256"
    case .versionNotANumber: "its version is the string \"3\"; antd accepts only the number 3"
    case .fieldNameCase(let field, let written):
      "it names '\(field)' '\(written)'; antd reads field names exactly as written"
    case .scryptParameters(let n, let r):
      "its scrypt n=\(n) with r=\(r) is at or above 2^(16·r), which antd's scrypt rejects"
    }
  }
}
