@testable import VaultKeys

/// Our NFKD on any UTF-8 text (invalid bytes repaired, as `String(decoding:)` does): never
/// crashes, and its result is a normal form — every scalar fully decomposed (its own
/// decomposition), every run of combining marks in canonical order, normalising it again
/// changes nothing, and it holds the same scalars as the input's scalar-by-scalar
/// decompositions, only reordered.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let text = String(decoding: bytes(data, size), as: UTF8.self)
  let normalized = NFKD.normalize(text)
  let scalars = Array(normalized.unicodeScalars)
  var previousClass: UInt8 = 0
  for scalar in scalars {
    require(NFKD.decomposition(of: scalar) == [scalar], "U+\(scalar.value) left decomposable")
    let combiningClass = NFKD.combiningClass(of: scalar)
    require(
      combiningClass == 0 || previousClass <= combiningClass,
      "marks out of canonical order at U+\(scalar.value)")
    previousClass = combiningClass
  }
  require(NFKD.normalize(normalized).unicodeScalars.elementsEqual(scalars), "not idempotent")
  let decomposed = text.unicodeScalars.flatMap(NFKD.decomposition(of:))
  require(
    decomposed.map(\.value).sorted() == scalars.map(\.value).sorted(),
    "scalars gained or lost in reordering")
  if !text.unicodeScalars.contains(where: { $0.value >= 0x80 }) {
    require(normalized.utf8.elementsEqual(text.utf8), "ASCII changed")
  }
  return 0
}
