/// Where a search's PBKDF2 batches run: the CPU's batch engines (`PBKDF2SHA512Batch`,
/// `PBKDF2SHA256Batch`) or an OpenCL device (`OpenCLPBKDF2`). Both compute the same keys, so
/// a search can swap one for the other and its candidates, counts and checkpoints stay the same.
public enum PBKDF2Backend: Sendable {
  /// The fastest CPU engine here (SIMD lanes, multi-buffer or single-stream).
  case cpu
  /// The kernels on an OpenCL device.
  case openCL(OpenCLPBKDF2)

  /// What was asked for.
  public enum Choice: String, Sendable, Equatable, CaseIterable {
    /// A GPU when one works here (its kernels build and pass their self-test), else the CPU.
    case auto
    /// The CPU engines only.
    case cpu
    /// An OpenCL device, or an error that says why there is none.
    case openCL = "opencl"
  }

  /// The backend for `choice`. `.openCL` takes device `number` (1-based, any kind: a CPU
  /// device such as PoCL's too), or the first GPU, or else the first device. `.auto` takes
  /// device `number` as `.openCL` does when one is given, else the first GPU that works, and
  /// falls back to the CPU silently when there is none (never to a CPU OpenCL device, so the
  /// CPU engine's behaviour and speed are what they were).
  public static func resolve(_ choice: Choice, device number: Int? = nil) throws(OpenCLError)
    -> PBKDF2Backend
  {
    switch choice {
    case .cpu:
      return .cpu
    case .openCL:
      return .openCL(try OpenCLPBKDF2.open(try pick(number)))
    case .auto:
      if number != nil { return .openCL(try OpenCLPBKDF2.open(try pick(number))) }
      guard let devices = try? OpenCLDevice.all() else { return .cpu }
      for device in devices where device.isGPU {
        if let engine = try? OpenCLPBKDF2.open(device) { return .openCL(engine) }
      }
      return .cpu
    }
  }

  private static func pick(_ number: Int?) throws(OpenCLError) -> OpenCLDevice {
    let devices = try OpenCLDevice.all()
    guard let number else { return devices.first(where: \.isGPU) ?? devices[0] }
    guard devices.indices.contains(number - 1) else {
      throw .noSuchDevice(number: number, count: devices.count)
    }
    return devices[number - 1]
  }

  /// The OpenCL device, if the batches run on one.
  public var device: OpenCLDevice? {
    if case .openCL(let engine) = self { engine.device } else { nil }
  }

  // MARK: Deriving

  /// `PBKDF2SHA512Batch.deriveBIP39Seeds(mnemonics:salts:iterations:)` on this backend. A
  /// device that fails in the middle of a search costs speed, never a seed: that batch is
  /// computed on the CPU.
  public func deriveBIP39Seeds(
    mnemonics: [SecureBytes], salts: [SecureBytes], iterations: Int
  ) -> [SecureBytes] {
    if case .openCL(let engine) = self,
      let seeds = try? engine.deriveBIP39Seeds(
        mnemonics: mnemonics, salts: salts, iterations: iterations)
    {
      return seeds
    }
    return PBKDF2SHA512Batch.deriveBIP39Seeds(
      mnemonics: mnemonics, salts: salts, iterations: iterations)
  }

  /// BIP-39 seeds, and on a device the SLIP-0010 Ed25519 keys of `steps` from each, derived
  /// there after the seed (`OpenCLPBKDF2.deriveBIP39Ed25519Keys`): the seeds come back only
  /// when `keepingSeeds`. On the CPU, or where the device fails that batch, the seeds alone
  /// (`ed25519Keys` nil), for the caller to derive the keys as it would without a device.
  public func deriveBIP39Seeds(
    mnemonics: [SecureBytes], salts: [SecureBytes], iterations: Int,
    ed25519 steps: SLIP10Ed25519Steps, keepingSeeds: Bool
  ) -> (seeds: [SecureBytes], ed25519Keys: [SecureBytes]?) {
    if case .openCL(let engine) = self,
      let (seeds, keys) = try? engine.deriveBIP39Ed25519Keys(
        mnemonics: mnemonics, salts: salts, iterations: iterations, steps: steps,
        keepingSeeds: keepingSeeds)
    {
      return (seeds, keys)
    }
    return (
      PBKDF2SHA512Batch.deriveBIP39Seeds(
        mnemonics: mnemonics, salts: salts, iterations: iterations), nil
    )
  }

  /// `PBKDF2SHA256Batch.deriveKeys(passwords:salts:iterations:)` on this backend, the CPU
  /// computing a batch the device failed.
  public func deriveSHA256Keys(
    passwords: [SecureBytes], salts: [SecureBytes], iterations: Int
  ) -> [SecureBytes] {
    if case .openCL(let engine) = self,
      let keys = try? engine.deriveSHA256Keys(
        passwords: passwords, salts: salts, iterations: iterations)
    {
      return keys
    }
    return PBKDF2SHA256Batch.deriveKeys(passwords: passwords, salts: salts, iterations: iterations)
  }

  /// How many phrases to pass in one seed batch.
  public var seedBatchSize: Int {
    if case .openCL(let engine) = self {
      engine.preferredBatchSize
    } else {
      PBKDF2SHA512Batch.preferredBatchSize
    }
  }

  /// How many passwords to pass in one SHA-256 batch.
  public var keyBatchSize: Int {
    if case .openCL(let engine) = self {
      engine.preferredBatchSize
    } else {
      PBKDF2SHA256Batch.preferredBatchSize
    }
  }
}
