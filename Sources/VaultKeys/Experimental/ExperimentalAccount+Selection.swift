extension ExperimentalAccount {
  /// Which of desktop's experimental accounts a report lists.
  public struct Selection: Sendable, Equatable {
    /// Railgun account indexes, ascending.
    public let railgunIndexes: [UInt32]
    /// Kohaku PPv2 account indexes, ascending.
    public let ppv2Indexes: [UInt32]
    /// The desktop profile whose Railgun storage roots are listed (`RailgunStorageRoot`).
    public let railgunProfile: RailgunProfile?

    /// A selection of accounts.
    public init(railgunIndexes: [UInt32], ppv2Indexes: [UInt32], railgunProfile: RailgunProfile?) {
      self.railgunIndexes = railgunIndexes
      self.ppv2Indexes = ppv2Indexes
      self.railgunProfile = railgunProfile
    }
  }

  /// A desktop profile as Railgun's storage roots name it.
  public struct RailgunProfile: Sendable, Equatable {
    /// Desktop's profile id.
    public let id: String
    /// Its userData directory, as desktop names it.
    public let userDataDirectory: String

    /// A profile.
    public init(id: String, userDataDirectory: String) {
      self.id = id
      self.userDataDirectory = userDataDirectory
    }
  }

  /// Why a list of account indexes was refused.
  public enum IndexListError: Error, Equatable, Sendable {
    /// Not indexes in `indexRange` separated by commas, or ranges such as 0-9.
    case invalid
    /// More accounts than the limit given.
    case tooMany(limit: UInt32)
  }

  /// The indexes a list such as `0,5,10-19` names, ascending and each once; at most `limit`.
  public static func indexes(_ list: String, limit: UInt32) throws(IndexListError) -> [UInt32] {
    func number(_ digits: Substring) throws(IndexListError) -> UInt32 {
      guard !digits.isEmpty, digits.utf8.count <= 5,
        digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
        let value = UInt32(digits), indexRange.contains(value)
      else { throw .invalid }
      return value
    }
    var chosen = Set<UInt32>()
    for element in list.split(separator: ",", omittingEmptySubsequences: false) {
      let bounds = element.split(separator: "-", omittingEmptySubsequences: false)
      guard bounds.count <= 2 else { throw .invalid }
      let low = try number(bounds[0])
      let high = bounds.count == 2 ? try number(bounds[1]) : low
      guard low <= high else { throw .invalid }
      // A range is checked before it is expanded, the union after each step.
      guard high - low < limit else { throw .tooMany(limit: limit) }
      chosen.formUnion(low...high)
      guard chosen.count <= limit else { throw .tooMany(limit: limit) }
    }
    return chosen.sorted()
  }
}
