import Foundation
import Testing

@Suite("export kubo")
struct ExportKuboTests {
  /// A kubo config as `ipfs init` writes it (abridged), with many fields this tool must keep.
  static func config(peerID: String, privKey: String) -> String {
    """
    {
      "API": {
        "HTTPHeaders": {
          "Access-Control-Allow-Origin": ["http://localhost:3000", "https://webui.ipfs.io"]
        }
      },
      "Addresses": {
        "API": "/ip4/127.0.0.1/tcp/5001",
        "Announce": null,
        "Gateway": "/ip4/127.0.0.1/tcp/8080",
        "Swarm": [
          "/ip4/0.0.0.0/tcp/4001",
          "/ip6/::/tcp/4001",
          "/ip4/0.0.0.0/udp/4001/quic-v1"
        ]
      },
      "Bootstrap": [
        "/dnsaddr/bootstrap.libp2p.io/p2p/QmNnooDu7bfjPFoTZYxMNLWUQJyrVwtbZg5gBMjTezGAJN"
      ],
      "Datastore": {
        "BloomFilterSize": 0,
        "GCPeriod": "1h",
        "StorageMax": "10GB",
        "Spec": {"mounts": [{"mountpoint": "/blocks", "path": "blocks", "type": "flatfs"}]}
      },
      "Identity": {
        "PeerID": "\(peerID)",
        "PrivKey": "\(privKey)"
      },
      "Experimental": {"FilestoreEnabled": false, "Libp2pStreamMounting": true},
      "Routing": {"Type": "autoclient", "AcceleratedDHTClient": false},
      "Swarm": {
        "ConnMgr": {"GracePeriod": "20s", "HighWater": 96, "LowWater": 32},
        "DisableNatPortMap": false,
        "RelayClient": {},
        "Transports": {"Network": {}, "Security": {}}
      },
      "Version": {"AgentSuffix": "", "SwarmCheckPercentThreshold": 5e-1},
      "Unicode": "caf\\u00e9 ☕"
    }

    """
  }

  /// A repository whose config has `peerID`/`privKey`, mode 0640.
  func repository(_ fixture: ExportFixture, peerID: String = "", privKey: String = "") throws
    -> String
  {
    let repo = fixture.path("ipfs")
    try makeDirectory(repo)
    _ = try fixture.file("ipfs/config", Self.config(peerID: peerID, privKey: privKey))
    #expect(chmod(repo + "/config", 0o640) == 0)
    return repo
  }

  @Test func identityIsSetAndEverythingElseKept() throws {
    let fixture = try ExportFixture()
    let repo = try repository(fixture)
    let run = try fixture.run(["export", "kubo", "--repo", repo])
    #expect(run.status == 0)
    // The config now holds a private key: like every key file, it should not be shared.
    #expect(
      run.stderr
        == "freedom-keys: warning: \(repo)/config is accessible by other users (mode 0640); "
        + "run chmod 600 \(repo)/config\n")
    #expect(
      run.stdout == """
        Wrote \(repo)/config: Identity.PeerID \(Golden.peerID) and its PrivKey (mode 0640)
        Start the node with: IPFS_PATH=\(repo) ipfs daemon

        """)
    #expect(text(repo + "/config") == Self.config(peerID: Golden.peerID, privKey: Golden.privKey))
    #expect(fileMode(repo + "/config") == 0o640)
    #expect(tree(repo) == ["config"])
  }

  @Test func sameIdentityIsANoOp() throws {
    let fixture = try ExportFixture()
    let repo = try repository(fixture, peerID: Golden.peerID, privKey: Golden.privKey)
    let before = contents(repo + "/config")
    let run = try fixture.run(["export", "kubo", "--repo", repo])
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "\(repo)/config already holds the IPFS identity \(Golden.peerID); nothing to do\n")
    #expect(contents(repo + "/config") == before)
  }

  @Test func anotherIdentityIsReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let repo = try repository(fixture)
    #expect(try fixture.run(["export", "kubo", "--repo", repo], other: true).status == 0)
    let before = try #require(contents(repo + "/config"))
    #expect(String(decoding: before, as: UTF8.self).contains(Golden.otherPeerID))

    let refused = try fixture.run(["export", "kubo", "--repo", repo])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr
        == "freedom-keys: error: \(repo)/config holds PeerID \(Golden.otherPeerID), not the "
        + "mnemonic's \(Golden.peerID); nothing was written (--force replaces it)\n")
    #expect(contents(repo + "/config") == before)

    let forced = try fixture.run(["export", "kubo", "--repo", repo, "--force"])
    #expect(forced.status == 0)
    #expect(forced.stdout.contains("Replaced PeerID \(Golden.otherPeerID)\n"))
    #expect(text(repo + "/config") == Self.config(peerID: Golden.peerID, privKey: Golden.privKey))
    #expect(fileMode(repo + "/config") == 0o640)
  }

  @Test func missingConfigSuggestsIpfsInit() throws {
    let fixture = try ExportFixture()
    let repo = fixture.path("ipfs")
    try makeDirectory(repo)
    let run = try fixture.run(["export", "kubo", "--repo", repo])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: \(repo)/config does not exist; create the repository first with "
        + "'IPFS_PATH=\(repo) ipfs init', then run this again\n")
    #expect(tree(repo) == [])
  }

  @Test func configWithoutIdentitySectionIsRefused() throws {
    let fixture = try ExportFixture()
    let repo = fixture.path("ipfs")
    try makeDirectory(repo)
    _ = try fixture.file("ipfs/config", "{\"API\": {}}\n")
    let run = try fixture.run(["export", "kubo", "--repo", repo, "--force"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("has no 'Identity' section"))
    #expect(text(repo + "/config") == "{\"API\": {}}\n")
  }

  /// Holds an fcntl write lock on the whole of `path`, as a running `ipfs daemon` holds
  /// `repo.lock`, until the returned closure is called. fcntl locks belong to a process, so the
  /// lock held by this test process is foreign to the freedom-keys child it starts, and the child
  /// sees this process's id as the holder.
  func holdLock(on path: String) throws -> () -> Void {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    try #require(descriptor >= 0, "cannot open \(path): errno \(errno)")
    var request = flock()
    request.l_type = Int16(F_WRLCK)
    request.l_whence = Int16(SEEK_SET)
    let locked = fcntl(descriptor, F_SETLK, &request)
    #expect(locked == 0, "cannot lock \(path): errno \(errno)")
    return { close(descriptor) }
  }

  @Test func runningDaemonIsRefused() throws {
    let fixture = try ExportFixture()
    let repo = try repository(fixture)
    _ = try fixture.file("ipfs/repo.lock", "")
    let before = contents(repo + "/config")
    let release = try holdLock(on: repo + "/repo.lock")
    let run = try fixture.run(["export", "kubo", "--repo", repo])
    release()
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("freedom-keys: error: a kubo daemon (process "))
    #expect(
      run.stderr.hasSuffix(
        ") holds \(repo)/repo.lock; stop it (ipfs shutdown) and run this again\n"))
    #expect(contents(repo + "/config") == before)

    // Once the daemon is gone the same export goes through and leaves repo.lock in place.
    let again = try fixture.run(["export", "kubo", "--repo", repo])
    #expect(again.status == 0)
    #expect(tree(repo) == ["config", "repo.lock"])
  }

  @Test func absentLockFileIsNotCreated() throws {
    let fixture = try ExportFixture()
    let repo = try repository(fixture)
    #expect(try fixture.run(["export", "kubo", "--repo", repo]).status == 0)
    #expect(tree(repo) == ["config"])
  }

  @Test func keyFileForIpfsKeyImport() throws {
    let fixture = try ExportFixture()
    let path = fixture.path("ipfs.key")
    let run = try fixture.run(["export", "kubo", "--key-file", path])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Wrote \(path): the libp2p private key of \(Golden.peerID) (mode 0600)
        Import it with: ipfs key import NAME \(path)   (NAME must not be 'self')
        Then delete \(path): it holds the private key unencrypted.

        """)
    // PrivateKey { Type: Ed25519 (1), Data: seed ‖ public key }: 08 01 12 40 ‖ 64 bytes.
    let expected = [UInt8](hex: "08011240" + Golden.ipfsPrivateKey + Golden.ipfsPublicKey)
    #expect(contents(path) == expected)
    #expect(contents(path).map { Data($0).base64EncodedString() } == Golden.privKey)
    #expect(fileMode(path) == 0o600)

    let again = try fixture.run(["export", "kubo", "--key-file", path])
    #expect(again.status == 0)
    #expect(
      again.stdout == "\(path) already holds the IPFS key of \(Golden.peerID); nothing to do\n")
  }

  @Test func keyFileOfAnotherIdentity() throws {
    let fixture = try ExportFixture()
    let path = fixture.path("ipfs.key")
    #expect(try fixture.run(["export", "kubo", "--key-file", path], other: true).status == 0)
    let before = contents(path)
    let refused = try fixture.run(["export", "kubo", "--key-file", path])
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "freedom-keys: error: \(path) holds the key of \(Golden.otherPeerID), not the "
        + "mnemonic's \(Golden.peerID); nothing was written (--force replaces it)\n")
    #expect(contents(path) == before)
    #expect(try fixture.run(["export", "kubo", "--key-file", path, "--force"]).status == 0)
    #expect(contents(path).map { Data($0).base64EncodedString() } == Golden.privKey)
  }

  @Test(arguments: [
    ([] as [String], "give --repo <dir> or --key-file <path>"),
    (["--repo", "a", "--key-file", "b"], "--repo and --key-file cannot be combined"),
  ])
  func oneTargetIsRequired(arguments: [String], message: String) throws {
    let run = try CLI.run(["export", "kubo"] + arguments + ["--mnemonic-file", "-"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr == "freedom-keys: error: \(message) (see 'freedom-keys export kubo --help')\n")
  }
}

extension Array where Element == UInt8 {
  /// Bytes from hex that must be valid (test data only).
  init(hex: String) {
    self = stride(from: 0, to: hex.count, by: 2).map {
      let start = hex.index(hex.startIndex, offsetBy: $0)
      return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
    }
  }
}
