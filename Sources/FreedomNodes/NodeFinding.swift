import VaultKeys

/// What `verify` found at one place of a node directory.
package struct NodeFinding: Sendable, Equatable {
  package enum Status: String, Sendable, Equatable {
    /// Holds the mnemonic's identity.
    case match
    /// Holds something else, or something the node would refuse.
    case mismatch
    /// Not there.
    case absent
    /// There, but not an identity to compare (or not checked); not a failure.
    case note
  }

  /// The part checked ("bee", "ant-data", "vault-meta wallet 2").
  package var check: String
  package var status: Status
  /// The file checked (or missing).
  package let path: String
  /// The identity the mnemonic gives there.
  package var expected: String?
  /// The identity found there.
  package var found: String?
  /// Whether the key was decrypted (true) or only its address field compared (false).
  package var authenticated: Bool?
  /// Why: what the finding rests on, or what is wrong.
  package var reason: Reason?
  /// What the node would refuse or do differently (Ant's 0x prefix, nonce, libp2p key).
  package var problems: [String] = []

  package init(
    _ check: String, _ status: Status, path: String, expected: String? = nil,
    found: String? = nil, authenticated: Bool? = nil, reason: Reason? = nil,
    problems: [String] = []
  ) {
    self.check = check
    self.status = status
    self.path = path
    self.expected = expected
    self.found = found
    self.authenticated = authenticated
    self.reason = reason
    self.problems = problems
  }

  /// The typed reason behind a finding; the caller words it.
  package enum Reason: Sendable, Equatable {
    /// Decrypted with the password the user gave.
    case decryptedWithGivenPassword
    /// Decrypted with the password antd reads (config.yaml's `password:` or its
    /// `password-file:`).
    case decryptedWithNodePassword(AntdPasswordSource)
    /// Only the address field was compared; no password was given.
    case addressFieldOnly
    /// Only the address field was compared: the node's config has no password.
    case addressFieldOnlyNoNodePassword
    /// Only the address field was compared: the node has no config file at all, so no password.
    case addressFieldOnlyNoNodeConfig
    /// A backup an earlier change of `directory` kept aside (`.freedom-keys.replaced/<name>`).
    case backup(directory: String)
    /// The node's password does not open the keystore: the node would not start.
    case nodePasswordDoesNotOpen(AntdPasswordSource)
    /// antd would refuse the keystore, whatever the password.
    case antdRefusesKeystore(AntdKeystoreRefusal)
    /// The two Radicle key files disagree.
    case radicleKeyPairDisagrees(key: String?, publicKey: String?)
    /// A kubo config with no private key, an unreadable one, or another key for the PeerID.
    case kuboKey(KuboKeyProblem)
    /// The vault opened and holds the mnemonic.
    case vaultHoldsMnemonic
    /// The vault opened and holds another mnemonic.
    case vaultHoldsOtherMnemonic
    /// The vault is where the mnemonic checked was read from.
    case vaultIsSource
    /// The vault parses as desktop's and was not opened (no password).
    case vaultNotOpened
    /// The vault is not desktop's format; the reason says why.
    case vaultUnreadable(String)
    /// vault-meta.json lacks fields desktop always writes.
    case vaultMetaLacks([String])
    /// vault-meta.json is not desktop's; the reason says why.
    case vaultMetaUnreadable(String)
    /// A wallet of vault-meta.json whose key is not in the mnemonic (a device account).
    case deviceAccount(type: String, name: String?, address: String?)
    /// A mnemonic wallet of vault-meta.json without a stored address (derived one, name).
    case walletWithoutAddress(derived: String, name: String?)
    /// antd's own identity.json, ignored while the keystore exists.
    case antdOwnIdentityIgnored(String)
    /// antd's own identity.json, used because there is no keystore; its problems follow.
    case antdOwnIdentityUsed(String)
    /// bee-data, before desktop's migration to antd (pending: desktop moves it at next start),
    /// with what its keystore's check rests on.
    indirect case beeDataLeftOver(pending: Bool, keystore: Reason?)
    /// Radicle's alias in config.json (nil: none set).
    case radicleAlias(String?)
    /// An old kubo repository in a desktop installation, with what its check rests on.
    indirect case oldKuboRepository(Reason?)
    /// Ant's identity.json: where its overlay nonce came from, the overlay it gives on mainnet
    /// (hex), and the readers that start a node on it (in `AntIdentityReader.allCases` order).
    case antIdentity(
      nonce: AntIdentity.NonceOrigin, overlay: String, acceptedBy: [AntIdentityReader])
    /// A file or directory of a desktop installation that holds no identity of its own, or
    /// a publisher map's signer: what it is.
    case desktop(DesktopFact)
  }

  /// What verify found about a desktop installation's other files (`docs/desktop-user-data.md`).
  package enum DesktopFact: Sendable, Equatable {
    /// A profile of the app root's registry: its userData, slot and Radicle home; `checked`
    /// for the one this run checks.
    case profile(id: String, name: String?, slot: Int?, radicleHome: String?, checked: Bool)
    /// `R/<slot>.migrating-<pid>-<ts>`: desktop's copy of radicle-data into `home` in
    /// progress or interrupted (never the home itself).
    case radicleStaging(home: String)
    /// The profile's Radicle home (`R/<slot>`) is absent and the old `radicle-data` at `from`
    /// holds a key: desktop copies it there at its next start, so `from` was checked.
    case radicleDataToBeCopied(from: String)
    /// `identity/quick-unlock.dat`.
    case quickUnlock(QuickUnlockState)
    /// A Quick Setup vault (`userKnowsPassword: false`): its password is random and kept in the
    /// OS keyring; the mnemonic is the way in.
    case quickSetupVault
    /// `.bee-only-data-pending-delete/`: bee's stores, moved aside by the migration to antd
    /// for a worker to delete.
    case beeOnlyDataPendingDelete
    /// ant-data's `stamperstore`, kept from bee so antd carries the postage counters over.
    case keptStamperstore
    /// `ipfs-data/freedom-ipfs/`: the embedded IPFS node's cache, not a kubo repository.
    case freedomIPFSCache
    /// `swarm-feeds.json` as a whole: its origins and feeds, or why desktop would not read it.
    case publisherMap(PublisherMapState)
    /// One feed of `swarm-feeds.json` whose signer is derivable from the mnemonic.
    case feedSigner(origin: String, feed: String, signer: DesktopPublisherMap.Signer)
    /// One feed whose signer is a device account of vault-meta.json (no key in the mnemonic).
    case feedSignerDeviceAccount(origin: String, feed: String, wallet: Int)
    /// One feed whose identity is missing or unknown to desktop.
    case feedSignerUnknown(origin: String, feed: String, identityID: String?)
  }

  /// What `identity/quick-unlock.dat` is bound to.
  package enum QuickUnlockState: Sendable, Equatable {
    /// Version 2, bound to this vault: Touch ID unlock works.
    case fitsVault
    /// Version 2, bound to another vault file: desktop ignores it; Touch ID unlock must be
    /// set up again.
    case staleVault
    /// Version 2 without a vault to fit (no identity-vault.json).
    case noVault
    /// Raw sealed bytes from before version 2; desktop tries it at the next unlock.
    case legacy
  }

  /// What `swarm-feeds.json` holds as a whole.
  package enum PublisherMapState: Sendable, Equatable {
    /// Version 2 with these many origins and feeds.
    case current(origins: Int, feeds: Int)
    /// Version 1: desktop migrates it at its next start.
    case version1
    /// Another version: desktop copies it aside and starts with an empty map.
    case unsupported(String)
    /// Not readable: desktop copies it aside as swarm-feeds.corrupt.json; the reason says why.
    case unreadable(String)
  }

  /// Where antd's password came from.
  package enum AntdPasswordSource: Sendable, Equatable {
    /// config.yaml's `password:`.
    case config
    /// The file config.yaml's `password-file:` names.
    case passwordFile(String)
  }

  /// What in a kubo config's key is wrong.
  package enum KuboKeyProblem: Sendable, Equatable {
    case noPrivateKey, unreadablePrivateKey
    case otherPrivateKey(String)
  }
}
