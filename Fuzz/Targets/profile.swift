import FreedomNodes

@testable import VaultKeys

/// profile.json's slot as desktop reads it: never crashes; a slot is a safe integer; and where
/// the strict JSON reader (which refuses duplicates) reads a non-negative integer literal
/// `slot`, that is the slot.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = bytes(data, size)
  let read = try? DesktopProfileMetadata(json: input)
  if let slot = read?.slot {
    require(abs(Double(slot)) <= Double((1 << 53) - 1), "slot beyond JavaScript's safe integers")
  }
  input.withUnsafeBytes { raw in
    guard let strict = try? JSONText.parse(raw), let member = strict.member(exactly: "slot"),
      let literal = JSONText.unsignedInteger(member.value, in: raw), literal < 1 << 53
    else { return }
    require(read?.slot == Int(literal), "an integer slot was not read as itself")
  }
  return 0
}
